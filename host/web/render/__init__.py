"""Drawing a snapshot through its game's seat pages (:class:`~lawmaster.host.ui.SeatUI`).

Every function reads only the snapshot given. A snapshot of a game this table
does not know (an old replay, say) is drawn by the generic drawing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from lawmaster.host import games
from lawmaster.host.ui import GENERIC, SeatUI


def ui_for(game: object) -> SeatUI:
    """The seat pages of a game, or the generic drawing."""
    found = games.games().get(game) if isinstance(game, str) else None
    return GENERIC if found is None else found.ui


def title(game: object) -> str:
    """A game's name as players read it."""
    found = games.games().get(game) if isinstance(game, str) else None
    if found is not None:
        return found.title
    return str(game or "Lawmaster").replace("-", " ").capitalize()


def seat_name(game: object, seat: object) -> str:
    """A seat as its game's players name it (GW:s brott's "gw" is "GW")."""
    return ui_for(game).seat_name(str(seat))


def seat_names(game: object, seats: object) -> str:
    """Several seats as players name them, comma-separated."""
    if not isinstance(seats, list | tuple):
        return ""
    return ", ".join(seat_name(game, s) for s in seats)


def board(snapshot: Mapping[str, Any]) -> Markup:
    """The board of a snapshot."""
    return ui_for(snapshot.get("game")).board(snapshot)


def extras(snapshot: Mapping[str, Any]) -> Markup:
    """The game's extra panels for a snapshot."""
    return ui_for(snapshot.get("game")).extras(snapshot)


def controls(snapshot: Mapping[str, Any], token: str, digital_dice: bool) -> Markup:
    """The game's own input forms for a seat, built from its view (empty if none)."""
    return ui_for(snapshot.get("game")).controls(snapshot, token, digital_dice)


def covered_prompts(game: object) -> frozenset[str]:
    """Prompt kinds the game's controls already ask for."""
    return ui_for(game).covered


def describe(game: object, event: Mapping[str, Any]) -> str:
    """One log line for an event of ``game``."""
    if not isinstance(event, Mapping):
        return str(event)
    return ui_for(game).describe(event)


def side(snapshot: Mapping[str, Any], asked: str | None) -> str | None:
    """The side of the board a page is drawn from (``asked``: its ``?side=``)."""
    ui = ui_for(snapshot.get("game"))
    return ui.side(snapshot, asked if asked in ui.sides else None)
