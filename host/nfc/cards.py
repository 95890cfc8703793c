"""The cards of a game, as its plugin publishes them (:attr:`Game.cards`).

A card is what the NFC code needs of it: its id in the engine, the name printed
on it and its kind. The NFC code itself works on any list of cards; only
:func:`card_list` asks the registry of games for one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from lawmaster.host import games


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
    """The cards of ``game`` from its plugin; :class:`NoCardList` if there are none."""
    name = game_name(game)
    found = games.games().get(name)
    if found is None or found.cards is None:
        known = ", ".join(slug for slug, g in games.games().items() if g.cards is not None)
        raise NoCardList(f"{game!r} has no NFC cards; games with cards: {known}")
    return list(found.cards())


def cards_from(entries: Iterable[Mapping[str, Any] | Card]) -> list[Card]:
    """Cards from engine entries, checking that ids are unique."""
    cards = [e if isinstance(e, Card) else Card.from_mapping(e) for e in entries]
    seen: set[str] = set()
    for card in cards:
        if card.id in seen:
            raise ValueError(f"card id {card.id!r} appears twice in the card list")
        seen.add(card.id)
    return cards
