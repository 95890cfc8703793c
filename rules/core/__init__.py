"""What every engine shares: errors, the JSON conventions, board data, steps on a map, replay.

An engine is an :class:`Engine` subclass named by its game (``"gw-brott"``…);
the host finds installed games, and so their engines, through its registry
(:mod:`lawmaster.host.games`). An engine's states are read by no one else;
actions and events are JSON objects (:data:`Action`, :data:`Event`, with values
of :data:`JsonValue`).
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
from .engine import Engine, EngineLookup, Outcome, lookup
from .errors import IllegalAction
from .graph import steps_from
from .jsontypes import JsonObject, JsonValue

__all__ = [
    "Action",
    "Engine",
    "EngineLookup",
    "Event",
    "IllegalAction",
    "JsonObject",
    "JsonValue",
    "Outcome",
    "events_for",
    "field",
    "load_board_data",
    "lookup",
    "optional_field",
    "public",
    "steps_from",
    "to_seats",
    "visible_to",
]
