"""The physical cards and dice of GW:s brott, read from the reconstruction data files.

``data/cards.json`` lists the eight criminal cards (each immune to one trump), the
23 evidence cards and the four trumps; ``data/dice.json`` the die faces. The NFC
card registry imports :func:`card_list`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from lawmaster.rules.core.boarddata import load_data


@lru_cache(maxsize=1)
def card_data() -> dict[str, Any]:
    """The whole of ``data/cards.json``."""
    return load_data(__package__, "cards")


@lru_cache(maxsize=1)
def dice_data() -> dict[str, Any]:
    """The whole of ``data/dice.json``."""
    return load_data(__package__, "dice")


def criminal_cards() -> dict[str, dict[str, Any]]:
    """Criminal card id → its card (name, crime, immune_to)."""
    return {c["id"]: c for c in card_data()["criminals"]}


def trump_names() -> tuple[str, ...]:
    """The ids of the four trump cards."""
    return tuple(t["id"] for t in card_data()["trumps"])


def criminal_faces() -> tuple[str, ...]:
    """The faces of a criminal die ("1".."4", "arrow", "gw")."""
    return tuple(dice_data()["criminal_die"])


def gw_faces() -> tuple[int, ...]:
    """The faces of GW's die."""
    return tuple(dice_data()["gw_die"])


def card_list() -> list[dict[str, str]]:
    """Every physical card as ``{"id", "name", "kind"}``; kind is criminal, evidence or trump."""
    data = card_data()
    cards = [{"id": c["id"], "name": c["name"], "kind": "criminal"} for c in data["criminals"]]
    cards += [{"id": c["id"], "name": c["name"], "kind": "evidence"} for c in data["evidence"]]
    cards += [{"id": c["id"], "name": c["name"], "kind": "trump"} for c in data["trumps"]]
    return cards
