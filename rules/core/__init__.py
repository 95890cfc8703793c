"""What every engine shares: errors, the JSON conventions, board data, replay.

An engine is an :class:`Engine` subclass registered under its game name
(``"gw-brott"``, ``"judge-dredd"``, ``"unamerican-graffiti"``). Its states are
opaque to everyone else; actions and events are plain JSON-serialisable dicts.
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

__all__ = [
    "Action",
    "Engine",
    "Event",
    "IllegalAction",
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
