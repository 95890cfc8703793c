"""The background reader thread: the real driver on the emulator, events out."""

from __future__ import annotations

import queue
import time

import pytest

from lawmaster.host.nfc import tagdata
from lawmaster.host.nfc.emulator import Ntag213, PN532Emulator
from lawmaster.host.nfc.events import ReaderStatus, TagRemoved, TagTapped
from lawmaster.host.nfc.reader import TagReader
from lawmaster.host.nfc.tagdata import TagCardId
from lawmaster.host.nfc.transport import ReaderConfig


def take(events: queue.Queue, timeout: float = 5.0):
    """The next event (the timeout only stops a broken test from hanging)."""
    return events.get(timeout=timeout)


def wait_until(condition, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition never became true"
        time.sleep(0.005)


@pytest.fixture
def emulator(tmp_path):
    with PN532Emulator(link=str(tmp_path / "pn532")) as emulator:
        yield emulator


@pytest.fixture
def reader(emulator):
    events: queue.Queue = queue.Queue()
    config = ReaderConfig(name="seat-1", port=emulator.port, seat="judge-1")
    with TagReader(config, events.put, reconnect_interval=0.05) as reader:
        first = take(events)
        assert isinstance(first, ReaderStatus) and first.online
        yield reader, events


def test_nfc_a_tag_lying_on_the_reader_is_reported_once(emulator, reader):
    tag_reader, events = reader
    tag = Ntag213.random()
    emulator.present(tag)
    tapped = take(events)
    assert isinstance(tapped, TagTapped)
    assert (tapped.uid, tapped.reader, tapped.seat) == (tag.uid_hex, "seat-1", "judge-1")
    polls = tag_reader.polls
    wait_until(lambda: tag_reader.polls >= polls + 20)  # many polls see it lying there
    assert events.empty()
    assert tag_reader.present_uid == tag.uid_hex
    emulator.remove()
    removed = take(events)
    assert isinstance(removed, TagRemoved) and removed.uid == tag.uid_hex
    emulator.present(tag)  # a re-tap after removal counts again
    again = take(events)
    assert isinstance(again, TagTapped) and again.uid == tag.uid_hex


def test_nfc_a_swapped_tag_is_a_removal_and_a_tap(emulator, reader):
    _, events = reader
    first, second = Ntag213.random(), Ntag213.random()
    emulator.present(first)
    assert take(events).uid == first.uid_hex
    emulator.swap(second)
    removed, tapped = take(events), take(events)
    assert isinstance(removed, TagRemoved) and removed.uid == first.uid_hex
    assert isinstance(tapped, TagTapped) and tapped.uid == second.uid_hex


@pytest.mark.parametrize("how", ["checksum", "ack", "truncate"])
def test_nfc_a_corrupt_frame_is_survived_without_false_events(emulator, reader, how):
    tag_reader, events = reader
    tag = Ntag213.random()
    emulator.present(tag)
    assert take(events).uid == tag.uid_hex
    emulator.corrupt_next(2, how)
    wait_until(lambda: tag_reader.frame_errors >= 2)
    polls = tag_reader.polls
    wait_until(lambda: tag_reader.polls >= polls + 5)
    assert events.empty()  # neither a removal nor a second tap
    assert tag_reader.online
    emulator.remove()
    assert isinstance(take(events), TagRemoved)


def test_nfc_a_reader_that_goes_silent_is_reported_and_reconnected(emulator, reader):
    tag_reader, events = reader
    emulator.silent = True
    down = take(events)
    assert isinstance(down, ReaderStatus) and not down.online and down.seat == "judge-1"
    emulator.silent = False
    up = take(events)
    assert isinstance(up, ReaderStatus) and up.online
    assert tag_reader.reconnects == 1
    tag = Ntag213.random()
    emulator.present(tag)
    assert take(events).uid == tag.uid_hex


def test_nfc_a_reader_unplugged_and_back_is_reconnected(emulator, reader):
    tag_reader, events = reader
    emulator.unplug()
    down = take(events)
    assert isinstance(down, ReaderStatus) and not down.online
    wait_until(lambda: not tag_reader.online)
    emulator.plug()
    up = take(events)
    assert isinstance(up, ReaderStatus) and up.online
    tag = Ntag213.random()
    emulator.present(tag)
    tapped = take(events)
    assert isinstance(tapped, TagTapped) and tapped.uid == tag.uid_hex


def test_nfc_a_tag_left_lying_through_a_reconnect_is_not_reported_again(emulator, reader):
    _, events = reader
    tag = Ntag213.random()
    emulator.present(tag)
    assert take(events).uid == tag.uid_hex
    emulator.unplug()
    assert not take(events).online
    emulator.plug()
    assert take(events).online
    emulator.remove()
    removed = take(events)
    assert isinstance(removed, TagRemoved) and removed.uid == tag.uid_hex


def test_nfc_the_reader_writes_a_card_id_into_the_tag_lying_there(emulator, reader):
    tag_reader, events = reader
    tag = Ntag213.random()
    emulator.present(tag)
    assert take(events).uid == tag.uid_hex
    card = TagCardId("gw-brott", "safecracker")
    assert tag_reader.write_tag_id(tag.uid_hex, card).result(timeout=5) is True
    assert tagdata.decode(bytes(tag.pages[16:])) == card
    assert tag_reader.write_tag_id("04000000000000", card).result(timeout=5) is False


def test_nfc_the_tag_memory_is_read_only_when_asked(emulator):
    events: queue.Queue = queue.Queue()
    written, blank = Ntag213.random(), Ntag213.random()
    data = tagdata.encode(TagCardId("judge-dredd", "judge-death"))
    written.pages[16 : 16 + len(data)] = data
    config = ReaderConfig(port=emulator.port)
    with TagReader(config, events.put, wants_tag_id=lambda uid: uid == written.uid_hex):
        assert take(events).online
        emulator.present(written)
        assert take(events).tag_id == TagCardId("judge-dredd", "judge-death")
        emulator.swap(blank)
        assert isinstance(take(events), TagRemoved)
        assert take(events).tag_id is None


def test_nfc_a_failing_consumer_does_not_stop_the_reader(emulator):
    seen = []

    def consumer(event):
        seen.append(event)
        raise ValueError("consumer bug")

    with TagReader(ReaderConfig(port=emulator.port), consumer):
        tag = Ntag213.random()
        emulator.present(tag)
        wait_until(lambda: any(isinstance(e, TagTapped) for e in seen))
        emulator.remove()
        wait_until(lambda: any(isinstance(e, TagRemoved) for e in seen))


def test_nfc_config_accepts_the_table_config_spelling_and_refuses_no_timeout():
    from lawmaster.host.nfc.transport import readers_from_config

    readers = readers_from_config(
        {"readers": [{"name": "a", "interface": "uart", "baud": 9600, "port": "/dev/x"}]}
    )
    assert readers[0].baudrate == 9600 and readers[0].transport == "uart"
    with pytest.raises(ValueError):
        ReaderConfig(timeout=None)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        readers_from_config([{"name": "a"}, {"name": "a"}])
    with pytest.raises(ValueError):
        ReaderConfig.from_mapping({"name": "a", "speed": 1})


def test_nfc_bench_measures_each_tap_through_the_reader_thread():
    from lawmaster.host.bench.nfc import _measure

    times = _measure(framed=True, taps=3, enrolled=True, seed=7)
    assert len(times) == 3 and all(t > 0 for t in times)


def test_nfc_a_reader_missing_at_start_comes_online_when_plugged_in(tmp_path):
    link = str(tmp_path / "later")
    events: queue.Queue = queue.Queue()
    with TagReader(ReaderConfig(port=link), events.put, reconnect_interval=0.05) as reader:
        down = take(events)  # start() returned at once; the thread found no port
        assert isinstance(down, ReaderStatus) and not down.online
        assert "cannot connect" in down.detail
        with PN532Emulator(link=link) as emulator:
            up = take(events)
            assert isinstance(up, ReaderStatus) and up.online and reader.online
            tag = Ntag213.random()
            emulator.present(tag)
            assert take(events).uid == tag.uid_hex


def test_nfc_an_i2c_reader_off_a_pi_is_reported_offline_not_crashed():
    events: queue.Queue = queue.Queue()
    with TagReader(ReaderConfig(transport="i2c"), events.put, reconnect_interval=0.05) as reader:
        down = take(events)
        assert isinstance(down, ReaderStatus) and not down.online
        assert "cannot connect" in down.detail and not reader.online
