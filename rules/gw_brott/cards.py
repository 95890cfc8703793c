"""The physical cards and dice of GW:s brott, read from the reconstruction data files.

``data/cards.json`` lists the eight criminal cards (each immune to one trump), the
23 evidence cards and the four trumps; ``data/dice.json`` the die faces. The NFC
card registry imports :func:`card_list`.

The files ship with the program (an owner may edit the names); one that does
not have the shape below is a broken installation, a :class:`ValueError`.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import TypedDict

from lawmaster.rules.core import JsonValue
from lawmaster.rules.core.boarddata import load_data


class CriminalCard(TypedDict):
    """A criminal card: who the criminal is, and the trump the card is immune to."""

    id: str
    name: str
    crime: str
    immune_to: str


class CardEntry(TypedDict):
    """One physical card for the NFC registry; ``kind`` is criminal, evidence or trump."""

    id: str
    name: str
    kind: str


@lru_cache(maxsize=1)
def card_data() -> Mapping[str, JsonValue]:
    """The whole of ``data/cards.json``."""
    return _object(load_data(__package__, "cards"), "data/cards.json")


@lru_cache(maxsize=1)
def dice_data() -> Mapping[str, JsonValue]:
    """The whole of ``data/dice.json``."""
    return _object(load_data(__package__, "dice"), "data/dice.json")


def criminal_cards() -> dict[str, CriminalCard]:
    """Criminal card id → its card (name, crime, immune_to)."""
    cards: dict[str, CriminalCard] = {}
    for c in _objects(card_data(), "criminals"):
        card: CriminalCard = {
            "id": _text(c, "id"),
            "name": _text(c, "name"),
            "crime": _text(c, "crime"),
            "immune_to": _text(c, "immune_to"),
        }
        cards[card["id"]] = card
    return cards


def trump_names() -> tuple[str, ...]:
    """The ids of the four trump cards."""
    return tuple(_text(t, "id") for t in _objects(card_data(), "trumps"))


def criminal_faces() -> tuple[str, ...]:
    """The faces of a criminal die ("1".."4", "arrow", "gw")."""
    faces = dice_data().get("criminal_die")
    if not isinstance(faces, list) or not all(isinstance(f, str) for f in faces):
        raise ValueError("data/dice.json: 'criminal_die' must list the faces as text")
    return tuple(f for f in faces if isinstance(f, str))


def gw_faces() -> tuple[int, ...]:
    """The faces of GW's die."""
    faces = dice_data().get("gw_die")
    if not isinstance(faces, list) or not all(isinstance(f, int) for f in faces):
        raise ValueError("data/dice.json: 'gw_die' must list the faces as whole numbers")
    return tuple(f for f in faces if isinstance(f, int))


def card_list() -> list[CardEntry]:
    """Every physical card as ``{"id", "name", "kind"}``; kind is criminal, evidence or trump."""
    data = card_data()
    return [
        {"id": _text(c, "id"), "name": _text(c, "name"), "kind": kind}
        for key, kind in (("criminals", "criminal"), ("evidence", "evidence"), ("trumps", "trump"))
        for c in _objects(data, key)
    ]


def _object(data: JsonValue, what: str) -> Mapping[str, JsonValue]:
    if not isinstance(data, Mapping):
        raise ValueError(f"{what} must hold one JSON object")
    return data


def _objects(data: Mapping[str, JsonValue], key: str) -> list[Mapping[str, JsonValue]]:
    items = data.get(key)
    if not isinstance(items, list):
        raise ValueError(f"the GW:s brott card data needs a list {key!r}")
    out: list[Mapping[str, JsonValue]] = []
    for item in items:
        if not isinstance(item, Mapping):
            raise ValueError(f"each of the card data's {key!r} is an object")
        out.append(item)
    return out


def _text(item: Mapping[str, JsonValue], key: str) -> str:
    value = item.get(key)
    if not isinstance(value, str):
        raise ValueError(f"a card in the GW:s brott card data has no text {key!r}: {item!r}")
    return value
