"""The card sets: Perps, Crimes, Sector cards and Action cards, read from data.

Every physical card has a stable id; :func:`card_list` is what the NFC card
registry imports to map tags onto cards. The shipped set is partly a
reconstruction (see ``data/cards-standard.json``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TypedDict

from lawmaster.rules.core import IllegalAction, JsonValue
from lawmaster.rules.core.boarddata import load_data

ACTION_TYPES = ("combat", "movement", "alert", "special")
# Effect keys that make a card count in a combat whoever plays it.
COMBAT_KEYS = ("judge", "perp", "judge_dice", "perp_dice")


class CardEffect(TypedDict, total=False):
    """An Action card's main effect (README: card set format); a card has some of these."""

    judge: int
    judge_dice: int
    perp: int
    perp_dice: int
    move_delta: int
    move_half: bool
    barney: bool
    alert: str
    special: str


class CardAlt(TypedDict, total=False):
    """An Action card's alternative option: a shield badge, what it cancels, its words."""

    shield: int
    ignore: str
    text: str


class CardEntry(TypedDict):
    """One physical card for the NFC registry; ``kind`` is perp, crime, sector or action."""

    id: str
    name: str
    kind: str


@dataclass(frozen=True)
class ActionCard:
    """One Action card: its type, main effect and alternative option (or None)."""

    id: str
    name: str
    type: str
    effect: CardEffect = field(hash=False)
    alt: CardAlt | None = field(hash=False, default=None)

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

    def __deepcopy__(self, memo: dict[int, object]) -> CardBook:
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
    def from_data(cls, data: Mapping[str, object]) -> CardBook:
        """Build and check a card set from its JSON object (README: card set format)."""
        lists: dict[str, list[_Card]] = {}
        for key in ("perps", "crimes", "sectors", "actions"):
            items = data.get(key)
            found = [_card(c) for c in items] if isinstance(items, list) else []
            cards = [c for c in found if c is not None]
            if not isinstance(items, list) or len(cards) != len(items):
                raise IllegalAction(f"a card set needs '{key}': a list of cards, each with an 'id'")
            lists[key] = cards
        perps = {p.id: _strength(p) for p in lists["perps"]}
        crimes = {c.id: _strength(c) for c in lists["crimes"]}
        sectors = {s.id: _text(s, "sector") for s in lists["sectors"]}
        actions = {a.id: _action(a) for a in lists["actions"]}
        names = {
            c.id: _text(c, "name", c.id) for k in ("perps", "crimes", "sectors") for c in lists[k]
        }
        names.update({a.id: a.name for a in actions.values()})
        return cls(perps, crimes, sectors, actions, names)


#: The names each named effect takes (README: card set format); the other effects take
#: whole numbers or true/false, as :class:`CardEffect` says.
_NAMED_EFFECTS = {
    "alert": ("alien-escape", "quarantine", "bridges-closed", "crime-spree"),
    "special": ("tip-off", "boing", "robodoc", "block-mania"),
}


@dataclass(frozen=True)
class _Card:
    """One card object of a card set, with its (checked) text id."""

    id: str
    data: Mapping[object, object]


def _card(item: object) -> _Card | None:
    """The card object ``item``, or None when it is not an object with a text id."""
    if isinstance(item, Mapping):
        cid = item.get("id")
        if isinstance(cid, str):
            return _Card(cid, item)
    return None


def _strength(card: _Card) -> int:
    value = card.data.get("strength")
    if not isinstance(value, int) or isinstance(value, bool):
        raise IllegalAction(f"the card {card.id!r} needs a whole-number 'strength'")
    return value


def _text(card: _Card, key: str, default: str | None = None) -> str:
    value = card.data.get(key, default)
    if not isinstance(value, str):
        raise IllegalAction(f"the card {card.id!r} needs a text '{key}'")
    return value


def _effect(cid: str, raw: Mapping[object, object]) -> CardEffect:
    """An Action card's effect object, each key held to the values it takes."""
    effect: CardEffect = {}
    for key, value in raw.items():
        number = value if isinstance(value, int) and not isinstance(value, bool) else None
        flag = value if isinstance(value, bool) else None
        name = (
            value if isinstance(value, str) and value in _NAMED_EFFECTS.get(str(key), ()) else None
        )
        if key == "judge" and number is not None:
            effect["judge"] = number
        elif key == "judge_dice" and number is not None:
            effect["judge_dice"] = number
        elif key == "perp" and number is not None:
            effect["perp"] = number
        elif key == "perp_dice" and number is not None:
            effect["perp_dice"] = number
        elif key == "move_delta" and number is not None:
            effect["move_delta"] = number
        elif key == "move_half" and flag is not None:
            effect["move_half"] = flag
        elif key == "barney" and flag is not None:
            effect["barney"] = flag
        elif key == "alert" and name is not None:
            effect["alert"] = name
        elif key == "special" and name is not None:
            effect["special"] = name
        else:
            raise IllegalAction(f"Action card {cid!r} has an unknown effect {key}={value!r}")
    return effect


def _alt(cid: str, alt: object) -> CardAlt | None:
    """An Action card's alternative option, checked, or None when it has none."""
    if alt is None:
        return None
    if not isinstance(alt, Mapping):
        raise IllegalAction(f"Action card {cid!r} has an unreadable alternative option")
    shield, ignore, text = alt.get("shield"), alt.get("ignore"), alt.get("text", "")
    good = (
        (shield is None or (isinstance(shield, int) and not isinstance(shield, bool)))
        and ignore in (None, "barney", "boing")
        and isinstance(text, str)
    )
    if not good:
        raise IllegalAction(f"Action card {cid!r} has an unreadable alternative option")
    out: CardAlt = {}
    if isinstance(shield, int):
        out["shield"] = shield
    if isinstance(ignore, str):
        out["ignore"] = ignore
    if isinstance(text, str) and "text" in alt:
        out["text"] = text
    return out


def _action(card: _Card) -> ActionCard:
    """One Action card from its data, every effect and alternative option checked."""
    cid = card.id
    kind = card.data.get("type")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        raise IllegalAction(f"Action card {cid!r} has an unknown type")
    raw = card.data.get("effect")
    if not isinstance(raw, Mapping):
        raise IllegalAction(f"Action card {cid!r} needs an 'effect' object")
    effect = _effect(cid, raw)
    if kind == "alert" and "alert" not in effect:
        raise IllegalAction(f"the Alert card {cid!r} needs an 'alert' effect")
    alt = _alt(cid, card.data.get("alt"))
    return ActionCard(cid, _text(card, "name"), kind, effect, alt)


@lru_cache(maxsize=8)
def _shipped_cards(name: str) -> CardBook:
    # Card sets are immutable, so every game with a shipped set can share one.
    if not name.replace("-", "").isalnum():
        raise IllegalAction(f"there is no shipped card set called {name!r}")
    data = load_data(__package__, f"cards-{name}")
    if not isinstance(data, Mapping):
        raise ValueError(f"data/cards-{name}.json must hold one JSON object")
    return CardBook.from_data(data)


def card_list(name: str = "standard") -> list[CardEntry]:
    """Every physical card as ``{"id", "name", "kind"}`` (kind: perp, crime, sector, action)."""
    data = load_data(__package__, f"cards-{name}")
    if not isinstance(data, Mapping):
        raise ValueError(f"data/cards-{name}.json must hold one JSON object")
    out: list[CardEntry] = []
    for key, kind in (("perps", "perp"), ("crimes", "crime"), ("sectors", "sector")):
        out.extend(
            {"id": _named(c, "id"), "name": _named(c, "name"), "kind": kind}
            for c in _list(data, key)
        )
    out.extend(
        {"id": _named(a, "id"), "name": _named(a, "name"), "kind": "action"}
        for a in _list(data, "actions")
    )
    return out


def _list(data: Mapping[str, JsonValue], key: str) -> list[JsonValue]:
    items = data.get(key)
    if not isinstance(items, list):
        raise ValueError(f"a shipped card set needs a list {key!r}")
    return items


def _named(card: JsonValue, key: str) -> str:
    value = card.get(key) if isinstance(card, Mapping) else None
    if not isinstance(value, str):
        raise ValueError(f"a card of a shipped card set has no text {key!r}: {card!r}")
    return value
