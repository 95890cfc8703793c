"""NFC bench: how long from a tag laid on the reader to the card event reaching the referee.

The real Adafruit driver runs in the background reader thread against the
PN532 emulator on a pty (replies held back for their time on a 115200-baud
wire); each tap is a fresh enrolled sticker, laid on the
reader at a random moment of the reader's polling, and timed until
:class:`~lawmaster.host.nfc.events.CardTapped` arrives through the callback.

Figures (milliseconds):

- ``nfc_tap_to_card_ms``: median over 30 taps, the default reader
  (``FramedSerial``, serial timeout 0.05 s). Target ≤ 30.
- ``nfc_tap_to_card_p95_ms``: its 95th percentile.
- ``nfc_tap_to_card_plain_serial_ms``: the same with a plain ``serial.Serial``
  (every reply waits out the 0.05 s timeout): the baseline the framed port beats.
- ``nfc_unknown_tag_ms``: median for a sticker the registry does not know,
  which costs reading its memory for a card id.
"""

from __future__ import annotations

import queue
import random
import statistics
import time
from dataclasses import replace

from lawmaster.host.bench import percentile
from lawmaster.host.nfc.cards import Card
from lawmaster.host.nfc.emulator import Ntag213, PN532Emulator
from lawmaster.host.nfc.events import CardEvent, CardRemoved, CardTapped, UnknownTag
from lawmaster.host.nfc.registry import CardRegistry
from lawmaster.host.nfc.table import TableReaders
from lawmaster.host.nfc.transport import ReaderConfig

TAPS = 30


def _measure(framed: bool, taps: int, enrolled: bool, seed: int) -> list[float]:
    """Tap-to-event times in seconds for ``taps`` fresh stickers."""
    rng = random.Random(seed)
    cards = [Card(f"card-{i}", f"Card {i}", "bench") for i in range(taps)]
    arrivals: queue.Queue[tuple[float, CardEvent]] = queue.Queue()

    def deliver(event: CardEvent) -> None:
        arrivals.put((time.perf_counter(), event))

    def next_event(kind: type | tuple[type, ...]) -> tuple[float, CardEvent]:
        while True:
            at, event = arrivals.get(timeout=5)
            if isinstance(event, kind):
                return at, event

    times = []
    with PN532Emulator(baudrate=115200) as emulator, CardRegistry(":memory:") as registry:
        config = replace(ReaderConfig(name="bench", port=emulator.port), framed=framed)
        with TableReaders([config], registry, "bench", deliver, cards=cards):
            for card in cards:
                tag = Ntag213.random(rng)
                if enrolled:
                    registry.enroll("bench", card, tag.uid)
                time.sleep(rng.uniform(0.0, 0.05))  # land at a random point of the poll
                start = time.perf_counter()
                emulator.present(tag)
                at, event = next_event((CardTapped, UnknownTag))
                assert getattr(event, "uid", None) == tag.uid_hex
                times.append(at - start)
                emulator.remove()
                next_event(CardRemoved)
    return times


def run() -> dict[str, float]:
    """The NFC figures, in milliseconds."""
    framed = _measure(framed=True, taps=TAPS, enrolled=True, seed=1)
    plain = _measure(framed=False, taps=TAPS, enrolled=True, seed=2)
    unknown = _measure(framed=True, taps=TAPS, enrolled=False, seed=3)
    return {
        "nfc_tap_to_card_ms": round(statistics.median(framed) * 1000, 2),
        "nfc_tap_to_card_p95_ms": round(percentile(framed, 95) * 1000, 2),
        "nfc_tap_to_card_plain_serial_ms": round(statistics.median(plain) * 1000, 2),
        "nfc_unknown_tag_ms": round(statistics.median(unknown) * 1000, 2),
    }
