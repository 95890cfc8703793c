"""The card sets: Perps, Crimes, Sector cards and Action cards, read from data.

Every physical card has a stable id; :func:`card_list` is what the NFC card
registry imports to map tags onto cards. The shipped set is partly a
reconstruction (see ``data/cards-standard.json``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from lawmaster.rules.core import IllegalAction
from lawmaster.rules.core.boarddata import load_data

ACTION_TYPES = ("combat", "movement", "alert", "special")
# Effect keys that make a card count in a combat whoever plays it.
COMBAT_KEYS = ("judge", "perp", "judge_dice", "perp_dice")


@dataclass(frozen=True)
class ActionCard:
    """One Action card: its type, main effect and alternative option (or None)."""

    id: str
    name: str
    type: str
    effect: Mapping[str, Any] = field(hash=False)
    alt: Mapping[str, Any] | None = field(hash=False, default=None)

    @property
    def kind(self) -> str:
        """The card's family, its id without the copy number ("robo-dogs-2" → "robo-dogs")."""
        return self.id.rsplit("-", 1)[0]

    @property
    def fights(self) -> bool:
        """Whether the main effect counts in combat whoever plays it (combat, Escape, Sabotage)."""
        return any(k in self.effect for k in COMBAT_KEYS)

    @property
    def shield(self) -> int | None:
        """The alternative option's shield value, if it has one."""
        return self.alt.get("shield") if self.alt else None

    @property
    def ignores(self) -> str | None:
        """What the alternative option cancels ("barney" or "boing"), if anything."""
        return self.alt.get("ignore") if self.alt else None


@dataclass(frozen=True)
class CardBook:
    """One card set. Immutable and shared between states (never deep-copied)."""

    perps: Mapping[str, int] = field(hash=False)
    crimes: Mapping[str, int] = field(hash=False)
    sector_cards: Mapping[str, str] = field(hash=False)
    actions: Mapping[str, ActionCard] = field(hash=False)
    names: Mapping[str, str] = field(hash=False)

    def __deepcopy__(self, memo: dict[int, Any]) -> CardBook:
        return self

    def action(self, card: object) -> ActionCard:
        """The Action card with id ``card``, or :class:`IllegalAction`."""
        if not isinstance(card, str) or card not in self.actions:
            raise IllegalAction(f"{card!r} is not an Action card")
        return self.actions[card]

    def perp(self, card: object) -> str:
        if not isinstance(card, str) or card not in self.perps:
            raise IllegalAction(f"{card!r} is not a Perp card")
        return card

    def crime(self, card: object) -> str:
        if not isinstance(card, str) or card not in self.crimes:
            raise IllegalAction(f"{card!r} is not a Crime card")
        return card

    def sector_card(self, card: object) -> str:
        if not isinstance(card, str) or card not in self.sector_cards:
            raise IllegalAction(f"{card!r} is not a Sector card")
        return card

    def value(self, card: str) -> int:
        """The strength a Perp or Crime card scores."""
        return self.perps.get(card, self.crimes.get(card, 0))

    @classmethod
    def load(cls, name: object = "standard") -> CardBook:
        """A shipped card set by name, or an inline card-set object."""
        if name is None:
            name = "standard"
        if isinstance(name, str):
            return _shipped_cards(name)
        if isinstance(name, Mapping):
            data = name
        else:
            raise IllegalAction("'cards' must be the name of a shipped card set or a card set")
        return cls.from_data(data)

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> CardBook:
        try:
            perps = {p["id"]: int(p["strength"]) for p in data["perps"]}
            crimes = {c["id"]: int(c["strength"]) for c in data["crimes"]}
            sectors = {s["id"]: str(s["sector"]) for s in data["sectors"]}
            actions = {}
            for a in data["actions"]:
                if a["type"] not in ACTION_TYPES:
                    raise IllegalAction(f"Action card {a['id']!r} has an unknown type")
                actions[a["id"]] = ActionCard(
                    a["id"], a["name"], a["type"], dict(a["effect"]), a.get("alt")
                )
            names = {c["id"]: c.get("name", c["id"]) for k in ("perps", "crimes") for c in data[k]}
            names.update({s["id"]: s.get("name", s["id"]) for s in data["sectors"]})
            names.update({a.id: a.name for a in actions.values()})
        except (KeyError, TypeError, ValueError):
            raise IllegalAction("a card set needs perps, crimes, sectors and actions") from None
        return cls(perps, crimes, sectors, actions, names)


@lru_cache(maxsize=8)
def _shipped_cards(name: str) -> CardBook:
    # Card sets are immutable, so every game with a shipped set can share one.
    if not name.replace("-", "").isalnum():
        raise IllegalAction(f"there is no shipped card set called {name!r}")
    return CardBook.from_data(load_data(__package__, f"cards-{name}"))


def card_list(name: str = "standard") -> list[dict[str, str]]:
    """Every physical card as ``{"id", "name", "kind"}`` (kind: perp, crime, sector, action)."""
    data = load_data(__package__, f"cards-{name}")
    out = []
    for key, kind in (("perps", "perp"), ("crimes", "crime"), ("sectors", "sector")):
        out.extend({"id": c["id"], "name": c["name"], "kind": kind} for c in data[key])
    out.extend({"id": a["id"], "name": a["name"], "kind": "action"} for a in data["actions"])
    return out
