"""Judge Dredd cards as a player sees them: the printed name, the coloured bar of its type,
the badge with its number, and its effect text.

The rulebook gives the colours ("Combat (red), Movement (green), Alert (yellow) and
Special (blue)", the bar across the top of the card) and says the number sits in a badge
in the top right corner. Names, numbers and texts come from the shipped card set, which
marks the cards the rulebook does not print as a reconstruction.

>>> face = action_face("fergee-1")
>>> face.name, face.kind, face.badge
('Fergee', 'Combat', '+1 die')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext

from lawmaster.rules.core import IllegalAction
from lawmaster.rules.core.boarddata import load_data

from .words import book

#: The type's printed name, for the card's top line.
KIND = {
    "combat": _l("Combat"),
    "movement": _l("Movement"),
    "alert": _l("Alert"),
    "special": _l("Special"),
}


@dataclass(frozen=True)
class Face:
    """What a card shows: ``colour`` is a CSS class suffix (its type, or perp/crime)."""

    id: str
    name: str
    kind: str
    colour: str
    badge: str
    badge_words: str
    text: str
    alt_text: str = ""
    shield: int | None = None


@lru_cache(maxsize=2)
def _texts() -> Mapping[str, Mapping[str, Any]]:
    """Each Action card's raw entry (its effect text is not part of the engine's card)."""
    try:
        data = load_data("lawmaster.rules.judge_dredd", "cards-standard")
    except IllegalAction:
        return {}
    return {a["id"]: a for a in data.get("actions") or [] if isinstance(a, Mapping)}


def _signed(n: int) -> str:
    # A true minus sign: the badge is read at arm's length.
    return f"+{n}" if n >= 0 else f"\u2212{-n}"


def _badge(effect: Mapping[str, Any]) -> tuple[str, str]:
    """The badge text and the same in words (for screen readers and the title)."""
    if "judge" in effect:
        n = int(effect["judge"])
        return _signed(n), _("%(n)s to the Judge's strength", n=_signed(n))
    if "perp" in effect:
        n = int(effect["perp"])
        return _("Perp %(n)s", n=_signed(n)), _("%(n)s to the Perp's strength", n=_signed(n))
    if "judge_dice" in effect:
        n = int(effect["judge_dice"])
        return (
            ngettext("+%(num)d die", "+%(num)d dice", n),
            ngettext("the Judge rolls %(num)d more die", "the Judge rolls %(num)d more dice", n),
        )
    if "perp_dice" in effect:
        n = int(effect["perp_dice"])
        return (
            ngettext("Perp +%(num)d die", "Perp +%(num)d dice", n),
            ngettext("the Perp rolls %(num)d more die", "the Perp rolls %(num)d more dice", n),
        )
    if "move_delta" in effect:
        n = int(effect["move_delta"])
        return _("%(n)s move", n=_signed(n)), _("%(n)s Sectors of movement", n=_signed(n))
    if effect.get("move_half"):
        return _("\u00bd move"), _("movement is halved")
    return "", ""


def action_face(card_id: str) -> Face:
    """The face of one Action card (by the id the engine uses)."""
    card = book().action(card_id)
    raw = _texts().get(card_id, {})
    badge, words = _badge(card.effect)
    alt = card.alt or {}
    return Face(
        id=card.id,
        name=card.name,
        kind=str(KIND.get(card.type, _("Action"))),
        colour=card.type,
        badge=badge,
        badge_words=words,
        text=str(raw.get("text") or ""),
        alt_text=str(alt.get("text") or ""),
        shield=card.shield,
    )


def scored_face(card_id: str) -> Face:
    """The face of a Perp or Crime card in a score pile (its value in the badge)."""
    cards = book()
    is_perp = card_id in cards.perps
    points = cards.value(card_id)
    return Face(
        id=card_id,
        name=cards.names.get(card_id, card_id),
        kind=_("Perp") if is_perp else _("Crime"),
        colour="perp" if is_perp else "crime",
        badge=str(points),
        badge_words=_("worth %(points)s", points=points),
        text="",
    )


def is_action(card_id: object) -> bool:
    return isinstance(card_id, str) and card_id in book().actions


def fights(card_id: str) -> bool:
    """Whether a card may go into a combat (every Action card but an Alert)."""
    return is_action(card_id) and book().actions[card_id].type != "alert"
