"""The cards of a game, as the engines publish them.

Each engine with cards has ``lawmaster.rules.<game>.cards.card_list()``
returning ``[{"id", "name", "kind"}, ...]``. They are imported only when asked
for, so the NFC code works (and its tests run) before or without an engine.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

#: Games whose engines publish a card list, by the engine registry's names.
CARD_MODULES = {
    "gw-brott": "lawmaster.rules.gw_brott.cards",
    "judge-dredd": "lawmaster.rules.judge_dredd.cards",
}


class NoCardList(LookupError):
    """The game has no card list (unknown game, or its engine is not there yet)."""


@dataclass(frozen=True)
class Card:
    """One physical card: its id in the engine, the name printed on it, its kind."""

    id: str
    name: str
    kind: str

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Card:
        """A card from an engine's ``{"id", "name", "kind"}`` entry."""
        return cls(str(data["id"]), str(data["name"]), str(data["kind"]))


def game_name(game: str) -> str:
    """The registry's spelling of a game name (``judge_dredd`` → ``judge-dredd``)."""
    return game.strip().lower().replace("_", "-")


def card_list(game: str) -> list[Card]:
    """The cards of ``game`` from its engine; :class:`NoCardList` if there are none."""
    name = game_name(game)
    module_name = CARD_MODULES.get(name)
    if module_name is None:
        known = ", ".join(CARD_MODULES)
        raise NoCardList(f"{game!r} has no NFC cards; games with cards: {known}")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and module_name.startswith(exc.name):
            raise NoCardList(f"the {name} card list ({module_name}) is not available") from exc
        raise
    return cards_from(module.card_list())


def cards_from(entries: Iterable[Mapping[str, Any] | Card]) -> list[Card]:
    """Cards from engine entries, checking that ids are unique."""
    cards = [e if isinstance(e, Card) else Card.from_mapping(e) for e in entries]
    seen: set[str] = set()
    for card in cards:
        if card.id in seen:
            raise ValueError(f"card id {card.id!r} appears twice in the card list")
        seen.add(card.id)
    return cards
