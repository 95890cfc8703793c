"""The channel watch and the health model, on a stepped simulated board (no threads, no pty).

The board's readings are the simulated DRV5055s' (noise, offsets, magnets);
faults are made by replacing one channel's reading in the frames fed, on the
simulated clock.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.games.gw_brott.setup import DEMO_HEADER
from lawmaster.host.health import Health
from lawmaster.host.journal import Journal
from lawmaster.host.sensing.faults import ChannelWatch, board_agrees
from lawmaster.host.sim.physics import PhysicalBoard
from lawmaster.host.sim.rig import Rig, ideal_calibration
from lawmaster.host.table import Table
from lawmaster.host.tracker import Expectation

RATE = 200.0
FACES = ["1", "2", "3", "4", "arrow"]


@pytest.fixture(scope="module")
def calibration():
    # What a perfect calibration measures: the guided flow is tested elsewhere, and slow.
    return ideal_calibration(PhysicalBoard(SensorMap.load("gw-brott"), seed=5))


def _rig(calibration, **kwargs) -> Rig:
    # (Rig.for_game would run the slow guided calibration even when given one.)
    rig = Rig(SensorMap.load("gw-brott"), seed=5, calibration=calibration, **kwargs)
    rig.board.put("gw", "gw", "J12")
    return rig


def _run(rig: Rig, watch: ChannelWatch, seconds: float, broken=None, kinds=None) -> list:
    """Step the board; feed the watch each frame (``broken``: channel → reading function)."""
    changes = []
    end = rig.now + seconds
    while rig.now < end:
        t = rig.clock.advance(1 / RATE)
        frame = list(rig.board.frame())
        for ch, fn in (broken or {}).items():
            frame[ch] = fn(frame[ch], t)
        rig.sensing.feed(frame, t)
        if watch.feed(frame, t, kinds or rig.sensing.kind_at):
            changes.append(dict(watch.flagged))
    return changes


def test_faults_watch_live_noise_and_lone_spikes_flag_nothing(calibration):
    rig = _rig(calibration, spike_rate=0.0005)
    watch = ChannelWatch(rig.map, calibration, rate=RATE)
    assert _run(rig, watch, 4.0) == []
    assert watch.jumps_seen >= 0 and watch.flagged == {}


def test_faults_watch_a_stuck_channel_is_flagged_and_cleared_when_it_lives_again(calibration):
    rig = _rig(calibration)
    watch = ChannelWatch(rig.map, calibration, rate=RATE)
    ch = rig.map.spots_of("C7")[0].channel
    _run(rig, watch, 0.5)
    _run(rig, watch, 0.9, {ch: lambda r, t: 33010})
    assert ch not in watch.flagged  # under a second of one value: could still be luck
    _run(rig, watch, 0.3, {ch: lambda r, t: 33010})
    fault = watch.flagged[ch]
    assert (fault.reason, fault.space, fault.source) == ("stuck", "C7", "play")
    assert "the sensor under C7 reads exactly the same value" in fault.words()
    _run(rig, watch, 0.2)
    assert watch.flagged == {}


def test_faults_watch_a_channel_at_a_rail_from_the_first_scan_is_a_start_up_fault(calibration):
    rig = _rig(calibration)
    watch = ChannelWatch(rig.map, calibration, rate=RATE)
    a1 = rig.map.spots_of("A1")[0].channel
    _run(rig, watch, 0.3, {a1: lambda r, t: 65535})
    fault = watch.flagged[a1]
    assert (fault.reason, fault.space, fault.source) == ("rail", "A1", "start-up")


def test_faults_watch_impossible_jumps_flag_after_a_few_one_is_only_counted(calibration):
    rig = _rig(calibration)
    watch = ChannelWatch(rig.map, calibration, rate=RATE)
    ch = rig.map.spots_of("E9")[0].channel
    _run(rig, watch, 0.2)
    # A few milliseconds at 0 V and back: further than any magnet moves it.
    once = {"n": 0}

    def glitch(r: int, t: float) -> int:
        once["n"] += 1
        return 0 if once["n"] <= 2 else r

    _run(rig, watch, 0.5, {ch: glitch})
    assert watch.jumps_seen == 2 and ch not in watch.flagged

    def flapping(r: int, t: float) -> int:
        return 0 if round(t * RATE) % 40 < 2 else r  # a loose contact, every 0.2 s

    _run(rig, watch, 0.6, {ch: flapping})
    assert watch.flagged[ch].reason == "jump"
    _run(rig, watch, 6.0)
    assert ch not in watch.flagged


def test_faults_watch_a_sensor_that_disagrees_with_the_game_longer_than_a_move(calibration):
    rig = _rig(calibration)
    rig.board.put("red", "criminal", "C7")
    watch = ChannelWatch(rig.map, calibration, rate=RATE, move_s=2.0)
    _run(rig, watch, 0.3)
    kinds = {"gw": "gw", "red": "criminal"}
    watch.expect(Expectation(kinds, {"gw": "J12", "red": "C7"}, movers=frozenset({"gw"})))
    ch = rig.map.spots_of("C7")[0].channel
    base = round(calibration.baseline[ch])
    dead = {ch: lambda r, t: base + int(t * 1000) % 40}  # alive, but blind to the magnet
    _run(rig, watch, 1.5, dead)
    assert ch not in watch.flagged  # a piece may be off its cell for a while
    _run(rig, watch, 1.0, dead)
    fault = watch.flagged[ch]
    assert (fault.reason, fault.piece) == ("disagrees", "red")
    # Where red stands is red's secret: the cell is named only to the seats that may know.
    health = Health(rig.map)
    health.watch_link(lambda: None)
    health.link_status(SimpleNamespace(state="ready", detail=""))
    health.may_know = lambda piece, seat: seat != "gw"
    health.channel_faults("play", watch.flagged)
    assert "C7" in health.blind("red") and "C7" not in health.blind("gw")
    assert all("C7" not in words for _, words, _ in health.panel())
    _run(rig, watch, 0.2)  # the sensor sees the piece again
    assert watch.flagged == {}


def test_faults_board_agrees_counts_pieces_per_space_and_kind():
    kinds = {"gw": "gw", "red": "criminal", "green": "criminal"}
    expectation = Expectation(
        kinds, {"gw": "J12", "red": "jail", "green": "jail"}, jail="jail", to_jail=frozenset()
    )
    seen = {"J12": {"gw": 1}, "jail": {"criminal": 2}, "C7": {}}
    assert board_agrees(seen, expectation)
    assert not board_agrees({**seen, "jail": {"criminal": 1}, "C7": {"criminal": 1}}, expectation)


def test_faults_health_words_for_the_link_and_a_self_test_report(calibration):
    rig = _rig(calibration)
    health = Health(rig.map, clock=lambda: 100.0)
    assert health.blind() is None  # a table without a board is never blind
    stats = SimpleNamespace(
        frames_ok=50, frames_bad=2, bad_crc=2, frames_missed=3, seq_gaps=1, reconnects=1
    )
    health.watch_link(lambda: stats)
    assert health.blind() == "the scanner under the board is not connected yet"
    for state, words in (("ready", "connected"), ("connecting", "lost"), ("ready", "back")):
        health.link_status(SimpleNamespace(state=state, detail=""))
        assert health.scanner == words
    assert health.blind() is None
    a1 = rig.map.spots_of("A1")[0].channel
    health.channel_faults_reported(source="self-test", failed={a1: "no-field reading off by 900"})
    assert health.blind() == (
        "the sensor under A1 failed the scanner's own test (no-field reading off by 900)"
    )
    panel = _rows(health.panel())
    assert panel["Scanner"] == "back" and "2 damaged" in panel["Scanner link"]
    assert "found by the scanner's self-test" in panel["Sensor"]
    troubles = {label: trouble for label, _, trouble in health.panel()}
    assert troubles == {"Scanner": False, "Scanner link": False, "Sensor": True}
    assert "{" not in str(health.panel())  # words, not dicts


class _Board:
    def __init__(self) -> None:
        self.expected = []
        self.rechecks = []

    def expect(self, expectation) -> None:
        self.expected.append(expectation)

    def recheck(self, on: bool) -> None:
        self.rechecks.append(on)

    def hold(self, on: bool) -> None:
        pass


def test_faults_referee_pauses_while_blind_then_checks_the_board_before_play(tmp_path):
    table = Table.start(Journal(tmp_path / "j.db"), DEMO_HEADER, {"board": True})
    board, health = _Board(), Health()
    health.watch_link(lambda: None)
    health.link_status(SimpleNamespace(state="ready", detail=""))
    table.referee.attach_board(board)
    table.referee.attach_health(health)
    assert not table.referee.holding
    health.link_status(SimpleNamespace(state="connecting", detail="port gone"))
    table.referee.health_changed()
    assert table.referee.paused == "the scanner under the board is lost"
    assert board.expected[-1].movers == frozenset()  # nobody may move on a blind board
    answer = table.submit("red", {"act": "roll", "by": "red", "faces": FACES})
    assert answer["paused"] and table.last_seq == 0 and table.referee.counts["rejected"] == 0
    table.referee.button("undo")
    assert table.undo is None
    health.link_status(SimpleNamespace(state="ready", detail=""))
    table.referee.health_changed()
    assert table.referee.paused is None and table.referee.rechecking and board.rechecks[-1]
    assert "Put every piece where the game has it" in table.status.message
    assert table.submit("red", {"act": "roll", "by": "red", "faces": ["1"]})["paused"]
    table.referee.board_matches()
    assert not table.referee.holding and board.rechecks[-1] is False
    assert board.expected[-1].movers == frozenset({"red"})
    answer = table.submit("red", {"act": "roll", "by": "red", "faces": FACES})
    assert answer["ok"] and table.last_seq == 1


def test_faults_health_names_a_hidden_piece_s_cell_only_to_seats_the_game_lets_know(tmp_path):
    from lawmaster.host.runtime import Runtime, open_host

    runtime = Runtime(open_host(str(tmp_path / "j.db"), {"board": False}, DEMO_HEADER))
    try:
        health = runtime.health
        assert runtime.table.health is health
        # GW:s brott: where a criminal stands is for the criminals' tablets only.
        assert not health.may_know("red", "gw") and not health.may_know("red", "table")
        assert health.may_know("red", "green")
    finally:
        runtime.close()


def test_faults_health_a_seat_s_own_reader_offline_concerns_that_seat_only():
    health = Health()
    health.add_reader("seat-dredd", "dredd")
    health.add_reader("table-0", None)
    health.reader_status(
        SimpleNamespace(
            reader="seat-dredd", seat="dredd", online=False, detail="not answering", at=0.0
        )
    )
    health.reader_status(
        SimpleNamespace(reader="table-0", seat=None, online=True, detail="", at=0.0)
    )
    assert health.for_seat("dredd")["banner"] == [
        "The card reader of dredd is offline: cards laid on it are not read."
    ]
    assert health.for_seat("anderson")["banner"] == []
    panel = _rows(health.for_seat("table")["panel"])
    assert panel["Card reader of dredd"] == "offline (it does not answer)"
    assert panel["Card reader at the table"] == "online"
    assert health.blind() is None  # a reader is not the board


def _rows(panel) -> dict[str, str]:
    """The health panel's rows as label -> words (the last row of a label wins)."""
    return {label: words for label, words, _ in panel}


def test_a_stuck_flag_raised_by_a_keyframe_between_sampled_scans_is_reported(calibration):
    # A change-only scanner's keyframe may fall on a scan the watch does not sample;
    # the flag that keyframe raises must still be reported, or nobody hears of it.
    gw = SensorMap.load("gw-brott")
    watch = ChannelWatch(gw, calibration, rate=400.0)
    rig = _rig(calibration)
    ch = gw.spots_of("C5")[0].channel
    reported = []
    for scan in range(1, 400 * 2 * 12):
        frame = list(rig.board.frame())
        rig.clock.advance(0.0025)
        frame[ch] = 33000  # the sensor's output freezes
        keyframe = scan % 800 == 1  # every 2 s, never on a sampled (every 4th) scan
        if watch.feed(frame, rig.now, None, True, fresh=keyframe):
            reported.append(dict(watch.flagged))
    assert [r[ch].reason for r in reported if ch in r] == ["stuck"]
