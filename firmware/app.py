"""The scanner's main loop: scan at the set rate, send frames, obey host commands.

``Firmware`` gets everything from outside: a ``MuxScanner``, a ``port`` (an object
with ``write(bytes)`` and a non-blocking ``read() -> bytes or None``) and a
``clock`` (MicroPython's ``time`` module, or ``standin.SystemClock``). Commands are
read between scans and while waiting for the next one, so START/STOP/RATE/PING
take effect within one scan period.
"""

from . import protocol
from .scanner import MuxScanner

try:  # type names for annotations only; MicroPython has no typing module
    from typing import TYPE_CHECKING
except ImportError:
    TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

# Longest single sleep while idle or waiting for the next scan: bounds command latency.
_IDLE_SLICE_US = 1000


class Firmware:
    """Runs one scanner: ``run()`` forever (or until ``should_stop()``), or ``step()``."""

    def __init__(
        self,
        scanner: MuxScanner,
        port: object,
        clock: object,
        rate: int = 200,
        streaming: bool = False,
    ) -> None:
        self.scanner = scanner
        self.port = port
        self.clock = clock
        self.rate = rate
        self.streaming = streaming
        self.seq = 0
        self.scans = 0
        self.overruns = 0
        self.decoder = protocol.Decoder()
        self._bad_seen = 0
        self._buffer = scanner.new_buffer()
        self._encoder = protocol.ScanEncoder(scanner.channels)
        self._last_ticks = clock.ticks_us()
        self._time_us = 0
        self._next_due = self._last_ticks

    # ------------------------------------------------------------ time and output

    def now_us(self) -> int:
        """Device time in µs since boot, wrapping at 2**32 (ticks wrap much sooner)."""
        clock = self.clock
        ticks = clock.ticks_us()
        self._time_us = (self._time_us + clock.ticks_diff(ticks, self._last_ticks)) & 0xFFFFFFFF
        self._last_ticks = ticks
        return self._time_us

    def _send(self, frame: bytes | bytearray | memoryview) -> None:
        self.port.write(frame)
        self.seq = (self.seq + 1) & 0xFFFFFFFF

    def send_hello(self) -> None:
        """Announce protocol version, channel count, rate and streaming state."""
        self._send(
            protocol.encode_hello(self.seq, self.scanner.channels, self.rate, self.streaming)
        )

    def boot(self) -> None:
        """First output after power-up: a lone delimiter ends any junk, then HELLO."""
        self.port.write(b"\x00")
        self.send_hello()
        self._next_due = self.clock.ticks_us()

    # ------------------------------------------------------------ commands

    def poll_commands(self) -> None:
        """Read whatever the host sent and act on complete commands."""
        data = self.port.read()
        if not data:
            return
        for frame in self.decoder.feed(data):
            self.handle(frame)
        if self.decoder.bad != self._bad_seen:
            self._bad_seen = self.decoder.bad
            self._send(protocol.encode_error(self.seq, protocol.ERR_BAD_FRAME, 0, 0))

    def handle(self, frame: protocol.Frame) -> None:
        """Act on one decoded host frame and reply."""
        kind = frame.kind
        if kind == protocol.PING:
            self._send(protocol.encode_pong(self.seq, frame.seq, self.now_us()))
        elif kind == protocol.START:
            self._send(protocol.encode_ack(self.seq, kind, frame.seq))
            if not self.streaming:
                self.streaming = True
                self._next_due = self.clock.ticks_us()
            self.send_hello()
        elif kind == protocol.STOP:
            self.streaming = False
            self._send(protocol.encode_ack(self.seq, kind, frame.seq))
        elif kind == protocol.RATE:
            if 0 <= frame.value <= protocol.MAX_RATE:
                self.rate = frame.value
                self._next_due = self.clock.ticks_us()
                self._send(protocol.encode_ack(self.seq, kind, frame.seq))
            else:
                self._send(
                    protocol.encode_error(self.seq, protocol.ERR_BAD_ARGUMENT, kind, frame.seq)
                )
        else:
            self._send(
                protocol.encode_error(self.seq, protocol.ERR_UNKNOWN_COMMAND, kind, frame.seq)
            )

    # ------------------------------------------------------------ scanning

    def scan_once(self) -> None:
        """Scan every channel and send one SCAN frame."""
        clock = self.clock
        timestamp = self.now_us()
        start = clock.ticks_us()
        self.scanner.scan_into(self._buffer)
        scan_us = clock.ticks_diff(clock.ticks_us(), start)
        self._send(self._encoder.encode(self.seq, timestamp, scan_us, self._buffer))
        self.scans += 1

    def step(self) -> None:
        """One turn of the main loop: commands, then a scan if one is due, else a short wait."""
        self.poll_commands()
        clock = self.clock
        if not self.streaming:
            # Keep the 32-bit device clock fed: ticks_diff is only valid across half a
            # ticks period (~9 min on the RP2040), and idling can last longer.
            self.now_us()
            clock.sleep_us(_IDLE_SLICE_US)
            return
        if self.rate == 0:
            self.scan_once()
            return
        now = clock.ticks_us()
        wait = clock.ticks_diff(self._next_due, now)
        if wait > 0:
            clock.sleep_us(wait if wait < _IDLE_SLICE_US else _IDLE_SLICE_US)
            return
        period = 1_000_000 // self.rate
        if -wait > period:
            # More than a whole period late (slow scan, busy host link): count it and
            # start a fresh schedule instead of bursting to catch up.
            self.overruns += 1
            self._next_due = clock.ticks_add(now, period)
        else:
            self._next_due = clock.ticks_add(self._next_due, period)
        self.scan_once()

    def run(self, should_stop: "Callable[[], bool] | None" = None) -> None:
        """Boot, then loop until ``should_stop()`` returns true (forever if None)."""
        self.boot()
        while should_stop is None or not should_stop():
            self.step()
