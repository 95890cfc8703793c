"""Judge Dredd's action bar: what a Judge must do now, what the others are doing, the
buttons that finish a step, and the final scores. Read from one drawn snapshot.

The buttons submit the forms the controls draw (``templates/controls.html`` and the
shared prompt forms), found by their ids, so they work without scripts.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext

from lawmaster.host.ui.seat import BarButton, Result

from . import words

#: The controls' form of an asked act (``controls.html``: ``jd-<act>-form``).
FORM = "jd-{act}-form"
#: The shared prompt template's form of a referee prompt kind.
PROMPT_FORM = "prompt-{kind}-form"


def _asked(snapshot: Mapping[str, Any]) -> list[str]:
    view = snapshot.get("view")
    asked = view.get("asked") if isinstance(view, Mapping) else None
    return [str(a.get("act")) for a in asked or [] if isinstance(a, Mapping)]


def _kinds(snapshot: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    found: dict[str, Mapping[str, Any]] = {}
    for p in snapshot.get("prompts") or []:
        if isinstance(p, Mapping) and isinstance(p.get("kind"), str):
            found.setdefault(str(p["kind"]), p)
    return found


def step(snapshot: Mapping[str, Any]) -> str:
    """What this Judge must do now, after "Your turn:"."""
    acts = _asked(snapshot)
    kinds = _kinds(snapshot)
    if "roll" in acts and "enter_dice" in kinds:
        return _("roll the dice and tap their faces")
    if "move" in acts:
        return _("tap the Sector to move to on the map")
    if "place_judge" in acts:
        return _("tap an empty Starting Sector on the map")
    if "perp_escape" in acts:
        return _("tap where the escaping Perp goes on the map")
    if "commit" in acts:
        return _("add cards to the combat, then reveal them")
    if "reveal" in acts:
        return _("reveal the cards")
    if "accept" in acts:
        return _("accept, or cancel it with a card")
    if "arrest" in acts:
        return _("say who arrests together")
    if "reveal_perp" in acts:
        return _("turn up the Perp and tap it on the reader")
    if "place_crime" in acts:
        return _("turn up a Sector card and tap it on the reader")
    if "draw" in acts:
        return _("draw your Action cards and tap them on your reader")
    if "recycle" in acts:
        return _("choose the cards you recycle")
    if "end_movement" in acts:
        return _("start the arrest phase")
    if "next_arrest" in acts:
        return _("start the next arrest")
    if "internal_affairs" in acts:
        return _("look at another Judge's hand, or not")
    if "discard_sector" in acts:
        return _("discard the top Sector card on the reader")
    return _("make your move")


def doing(snapshot: Mapping[str, Any], seat: str) -> str:
    """What ``seat`` is doing now, from the public part of this seat's view."""
    view = snapshot.get("view")
    if not isinstance(view, Mapping):
        return _("%(judge)s is to act", judge=words.judge(seat))
    who = words.judge(seat)
    phase = view.get("phase")
    pending = view.get("pending") if isinstance(view.get("pending"), Mapping) else {}
    combat = view.get("combat") if isinstance(view.get("combat"), Mapping) else None
    judge = (view.get("judges") or {}).get(seat) or {}
    if phase == "setup":
        if isinstance(judge, Mapping) and not judge.get("sector"):
            return _("%(judge)s is placing their Judge", judge=who)
        return _("%(judge)s is placing the Crimes", judge=who)
    kind = pending.get("kind")
    if kind in ("barney", "boing"):
        return _("%(judge)s is answering the %(card)s", judge=who, card=kind.capitalize())
    if kind == "reveal_perp":
        return _("%(judge)s is turning up the Perp", judge=who)
    if kind == "declare":
        return _("%(judge)s is saying who arrests together", judge=who)
    if kind == "escape":
        return _("%(judge)s is moving the escaping Perp", judge=who)
    if kind == "robodoc":
        return _("%(judge)s may play Robodoc", judge=who)
    if combat is not None:
        if combat.get("revealed"):
            return _("%(judge)s is rolling the dice", judge=who)
        return _("%(judge)s is adding cards to the combat", judge=who)
    if phase == "movement":
        return _("%(judge)s is moving", judge=who)
    if phase == "refill":
        return _("%(judge)s is refilling", judge=who)
    if phase == "arrest":
        return _("%(judge)s is starting the next arrest", judge=who)
    return _("%(judge)s is to act", judge=who)


def buttons(snapshot: Mapping[str, Any]) -> list[BarButton]:
    """The buttons that finish this Judge's step."""
    acts = _asked(snapshot)
    kinds = _kinds(snapshot)
    if "roll" in acts and "enter_dice" in kinds:
        return [BarButton(_("Enter dice"), PROMPT_FORM.format(kind="enter_dice"))]
    found = []
    if "reveal" in acts:
        found.append(BarButton(_("Reveal"), FORM.format(act="reveal")))
    if "end_movement" in acts:
        found.append(BarButton(_("Start the arrest phase"), FORM.format(act="end_movement")))
    if "next_arrest" in acts:
        found.append(BarButton(_("Start the next arrest"), FORM.format(act="next_arrest")))
    if "accept" in acts:
        found.append(
            BarButton(_("Accept"), FORM.format(act="accept"), json.dumps({}, separators=(",", ":")))
        )
    return found


def result(snapshot: Mapping[str, Any]) -> Result | None:
    """The winner and every Judge's final score (the view's ``scores`` at the end)."""
    view = snapshot.get("view")
    if not snapshot.get("over") or not isinstance(view, Mapping):
        return None
    scores = view.get("scores") if isinstance(view.get("scores"), Mapping) else {}
    order = sorted(scores.items(), key=lambda kv: -int(kv[1] or 0))
    rows = [
        (str(s), words.judge(s), ngettext("%(num)d point", "%(num)d points", int(n or 0)))
        for s, n in order
    ]
    winner = view.get("winner")
    winners = (str(winner),) if isinstance(winner, str) and winner else ()
    why = ""
    if winners and scores:
        why = ngettext(
            "%(judge)s scored the most: %(num)d point.",
            "%(judge)s scored the most: %(num)d points.",
            int(scores.get(winner) or 0),
            judge=words.judge(winner),
        )
    return Result(winners=winners, why=why, scores=rows, score_word=_("Points"))
