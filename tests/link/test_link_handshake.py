"""The link against the scanner's layout, lost frames and self-test, over real ptys."""

from __future__ import annotations

import array
import os
import random
import select
import time
import tty
from collections.abc import Iterator

import pytest
from link_support import WAIT, wait_for

from lawmaster.firmware import config as fw_config
from lawmaster.firmware import protocol as p
from lawmaster.hardware.electronics.bringup import idle_window_counts
from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.link import Link, LinkStatus, SelfTestReport
from lawmaster.host.sim.physics import PhysicalBoard
from lawmaster.host.sim.pico import SimulatedPico


class Wire:
    """The device end of a pty, speaking the protocol frame by frame."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.decoder = p.Decoder()
        self.writer = p.FrameWriter()
        self.seq = -1
        self.seen: list[p.Frame] = []

    def close(self) -> None:
        os.close(self.master)
        os.close(self.slave)

    def next_seq(self) -> int:
        self.seq += 1
        return self.seq

    def send(self, data: bytes | bytearray | memoryview) -> None:
        os.write(self.master, bytes(data))

    def hello(self, channels: int, capacity: int = 256) -> None:
        self.send(p.encode_hello(self.next_seq(), channels, 200, True, capacity=capacity))

    def key(self, readings: list[int], t: int = 0) -> None:
        a = array.array("H", readings)
        for first in range(0, len(a), p.KEY_PART):
            count = min(p.KEY_PART, len(a) - first)
            flags = p.LAST if first + count == len(a) else 0
            self.send(self.writer.key(self.next_seq(), t, 100, flags, a, first, count))

    def delta(self, changes: list[tuple[int, int]], t: int = 0, seq: int | None = None) -> None:
        packed = bytearray()
        for channel, reading in changes:
            packed += channel.to_bytes(2, "little") + reading.to_bytes(2, "little")
        self.seq = self.next_seq() if seq is None else seq
        self.send(self.writer.delta(self.seq, t, 100, p.LAST, packed, 0, len(changes)))

    def wait_command(self, kind: int) -> p.CommandFrame:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            readable, _, _ = select.select([self.master], [], [], 0.1)
            if not readable:
                continue
            for frame in self.decoder.feed(os.read(self.master, 4096)):
                self.seen.append(frame)
                if frame.kind == kind:
                    return frame
        raise AssertionError(f"no {p.TYPE_NAMES[kind]} from the host")


@pytest.fixture
def wire() -> Iterator[Wire]:
    w = Wire()
    yield w
    w.close()


class Sink:
    def __init__(self) -> None:
        self.scans: list[p.ScanFrame] = []
        self.statuses: list[LinkStatus] = []
        self.reports: list[SelfTestReport] = []

    def states(self) -> list[str]:
        return [s.state for s in self.statuses]


def test_a_hello_that_is_not_the_maps_layout_is_refused_until_one_is(wire: Wire) -> None:
    sink = Sink()
    link = Link(
        wire.path,
        sink.scans.append,
        on_status=sink.statuses.append,
        expect_channels=122,
        handshake_interval=0.2,
    )
    with link:
        layout = wire.wait_command(p.LAYOUT)
        assert layout.args == (122, 8)  # the map's channels, on channel // 16 multiplexers
        wire.wait_command(p.START)
        wire.hello(256)  # an old scanner that ignored LAYOUT
        wait_for(lambda: "mismatch" in sink.states())
        detail = sink.statuses[-1].detail
        assert "256 channels on 16 multiplexers" in detail and "122 channels on 8" in detail
        wire.key([0x8000] * 256)
        wait_for(lambda: link.stats.ignored >= 1)
        assert sink.scans == [] and not link.ready
        wire.wait_command(p.LAYOUT)  # it keeps asking
        wire.wait_command(p.START)
        wire.hello(122)
        wait_for(lambda: link.ready)
        wire.key([0x8008] * 122)
        wait_for(lambda: len(sink.scans) == 1)
        assert sink.scans[0].readings == (0x8008,) * 122
        assert link.stats.mismatches >= 1 and sink.states()[-1] == "ready"


def test_the_link_asks_the_scanner_for_the_maps_channels() -> None:
    sink = Sink()
    # 16 multiplexers wired, 256 channels at boot
    with (
        SimulatedPico() as pico,
        Link(pico.port, sink.scans.append, expect_channels=122) as link,
    ):
        assert link.wait_ready(WAIT)
        wait_for(lambda: len(sink.scans) >= 3)
        assert len(sink.scans[-1].readings) == 122
        assert (link.hello.channels, link.hello.muxes) == (122, 8)
        assert pico.firmware.scanner.channels == 122


def test_a_scanner_too_small_for_the_map_is_reported_and_asked_again() -> None:
    sink = Sink()
    small = {"bank_select_pins": [], "adc_pins": [26, 27, 28], "muxes": 3, "channels": 48}
    with SimulatedPico(config=small) as pico:
        link = Link(
            pico.port,
            sink.scans.append,
            on_status=sink.statuses.append,
            expect_channels=122,
            handshake_interval=0.2,
        )
        with link:
            wait_for(lambda: link.stats.mismatches >= 3)
            assert not link.ready and sink.scans == []
            assert "at most 48" in sink.statuses[-1].detail
            assert link.stats.device_errors >= 3  # each LAYOUT refused by the scanner


def test_a_lost_change_frame_stops_delivery_until_a_keyframe(wire: Wire) -> None:
    sink = Sink()
    with Link(wire.path, sink.scans.append) as link:
        wire.wait_command(p.START)
        wire.hello(4)
        wait_for(lambda: link.ready)
        wire.delta([(0, 9)])  # before any keyframe: nothing to apply it to
        wire.key([1, 2, 3, 4], t=10)
        wire.delta([(1, 20)], t=20)
        wait_for(lambda: len(sink.scans) == 2)
        wire.delta([(2, 30)], t=40, seq=wire.seq + 2)  # the frame before it was lost
        wire.delta([(3, 40)], t=50)
        wire.wait_command(p.KEYFRAME)
        assert len(sink.scans) == 2
        wire.key([5, 6, 7, 8], t=60)
        wire.delta([(0, 50)], t=70)
        wait_for(lambda: len(sink.scans) == 4)
        stats = link.stats
    assert [s.readings for s in sink.scans] == [
        (1, 2, 3, 4),
        (1, 20, 3, 4),
        (5, 6, 7, 8),
        (50, 6, 7, 8),
    ]
    assert [s.timestamp_us for s in sink.scans] == [0, 10, 50, 60]  # device µs, unwrapped
    assert stats.resyncs == 1 and stats.keyframes == 2 and stats.seq_gaps == 1


def test_selftest_on_demand_names_each_failed_channel() -> None:
    rng = random.Random(1)

    def field(channel: int) -> int:
        if channel == 5:
            return 0xFFFF  # a sensor output shorted to 3V3
        if channel == 9:
            return 0x8000  # frozen
        return 0x8000 + rng.randrange(-40, 40)

    sink = Sink()
    with (
        SimulatedPico(field, channels=32) as pico,
        Link(pico.port, sink.scans.append, on_selftest=sink.reports.append) as link,
    ):
        assert link.wait_ready(WAIT)
        # The host may change the band and the keyframe interval; the link keeps them.
        ack = link.request(p.MODE, args=(p.MODE_CHANGES, 64, 500))
        assert isinstance(ack, p.AckFrame) and pico.firmware.keyframe_ms == 500
        report = link.selftest()
        assert report is not None and report.channels == 32
        assert dict(report.failed) == {5: "stuck at the high rail", 9: "no noise"}
        assert report in sink.reports
        count = len(sink.scans)
        wait_for(lambda: len(sink.scans) > count + 3)  # scanning carries on
    unplugged = Link("/nonexistent/scanner", lambda frame: None)
    assert unplugged.selftest(0.1) is None


def test_the_boot_selftest_report_reaches_on_selftest(wire: Wire) -> None:
    sink = Sink()
    with Link(wire.path, sink.scans.append, on_selftest=sink.reports.append):
        wire.wait_command(p.START)
        readings = [0x8000 + c for c in range(122)]
        codes = [p.FAULT_NO_NOISE if c < 100 else 0 for c in range(122)]
        frames = p.encode_selftest(wire.seq + 1, 0, (30901, 34635), readings, codes)
        # A report cut short (its last part lost) is dropped; the next whole one arrives.
        wire.next_seq()
        wire.send(frames[0])
        wire.seq += 1
        for frame in p.encode_selftest(wire.seq + 1, 0, (30901, 34635), readings, codes):
            wire.next_seq()
            wire.send(frame)
        wait_for(lambda: len(sink.reports) == 1)
    (report,) = sink.reports
    assert (report.command_seq, report.channels, report.window) == (0, 122, (30901, 34635))
    assert report.failed == {c: "no noise" for c in range(100)}
    assert report.readings == tuple(readings) and report.codes == tuple(codes)


def test_the_link_sends_the_boards_idle_window_and_reads_every_channels_idle() -> None:
    """The CPython firmware on a simulated GW:s brott board, judged by bringup's window."""
    sensor_map = SensorMap.load("gw-brott")
    window = idle_window_counts(sensor_map)
    board = PhysicalBoard(sensor_map, seed=4, clock=time.monotonic)
    sink = Sink()
    with (
        SimulatedPico(frame=board.frame, channels=sensor_map.channels) as pico,
        Link(
            pico.port,
            sink.scans.append,
            on_selftest=sink.reports.append,
            expect_channels=sensor_map.channels,
            idle_window=window,
        ) as link,
    ):
        assert link.wait_ready(WAIT)
        assert (pico.firmware.idle_low, pico.firmware.idle_high) == window
        # The boot test judged by the firmware's default window (if the port was opened
        # soon enough to hear it: opening it flushes what was said before), then, the
        # handshake's IDLE having changed it, the boot test again by the board's own.
        wait_for(lambda: any(r.window == window for r in sink.reports))
        *before, healthy = sink.reports
        assert [r.window for r in before] in ([], [fw_config.IDLE_WINDOW])
        assert (healthy.channels, healthy.command_seq, dict(healthy.failed)) == (122, 0, {})
        assert all(window[0] <= r <= window[1] for r in healthy.readings)
        assert all(abs(r - board.clean_reading(c)) < 64 for c, r in enumerate(healthy.readings))

        # A piece left standing on a space: its sensor idles far out of the window.
        spot = sensor_map.spots[40]
        board.put("left behind", next(iter(sensor_map.kinds)), spot.space)
        report = link.selftest(WAIT)
        assert report is not None and report.window == window
        assert set(report.failed) == {spot.channel}
        assert report.failed[spot.channel] == "idle reading outside its window"
        assert report.codes[spot.channel] == p.FAULT_OFFSET
        assert not window[0] <= report.readings[spot.channel] <= window[1]
        assert link.stats.device_errors == 0
