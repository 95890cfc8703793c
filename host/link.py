"""The host's serial link to the scanner: frames in, commands out, survives unplugging.

``Link`` owns one background thread that opens the port (any pyserial URL:
a device path, ``socket://host:port``, ``loop://``), handshakes, decodes frames
with :mod:`lawmaster.firmware.protocol` and hands each SCAN frame to
``on_scan``. Bad frames are dropped and counted; a vanished port is reopened
until it comes back, and the handshake is redone, without restarting anything.

Handshake: on every (re)connect the link sends PING and START (after RATE, if a
rate was set) and waits for HELLO. SCAN frames are delivered only after a HELLO
whose version is in ``SUPPORTED_VERSIONS``; an incompatible HELLO is reported
(``on_status`` with state ``"incompatible"``) and its scans are ignored.

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
from collections.abc import Callable

import serial

from lawmaster.firmware import protocol
from lawmaster.firmware.protocol import (
    AckFrame,
    ErrorFrame,
    Frame,
    HelloFrame,
    PongFrame,
    ScanFrame,
)

__all__ = ["Link", "LinkError", "LinkStats", "LinkStatus", "ScanFrame"]

log = logging.getLogger(__name__)

_SEQ_MOD = 1 << 32


class LinkError(ConnectionError):
    """A command could not be sent: the scanner is not connected."""


@dataclasses.dataclass(frozen=True)
class LinkStatus:
    """A change of the link's state, passed to ``on_status``.

    ``state`` is one of ``"connecting"`` (port not open yet / gone), ``"connected"``
    (port open, waiting for HELLO), ``"ready"`` (compatible HELLO, scans flow),
    ``"incompatible"`` (HELLO with a version this host cannot read) or ``"stopped"``.
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
    ) -> None:
        self.port = port
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

    def send_command(self, kind: int, value: int = 0) -> int:
        """Send START, STOP, RATE (``value`` scans/s, 0 = as fast as possible) or PING.

        Returns the command's ``seq`` (for ``wait_reply``). The link remembers START,
        STOP and RATE and re-sends them after a reconnect. Raises ``LinkError`` if the
        port is not open, ``ValueError`` for anything but a host command.
        """
        if kind == protocol.START:
            self._want_streaming = True
        elif kind == protocol.STOP:
            self._want_streaming = False
        elif kind == protocol.RATE:
            if not 0 <= value <= protocol.MAX_RATE:
                raise ValueError(f"rate {value} outside 0..{protocol.MAX_RATE}")
            self._want_rate = value
        return self._write_command(kind, value)

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

    def request(self, kind: int, value: int = 0, timeout: float = 2.0) -> Frame | None:
        """``send_command`` and wait for its reply (None on timeout)."""
        return self.wait_reply(self.send_command(kind, value), timeout)

    def ping(self, timeout: float = 2.0) -> float | None:
        """Round-trip time to the scanner in seconds, or None if no PONG came."""
        started = time.perf_counter()
        reply = self.request(protocol.PING, timeout=timeout)
        if isinstance(reply, PongFrame):
            return time.perf_counter() - started
        return None

    def wait_ready(self, timeout: float = 10.0) -> bool:
        """Block until a compatible HELLO has been received (True) or timeout (False)."""
        deadline = time.monotonic() + timeout
        while not self._ready:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.01)
        return True

    # ------------------------------------------------------------ internals

    def _write_command(self, kind: int, value: int = 0) -> int:
        with self._write_lock:
            ser = self._serial
            if ser is None:
                raise LinkError(f"scanner on {self.port} is not connected")
            self._command_seq = (self._command_seq + 1) % _SEQ_MOD
            seq = self._command_seq
            try:
                ser.write(protocol.encode_command(kind, seq, value))
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

    def _handshake(self) -> None:
        self._write_command(protocol.PING)
        if self._want_rate is not None:
            self._write_command(protocol.RATE, self._want_rate)
        # START always: its HELLO is the handshake. STOP follows once HELLO is in.
        self._write_command(protocol.START)

    def _serve(self, ser: serial.SerialBase) -> None:
        self._decoder.reset()
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
            elif ahead > 1:
                st.seq_gaps += 1
                st.frames_missed += ahead - 1
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
        if isinstance(frame, ScanFrame):
            self._deliver(frame)
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
            self._stats.scans += 1
        try:
            self._on_scan(frame)
        except Exception:
            with self._lock:
                self._stats.callback_errors += 1
            log.exception("on_scan callback failed")
