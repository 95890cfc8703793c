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
        """Build and check a card set from its JSON object (README: card set format)."""
        lists = {}
        for key in ("perps", "crimes", "sectors", "actions"):
            items = data.get(key)
            if not isinstance(items, list) or not all(
                isinstance(c, Mapping) and isinstance(c.get("id"), str) for c in items
            ):
                raise IllegalAction(f"a card set needs '{key}': a list of cards, each with an 'id'")
            lists[key] = items
        perps = {p["id"]: _strength(p) for p in lists["perps"]}
        crimes = {c["id"]: _strength(c) for c in lists["crimes"]}
        sectors = {s["id"]: _text(s, "sector") for s in lists["sectors"]}
        actions = {a["id"]: _action(a) for a in lists["actions"]}
        names = {
            c["id"]: _text(c, "name", c["id"])
            for k in ("perps", "crimes", "sectors")
            for c in lists[k]
        }
        names.update({a.id: a.name for a in actions.values()})
        return cls(perps, crimes, sectors, actions, names)


#: Effect keys and the values each takes (README: card set format).
_INT_EFFECTS = ("judge", "judge_dice", "perp", "perp_dice", "move_delta")
_FLAG_EFFECTS = ("move_half", "barney")
_NAMED_EFFECTS = {
    "alert": ("alien-escape", "quarantine", "bridges-closed", "crime-spree"),
    "special": ("tip-off", "boing", "robodoc", "block-mania"),
}


def _strength(card: Mapping[str, Any]) -> int:
    value = card.get("strength")
    if not isinstance(value, int) or isinstance(value, bool):
        raise IllegalAction(f"the card {card['id']!r} needs a whole-number 'strength'")
    return value


def _text(card: Mapping[str, Any], key: str, default: str | None = None) -> str:
    value = card.get(key, default)
    if not isinstance(value, str):
        raise IllegalAction(f"the card {card['id']!r} needs a text '{key}'")
    return value


def _action(card: Mapping[str, Any]) -> ActionCard:
    """One Action card from its data, every effect and alternative option checked."""
    cid = card["id"]
    if card.get("type") not in ACTION_TYPES:
        raise IllegalAction(f"Action card {cid!r} has an unknown type")
    effect = card.get("effect")
    if not isinstance(effect, Mapping):
        raise IllegalAction(f"Action card {cid!r} needs an 'effect' object")
    for key, value in effect.items():
        if key in _INT_EFFECTS:
            ok = isinstance(value, int) and not isinstance(value, bool)
        elif key in _FLAG_EFFECTS:
            ok = isinstance(value, bool)
        elif key in _NAMED_EFFECTS:
            ok = value in _NAMED_EFFECTS[key]
        else:
            ok = False
        if not ok:
            raise IllegalAction(f"Action card {cid!r} has an unknown effect {key}={value!r}")
    if card["type"] == "alert" and "alert" not in effect:
        raise IllegalAction(f"the Alert card {cid!r} needs an 'alert' effect")
    alt = card.get("alt")
    if alt is not None:
        shield = alt.get("shield") if isinstance(alt, Mapping) else None
        good = (
            isinstance(alt, Mapping)
            and (shield is None or (isinstance(shield, int) and not isinstance(shield, bool)))
            and alt.get("ignore") in (None, "barney", "boing")
            and isinstance(alt.get("text", ""), str)
        )
        if not good:
            raise IllegalAction(f"Action card {cid!r} has an unreadable alternative option")
    return ActionCard(cid, _text(card, "name"), card["type"], dict(effect), alt)


@lru_cache(maxsize=8)
def _shipped_cards(name: str) -> CardBook:
    # Card sets are immutable, so every game with a shipped set can share one.
    if not name.replace("-", "").isalnum():
        raise IllegalAction(f"there is no shipped card set called {name!r}")
    return CardBook.from_data(load_data(__package__, f"cards-{name}"))


def card_list(name: str = "standard") -> list[dict[str, str]]:
    """Every physical card as ``{"id", "name", "kind"}`` (kind: perp, crime, sector, action)."""
    data = load_data(__package__, f"cards-{name}")
    out: list[dict[str, str]] = []
    for key, kind in (("perps", "perp"), ("crimes", "crime"), ("sectors", "sector")):
        out.extend({"id": c["id"], "name": c["name"], "kind": kind} for c in data[key])
    out.extend({"id": a["id"], "name": a["name"], "kind": "action"} for a in data["actions"])
    return out
