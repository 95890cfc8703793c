"""Simulated NFC: emulated PN532s and a virtual, enrolled deck.

Everything above the emulator is the real thing (driver, reader threads,
registry, resolver), so a simulated table exercises the same code as a table.
:class:`EmulatedReaders` are the devices alone (what the simulated hardware
opens for a game; the table's wiring starts the host's readers on them);
:class:`SimulatedNfc` adds the host's readers, for a test without a table::

    with SimulatedNfc("judge-dredd", events.put, seats=["judge-1", "judge-2"]) as nfc:
        nfc.tap("judge-death", seat="judge-2")   # → CardTapped(seat="judge-2")
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import ExitStack

from lawmaster.host.nfc.cards import Card, card_list, game_name
from lawmaster.host.nfc.emulator import Ntag213, PN532Emulator
from lawmaster.host.nfc.events import CardEvent
from lawmaster.host.nfc.reader import TagReader
from lawmaster.host.nfc.registry import CardRegistry
from lawmaster.host.nfc.table import TableReaders
from lawmaster.host.nfc.transport import ReaderConfig


class EmulatedReaders:
    """The simulated table's NFC hardware: one emulated PN532 per seat, a sticker per card.

    ``seats``: one reader per entry (``None``: a shared table reader).
    ``registry`` defaults to an in-memory one with the whole deck enrolled;
    ``cards`` to the engine's card list. :attr:`configs` are the readers as a
    table's configuration names them: the host opens them like any PN532.
    A simulated person laying a card watches the host's reader for it
    (:meth:`watch`), as a person watches the reader's light.
    """

    def __init__(
        self,
        game: str,
        *,
        seats: Sequence[str | None] = (None,),
        registry: CardRegistry | None = None,
        cards: Iterable[Card] | None = None,
        seed: int = 0,
    ) -> None:
        self.game = game_name(game)
        self.cards = list(cards) if cards is not None else card_list(self.game)
        self._rng = random.Random(seed)
        self._stack = ExitStack()
        self.registry = registry or self._stack.enter_context(CardRegistry(":memory:"))
        self.stickers: dict[str, Ntag213] = {}
        for card in self.cards:
            tag = Ntag213.random(self._rng)
            self.stickers[card.id] = tag
            self.registry.enroll(self.game, card, tag.uid)
        self.emulators: dict[str | None, PN532Emulator] = {}
        self.configs: list[ReaderConfig] = []
        for index, seat in enumerate(seats):
            emulator = self._stack.enter_context(PN532Emulator())
            self.emulators[seat] = emulator
            name = f"seat-{seat}" if seat is not None else f"table-{index}"
            self.configs.append(ReaderConfig(name=name, port=emulator.port, seat=seat))
        self._watched: dict[str | None, TagReader] = {}

    def watch(self, readers: Mapping[str, TagReader]) -> None:
        """The host's readers of these emulators (by name), whose light the person watches."""
        self._watched = {reader.config.seat: reader for reader in readers.values()}

    def close(self) -> None:
        """Stop the emulators."""
        self._stack.close()

    def lay(self, card_id: str, seat: str | None = None, timeout: float = 5.0) -> None:
        """Lay a card on the seat's reader (it stays there until :meth:`lift`).

        Like a person watching the reader's light, it first waits (at most
        ``timeout`` seconds) for the reader to see the last card go.
        """
        self._wait_clear(seat, timeout)
        self.emulators[seat].present(self.stickers[card_id])

    def lift(self, seat: str | None = None) -> None:
        """Take whatever lies on the seat's reader off it."""
        self.emulators[seat].remove()

    def tap(self, card_id: str, seat: str | None = None, timeout: float = 5.0) -> None:
        """Tap a card: lay it, wait until the reader has delivered the tap, lift it.

        A reader reports a card once however long it lies there, so a card
        tapped again before the reader saw it go would be lost: the tap first
        waits (at most ``timeout`` seconds) for the reader to see the last one go.
        """
        self._tap(self.stickers[card_id], seat, timeout)

    def tap_stranger(self, seat: str | None = None, timeout: float = 5.0) -> None:
        """Tap a sticker that is no card of the game (the players get an UnknownTag)."""
        self._tap(Ntag213.random(self._rng), seat, timeout)

    def reader(self, seat: str | None) -> TagReader:
        """The host's reader of ``seat``'s emulator (see :meth:`watch`)."""
        try:
            return self._watched[seat]
        except KeyError:
            raise LookupError(f"no host reader watched for seat {seat!r}") from None

    def _wait_clear(self, seat: str | None, timeout: float) -> None:
        """Wait until the seat's reader has seen the last card lifted (if one was)."""
        if self.emulators[seat].tag is not None:
            return  # a card still lies there: the new one replaces it, and is read
        reader = self.reader(seat)
        deadline = time.monotonic() + timeout
        while reader.present_uid is not None:
            if time.monotonic() > deadline:
                raise TimeoutError(f"reader {reader.config.name} did not see the last card go")
            time.sleep(0.002)

    def _tap(self, tag: Ntag213, seat: str | None, timeout: float) -> None:
        self._wait_clear(seat, timeout)
        reader = self.reader(seat)
        self.emulators[seat].present(tag)
        deadline = time.monotonic() + timeout
        while reader.present_uid != tag.uid_hex:
            if time.monotonic() > deadline:
                raise TimeoutError(f"reader {reader.config.name} did not see the tap")
            time.sleep(0.002)
        self.emulators[seat].remove()


class SimulatedNfc(EmulatedReaders):
    """Emulated readers with the host's readers on them, for a test without a table's wiring::

    with SimulatedNfc("judge-dredd", events.put, seats=["judge-1", "judge-2"]) as nfc:
        nfc.tap("judge-death", seat="judge-2")   # → CardTapped(seat="judge-2")
    """

    def __init__(
        self,
        game: str,
        on_event: Callable[[CardEvent], None],
        *,
        seats: Sequence[str | None] = (None,),
        registry: CardRegistry | None = None,
        cards: Iterable[Card] | None = None,
        seed: int = 0,
    ) -> None:
        super().__init__(game, seats=seats, registry=registry, cards=cards, seed=seed)
        self.readers = TableReaders(
            self.configs, self.registry, self.game, on_event, cards=self.cards
        )
        self.watch(self.readers.readers)

    def __enter__(self) -> SimulatedNfc:
        self.readers.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the readers and the emulators."""
        self.readers.stop()
        super().close()
