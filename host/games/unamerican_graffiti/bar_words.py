"""Unamerican Graffiti's action bar: what a scrawler must do now, what the other is
doing, the buttons that finish a step, and the final prestige. From one drawn snapshot.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from flask_babel import gettext as _

from lawmaster.host.ui.seat import BarButton, Result

from . import know

DESTINATION_FORM = "graffiti-move-form"
DICE_FORM = "graffiti-dice-form"


def _kinds(snapshot: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    found: dict[str, Mapping[str, Any]] = {}
    for p in snapshot.get("prompts") or []:
        if isinstance(p, Mapping) and isinstance(p.get("kind"), str):
            found.setdefault(str(p["kind"]), p)
    return found


def step(snapshot: Mapping[str, Any]) -> str:
    kinds = _kinds(snapshot)
    if "choose_destination" in kinds:
        return _("tap a hex on the map to move there")
    if "choose_landmark" in kinds:
        return _("tap a free landmark for your new scrawler")
    if "enter_dice" in kinds:
        return _("roll for the Judges and tap the faces")
    if "move_judge" in kinds:
        return _("move each Judge rolled: tap where it goes")
    return _("make your move")


def doing(snapshot: Mapping[str, Any], seat: str) -> str:
    view = snapshot.get("view")
    phase = view.get("phase") if isinstance(view, Mapping) else None
    who = know.player_name(seat)
    return {
        "move": _("%(who)s is moving", who=who),
        "reenter": _("%(who)s is placing a new scrawler", who=who),
        "roll": _("%(who)s is rolling for the Judges", who=who),
        "judges": _("%(who)s is moving the Judges", who=who),
    }.get(str(phase), _("%(who)s is to act", who=who))


def buttons(snapshot: Mapping[str, Any]) -> list[BarButton]:
    kinds = _kinds(snapshot)
    if "enter_dice" in kinds:
        return [BarButton(_("Enter dice"), DICE_FORM)]
    if "choose_destination" in kinds:
        options = kinds["choose_destination"].get("options") or []
        if any(isinstance(o, Mapping) and not o.get("path") for o in options):
            stay = json.dumps({"path": []}, separators=(",", ":"))
            return [BarButton(_("Stay where you are"), DESTINATION_FORM, stay, secondary=True)]
    return []


def result(snapshot: Mapping[str, Any]) -> Result | None:
    """The winner (the best single colour) and each player's best colour's prestige."""
    view = snapshot.get("view")
    if not snapshot.get("over") or not isinstance(view, Mapping):
        return None
    best: dict[str, tuple[int, str]] = {}
    for colour, info in (view.get("colours") or {}).items():
        if not isinstance(info, Mapping):
            continue
        score = info.get("final")
        score = info.get("prestige") if score is None else score
        player = str(info.get("player"))
        if isinstance(score, int) and score >= best.get(player, (-1, ""))[0]:
            best[player] = (score, str(colour))
    rows = [
        (
            player,
            know.player_name(player),
            _("%(score)s (%(colour)s)", score=score, colour=know.colour_name(colour)),
        )
        for player, (score, colour) in sorted(best.items(), key=lambda kv: -kv[1][0])
    ]
    winner = view.get("winner")
    if winner == "draw":
        return Result(draw=True, scores=rows, score_word=_("Best colour's prestige"))
    winners = (str(winner),) if isinstance(winner, str) and winner else ()
    why = _("The best single colour wins.") if winners else ""
    return Result(winners=winners, why=why, scores=rows, score_word=_("Best colour's prestige"))
