"""``lawmaster selftest``: each sensor's idle voltage against its window, for a builder."""

from __future__ import annotations

import re

from click.testing import CliRunner

from lawmaster.firmware import protocol as p
from lawmaster.hardware.electronics.bringup import idle_window_counts
from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.commands.selftest import command, run_selftest
from lawmaster.host.link import SelfTestReport
from lawmaster.host.sensing.idle import rows, table, volts
from lawmaster.host.sim.physics import PhysicalBoard
from lawmaster.host.sim.pico import SimulatedPico

LINE = re.compile(
    r"^ +(\d+)  (\S+) +(\d\.\d{3})  (\d\.\d{3})-(\d\.\d{3}) V  (OK|OUT.*|no sensor.*)$"
)


def table_lines(output: str) -> dict[int, tuple[str, float, float, float, str]]:
    """The printed table's rows: channel → (space, idle V, window low V, high V, result)."""
    found = {}
    for line in output.splitlines():
        match = LINE.match(line)
        if match:
            ch, space, idle, low, high, result = match.groups()
            found[int(ch)] = (space, float(idle), float(low), float(high), result)
    return found


def spaces_of(sensor_map: SensorMap) -> list[str | None]:
    return sensor_map.space_of_channel()


def words(text: str) -> str:
    return " ".join(text.split())


def test_a_healthy_simulated_board_reads_every_sensor_inside_its_window() -> None:
    result = CliRunner().invoke(command, ["--simulated", "--game", "judge-dredd"])
    assert result.exit_code == 0, result.output
    sensor_map = SensorMap.load("judge-dredd")
    low, high = idle_window_counts(sensor_map)
    found = table_lines(result.output)
    assert sorted(found) == list(range(sensor_map.channels))
    spaces = sensor_map.space_of_channel()
    sensors = [ch for ch, space in enumerate(spaces) if space]
    # Channels follow the pieces: Judge Dredd's 114 sensors sit on 116 channels, the two
    # inputs without a sensor tied to ground, listed and not judged.
    assert len(sensors) == 114 and sensor_map.channels == 116
    for channel, (space, idle, w_low, w_high, verdict) in found.items():
        assert (w_low, w_high) == (round(volts(low), 3), round(volts(high), 3))
        if spaces[channel] is None:
            assert space == "-" and idle == 0 and verdict == "no sensor: input tied to ground"
            continue
        assert space == spaces[channel] and verdict == "OK"
        assert w_low <= idle <= w_high
    assert f"({low}-{high} counts)" in result.output
    assert "All 114 sensors idle inside the window." in result.output


def test_a_piece_left_on_the_board_is_out_and_said_in_words() -> None:
    result = CliRunner().invoke(
        command, ["--simulated", "--leave", "E5", "--leave", "jail", "--out-only"]
    )
    assert result.exit_code == 1, result.output
    gw = SensorMap.load("gw-brott")
    out = {s.channel for s in gw.spots if s.space in ("E5", "jail")}
    found = table_lines(result.output)
    assert set(found) <= out and {space for space, *_ in found.values()} == {"E5", "jail"}
    e5 = next(s.channel for s in gw.spots if s.space == "E5")
    space, idle, low, _, verdict = found[e5]
    below = re.fullmatch(r"OUT  (\d+) mV below", verdict)
    assert idle < low and below and abs(int(below[1]) - (low - idle) * 1000) <= 1.5
    text = words(result.output)
    assert f"{gw.channels - len(found)} of {gw.channels} sensors OK, {len(found)} OUT." in text
    assert f"{e5} (E5)" in text and "a north pole near this sensor" in text
    assert "the unipolar DRV5056 idles near 0.6 V" in text  # a wrong part, in words


def test_every_kind_of_fault_in_words() -> None:
    """A report as a broken board sends it: rails, a frozen input, a dead multiplexer."""
    gw = SensorMap.load("gw-brott")
    low, high = idle_window_counts(gw)
    readings = [0x8000] * gw.channels
    codes = [p.FAULT_NONE] * gw.channels
    readings[3], codes[3] = 0xFFFF, p.FAULT_HIGH_RAIL
    readings[5], codes[5] = 0, p.FAULT_LOW_RAIL
    readings[7], codes[7] = 0x7000, p.FAULT_NO_NOISE
    readings[9], codes[9] = high + 200, p.FAULT_OFFSET  # 10 mV over: just outside
    for channel in range(32, 48):  # the whole third multiplexer reads nothing
        readings[channel], codes[channel] = 0, p.FAULT_LOW_RAIL
    failed = {c: p.FAULT_NAMES[code] for c, code in enumerate(codes) if code}
    report = SelfTestReport(failed, gw.channels, 4, tuple(readings), tuple(codes), (low, high))
    text = table(report, gw)
    found = table_lines(text)
    assert found[3][4] == "OUT  stuck at the high rail"
    assert found[5][4] == "OUT  stuck at the low rail" and found[7][4] == "OUT  no noise"
    assert found[9][4] == "OUT  10 mV above" and found[0][4] == "OK"
    said = words(text)
    assert f"channel 3 ({spaces_of(gw)[3]}): stuck at the 3.3 V rail" in said
    assert "solder bridge between the sensor's VCC and OUT pins" in said
    assert f"channel 7 ({spaces_of(gw)[7]}): the same value in all 32 scans" in said
    assert "It is just outside" in said
    assert "every sensor of first-level multiplexer 2 (32-47) is OUT" in said
    spaces = gw.space_of_channel()
    dead = ", ".join(f"{c} ({spaces[c]})" for c in range(32, 48))
    assert f"channels 5 ({spaces[5]}), {dead}:" in said
    assert "A1 to A4" in said  # what it cannot see
    assert [r.channel for r in rows(report, gw) if not r.ok] == [3, 5, 7, 9, *range(32, 48)]


def test_a_scanner_that_kept_another_window_is_named() -> None:
    gw = SensorMap.load("gw-brott")
    report = SelfTestReport({}, gw.channels, 1, (0x8000,) * gw.channels, (0,) * gw.channels,
                            (30000, 35000))  # fmt: skip
    assert "not this board's" in words(table(report, gw))


def test_selftest_through_a_port_sends_the_boards_window() -> None:
    sensor_map = SensorMap.load("unamerican-graffiti")
    board = PhysicalBoard(sensor_map, seed=3)
    with SimulatedPico(frame=board.frame, channels=sensor_map.channels) as pico:
        report = run_selftest(sensor_map, pico.port, timeout=10)
    # The clock of this board never moves: every scan reads the same frame, frozen; the
    # inputs with no sensor (grounded: Graffiti's 77 sensors sit on 120 channels) read 0.
    assert report.window == idle_window_counts(sensor_map) and report.command_seq > 0
    spaces = sensor_map.space_of_channel()
    assert {report.failed[c] for c, s in enumerate(spaces) if s} == {"no noise"}
    assert {report.failed[c] for c, s in enumerate(spaces) if not s} == {"stuck at the low rail"}
    result = CliRunner().invoke(command, ["--game", "judge-dredd"])
    assert result.exit_code == 2 and "--port" in result.output
