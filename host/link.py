"""The host's serial link to the scanner: frames in, commands out, survives unplugging.

``Link`` owns one background thread that opens the port (any pyserial URL:
a device path, ``socket://host:port``, ``loop://``), handshakes, decodes frames
with :mod:`lawmaster.firmware.protocol` and hands each SCAN frame to
``on_scan``. Bad frames are dropped and counted; a vanished port is reopened
until it comes back, and the handshake is redone, without restarting anything.

Handshake: on every (re)connect the link sends PING, RATE (if a rate was set),
MODE (change-only or full frames), IDLE (when it knows the board's idle window,
``idle_window``: the self-test judges every channel against it), LAYOUT (when it
knows the sensor map's channel count, ``expect_channels``) and START, and waits
for HELLO. Scans are delivered
only after a HELLO whose version is in ``SUPPORTED_VERSIONS`` and whose layout
matches the map's; an incompatible HELLO (state ``"incompatible"``) or a
mismatched one (state ``"mismatch"``, with the counts in words) is reported
through ``on_status``, its scans are ignored, and the link keeps handshaking
until a good HELLO comes.

Scans arrive as keyframes and change-only frames; :class:`~lawmaster.host.link_scans.ScanAssembler`
rebuilds one full :class:`ScanFrame` per scan for ``on_scan``. After a ``seq``
gap (a frame lost) nothing is delivered until a fresh keyframe, which the link
asks for (KEYFRAME).

The scanner's self-test (at boot, and on :meth:`Link.selftest`) arrives as a
:class:`SelfTestReport` through ``on_selftest``: every channel's mean idle reading,
its verdict, and the window it was judged against.

Example::

    with SimulatedPico(board.read, channels=board.channels) as pico:
        link = Link(pico.port, lambda frame: queue.put(frame.readings)).start()
        link.wait_ready()
        link.request(protocol.RATE, 100)   # -> AckFrame (or ErrorFrame / None)
        print(link.ping(), link.stats)
        link.stop()
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import threading
import time
from collections.abc import Callable, Mapping

import serial

from lawmaster.firmware import protocol
from lawmaster.firmware.app import DEADBAND, KEYFRAME_MS
from lawmaster.firmware.protocol import (
    AckFrame,
    DeltaFrame,
    ErrorFrame,
    Frame,
    HelloFrame,
    KeyFrame,
    PongFrame,
    ScanFrame,
    SelfTestFrame,
)
from lawmaster.host.link_scans import ScanAssembler

__all__ = ["Link", "LinkError", "LinkStats", "LinkStatus", "ScanFrame", "SelfTestReport"]

log = logging.getLogger(__name__)

_SEQ_MOD = protocol.SEQ_MOD
#: Inputs per first-level multiplexer in every sensor map (channel // 16 is the mux).
MAP_INPUTS = 16
#: Seconds between two KEYFRAME requests while the link waits to resync.
KEYFRAME_RETRY = 0.25


class LinkError(ConnectionError):
    """A command could not be sent: the scanner is not connected."""


@dataclasses.dataclass(frozen=True)
class SelfTestReport:
    """The scanner's self-test of ``channels`` channels: each failed one with a reason.

    Reasons are ``protocol.FAULT_NAMES``' words: "stuck at the high rail", "stuck at
    the low rail", "no noise", "idle reading outside its window" (a magnet standing
    on a spot during the test also reads so). ``readings`` holds every channel's
    mean idle reading (u16 counts), ``codes`` its verdict (0: good, else a
    ``protocol.FAULT_*``), ``window`` the (low, high) counts it was judged against.
    ``command_seq`` is 0 for the test the scanner runs at boot.
    """

    failed: Mapping[int, str]
    channels: int
    command_seq: int = 0
    readings: tuple[int, ...] = ()
    codes: tuple[int, ...] = ()
    window: tuple[int, int] = (0, 0xFFFF)


@dataclasses.dataclass(frozen=True)
class LinkStatus:
    """A change of the link's state, passed to ``on_status``.

    ``state`` is one of ``"connecting"`` (port not open yet / gone), ``"connected"``
    (port open, waiting for HELLO), ``"ready"`` (compatible HELLO, scans flow),
    ``"incompatible"`` (HELLO with a version this host cannot read), ``"mismatch"``
    (the scanner's channels or multiplexers are not the sensor map's; ``detail``
    says both) or ``"stopped"``.
    """

    state: str
    detail: str = ""


@dataclasses.dataclass
class LinkStats:
    """Counters since ``Link`` was created (a snapshot; ``Link.stats`` copies it)."""

    frames_ok: int = 0
    """Valid frames received (all types)."""
    frames_bad: int = 0
    """Frames dropped: bad CRC, bad length, unknown type, bad COBS, wrong channel count."""
    bad_crc: int = 0
    bad_length: int = 0
    bad_type: int = 0
    bad_cobs: int = 0
    bad_channels: int = 0
    """SCAN frames whose channel count differs from the HELLO's."""
    scans: int = 0
    """SCAN frames handed to ``on_scan``."""
    ignored: int = 0
    """Valid frames not delivered: scans before a compatible HELLO, host-direction frames."""
    reconnects: int = 0
    """Times the port was reopened after being lost."""
    last_seq: int | None = None
    """``seq`` of the last valid frame from the device."""
    seq_gaps: int = 0
    """Times the device's ``seq`` skipped ahead (frames lost in transit)."""
    frames_missed: int = 0
    """Frames lost in those gaps."""
    device_restarts: int = 0
    """Times ``seq`` went backwards (the scanner rebooted)."""
    device_errors: int = 0
    """ERROR frames received."""
    keyframes: int = 0
    """Complete keyframes received."""
    deltas: int = 0
    """Change-only (DELTA) frames applied."""
    resyncs: int = 0
    """Times the link lost its copy of the channels and asked for a keyframe."""
    mismatches: int = 0
    """HELLOs refused because their layout is not the sensor map's."""
    selftests: int = 0
    """Self-test reports received."""
    scan_us: int | None = None
    """How long the scanner took over its last scan (µs, its own clock)."""
    scan_us_max: int = 0
    """The longest scan it reported: over 1/rate, and it cannot keep its rate."""
    callback_errors: int = 0
    """Exceptions raised by ``on_scan`` (logged, the link carries on)."""
    version: int | None = None
    """Protocol version from the last HELLO."""
    channels: int | None = None
    """Channel count from the last compatible HELLO."""
    state: str = "stopped"


class Link:
    """Reads scanner frames from ``port`` on a background thread.

    ``on_scan(frame)`` and ``on_status(status)`` run on that thread: keep them quick
    (hand work to a queue), and do not call ``request``/``ping``/``wait_reply`` from
    them (the reply would have to be read by the very thread that is waiting).
    ``baudrate`` matters only for real UARTs; the Pico's USB CDC and ptys ignore it.
    ``expect_channels``: the sensor map's channel count; the scanner is asked for that
    layout, and a HELLO that does not match is refused. ``full_frames``: every scan as
    a keyframe (calibration) instead of change-only frames with ``deadband`` (u16
    counts) and a keyframe every ``keyframe_ms``. ``on_selftest(report)`` runs on the
    link's thread for every self-test report (the boot one included). ``idle_window``:
    the (low, high) counts a good sensor idles in on this board
    (``lawmaster.hardware.electronics.bringup.idle_window_counts``), sent at every
    handshake for the self-test to judge by.
    """

    def __init__(
        self,
        port: str,
        on_scan: Callable[[ScanFrame], None],
        *,
        baudrate: int = 115200,
        on_status: Callable[[LinkStatus], None] | None = None,
        retry_interval: float = 0.2,
        handshake_interval: float = 1.0,
        stale_after: float = 3.0,
        on_selftest: Callable[[SelfTestReport], None] | None = None,
        expect_channels: int | None = None,
        full_frames: bool = False,
        deadband: int = DEADBAND,
        keyframe_ms: int = KEYFRAME_MS,
        idle_window: tuple[int, int] | None = None,
    ) -> None:
        self.port = port
        self.expect_channels = expect_channels
        self.idle_window = idle_window
        self.full_frames = full_frames
        self._mode_args = (
            protocol.MODE_FULL if full_frames else protocol.MODE_CHANGES,
            deadband,
            keyframe_ms,
        )
        self._on_selftest = on_selftest
        self._assembler = ScanAssembler()
        self._last_key_request = 0.0
        self._selftest_parts: dict[int, list[SelfTestFrame]] = {}
        self._selftests: dict[int, SelfTestReport] = {}
        self.baudrate = baudrate
        self._on_scan = on_scan
        self._on_status = on_status
        self._retry_interval = retry_interval
        self._handshake_interval = handshake_interval
        self._stale_after = stale_after
        self._stats = LinkStats()
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._serial: serial.SerialBase | None = None
        self._decoder = protocol.Decoder()
        self._command_seq = 0
        self._replies: dict[int, Frame] = {}
        self._reply_cond = threading.Condition(self._lock)
        self._want_streaming = True
        self._want_rate: int | None = None
        self._ready = False
        self._hello: HelloFrame | None = None

    # ------------------------------------------------------------ public API

    @property
    def stats(self) -> LinkStats:
        """A consistent copy of the counters."""
        with self._lock:
            return dataclasses.replace(self._stats)

    @property
    def hello(self) -> HelloFrame | None:
        """The last HELLO received (compatible or not)."""
        return self._hello

    @property
    def ready(self) -> bool:
        """True while connected to a scanner with a compatible protocol version."""
        return self._ready

    def start(self) -> Link:
        """Start the background thread (opens the port, retries until it appears)."""
        if self._thread is not None:
            raise RuntimeError("Link already started")
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=f"link {self.port}", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the thread and close the port."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        self._close()
        self._set_state("stopped")

    def __enter__(self) -> Link:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def send_command(self, kind: int, value: int = 0, args: tuple[int, ...] = ()) -> int:
        """Send a host command: START, STOP, RATE (``value`` scans/s, 0 = as fast as
        possible), PING, KEYFRAME, SELFTEST, or MODE / LAYOUT / THRESHOLDS / IDLE_WINDOW
        with ``args`` (see :mod:`lawmaster.firmware.protocol`).

        Returns the command's ``seq`` (for ``wait_reply``). The link remembers START,
        STOP, RATE, MODE and IDLE_WINDOW and re-sends them after a reconnect. Raises
        ``LinkError`` if the port is not open, ``ValueError`` for anything but a host
        command.
        """
        if kind == protocol.START:
            self._want_streaming = True
        elif kind == protocol.STOP:
            self._want_streaming = False
        elif kind == protocol.RATE:
            if not 0 <= value <= protocol.MAX_RATE:
                raise ValueError(f"rate {value} outside 0..{protocol.MAX_RATE}")
            self._want_rate = value
        elif kind == protocol.MODE:
            if len(args) != 3:
                raise ValueError("MODE takes (mode, deadband, keyframe_ms)")
            self._mode_args = tuple(args)
        elif kind == protocol.IDLE_WINDOW:
            if len(args) != 2:
                raise ValueError("IDLE_WINDOW takes (low, high)")
            self.idle_window = (args[0], args[1])
        return self._write_command(kind, value, tuple(args))

    def wait_reply(self, command_seq: int, timeout: float = 2.0) -> Frame | None:
        """The ACK, PONG or ERROR answering command ``command_seq``, or None on timeout."""
        deadline = time.monotonic() + timeout
        with self._reply_cond:
            while command_seq not in self._replies:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                self._reply_cond.wait(remaining)
            return self._replies.pop(command_seq)

    def request(
        self, kind: int, value: int = 0, timeout: float = 2.0, args: tuple[int, ...] = ()
    ) -> Frame | None:
        """``send_command`` and wait for its reply (None on timeout)."""
        return self.wait_reply(self.send_command(kind, value, args), timeout)

    def ping(self, timeout: float = 2.0) -> float | None:
        """Round-trip time to the scanner in seconds, or None if no PONG came."""
        started = time.perf_counter()
        reply = self.request(protocol.PING, timeout=timeout)
        if isinstance(reply, PongFrame):
            return time.perf_counter() - started
        return None

    def selftest(self, timeout: float = 2.0) -> SelfTestReport | None:
        """Ask the scanner to test every channel; its report, or None (no answer, or
        not connected)."""
        try:
            seq = self._write_command(protocol.SELFTEST)
        except LinkError:
            return None
        deadline = time.monotonic() + timeout
        with self._reply_cond:
            while seq not in self._selftests:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                self._reply_cond.wait(remaining)
            return self._selftests.pop(seq)

    def wait_ready(self, timeout: float = 10.0) -> bool:
        """Block until a compatible HELLO has been received (True) or timeout (False)."""
        deadline = time.monotonic() + timeout
        while not self._ready:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.01)
        return True

    # ------------------------------------------------------------ internals

    def _write_command(self, kind: int, value: int = 0, args: tuple = ()) -> int:
        with self._write_lock:
            ser = self._serial
            if ser is None:
                raise LinkError(f"scanner on {self.port} is not connected")
            self._command_seq = (self._command_seq + 1) % _SEQ_MOD
            seq = self._command_seq
            try:
                ser.write(protocol.encode_command(kind, seq, value, args))
            except (serial.SerialException, OSError) as exc:
                raise LinkError(f"write to {self.port} failed: {exc}") from exc
        return seq

    def _set_state(self, state: str, detail: str = "") -> None:
        with self._lock:
            changed = self._stats.state != state
            self._stats.state = state
        if changed and self._on_status is not None:
            try:
                self._on_status(LinkStatus(state, detail))
            except Exception:
                log.exception("on_status callback failed")

    def _close(self) -> None:
        with self._write_lock:
            ser, self._serial = self._serial, None
        self._ready = False
        if ser is not None:
            with contextlib.suppress(Exception):
                ser.close()

    def _run(self) -> None:
        connected_before = False
        while not self._stop.is_set():
            self._set_state("connecting")
            try:
                ser = serial.serial_for_url(self.port, baudrate=self.baudrate, timeout=0.05)
            except (serial.SerialException, OSError, ValueError) as exc:
                log.debug("cannot open %s: %s", self.port, exc)
                self._stop.wait(self._retry_interval)
                continue
            if connected_before:
                with self._lock:
                    self._stats.reconnects += 1
            connected_before = True
            with self._write_lock:
                self._serial = ser
            try:
                self._serve(ser)
            except (serial.SerialException, OSError) as exc:
                log.info("scanner on %s lost: %s", self.port, exc)
            finally:
                self._close()
            self._stop.wait(self._retry_interval)

    def _expected_layout(self) -> tuple[int, int] | None:
        channels = self.expect_channels
        if channels is None:
            return None
        return channels, (channels + MAP_INPUTS - 1) // MAP_INPUTS

    def _handshake(self) -> None:
        self._write_command(protocol.PING)
        if self._want_rate is not None:
            self._write_command(protocol.RATE, self._want_rate)
        self._write_command(protocol.MODE, args=self._mode_args)
        if self.idle_window is not None:
            # Before LAYOUT: a scanner that takes the map's layout tests it again at once.
            self._write_command(protocol.IDLE_WINDOW, args=self.idle_window)
        layout = self._expected_layout()
        if layout is not None:
            self._write_command(protocol.LAYOUT, args=layout)
        # START always: its HELLO is the handshake. STOP follows once HELLO is in.
        self._write_command(protocol.START)

    def _serve(self, ser: serial.SerialBase) -> None:
        self._decoder.reset()
        self._assembler.reset()
        self._ready = False
        self._set_state("connected")
        self._handshake()
        last_handshake = last_frame = time.monotonic()
        while not self._stop.is_set():
            data = ser.read(ser.in_waiting or 1)
            now = time.monotonic()
            if data and self._feed(data):
                last_frame = now
            if not self._ready:
                if now - last_handshake >= self._handshake_interval:
                    last_handshake = now
                    self._handshake()
            elif self._want_streaming and now - last_frame >= self._stale_after:
                # Port open but silent (scanner rebooted behind a hub, or lost START):
                # start over as on a fresh connection.
                self._ready = False
                self._set_state("connected", "no frames: handshaking again")
                last_handshake = last_frame = now
                self._handshake()

    def _feed(self, data: bytes) -> bool:
        decoder = self._decoder
        frames = decoder.feed(data)
        with self._lock:
            st = self._stats
            st.bad_crc, st.bad_length = decoder.bad_crc, decoder.bad_length
            st.bad_type, st.bad_cobs = decoder.bad_type, decoder.bad_cobs
            st.frames_bad = decoder.bad + st.bad_channels
        for frame in frames:
            self._handle(frame)
        return bool(frames)

    def _track_seq(self, seq: int) -> None:
        st = self._stats
        if st.last_seq is not None:
            ahead = (seq - st.last_seq) % _SEQ_MOD
            if ahead == 0 or ahead >= _SEQ_MOD // 2:
                st.device_restarts += 1
                self._assembler.reset()
            elif ahead > 1:
                st.seq_gaps += 1
                st.frames_missed += ahead - 1
                if self._assembler.synced:
                    st.resyncs += 1
                self._assembler.lose()
        st.last_seq = seq

    def _handle(self, frame: Frame) -> None:
        kind = frame.kind
        if kind >= 0x80:  # a host command echoed back (loop://) or a confused peer
            with self._lock:
                self._stats.ignored += 1
            return
        with self._lock:
            self._stats.frames_ok += 1
            self._track_seq(frame.seq)
        if isinstance(frame, (KeyFrame, DeltaFrame)):
            self._assemble(frame)
        elif isinstance(frame, ScanFrame):
            self._deliver(frame)
        elif isinstance(frame, SelfTestFrame):
            self._on_selftest_part(frame)
        elif isinstance(frame, HelloFrame):
            self._on_hello(frame)
        elif isinstance(frame, (AckFrame, PongFrame, ErrorFrame)):
            key = frame.ping_seq if isinstance(frame, PongFrame) else frame.command_seq
            with self._reply_cond:
                if isinstance(frame, ErrorFrame):
                    self._stats.device_errors += 1
                self._replies[key] = frame
                if len(self._replies) > 256:  # replies nobody waits for
                    self._replies.pop(next(iter(self._replies)))
                self._reply_cond.notify_all()

    def _on_hello(self, frame: HelloFrame) -> None:
        self._hello = frame
        with self._lock:
            self._stats.version = frame.version
        if frame.version not in protocol.SUPPORTED_VERSIONS:
            self._ready = False
            detail = (
                f"scanner speaks protocol version {frame.version}; this host reads "
                f"{', '.join(map(str, protocol.SUPPORTED_VERSIONS))}"
            )
            if self._stats.state != "incompatible":
                log.error("%s on %s", detail, self.port)
            self._set_state("incompatible", detail)
            return
        layout = self._expected_layout()
        if layout is not None and (frame.channels, frame.muxes) != layout:
            if frame.streaming:  # a boot HELLO is followed by our handshake: wait for it
                self._refuse_layout(frame, layout)
            else:
                self._handshake()
            return
        with self._lock:
            self._stats.channels = frame.channels
        was_ready, self._ready = self._ready, True
        if not was_ready:
            self._set_state("ready", f"protocol {frame.version}, {frame.channels} channels")
        if not self._want_streaming and frame.streaming:
            self._write_command(protocol.STOP)
        elif self._want_streaming and not frame.streaming:
            # A boot HELLO: the scanner restarted (behind a port that stayed open, or
            # after our handshake went out): tell it everything again.
            self._handshake()
        elif self._want_rate is not None and frame.rate != self._want_rate:
            self._write_command(protocol.RATE, self._want_rate)

    def _refuse_layout(self, frame: HelloFrame, layout: tuple[int, int]) -> None:
        self._ready = False
        channels, muxes = layout
        detail = (
            f"the scanner scans {frame.channels} channels on {frame.muxes} multiplexers"
            f" (its wiring takes at most {frame.capacity}); the sensor map in use has"
            f" {channels} channels on {muxes}: check [board] map in the configuration"
            " and the scanner's wiring (firmware/config.py)"
        )
        with self._lock:
            self._stats.mismatches += 1
            first = self._stats.state != "mismatch"
        if first:
            log.error("%s on %s", detail, self.port)
        self._set_state("mismatch", detail)

    def _assemble(self, frame: KeyFrame | DeltaFrame) -> None:
        assembler = self._assembler
        scan = assembler.feed(frame)
        with self._lock:
            self._stats.keyframes = assembler.keyframes
            self._stats.deltas = assembler.deltas
        if scan is not None:
            self._deliver(scan)
            return
        if assembler.waiting and self._ready:
            now = time.monotonic()
            if now - self._last_key_request >= KEYFRAME_RETRY:
                self._last_key_request = now
                with contextlib.suppress(LinkError):
                    self._write_command(protocol.KEYFRAME)

    def _on_selftest_part(self, frame: SelfTestFrame) -> None:
        if frame.first == 0:  # a report starts: drop what is left of one cut short
            self._selftest_parts[frame.command_seq] = []
        parts = self._selftest_parts.setdefault(frame.command_seq, [])
        parts.append(frame)
        if not frame.flags & protocol.LAST:
            return
        del self._selftest_parts[frame.command_seq]
        readings = tuple(r for part in parts for r in part.readings)
        codes = tuple(c for part in parts for c in part.codes)
        starts = [part.first for part in parts]
        expected = [sum(len(p.readings) for p in parts[:i]) for i in range(len(parts))]
        failed = {c: code for c, code in enumerate(codes) if code}
        if starts != expected or len(readings) != frame.channels or len(failed) != frame.failed:
            log.warning("self-test report %d arrived incomplete", frame.command_seq)
            return
        if self.expect_channels is not None and frame.channels != self.expect_channels:
            # A boot test of the scanner's default layout, before it took the map's
            # (it tests again once it has): its extra channels are not the board's.
            log.info("self-test of %d channels ignored (the map has %d)",
                     frame.channels, self.expect_channels)  # fmt: skip
            return
        report = SelfTestReport(
            {c: protocol.FAULT_NAMES.get(code, f"fault {code}") for c, code in failed.items()},
            frame.channels,
            frame.command_seq,
            readings,
            codes,
            (frame.low, frame.high),
        )
        with self._reply_cond:
            self._stats.selftests += 1
            if frame.command_seq:
                self._selftests[frame.command_seq] = report
                if len(self._selftests) > 16:  # reports nobody waits for
                    self._selftests.pop(next(iter(self._selftests)))
            self._reply_cond.notify_all()
        if self._on_selftest is not None:
            try:
                self._on_selftest(report)
            except Exception:
                log.exception("on_selftest callback failed")

    def _deliver(self, frame: ScanFrame) -> None:
        hello = self._hello
        if not self._ready or hello is None:
            with self._lock:
                self._stats.ignored += 1
            return
        if len(frame.readings) != hello.channels:
            with self._lock:
                self._stats.frames_ok -= 1
                self._stats.bad_channels += 1
                self._stats.frames_bad += 1
            return
        with self._lock:
            st = self._stats
            st.scans += 1
            st.scan_us = frame.scan_us
            st.scan_us_max = max(st.scan_us_max, frame.scan_us)
        try:
            self._on_scan(frame)
        except Exception:
            with self._lock:
                self._stats.callback_errors += 1
            log.exception("on_scan callback failed")
