"""Drawing a snapshot through its game's seat pages (:class:`~lawmaster.host.ui.SeatUI`).

Every function reads only the snapshot given. A snapshot of a game this table
does not know (an old replay, say) is drawn by the generic drawing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext
from markupsafe import Markup

from lawmaster.host import games
from lawmaster.host.ui import GENERIC, SeatUI
from lawmaster.host.ui.look import look_of, looks


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


def table_look(table: Any) -> dict[str, dict[str, str]]:
    """Every seat's look at ``table`` (colours chosen at setup, marks, names): public."""
    ui = ui_for(getattr(table, "game", None))
    settings = getattr(table, "settings", None)
    chosen = settings.get("colours") if isinstance(settings, Mapping) else None
    seats = [str(s) for s in table.seats()]
    return {seat: look.as_dict() for seat, look in looks(ui, seats, chosen).items()}


def drawn(snapshot: Mapping[str, Any], look: Mapping[str, Any] | None) -> dict[str, Any]:
    """The snapshot a page draws: the seat's own snapshot and the table's public look."""
    found = dict(snapshot)
    found["look"] = (
        dict(look) if look is not None else look_of(snapshot, ui_for(snapshot.get("game")))
    )
    return found


def bar(snapshot: Mapping[str, Any]) -> dict[str, Any]:
    """What the action bar says on a page of ``snapshot`` (drawn, with its look).

    On a seat's page: the seat by name and colour, then "Your turn: …" with the
    buttons that finish the step, or who is doing what. On the table screen: who is
    doing what, large. At the end: the winner by name ("You won" on the winner's page)
    and the final scores.
    """
    ui = ui_for(snapshot.get("game"))
    look = snapshot.get("look") or {}
    seat = str(snapshot.get("seat") or "")
    me = look.get(seat)
    to_act = [str(s) for s in snapshot.get("to_act") or []]
    found: dict[str, Any] = {"me": me, "buttons": [], "actors": [], "result": None}
    if snapshot.get("over"):
        result = ui.result(snapshot)
        found["kind"] = "over"
        found["result"] = _result(ui, result, seat, look) if result is not None else None
        found["text"] = found["result"]["headline"] if found["result"] else _("The game is over.")
        return found
    if me is not None and seat in to_act:
        found["kind"] = "you"
        step = ui.step(snapshot)
        found["text"] = _("Your turn: %(step)s", step=step) if step else _("Your turn")
        found["buttons"] = ui.bar_buttons(snapshot)
        others = [s for s in to_act if s != seat]
    else:
        found["kind"] = "table" if me is None else "wait"
        others = to_act
        found["text"] = ""
    found["actors"] = [
        {
            "look": look.get(s) or {"mark": ui.mark(s), "fill": "#546e7a", "ink": "#fff"},
            "text": ui.doing(snapshot, s),
        }
        for s in others
    ]
    if not to_act and found["kind"] != "you":
        found["text"] = _("Waiting for the table.")
    return found


def _result(ui: SeatUI, result: Any, seat: str, look: Mapping[str, Any]) -> dict[str, Any]:
    winners = [str(w) for w in result.winners]
    names = [ui.seat_name(w) for w in winners]
    if result.draw:
        headline = _("The game is a draw.")
    elif seat in winners:
        headline = _("You won!")
    elif names:
        headline = ngettext("%(who)s won!", "%(who)s won!", len(names), who=_and(names))
    else:
        headline = _("The game is over.")
    return {
        "headline": headline,
        "won": seat in winners,
        "winners": [look.get(w) for w in winners if look.get(w)],
        "why": result.why,
        "scores": [
            {
                "look": look.get(s) if s else None,
                "name": name,
                "score": score,
                "winner": s in winners,
            }
            for s, name, score in result.scores
        ],
        "score_word": result.score_word,
    }


def _and(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return str(_("%(some)s and %(last)s", some=", ".join(names[:-1]), last=names[-1]))
