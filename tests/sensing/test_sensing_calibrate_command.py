"""``lawmaster calibrate``: the guided flow, simulated and through a (simulated) scanner."""

import time

import click
import pytest
from click.testing import CliRunner

from lawmaster.hardware.electronics.bringup import idle_window_counts
from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.commands.calibrate import _calibrate_port, command
from lawmaster.host.sensing import Calibration
from lawmaster.host.sim.physics import PhysicalBoard, SimClock
from lawmaster.host.sim.pico import SimulatedPico


def test_simulated_calibration_shows_progress_and_saves(tmp_path):
    out = tmp_path / "cal.json"
    result = CliRunner().invoke(command, ["--simulated", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "Take every magnet off the board" in result.output
    # The flow walks the spots in channel order (the order the sensor pieces number them).
    order = sorted(SensorMap.load("gw-brott").spots, key=lambda s: s.channel)
    twelfth = order[11]
    assert (
        f"Put a criminal on {twelfth.space} [channel {twelfth.channel}]: 11 of 122 spots done"
        in result.output
    )
    assert f"Put a gw on {order[0].space} [channel {order[0].channel}]" in result.output
    assert f"Saved {out}" in result.output
    calibration = Calibration.load(out)
    assert calibration.channels == 122 and set(calibration.levels) == {"criminal", "gw"}
    assert calibration.check() == []


def test_other_games_and_a_missing_port(tmp_path):
    out = tmp_path / "graffiti.json"
    runner = CliRunner()
    result = runner.invoke(
        command, ["--simulated", "--quiet", "--game", "unamerican-graffiti", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert set(Calibration.load(out).levels) == {"scrawler", "judge"}
    result = runner.invoke(command, ["--out", str(out)])
    assert result.exit_code == 2 and "--port" in result.output


def test_calibration_through_the_firmware_and_the_link():
    gw = SensorMap.load("gw-brott")
    small = SensorMap.from_data(
        {
            "game": "gw-brott",
            "board": "four",
            "sensor": dict(gw.sensor.__dict__),
            "kinds": {
                k.name: {"polarity": k.polarity, "magnets": [m.__dict__ for m in k.magnets]}
                for k in gw.kinds.values()
            },
            "spots": [
                {"channel": i, "space": name, "x_mm": 12.5 + 25 * i, "y_mm": 12.5}
                for i, name in enumerate(["A1", "B1", "C1", "D1"])
            ],
        }
    )
    clock = SimClock()
    board = PhysicalBoard(small, seed=1, clock=clock)
    # A person with a steady rhythm: board clear for 2 s (the scanner's self-tests, at
    # boot and before the calibration, and the empty board's 100 scans, 5 ms apart),
    # then each spot in turn.
    plan = [(k, s) for k in small.kinds for s in small.spots]

    def scan() -> list[int]:
        t = clock.advance(0.005)
        step, phase = divmod(t - 2.0, 0.7)
        board.remove("m")
        if t >= 2.0 and step < len(plan) and phase < 0.4:
            kind, spot = plan[int(step)]
            board.put("m", kind, (spot.x, spot.y))
        return board.frame()

    shown = []
    said: list[str] = []
    with SimulatedPico(frame=scan, channels=16) as pico:
        calibration = _calibrate_port(small, pico.port, shown.append, timeout=30, say=said.append)
    # The self-test came first and found every sensor idle inside its window.
    assert said == [
        "Self-test: all 4 sensors idle inside their window"
        f" ({idle_window_counts(small)[0]}-{idle_window_counts(small)[1]} counts)."
    ]
    assert [p.step for p in shown][:2] == ["empty", "place"]
    assert shown[-1].step == "done"
    for ch in range(4):
        assert calibration.levels["criminal"][ch] < calibration.baseline[ch] - 2000
        assert calibration.levels["gw"][ch] > calibration.baseline[ch] + 10000


def test_calibration_through_a_scanner_starts_with_its_self_test():
    """A piece left on the board: the self-test names its channel before calibrating."""
    gw = SensorMap.load("gw-brott")
    board = PhysicalBoard(gw, seed=2, clock=time.monotonic)
    board.put("left behind", "criminal", "C3")
    said: list[str] = []
    with (
        SimulatedPico(frame=board.frame, channels=gw.channels) as pico,
        pytest.raises(click.ClickException, match="timed out"),
    ):
        _calibrate_port(gw, pico.port, lambda prompt: None, timeout=0.5, say=said.append)
    text = "\n".join(said)
    channel = next(s.channel for s in gw.spots if s.space == "C3")
    assert f"{channel:>7}  C3 " in text and "121 of 122 sensors OK, 1 OUT" in text
    words = " ".join(text.split())
    assert "a magnet or piece left on or near this spot" in words
    assert f"lawmaster selftest --port {pico.port}" in words
