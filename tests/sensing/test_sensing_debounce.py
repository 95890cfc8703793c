"""Debounce and stillness: noise never makes a change; a real change is reported once."""

import math
import random

import pytest

from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.sensing import Calibration, Occupancy, Sensing, Settled
from lawmaster.host.sensing.sensing import LONG_STILL_MS, long_window_frames
from lawmaster.host.sim.physics import PhysicalBoard
from lawmaster.host.sim.rig import Rig, calibration_for

GW = SensorMap.load("gw-brott")
N = GW.channels
LONG = long_window_frames(LONG_STILL_MS, 200.0)  # readings in the long window at 200 scans/s
LONG_400 = long_window_frames(LONG_STILL_MS, 400.0)
# GW's pair has a window of its own, shorter: its field is less flat at the peak.
GW_LONG = long_window_frames(GW.kinds["gw"].long_still_ms or LONG_STILL_MS, 200.0)
GW_LONG_400 = long_window_frames(GW.kinds["gw"].long_still_ms or LONG_STILL_MS, 400.0)


def _flat_calibration(noise: float = 24.0) -> Calibration:
    """Every channel alike: baseline 32768, criminal 28000, gw 56000."""
    return Calibration(
        "gw-brott",
        "standard",
        (32768.0,) * N,
        (noise,) * N,
        {"criminal": (28000.0,) * N, "gw": (56000.0,) * N},
    )


def test_no_false_change_over_many_noisy_frames():
    rig = Rig.for_game("gw-brott", seed=0, spike_rate=0.0005)
    for piece, kind, space in (
        ("g", "gw", "J12"),
        ("a", "criminal", "C7"),
        ("b", "criminal", "J11"),
    ):
        rig.board.put(piece, kind, space)
    first = [
        e for _ in range(10) for e in rig.sensing.feed(rig.board.frame(), rig.clock.advance(0.005))
    ]
    assert {e.space for e in first if isinstance(e, Occupancy)} == {"J12", "C7", "J11"}
    events = []
    for _ in range(20000):  # 100 s of scans with noise and spikes
        events += rig.sensing.feed(rig.board.frame(), rig.clock.advance(0.005))
    assert [e for e in events if isinstance(e, Occupancy)] == []


def test_a_real_change_is_reported_once_after_four_stable_frames():
    sensing = Sensing(GW, _flat_calibration())
    rng = random.Random(1)
    ch = GW.spots_of("D4")[0].channel

    def frame(level: float) -> list[int]:
        out = [round(32768 + rng.gauss(0, 24)) for _ in range(N)]
        out[ch] = round(level + rng.gauss(0, 24))
        return out

    for i in range(50):
        assert sensing.feed(frame(32768), i * 0.005) == []
    reports = []
    for i in range(50, 80):
        for event in sensing.feed(frame(28000), i * 0.005):
            reports.append((i, event))
    changes = [(i, e) for i, e in reports if isinstance(e, Occupancy)]
    assert changes == [(53, Occupancy("D4", {"criminal": 1}, 53 * 0.005))]
    settled = [(i, e.frames) for i, e in reports if isinstance(e, Settled)]
    # Five, then the long window's steady readings after the change (the change's
    # frame is the first the watch sees, so the long one ends LONG - 1 frames later).
    assert settled == [(57, 5), (52 + LONG, LONG)]


def test_glitches_shorter_than_the_debounce_are_ignored():
    sensing = Sensing(GW, _flat_calibration())
    ch = GW.spots_of("D4")[0].channel
    quiet = [32768] * N
    for i in range(200):
        frame = list(quiet)
        if i % 5 < 3:  # three bad frames in every five
            frame[ch] = 56000 if i % 2 else 20000
        assert sensing.feed(frame, i * 0.005) == []


def test_hysteresis_holds_a_magnet_near_the_threshold():
    sensing = Sensing(GW, _flat_calibration(noise=80))
    ch = GW.spots_of("D4")[0].channel
    rng = random.Random(3)
    frame = [32768] * N
    frame[ch] = 28000
    for i in range(10):
        sensing.feed(frame, i * 0.005)
    assert sensing.occupancy()["D4"] == {"criminal": 1}
    cut = 32768 - 0.35 * (32768 - 28000)  # right on the entry threshold, noisy
    for i in range(10, 2000):
        frame[ch] = round(cut + rng.gauss(0, 80))
        assert [e for e in sensing.feed(frame, i * 0.005) if isinstance(e, Occupancy)] == []


def test_a_fast_slide_is_seen_but_does_not_settle_on_the_cells_it_passes():
    rig = Rig.for_game("gw-brott", seed=5)
    rig.board.put("c", "criminal", "A1")
    rig.run(0.1)
    rest = rig.hands.slide("c", ["A2", "A3", "A4", "A5"], rig.now)
    events = []
    while rig.now < rest + 0.1:
        events += rig.sensing.feed(rig.board.frame(), rig.clock.advance(0.005))
    seen = [e.space for e in events if isinstance(e, Occupancy) and e.counts]
    assert seen == ["A2", "A3", "A4", "A5"]
    assert [e.space for e in events if isinstance(e, Settled) and e.frames == LONG] == ["A5"]


def test_several_spots_of_a_space_are_counted_per_kind():
    dredd = SensorMap.load("judge-dredd")
    board = PhysicalBoard(dredd, seed=3)
    sensing = Sensing(dredd, calibration_for("judge-dredd", 3))
    spots = dredd.spots_of("resyk")
    board.put("j1", "judge", (spots[0].x, spots[0].y))
    board.put("j2", "judge", (spots[2].x, spots[2].y))
    board.put("j3", "judge", "mega-mall")
    for _ in range(10):
        sensing.feed(board.frame(), board.clock.advance(0.005))
    occupancy = sensing.occupancy()
    assert occupancy["resyk"] == {"judge": 2}
    assert occupancy["mega-mall"] == {"judge": 1}
    assert sum(sum(c.values()) for c in occupancy.values()) == 3


def test_a_short_frame_is_refused():
    sensing = Sensing(GW, _flat_calibration())
    with pytest.raises(ValueError, match="readings"):
        sensing.feed([32768] * (N - 1), 0.0)


def _bob(sensing: Sensing, ch: int, level: float, bob: float, frames: int, t0: int) -> list:
    """``frames`` readings of a magnet at ``level`` bobbing by ``bob`` counts (a sine)."""
    events = []
    for i in range(frames):
        reading = level + bob * math.sin(math.pi * i / frames)
        frame = [32768] * N
        frame[ch] = round(reading)
        events += [(t0 + i, e) for e in sensing.feed(frame, (t0 + i) * 0.0025)]
    return events


def test_a_placed_magnet_settles_while_it_still_bobs_but_is_not_still_until_it_stops():
    sensing = Sensing(GW, _flat_calibration())
    ch = GW.spots_of("D4")[0].channel
    # A gw magnet set down bobs ~0.4 mm: its reading swings by ~13 % of the level.
    events = _bob(sensing, ch, 56000, -3000, 12, 0)
    short = [i for i, e in events if isinstance(e, Settled) and e.frames == 5]
    assert short and short[0] < 12  # landed: reported during the bob
    assert [e for _, e in events if isinstance(e, Settled) and e.frames == GW_LONG] == []
    events = _bob(sensing, ch, 56000, 0, GW_LONG + 2, 12)
    assert [e.frames for _, e in events if isinstance(e, Settled)] == [GW_LONG]


def test_each_kind_waits_its_own_long_window():
    sensing = Sensing(GW, _flat_calibration())
    assert GW_LONG < LONG  # the map gives GW's pair a shorter window than a criminal's
    for level, window in ((56000, GW_LONG), (32768 - 9000, LONG)):  # gw, then a criminal
        ch = GW.spots_of("D4" if level > 32768 else "F4")[0].channel
        events = _bob(sensing, ch, level, 0, 30, 100 if level > 32768 else 200)
        assert [e.frames for _, e in events if isinstance(e, Settled)] == [5, window]


def test_a_reading_still_climbing_faster_than_a_bob_is_not_landed():
    sensing = Sensing(GW, _flat_calibration())
    ch = GW.spots_of("D4")[0].channel
    events = []
    for i in range(12):  # a magnet sliding in: +1500 counts a scan, past the entry threshold
        frame = [32768] * N
        frame[ch] = 42000 + 1500 * i
        events += sensing.feed(frame, i * 0.0025)
    assert [e.space for e in events if isinstance(e, Occupancy)] == ["D4"]
    assert [e for e in events if isinstance(e, Settled)] == []


def test_a_slide_at_the_gw_boards_scan_rate_does_not_settle_on_the_cells_it_passes():
    rig = Rig.for_game("gw-brott", seed=5, rate=400.0)
    sensing = Sensing(GW, rig.sensing.calibration, rate=400.0)
    assert sensing.long_still_frames == LONG_400  # LONG_STILL_MS of scans, as LONG are at 200/s
    rig.board.put("c", "criminal", "A1")
    for _ in range(40):
        sensing.feed(rig.board.frame(), rig.clock.advance(0.0025))
    rest = rig.hands.slide("c", ["A2", "A3", "A4", "A5"], rig.now)
    events = []
    while rig.now < rest + 0.1:
        events += sensing.feed(rig.board.frame(), rig.clock.advance(0.0025))
    assert [e.space for e in events if isinstance(e, Settled) and e.frames == LONG_400] == ["A5"]


def test_the_long_window_spans_the_same_time_at_any_rate():
    assert Sensing(GW, _flat_calibration()).long_still_frames == LONG
    assert Sensing(GW, _flat_calibration(), rate=400.0).long_still_frames == LONG_400
    assert (LONG - 1) / 200.0 == (LONG_400 - 1) / 400.0 == LONG_STILL_MS / 1000


def test_a_magnet_creeping_to_rest_off_centre_is_still_before_it_stops_entirely():
    sensing = Sensing(GW, _flat_calibration(), rate=400.0)
    ch = GW.spots_of("D4")[0].channel
    frame = [32768] * N
    # 2 mm off centre (reading ~3000 under the level) creeping 0.005 mm a scan: the
    # reading still moves ~17 counts a scan, 250 over the window, past the tight spread.
    events = []
    for i in range(40):
        frame[ch] = round(53000 + 17 * min(i, 30))
        events += [(i, e) for e in sensing.feed(frame, i * 0.0025)]
    longs = [i for i, e in events if isinstance(e, Settled) and e.frames == GW_LONG_400]
    assert longs and longs[0] < 30  # still, while it creeps
