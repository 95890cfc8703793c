"""The table's readers resolving taps to cards: seats, registry, tag memory, strangers."""

from __future__ import annotations

import queue

import pytest

from lawmaster.host.nfc import tagdata
from lawmaster.host.nfc.cards import Card
from lawmaster.host.nfc.emulator import Ntag213, PN532Emulator
from lawmaster.host.nfc.events import CardRemoved, CardTapped, ReaderStatus, UnknownTag
from lawmaster.host.nfc.registry import CardRegistry
from lawmaster.host.nfc.table import TableReaders
from lawmaster.host.nfc.tagdata import TagCardId

CARDS = [
    Card("judge-death", "Judge Death", "perp"),
    Card("judge-fear", "Judge Fear", "perp"),
    Card("mutant-attack", "Mutant Attack", "crime"),
]


def card_event(events: queue.Queue):
    """The next event that is not a reader's status."""
    while True:
        event = events.get(timeout=5)
        if not isinstance(event, ReaderStatus):
            return event


def sticker(card_id: str | None = None, game: str = "judge-dredd") -> Ntag213:
    tag = Ntag213.random()
    if card_id is not None:
        data = tagdata.encode(TagCardId(game, card_id))
        tag.pages[16 : 16 + len(data)] = data
    return tag


@pytest.fixture
def table():
    with PN532Emulator() as one, PN532Emulator() as two, CardRegistry(":memory:") as registry:
        events: queue.Queue = queue.Queue()
        readers = [
            {"name": "seat-1", "port": one.port, "seat": "judge-1"},
            {"name": "seat-2", "port": two.port, "seat": "judge-2"},
        ]
        with TableReaders(readers, registry, "judge-dredd", events.put, cards=CARDS) as nfc:
            online = {events.get(timeout=5).reader, events.get(timeout=5).reader}
            assert online == {"seat-1", "seat-2"}
            yield nfc, registry, events, one, two


def test_nfc_a_tap_is_attributed_to_the_seat_whose_reader_saw_it(table):
    _, registry, events, one, two = table
    death, fear = Ntag213.random(), Ntag213.random()
    registry.enroll("judge-dredd", CARDS[0], death.uid)
    registry.enroll("judge-dredd", CARDS[1], fear.uid)
    two.present(death)
    tapped = card_event(events)
    assert isinstance(tapped, CardTapped)
    assert (tapped.card, tapped.seat, tapped.reader, tapped.source) == (
        CARDS[0],
        "judge-2",
        "seat-2",
        "registry",
    )
    one.present(fear)
    tapped = card_event(events)
    assert (tapped.card, tapped.seat) == (CARDS[1], "judge-1")
    two.remove()
    removed = card_event(events)
    assert isinstance(removed, CardRemoved) and removed.card == CARDS[0]
    assert removed.seat == "judge-2"


def test_nfc_an_unknown_tag_gets_a_clear_message_and_changes_nothing(table):
    _, registry, events, one, _ = table
    registry.enroll("judge-dredd", CARDS[0], Ntag213.random().uid)
    before = registry.enrolled("judge-dredd")
    stranger = sticker()
    one.present(stranger)
    unknown = card_event(events)
    assert isinstance(unknown, UnknownTag) and unknown.seat == "judge-1"
    assert stranger.uid_hex in unknown.message and "not enrolled" in unknown.message
    assert registry.enrolled("judge-dredd") == before
    one.remove()
    removed = card_event(events)
    assert isinstance(removed, CardRemoved) and removed.card is None


def test_nfc_a_deck_enrolled_elsewhere_plays_by_the_id_in_its_tags(table):
    _, _, events, one, _ = table
    one.present(sticker("judge-fear"))
    tapped = card_event(events)
    assert isinstance(tapped, CardTapped)
    assert (tapped.card, tapped.source) == (CARDS[1], "tag")


@pytest.mark.parametrize(
    ("tag_game", "card_id", "words"),
    [("gw-brott", "safecracker", "gw-brott card"), ("judge-dredd", "no-such", "does not have")],
)
def test_nfc_a_tag_of_another_game_or_card_is_unknown(table, tag_game, card_id, words):
    _, _, events, one, _ = table
    one.present(sticker(card_id, tag_game))
    unknown = card_event(events)
    assert isinstance(unknown, UnknownTag) and words in unknown.message


def test_nfc_a_replaced_sticker_no_longer_counts_even_with_the_id_in_it(table):
    _, registry, events, one, _ = table
    old, new = sticker("judge-death"), Ntag213.random()
    registry.enroll("judge-dredd", CARDS[0], old.uid)
    registry.enroll("judge-dredd", CARDS[0], new.uid)
    one.present(old)
    unknown = card_event(events)
    assert isinstance(unknown, UnknownTag) and "re-enrolled" in unknown.message
    one.swap(new)
    assert isinstance(card_event(events), CardRemoved)
    tapped = card_event(events)
    assert isinstance(tapped, CardTapped) and tapped.card == CARDS[0]


def test_nfc_simulated_table_plays_cards_by_seat():
    from lawmaster.host.nfc.simulated import SimulatedNfc

    events: queue.Queue = queue.Queue()
    with SimulatedNfc("judge-dredd", events.put, seats=["judge-1", "judge-2"], cards=CARDS) as nfc:
        nfc.tap("judge-fear", seat="judge-2")
        tapped = card_event(events)
        assert isinstance(tapped, CardTapped)
        assert (tapped.card, tapped.seat) == (CARDS[1], "judge-2")
        assert isinstance(card_event(events), CardRemoved)
        nfc.tap_stranger(seat="judge-1")
        unknown = card_event(events)
        assert isinstance(unknown, UnknownTag) and unknown.seat == "judge-1"
