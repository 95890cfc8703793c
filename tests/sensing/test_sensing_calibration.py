"""Calibration: the guided flow, the file round trip, bad files."""

import json

import pytest

from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.sensing import Calibration, CalibrationError, Calibrator, Sensing
from lawmaster.host.sim.physics import PhysicalBoard, SimClock
from lawmaster.host.sim.rig import calibration_for, simulated_person_calibration

GW = SensorMap.load("gw-brott")


def test_guided_flow_asks_every_spot_with_progress():
    clock = SimClock()
    board = PhysicalBoard(GW, seed=11, clock=clock)
    prompts = []
    cal = simulated_person_calibration(board, clock, on_prompt=prompts.append)
    places = [p for p in prompts if p.step == "place"]
    assert len(places) == 2 * len(GW.spots)  # every spot, both kinds
    assert places[12].text.endswith("12 of 122 spots done")
    assert places[12].total == 122 and places[12].done == 12
    assert prompts[0].step == "empty" and prompts[-1].step == "done"
    assert cal.check() == []
    ch = GW.spots_of("C7")[0].channel
    assert cal.levels["criminal"][ch] < cal.baseline[ch] - 2000
    assert cal.levels["gw"][ch] > cal.baseline[ch] + 10000
    # The calibration sees each sensor's own offset.
    assert abs(cal.baseline[ch] - (32768 + board.offsets[ch])) < 10


def test_calibrator_says_wrong_spot_and_upside_down():
    clock = SimClock()
    board = PhysicalBoard(GW, seed=2, clock=clock)
    cal = Calibrator(GW, empty_frames=20)
    while cal.prompt.step == "empty":
        clock.advance(0.005)
        cal.feed(board.frame())
    # The calibrator asks for the spots in channel order; a magnet on the next spot is wrong.
    first, other = (s.space for s in sorted(GW.spots, key=lambda s: s.channel)[:2])
    assert cal.prompt.space == first and cal.prompt.kind == "criminal"
    board.put("m", "criminal", other)
    clock.advance(0.005)
    cal.feed(board.frame())
    assert other in cal.warning
    board.remove("m")
    board.put("m", "gw", first)  # south where a north-down criminal was asked
    clock.advance(0.005)
    cal.feed(board.frame())
    assert "upside down" in cal.warning
    assert cal.prompt.step == "place"


def test_round_trip_file_keeps_classification(tmp_path):
    cal = calibration_for("gw-brott", 0)
    path = tmp_path / "cal.json"
    cal.save(path)
    loaded = Calibration.load(path)
    assert loaded == cal or loaded.to_json() == cal.to_json()
    board = PhysicalBoard(GW, seed=0)
    board.put("c", "criminal", "C7")
    board.put("g", "gw", "J12")
    frames = []
    for _ in range(20):
        board.clock.advance(0.005)
        frames.append(list(board.frame()))
    a, b = Sensing(GW, cal), Sensing(GW, loaded)
    for frame in frames:
        assert a.classify(frame) == b.classify(frame)
        assert a.feed(frame, 0.0) == b.feed(frame, 0.0)
    assert a.occupancy() == b.occupancy()
    assert a.occupancy()["C7"] == {"criminal": 1} and a.occupancy()["J12"] == {"gw": 1}
    assert json.loads(path.read_text())["format"] == "lawmaster-calibration"


@pytest.mark.parametrize(
    "change, reason",
    [
        ({"format": "other"}, "not a Lawmaster"),
        ({"version": 9}, "version"),
        ({"baseline": [1.0]}, "baseline"),
        ({"noise": None}, "noise"),
        ({"levels": {}}, "levels"),
        ({"levels": {"criminal": ["x"] * 122, "gw": [1] * 122}}, "not a number"),
    ],
)
def test_bad_files_are_refused_with_a_reason(tmp_path, change, reason):
    data = calibration_for("gw-brott", 0).to_json()
    data.update(change)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(CalibrationError, match=reason):
        Calibration.load(path)


def test_sensing_refuses_a_calibration_missing_a_kind():
    cal = calibration_for("gw-brott", 0)
    partial = Calibration(cal.game, cal.board, cal.baseline, cal.noise, {"gw": cal.levels["gw"]})
    with pytest.raises(CalibrationError, match="criminal"):
        Sensing(GW, partial)
