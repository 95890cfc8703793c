"""host.link.Link over real ptys: the simulated Pico, and a hand-driven wire for bad input."""

from __future__ import annotations

import os
import select
import socket
import threading
import time
import tty
from collections.abc import Iterator

import pytest
from link_support import WAIT, wait_for

from lawmaster.firmware import protocol as p
from lawmaster.firmware.standin import rp2040_u16
from lawmaster.host.link import Link, LinkError, LinkStatus
from lawmaster.host.sim.pico import SimulatedPico


class Collector:
    """Thread-safe on_scan / on_status sink."""

    def __init__(self) -> None:
        self.frames: list[p.ScanFrame] = []
        self.statuses: list[LinkStatus] = []
        self.lock = threading.Lock()

    def scan(self, frame: p.ScanFrame) -> None:
        with self.lock:
            self.frames.append(frame)

    def status(self, status: LinkStatus) -> None:
        with self.lock:
            self.statuses.append(status)

    def seqs(self) -> list[int]:
        with self.lock:
            return [f.seq for f in self.frames]

    def states(self) -> list[str]:
        with self.lock:
            return [s.state for s in self.statuses]


def field(channel: int) -> int:
    return 0x8000 + channel * 97


@pytest.fixture
def pico() -> Iterator[SimulatedPico]:
    with SimulatedPico(field, channels=64) as simulated:
        yield simulated
    assert simulated.error is None


@pytest.fixture
def linked(pico: SimulatedPico) -> Iterator[tuple[SimulatedPico, Link, Collector]]:
    sink = Collector()
    link = Link(pico.port, sink.scan, on_status=sink.status)
    with link:
        assert link.wait_ready(WAIT)
        yield pico, link, sink


def test_scans_arrive_with_each_sensors_reading(linked) -> None:
    pico, link, sink = linked
    wait_for(lambda: len(sink.frames) >= 5)
    frame = sink.frames[-1]
    assert frame.readings == tuple(rp2040_u16(field(c)) for c in range(64))
    stats = link.stats
    assert (stats.version, stats.channels, stats.state) == (p.VERSION, 64, "ready")
    assert stats.frames_bad == 0 and stats.seq_gaps == 0
    assert sink.states()[-1] == "ready"


def test_a_frame_source_is_sampled_once_per_scan() -> None:
    calls = []

    def frame() -> list[int]:
        calls.append(1)
        return [0x8000 - 50 * c for c in range(32)]

    sink = Collector()
    with SimulatedPico(frame=frame, channels=32) as pico, Link(pico.port, sink.scan) as link:
        wait_for(lambda: len(sink.frames) >= 5)
        assert sink.frames[-1].readings == tuple(rp2040_u16(0x8000 - 50 * c) for c in range(32))
        scans = pico.scans + pico.firmware.selftest_scans  # the boot self-test scans too
        assert scans <= len(calls) <= scans + 1 and link.stats.frames_bad == 0


def test_ping_gets_a_pong(linked) -> None:
    _, link, _ = linked
    assert link.ping() is not None
    reply = link.request(p.PING)
    assert isinstance(reply, p.PongFrame)


def test_rate_change_is_acknowledged_and_paces_the_device(linked) -> None:
    pico, link, sink = linked
    ack = link.request(p.RATE, 20)
    assert isinstance(ack, p.AckFrame) and ack.command == p.RATE
    assert pico.firmware.rate == 20
    wait_for(lambda: len([s for s in sink.seqs() if s > ack.seq]) >= 12)
    with sink.lock:
        after = [f for f in sink.frames if f.seq > ack.seq][1:12]
    # Device clock, averaged: lateness can only lengthen intervals, never shorten them much.
    mean_us = ((after[-1].timestamp_us - after[0].timestamp_us) % 2**32) / (len(after) - 1)
    assert mean_us >= 0.75 * 50_000
    error = link.request(p.RATE, 0)  # 0 = free-running, valid
    assert isinstance(error, p.AckFrame)
    with pytest.raises(ValueError):
        link.send_command(p.RATE, p.MAX_RATE + 1)


def test_stop_halts_scans_and_start_resumes_them(linked) -> None:
    pico, link, sink = linked
    stopped = link.request(p.STOP)
    assert isinstance(stopped, p.AckFrame)
    time.sleep(0.5)
    assert all(seq < stopped.seq for seq in sink.seqs())
    started = link.request(p.START)
    assert isinstance(started, p.AckFrame)
    wait_for(lambda: any(seq > started.seq for seq in sink.seqs()))


def test_unplug_and_replug_without_restarting_the_link(linked) -> None:
    pico, link, sink = linked
    link.request(p.RATE, 100)
    wait_for(lambda: len(sink.frames) >= 3)
    pico.unplug()
    assert not os.path.exists(pico.port) and pico.device is None
    wait_for(lambda: not link.ready)
    with pytest.raises(LinkError):  # may take a moment for the link to notice
        wait_for(lambda: link.stats.state == "connecting")
        link.send_command(p.PING)
    time.sleep(0.5)  # the link retries against a missing path meanwhile
    pico.replug()
    wait_for(lambda: link.ready)
    count = len(sink.frames)
    wait_for(lambda: len(sink.frames) >= count + 5)
    stats = link.stats
    assert stats.reconnects == 1 and pico.boots == 2
    assert os.path.realpath(pico.port) == pico.device  # (pty numbers get reused)
    assert stats.device_restarts == 1  # seq restarted from 0 after the power cycle
    assert pico.firmware.rate == 100  # the link re-sent the rate after reconnecting
    assert "connecting" in sink.states()[2:] and sink.states()[-1] == "ready"


def test_callback_errors_are_counted_and_the_link_carries_on(pico: SimulatedPico) -> None:
    calls: list[int] = []

    def flaky(frame: p.ScanFrame) -> None:
        calls.append(frame.seq)
        if len(calls) == 2:
            raise RuntimeError("downstream bug")

    with Link(pico.port, flaky) as link:
        wait_for(lambda: len(calls) >= 5)
        assert link.stats.callback_errors == 1


# ---------------------------------------------------------------- a hand-driven wire


class Wire:
    """The device end of a pty, written by the test frame by frame."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.decoder = p.Decoder()
        self.seq = 0

    def close(self) -> None:
        os.close(self.master)
        os.close(self.slave)

    def send(self, data: bytes | bytearray) -> None:
        os.write(self.master, bytes(data))

    def next_seq(self) -> int:
        self.seq += 1
        return self.seq

    def hello(self, version: int = p.VERSION, channels: int = 4) -> None:
        self.send(p.encode_hello(self.next_seq(), channels, 200, True, version=version))

    def scan(self, seq: int | None = None, channels: int = 4) -> None:
        self.seq = self.next_seq() if seq is None else seq
        self.send(p.encode_scan(self.seq, self.seq * 5000, 300, [0x8008] * channels))

    def wait_command(self, kind: int) -> p.CommandFrame:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            readable, _, _ = select.select([self.master], [], [], 0.1)
            if not readable:
                continue
            for frame in self.decoder.feed(os.read(self.master, 4096)):
                if frame.kind == kind:
                    return frame
        raise AssertionError(f"no {p.TYPE_NAMES[kind]} from the host")


@pytest.fixture
def wire() -> Iterator[Wire]:
    w = Wire()
    yield w
    w.close()


def test_garbage_bad_crc_gaps_and_wrong_channel_counts_are_counted(wire: Wire) -> None:
    sink = Collector()
    with Link(wire.path, sink.scan, on_status=sink.status) as link:
        wire.wait_command(p.START)
        wire.hello()
        wire.scan(2)
        wire.scan(3)
        wire.send(b"\x01\x02\xff\xfe garbage \x00")
        wire.scan(4)
        body = p.cobs_decode(p.encode_scan(5, 1, 1, [1, 2, 3, 4])[:-1])
        body[15] ^= 0x10  # a bit error in a reading: framing intact, CRC wrong
        wire.send(p.cobs_encode(body) + b"\x00")  # so seq 5 is lost
        wire.scan(8)  # 6 and 7 never sent
        wire.scan(9, channels=5)  # disagrees with HELLO
        wire.scan(10)
        wait_for(lambda: 10 in sink.seqs())
        stats = link.stats
    assert sink.seqs() == [2, 3, 4, 8, 10]
    assert stats.frames_bad == 3 and stats.bad_crc == 1 and stats.bad_channels == 1
    assert stats.seq_gaps == 1 and stats.frames_missed == 3  # 5, 6, 7
    assert stats.last_seq == 10 and stats.scans == 5


def test_incompatible_version_is_rejected_and_reported(wire: Wire) -> None:
    sink = Collector()
    with Link(wire.path, sink.scan, on_status=sink.status) as link:
        wire.wait_command(p.START)
        wire.hello(version=99)
        wait_for(lambda: "incompatible" in sink.states())
        for _ in range(3):
            wire.scan()
        wait_for(lambda: link.stats.ignored >= 3)
        assert sink.frames == [] and not link.ready
        assert "99" in sink.statuses[-1].detail
        wire.wait_command(p.START)  # the link keeps asking
        wire.hello()  # firmware updated: now compatible
        wait_for(lambda: link.ready)
        wire.scan()
        wait_for(lambda: len(sink.frames) == 1)
        assert link.stats.version == p.VERSION


def test_scans_before_the_handshake_are_not_delivered(wire: Wire) -> None:
    sink = Collector()
    with Link(wire.path, sink.scan) as link:
        wire.wait_command(p.START)
        wire.scan()
        wire.scan()
        wait_for(lambda: link.stats.ignored == 2)
        wire.hello()
        wire.scan()
        wait_for(lambda: len(sink.frames) == 1)


def test_scanner_reboot_behind_an_open_port_is_restarted(wire: Wire) -> None:
    sink = Collector()
    with Link(wire.path, sink.scan, stale_after=600) as link:
        wire.wait_command(p.START)
        wire.hello()
        wire.scan()
        wait_for(lambda: len(sink.frames) == 1)
        wire.seq = -1
        wire.send(b"\x00" + p.encode_hello(wire.next_seq(), 4, 200, False))  # boot HELLO
        wire.wait_command(p.START)
        wire.hello()
        wire.scan()
        wait_for(lambda: len(sink.frames) == 2)
        assert link.stats.device_restarts == 1 and link.stats.seq_gaps == 0


def test_pyserial_urls_work() -> None:
    # loop:// echoes our own commands back: valid frames, host direction, ignored.
    with Link("loop://", lambda frame: None) as link:
        wait_for(lambda: link.stats.ignored >= 2)
        assert not link.ready and link.stats.frames_bad == 0


def test_socket_url_and_reconnect_after_the_server_drops(tmp_path) -> None:
    """``socket://`` (a scanner behind ser2net, say): frames in, and back after a drop."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(WAIT)
    url = f"socket://127.0.0.1:{server.getsockname()[1]}"
    sink = Collector()

    def serve_once(first_seq: int) -> None:
        conn, _ = server.accept()
        with conn:
            decoder = p.Decoder()
            conn.settimeout(WAIT)
            while True:
                data = conn.recv(4096)
                assert data, "the link closed the connection before START"
                if any(f.kind == p.START for f in decoder.feed(data)):
                    break
            conn.sendall(bytes(p.encode_hello(first_seq, 2, 200, True)))
            for seq in range(first_seq + 1, first_seq + 4):
                conn.sendall(bytes(p.encode_scan(seq, seq, 1, [1, 2])))
            wait_for(lambda: len([s for s in sink.seqs() if s > first_seq]) == 3)

    with server, Link(url, sink.scan, on_status=sink.status) as link:
        serve_once(0)  # then the connection closes: the link must come back
        serve_once(100)
        assert sink.seqs() == [1, 2, 3, 101, 102, 103]
        assert link.stats.reconnects == 1
