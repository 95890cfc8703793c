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


def N_(text: str) -> str:
    """Marks a text of the shipped card data for the catalogue (see ``CARD_TEXTS``)."""
    return text


#: The shipped Action cards' effect texts (``rules/judge_dredd/data/cards-standard.json``),
#: for the catalogue: a card's text is said in the page's language; a text edited to
#: match one's own copy (the data file invites it) is shown as written. Card names stay
#: as printed (an English game with English cards).
CARD_TEXTS = (
    N_("Robo Dogs track the Perp down."),
    N_("A quick reflex shot."),
    N_("A Stumm Gas grenade floors the Perp."),
    N_("Fergee, the slugger from the Old Ohio River, fights for justice."),
    N_("A high-explosive round."),
    N_("Crack some heads."),
    N_("The Perp is stuck fast."),
    N_("Sabotage: the Judge steps in an ankle trap."),
    N_("Your anti-dazzle visor gives you the edge."),
    N_("Sabotage: a juve gang jumps the Judge."),
    N_("The Perp's gang arrives."),
    N_("The Perp gets a second chance: roll the Perp die again."),
    N_("Sabotage: a dazzler blinds the Judge."),
    N_("Move up to 2 more Sectors."),
    N_("Move up to 1 more Sector."),
    N_("Move 1 Sector less."),
    N_("Movement is halved."),
    N_("You spot the futsie in time. Ignore the effect of a BOING! card."),
    N_("New orders: go directly to a Starting Sector."),
    N_("Anderson deals with your new orders. Ignore the effect of a Barney card."),
    N_(
        "Place the alien token in any sector adjacent to the alien zoo. If it's already "
        "on the board, move it up to two sectors instead. Judges in the alien's sector "
        "cannot leave, and must fight it on their turn. The alien wins ties."
    ),
    N_("Lock off one Sector for one round."),
    N_("No Judge or Perp may cross the river for one round."),
    N_("Add the top Crime card face-up to the Sector of a Perp on the board."),
    N_("Move a Perp up to two Sectors; or cancel a BOING!"),
    N_(
        "Some futties do a Boing from the top of a tower block. Unless you play a Tip-Off"
        " card, you are KO'd."
    ),
    N_("Play when you are KO'd: avoid the KO and move to an adjacent Sector."),
    N_("Two Judges must fight each other at once."),
    N_("Play in combat: the Perp has an escape route (+3 to the Perp)."),
    N_("Play in combat: -3 to the Judge."),
)


def _said(text: object) -> str:
    """A card text in the page's language (as written when it is not catalogued)."""
    raw = str(text or "")
    return _(raw) if raw else raw


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
        text=_said(raw.get("text")),
        alt_text=_said(alt.get("text")),
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
