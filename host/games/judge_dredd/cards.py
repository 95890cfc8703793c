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

from lawmaster.rules.core import IllegalAction
from lawmaster.rules.core.boarddata import load_data

from .words import book

#: The type's printed name, for the card's top line.
KIND = {
    "combat": "Combat",
    "movement": "Movement",
    "alert": "Alert",
    "special": "Special",
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
        return _signed(n), f"{_signed(n)} to the Judge's strength"
    if "perp" in effect:
        n = int(effect["perp"])
        return f"Perp {_signed(n)}", f"{_signed(n)} to the Perp's strength"
    if "judge_dice" in effect:
        n = int(effect["judge_dice"])
        return f"+{n} die", f"the Judge rolls {n} more die"
    if "perp_dice" in effect:
        n = int(effect["perp_dice"])
        return f"Perp +{n} die", f"the Perp rolls {n} more die"
    if "move_delta" in effect:
        n = int(effect["move_delta"])
        return f"{_signed(n)} move", f"{_signed(n)} Sector(s) of movement"
    if effect.get("move_half"):
        return "\u00bd move", "movement is halved"
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
        kind=KIND.get(card.type, "Action"),
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
        kind="Perp" if is_perp else "Crime",
        colour="perp" if is_perp else "crime",
        badge=str(points),
        badge_words=f"worth {points}",
        text="",
    )


def is_action(card_id: object) -> bool:
    return isinstance(card_id, str) and card_id in book().actions


def fights(card_id: str) -> bool:
    """Whether a card may go into a combat (every Action card but an Alert)."""
    return is_action(card_id) and book().actions[card_id].type != "alert"
