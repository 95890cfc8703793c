"""GW:s brott's action bar: what a seat must do now, what the others are doing, the
buttons that finish a step, and how the game ended. Read from one drawn snapshot.

The bar's buttons submit the forms the controls draw (``templates/controls.html``),
found by their ids, so they work without scripts and post the same input.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext

from lawmaster.host.ui.seat import BarButton, Result
from lawmaster.rules.gw_brott.cards import gw_faces

from .know import who_is

#: The ids of the controls' forms the bar's buttons submit.
GW_ROLL_FORM = "gw-roll-form"
GW_MOVE_FORM = "gw-move-form"
DICE_FORM = "gw-dice-form"
RESET_FORM = "gw-reset-form"
PASS_FORM = "gw-pass-form"
INFORM_FORM = "gw-inform-form"


def _prompts(snapshot: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """This seat's prompts by kind (the first of each)."""
    found: dict[str, Mapping[str, Any]] = {}
    for p in snapshot.get("prompts") or []:
        if isinstance(p, Mapping) and isinstance(p.get("kind"), str):
            found.setdefault(str(p["kind"]), p)
    return found


def _act(prompt: Mapping[str, Any]) -> object:
    action = prompt.get("action")
    return action.get("act") if isinstance(action, Mapping) else prompt.get("act")


def step(snapshot: Mapping[str, Any]) -> str:
    """What this seat must do now, after "Your turn:"."""
    asked = _prompts(snapshot)
    dice = asked.get("enter_dice")
    if dice is not None and _act(dice) == "gw_roll":
        if "trump" in asked:
            return _("roll your die and tap the number, or play a trump")
        return _("roll your die and tap the number")
    if "gw_move" in asked:
        move = asked["gw_move"]
        steps = int(move.get("steps") or 0)
        if move.get("on_board"):
            return ngettext(
                "slide your magnet %(num)d step on the board",
                "slide your magnet %(num)d steps on the board",
                steps,
            )
        if move.get("exactly"):
            return ngettext(
                "move exactly %(num)d step: tap your path on the board",
                "move exactly %(num)d steps: tap your path on the board",
                steps,
            )
        return ngettext(
            "move up to %(num)d step: tap your path on the board",
            "move up to %(num)d steps: tap your path on the board",
            steps,
        )
    if "inform" in asked:
        return _("choose whom you inform on")
    if "move_piece" in asked:
        return _("move your piece on the board")
    if "choose_die" in asked:
        if asked["choose_die"].get("on_board"):
            return _("say which die you use, then move your piece")
        return _("tap where your piece goes on the board")
    reset = asked.get("reset")
    if reset is not None and reset.get("required"):
        return _("no dice left: reset the dice")
    if dice is not None:
        count = int(dice.get("count") or 1)
        if dice.get("reroll"):
            return ngettext(
                "roll the die not showing GW again, or move",
                "roll the %(num)d dice not showing GW again, or move",
                count,
            )
        return ngettext(
            "roll the die not showing GW and tap its face",
            "roll the %(num)d dice not showing GW and tap their faces",
            count,
        )
    if "pass" in asked:
        return _("you cannot move: pass")
    if "destroy_evidence" in asked:
        return _("hand in your evidence")
    return _("make your move")


def doing(snapshot: Mapping[str, Any], seat: str) -> str:
    """What ``seat`` is doing now, as every seat may know it (the phase is public)."""
    view = snapshot.get("view")
    phase = view.get("phase") if isinstance(view, Mapping) else None
    who = who_is(seat)
    if seat == "gw":
        if phase == "gw":
            return _("GW is rolling")
        return _("GW is moving")
    if phase == "criminal":
        return _("%(who)s is rolling the dice", who=who)
    if phase == "rolled":
        return _("%(who)s is moving", who=who)
    if phase == "informing":
        return _("%(who)s is choosing whom to inform on", who=who)
    return _("%(who)s is to act", who=who)


def _value(**fields: Any) -> str:
    return json.dumps(fields, separators=(",", ":"))


def buttons(snapshot: Mapping[str, Any]) -> list[BarButton]:
    """The buttons that finish this seat's step (they submit the controls' forms)."""
    asked = _prompts(snapshot)
    dice = asked.get("enter_dice")
    if dice is not None and _act(dice) == "gw_roll":
        faces = [f for f in dice.get("faces") or gw_faces() if isinstance(f, int)]
        return [
            BarButton(_("Die %(face)s", face=f), GW_ROLL_FORM, _value(face=f), face=f)
            for f in faces
        ]
    if "gw_move" in asked:
        move = asked["gw_move"]
        found = [BarButton(_("Move"), GW_MOVE_FORM)]
        if not move.get("exactly"):
            found.append(BarButton(_("Stay put"), GW_MOVE_FORM, _value(path=[]), secondary=True))
        return found
    if "inform" in asked:
        targets = asked["inform"].get("targets") or []
        return [BarButton(who_is(t), INFORM_FORM, _value(target=t)) for t in targets]
    found = []
    reset = asked.get("reset")
    if dice is not None and "choose_die" not in asked:
        found.append(BarButton(_("Enter dice"), DICE_FORM))
    if reset is not None:
        label = _("Reset the dice")
        found.append(BarButton(label, RESET_FORM, secondary=not reset.get("required")))
    if "pass" in asked:
        found.append(BarButton(_("Pass"), PASS_FORM, secondary=True))
    return found


def result(snapshot: Mapping[str, Any]) -> Result | None:
    """The winner, why, and what each side had left at the end."""
    view = snapshot.get("view")
    if not snapshot.get("over") or not isinstance(view, Mapping):
        return None
    winner = view.get("winner")
    criminals = view.get("criminals") if isinstance(view.get("criminals"), Mapping) else {}
    cuffs = view.get("handcuffs_left")
    rows: list[tuple[str, str, str]] = []
    if isinstance(cuffs, int):
        rows.append(
            ("gw", "GW", ngettext("%(num)d handcuff left", "%(num)d handcuffs left", cuffs))
        )
    for piece, info in criminals.items():
        if not isinstance(info, Mapping):
            continue
        left = int(info.get("evidence_left") or 0)
        words = ngettext("%(num)d evidence card left", "%(num)d evidence cards left", left)
        if info.get("out"):
            words = _("out of the game")
        elif info.get("in_jail"):
            words = _("%(left)s, in jail", left=words)
        rows.append((str(piece), who_is(piece), words))
    if winner == "gw":
        why = _("GW has used every handcuff: justice prevails.")
    elif isinstance(winner, str) and winner:
        why = _("%(who)s got rid of the last evidence card.", who=who_is(winner))
    else:
        why = ""
    winners = (str(winner),) if isinstance(winner, str) and winner else ()
    return Result(winners=winners, why=why, scores=rows, score_word=_("Left at the end"))
