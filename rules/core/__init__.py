"""What every engine shares: errors, the JSON conventions, board data, replay.

An engine is an :class:`Engine` subclass registered under its game name
(``"gw-brott"``, ``"judge-dredd"``, ``"unamerican-graffiti"``). Its states are
read by no one else; actions and events are JSON objects (:data:`Action`,
:data:`Event`, with values of :data:`JsonValue`).
"""

from .actions import (
    Action,
    Event,
    events_for,
    field,
    optional_field,
    public,
    to_seats,
    visible_to,
)
from .boarddata import load_board_data
from .engine import Engine, Outcome, engine_for, engine_names
from .errors import IllegalAction
from .jsontypes import JsonObject, JsonValue

__all__ = [
    "Action",
    "Engine",
    "Event",
    "IllegalAction",
    "JsonObject",
    "JsonValue",
    "Outcome",
    "engine_for",
    "engine_names",
    "events_for",
    "field",
    "load_board_data",
    "optional_field",
    "public",
    "to_seats",
    "visible_to",
]
