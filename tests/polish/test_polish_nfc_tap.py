"""``SimulatedNfc.tap`` never loses a tap: the same card tapped again at once is read again."""

from __future__ import annotations

import queue

from lawmaster.host.nfc.events import CardRemoved, CardTapped
from lawmaster.host.nfc.simulated import SimulatedNfc


def test_polish_the_same_card_tapped_five_times_at_once_is_read_five_times():
    events: queue.Queue = queue.Queue()
    with SimulatedNfc("judge-dredd", events.put, seats=[None, "dredd"], seed=2) as nfc:
        for _ in range(5):
            nfc.tap("fergee-1", "dredd")
        nfc.tap("fergee-1")  # another reader is not held up by this one
        nfc.lay("fergee-1", "dredd")
        taps = []
        while len(taps) < 7:
            event = events.get(timeout=5)
            if isinstance(event, CardTapped):
                taps.append((event.card.id, event.seat))
            elif not isinstance(event, CardRemoved):
                continue
    assert taps.count(("fergee-1", "dredd")) == 6 and taps.count(("fergee-1", None)) == 1


def test_polish_a_card_left_lying_is_replaced_without_waiting_for_it_to_go():
    events: queue.Queue = queue.Queue()
    with SimulatedNfc("judge-dredd", events.put, seed=3) as nfc:
        nfc.lay("fergee-1")
        tapped = []
        while not tapped:
            event = events.get(timeout=5)
            if isinstance(event, CardTapped):
                tapped.append(event.card.id)
        nfc.tap("robo-dogs-1", timeout=2.0)  # swaps the card lying there: read at once
        while len(tapped) < 2:
            event = events.get(timeout=5)
            if isinstance(event, CardTapped):
                tapped.append(event.card.id)
    assert tapped == ["fergee-1", "robo-dogs-1"]
