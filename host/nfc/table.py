"""The table's NFC readers, with every tap turned into a card of the game being played.

:class:`TableReaders` starts one :class:`~lawmaster.host.nfc.reader.TagReader`
per configured reader and resolves each tap: first by the sticker's UID in the
card registry, then by the card id written in the tag's own memory (so a deck
enrolled at another table still plays). Anything else is an
:class:`~lawmaster.host.nfc.events.UnknownTag` with a message for the players,
and changes nothing. A tap carries the seat of the reader that saw it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from lawmaster.host.nfc.cards import Card, NoCardList, card_list, game_name
from lawmaster.host.nfc.events import (
    CardEvent,
    CardRemoved,
    CardTapped,
    ReaderEvent,
    ReaderStatus,
    TagRemoved,
    TagTapped,
    UnknownTag,
)
from lawmaster.host.nfc.reader import TagReader
from lawmaster.host.nfc.registry import CardRegistry
from lawmaster.host.nfc.transport import OpenReader, ReaderConfig, open_pn532, readers_from_config


class CardResolver:
    """Tap events → card events for one game, by the registry then the tag's memory.

    The memory is believed only for cards this registry has no sticker for (a
    deck enrolled elsewhere): a card re-enrolled here has forgotten its old tag.

    ``cards`` is the game's card list (by default the engine's, loaded on first
    use); it names cards known only from a tag's memory.
    """

    def __init__(
        self, registry: CardRegistry, game: str, cards: Iterable[Card] | None = None
    ) -> None:
        self.registry = registry
        self.game = game_name(game)
        self._cards: dict[str, Card] | None = None if cards is None else {c.id: c for c in cards}

    def needs_tag_id(self, uid: str) -> bool:
        """Whether a tap of ``uid`` needs the tag's memory read (the registry does not know it)."""
        return not self.registry.knows(self.game, uid)

    def resolve(self, event: ReaderEvent) -> CardEvent:
        """The card event for one reader event."""
        if isinstance(event, ReaderStatus):
            return event
        if isinstance(event, TagRemoved):
            card = self.registry.card_for(self.game, event.uid)
            return CardRemoved(self.game, card, event.uid, event.reader, event.seat, event.at)
        return self._tapped(event)

    def _tapped(self, event: TagTapped) -> CardEvent:
        card = self.registry.card_for(self.game, event.uid)
        if card is not None:
            return self._card(event, card, "registry")
        tag_id = event.tag_id
        if tag_id is None:
            return self._unknown(
                event,
                f"this card is not known: its sticker ({event.uid}) is not enrolled for "
                f"{self.game}; enrol it with `lawmaster enroll {self.game}`",
            )
        if tag_id.game != self.game:
            return self._unknown(
                event, f"this is a {tag_id.game} card ({tag_id.card_id}), not one of {self.game}"
            )
        current = self.registry.uid_for(self.game, tag_id.card_id)
        if current is not None:
            # The card was enrolled here with another sticker: this one was replaced.
            return self._unknown(
                event,
                f"this sticker ({event.uid}) is no longer {tag_id.card_id}: that card was "
                f"re-enrolled with sticker {current}",
            )
        card = self._card_named(tag_id.card_id)
        if card is None:
            return self._unknown(
                event, f"the tag says card {tag_id.card_id!r}, which {self.game} does not have"
            )
        return self._card(event, card, "tag")

    def _card_named(self, card_id: str) -> Card | None:
        if self._cards is None:
            try:
                self._cards = {c.id: c for c in card_list(self.game)}
            except NoCardList:
                return None  # without the list a tag's claim cannot be checked
        return self._cards.get(card_id)

    def _card(self, event: TagTapped, card: Card, source: str) -> CardTapped:
        return CardTapped(self.game, card, event.uid, event.reader, event.seat, source, event.at)

    def _unknown(self, event: TagTapped, message: str) -> UnknownTag:
        return UnknownTag(self.game, event.uid, event.reader, event.seat, message, event.at)


class TableReaders:
    """All the table's readers, delivering card events to ``on_event`` from their threads.

    ``readers``: anything :func:`~lawmaster.host.nfc.transport.readers_from_config`
    accepts. ``on_event`` must be quick (``queue.Queue.put``).
    """

    def __init__(
        self,
        readers: Any,
        registry: CardRegistry,
        game: str,
        on_event: Callable[[CardEvent], None],
        *,
        cards: Iterable[Card] | None = None,
        opener: Callable[[ReaderConfig], OpenReader] = open_pn532,
    ) -> None:
        self.resolver = CardResolver(registry, game, cards)
        self._on_event = on_event
        self.readers: dict[str, TagReader] = {
            config.name: TagReader(
                config,
                self._deliver,
                wants_tag_id=self.resolver.needs_tag_id,
                opener=opener,
            )
            for config in readers_from_config(readers)
        }

    def __enter__(self) -> TableReaders:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        """Start every reader's thread."""
        for reader in self.readers.values():
            reader.start()

    def stop(self) -> None:
        """Stop every reader."""
        for reader in self.readers.values():
            reader.stop()

    def _deliver(self, event: ReaderEvent) -> None:
        self._on_event(self.resolver.resolve(event))
