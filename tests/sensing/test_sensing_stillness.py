"""The long stillness window and the creep allowance, recomputed from the field tables."""

import pytest

from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.sensing.sensing import CURVATURE, LONG_STILL_MS, long_window_frames
from lawmaster.host.sensing.stillness import crossing_still_ms, curvature, kind_crossing_still_ms

GAMES = ("gw-brott", "judge-dredd", "unamerican-graffiti")


@pytest.mark.parametrize("game", GAMES)
def test_the_long_window_outlasts_a_careful_slide_crossing_a_centre(game):
    assert crossing_still_ms(SensorMap.load(game)) < LONG_STILL_MS


def test_the_long_window_is_the_shortest_whole_scan_that_does():
    # One scan (5 ms at 200 scans/s) less would let some board's careful slide settle
    # on a cell it passes: the window costs a slide's settle latency no more than that.
    worst = max(crossing_still_ms(SensorMap.load(g)) for g in GAMES)
    assert worst >= LONG_STILL_MS - 5.0
    assert long_window_frames(LONG_STILL_MS, 200.0) == 14


@pytest.mark.parametrize("game", GAMES)
def test_each_kinds_own_window_outlasts_its_crossing_by_less_than_a_scan(game):
    # A kind's own window (its map's long_still_ms) is what the sensing waits for a
    # magnet of that kind that arrived sliding: it must outlast that kind's careful
    # crossing, and be no more than one scan at 200 scans/s longer than it needs.
    sensor_map = SensorMap.load(game)
    for name, kind in sensor_map.kinds.items():
        assert kind.long_still_ms is not None, name
        crossing = kind_crossing_still_ms(sensor_map, name)
        assert crossing < kind.long_still_ms <= crossing + 5.0, (name, crossing)
        assert kind.long_still_ms <= LONG_STILL_MS


def test_the_creep_allowance_is_the_steepest_kinds_curvature():
    # Below the steepest kind's, that kind's creep to rest would be taken for motion;
    # above it, a slide would look still further off a centre than the fields allow.
    worst = max(curvature(m, k) for m in map(SensorMap.load, GAMES) for k in m.kinds)
    assert worst <= CURVATURE < worst * 1.01
