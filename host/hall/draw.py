"""Drawing one table's tile from its published state, in the page's language.

The board is drawn by the game's own seat pages (``Game.ui.board``) from the
public view the table published, as the table screen draws it; the last events
are said by the game's own sentences (``Game.ui.describe``). A game this hall
does not have installed gets its name and scores, and no picture. Every function
reads only the payload it is given, and a payload it cannot draw is left out
rather than breaking the page.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from flask_babel import gettext as _
from markupsafe import Markup

from lawmaster.host import games

log = logging.getLogger(__name__)

#: Events a tile lists, newest first.
LINES = 3


def _game(slug: object) -> Any:
    return games.games().get(slug) if isinstance(slug, str) else None


def board(state: Mapping[str, Any] | None) -> Markup:
    """The public board as the table screen draws it (empty when it cannot be drawn)."""
    if not state or not isinstance(state.get("view"), Mapping):
        return Markup("")
    game = _game(state.get("game"))
    if game is None:
        return Markup("")
    snapshot = {
        "seat": "table",
        "game": game.slug,
        "view": state["view"],
        "log": list(state.get("recent") or []),
        "move": state.get("move"),
        "to_act": list(state.get("to_act") or []),
        "over": bool(state.get("over")),
        "status": state.get("status") or {},
        "prompts": [],
    }
    try:
        return Markup(game.ui.board(snapshot))
    except Exception:  # noqa: BLE001 - one odd payload must not take the hall's page down
        log.exception("cannot draw the board of %s", state.get("table"))
        return Markup("")


def lines(state: Mapping[str, Any] | None, count: int = LINES) -> list[str]:
    """The last public events as the game says them, newest first."""
    if not state:
        return []
    game = _game(state.get("game"))
    recent = [e for e in state.get("recent") or [] if isinstance(e, Mapping)]
    said = []
    for event in reversed(recent[-count:]):
        try:
            said.append(str(game.ui.describe(event)) if game else str(event.get("type", "")))
        except Exception:  # noqa: BLE001 - as above: a line left out, not a broken page
            log.exception("cannot say an event of %s", state.get("table"))
    return said


def score(player: Mapping[str, Any]) -> str:
    """A player's score as a tile shows it: ``2/5``, ``7``, or nothing."""
    value = player.get("score")
    if value is None:
        return ""
    of = player.get("of")
    return f"{value}/{of}" if of is not None else str(value)


def score_word(what: object) -> str:
    """What a score counts, in the page's language (``SCORE_WORDS`` of the plugin seam)."""
    words: dict[str, str] = {
        "evidence": _("evidence"),
        "handcuffs": _("handcuffs"),
        "arrests": _("arrests"),
        "points": _("points"),
        "prestige": _("prestige"),
    }
    return words.get(str(what), "")


def names(seats: Any, players: Any) -> str:
    """Seats as players name them, from the state's player list."""
    if not isinstance(seats, list):
        return ""
    known = {
        p.get("seat"): p.get("name") for p in players or [] if isinstance(p, Mapping)
    }
    return ", ".join(str(known.get(s) or s) for s in seats)


def winner(payload: Mapping[str, Any]) -> str:
    """Who won, in words: a name, or a draw."""
    found = payload.get("winner")
    if found == "draw":
        return str(_("a draw"))
    name = payload.get("winner_name") or found
    return str(name) if name else ""
