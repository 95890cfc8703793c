"""The scanner's main loop: scan at the set rate, send what changed, obey host commands.

``Firmware`` gets everything from outside: a ``MuxScanner``, a ``port`` (an object
with ``write(bytes)`` and a non-blocking ``read() -> bytes or None``) and a
``clock`` (MicroPython's ``time`` module, or ``standin.SystemClock``). Commands are
read between scans and while waiting for the next one, so they take effect
within one scan period.

Each scan goes out as frames of at most ``protocol.MAX_FRAME`` bytes: in the
normal mode (``MODE_CHANGES``) one DELTA with the channels that changed (see
``changes.py``), a keyframe (KEY parts) every ``keyframe_ms``, on request and
whenever it is smaller than the changes; in ``MODE_FULL`` (calibration) a
keyframe every scan. ``scan_once`` allocates nothing on MicroPython
(``tests/link/test_link_heap_lock.py`` runs it under ``micropython.heap_lock()``):
device time is the ticks counter masked to 30 bits, and ``seq`` wraps at 2**30,
so every integer stays a small int on the RP2040.

On MicroPython the loop runs with the heap locked (``heap``: the ``micropython``
module; ``run`` holds it and lets go only while a command is decoded and obeyed, and
``scan_once`` called alone locks it itself, so a scan's cost never depends on its
caller). Not to catch allocations, which the loop has none of, but for time:
MicroPython puts a bytecode function's frame on the heap when it can and on the C
stack only when the heap is locked (``fun_bc_call``), and each such frame is a
``gc_alloc`` whose search for free blocks is as long as the heap's layout makes it.
That layout is whatever handling the host's last commands left, so on the emulated
RP2040 the same scan took 1.13 ms or 1.55 ms (60,955 instructions in ``gc_alloc``
instead of about 1,400) depending only on when the last command arrived. With the
heap locked every scan costs the same, and no garbage collection starts in the loop.
"""

import array

from . import protocol
from .changes import Changes
from .scanner import MuxScanner

try:  # type names for annotations only; MicroPython has no typing module
    from typing import TYPE_CHECKING
except ImportError:
    TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

# Longest single sleep while idle or waiting for the next scan: bounds command latency.
_IDLE_SLICE_US = 1000
_MASK = protocol.SEQ_MASK
DEADBAND = 96
"""Default dead-band in u16 counts (6 LSB of the RP2040's 12-bit ADC), on the smoothed
reading (see ``changes.py``): twice a board's noise figure (46 counts, one sigma: the
DRV5055's noise and the ADC's 8.7 effective bits, ``hardware/MAGNETICS.md``), over
five times the smoothed noise, so a still channel stays quiet."""
KEYFRAME_MS = 2000
"""Default keyframe interval: the host can always resync within two seconds."""
SELFTEST_SCANS = 32
"""Scans a self-test looks at: enough for a live sensor's noise to show."""


class Firmware:
    """Runs one scanner: ``run()`` forever (or until ``should_stop()``), or ``step()``.

    ``limits`` are the self-test's (see ``config.selftest_limits``: the rails and the
    idle window, which the host's IDLE command replaces); ``selftest_at_boot`` runs it
    once after the boot HELLO. ``busy`` (a pin, or None) is held high while a
    scan is read and sent (``scan_once``): on the Pico it is the LED on GP25, so a scope
    there, or the emulator's cycle count, measures what each scan costs. ``heap``
    (MicroPython's ``micropython`` module, or None under CPython) is held locked by
    ``run`` and by ``scan_once``, so their calls' frames go on the stack (see the
    module's docstring).
    """

    def __init__(
        self,
        scanner: MuxScanner,
        port: object,
        clock: object,
        rate: int = 200,
        streaming: bool = False,
        deadband: int = DEADBAND,
        keyframe_ms: int = KEYFRAME_MS,
        limits: dict | None = None,
        selftest_at_boot: bool = False,
        busy: object = None,
        heap: object = None,
    ) -> None:
        self.scanner = scanner
        self.port = port
        self.clock = clock
        self.rate = rate
        self.streaming = streaming
        self.mode = protocol.MODE_CHANGES
        self.deadband = deadband
        self.keyframe_ms = keyframe_ms
        self.limits = limits
        limits = limits or {}
        self.idle_low = limits.get("idle_low", 0)
        self.idle_high = limits.get("idle_high", 0xFFFF)
        self.selftest_at_boot = selftest_at_boot
        self._busy = busy.value if busy is not None else None
        self._heap = heap
        self._looping = False  # run() holds the heap locked
        self.seq = 0
        self.scans = 0
        self.selftest_scans = 0
        self.keyframes = 0
        self.overruns = 0
        self.decoder = protocol.Decoder()
        self._bad_seen = 0
        self._writer = protocol.FrameWriter()
        self._next_due = clock.ticks_us()
        self._last_key = self._next_due
        self._key_wanted = True
        self._levels = ()
        self._retest = False
        self._allocate()

    def _allocate(self) -> None:
        # Everything the scan loop touches is made here, once per layout.
        self._buffer = self.scanner.new_buffer()
        self._changes = Changes(self.scanner.channels, self.deadband)
        self._changes.set_levels(self._levels)
        self._key_wanted = True
        # The self-test's: each channel's lowest, highest and summed reading over its
        # scans, then its mean (the report's reading) and verdict. Made here, once per
        # layout, so repeated tests never carve up the Pico's heap.
        n = self.scanner.channels
        self._st_low = self.scanner.new_buffer()
        self._st_high = self.scanner.new_buffer()
        self._st_total = array.array("I", bytes(4 * n))
        self.idle = self.scanner.new_buffer()
        self.verdict = bytearray(n)

    # ------------------------------------------------------------ time and output

    def now_us(self) -> int:
        """Device time in µs: the ticks counter, wrapping at 2**30 (a small int everywhere)."""
        return self.clock.ticks_us() & _MASK

    def _send(self, frame: bytes | bytearray | memoryview) -> None:
        self.port.write(frame)
        seq = self.seq
        self.seq = seq + 1 if seq < _MASK else 0

    def send_hello(self) -> None:
        """Announce protocol version, layout, rate, streaming state and mode."""
        scanner = self.scanner
        self._send(
            protocol.encode_hello(
                self.seq,
                scanner.channels,
                self.rate,
                self.streaming,
                muxes=scanner.muxes,
                inputs=scanner.inputs,
                capacity=scanner.capacity,
                mode=self.mode,
                deadband=self.deadband,
                keyframe_ms=self.keyframe_ms,
            )
        )

    def boot(self) -> None:
        """First output after power-up: a lone delimiter ends any junk, then HELLO."""
        self.port.write(b"\x00")
        self.send_hello()
        if self.selftest_at_boot:
            self.send_selftest(0)
        self._next_due = self.clock.ticks_us()

    # ------------------------------------------------------------ commands

    def poll_commands(self) -> None:
        """Read whatever the host sent and act on complete commands."""
        data = self.port.read()
        if not data:
            return
        heap = self._heap if self._looping else None
        if heap is not None:
            # Decoding and obeying a command may allocate (a new layout's arrays): the
            # one place the loop lets go of the heap.
            heap.heap_unlock()
        try:
            for frame in self.decoder.feed(data):
                self.handle(frame)
            if self.decoder.bad != self._bad_seen:
                self._bad_seen = self.decoder.bad
                self._send(protocol.encode_error(self.seq, protocol.ERR_BAD_FRAME, 0, 0))
        finally:
            if heap is not None:
                heap.heap_lock()

    def _ack(self, frame: protocol.Frame) -> None:
        self._send(protocol.encode_ack(self.seq, frame.kind, frame.seq))

    def _refuse(self, frame: protocol.Frame, code: int = protocol.ERR_BAD_ARGUMENT) -> None:
        self._send(protocol.encode_error(self.seq, code, frame.kind, frame.seq))

    def handle(self, frame: protocol.Frame) -> None:
        """Act on one decoded host frame and reply."""
        kind = frame.kind
        if kind == protocol.PING:
            self._send(protocol.encode_pong(self.seq, frame.seq, self.now_us()))
        elif kind == protocol.START:
            self._ack(frame)
            if self._retest:
                # The boot test ran on the wiring's default layout or window, before the
                # host said its board's (LAYOUT, IDLE: every handshake sends them, then
                # START): test the channels the board really has, against its window.
                self._retest = False
                self.send_selftest(0)
            if not self.streaming:
                self.streaming = True
                self._next_due = self.clock.ticks_us()
            self._key_wanted = True
            self.send_hello()
        elif kind == protocol.STOP:
            self.streaming = False
            self._ack(frame)
        elif kind == protocol.RATE:
            if 0 <= frame.value <= protocol.MAX_RATE:
                self.rate = frame.value
                self._next_due = self.clock.ticks_us()
                self._ack(frame)
            else:
                self._refuse(frame)
        elif kind == protocol.KEYFRAME:
            self._key_wanted = True
            self._ack(frame)
        elif kind == protocol.MODE:
            mode, deadband, keyframe_ms = frame.args
            if mode not in (protocol.MODE_CHANGES, protocol.MODE_FULL) or keyframe_ms < 10:
                self._refuse(frame)
                return
            self.mode = mode
            self.deadband = self._changes.deadband = deadband
            self._changes.restart()
            self.keyframe_ms = keyframe_ms
            self._key_wanted = True
            self._ack(frame)
        elif kind == protocol.LAYOUT:
            channels, muxes = frame.args
            scanner = self.scanner
            if (channels, muxes) != (scanner.channels, scanner.muxes):
                try:
                    scanner.configure(muxes, channels)
                except ValueError:
                    self._refuse(frame)
                    return
                self._allocate()
                self._retest = self.selftest_at_boot
            self._ack(frame)
        elif kind == protocol.IDLE_WINDOW:
            low, high = frame.args
            if low >= high:
                self._refuse(frame)
                return
            if (low, high) != (self.idle_low, self.idle_high):
                self.idle_low = low
                self.idle_high = high
                self._retest = self.selftest_at_boot
            self._ack(frame)
        elif kind == protocol.THRESHOLDS:
            self._levels = frame.args
            self._changes.set_levels(frame.args)
            self._ack(frame)
        elif kind == protocol.SELFTEST:
            self._ack(frame)
            self.send_selftest(frame.seq)
        else:
            self._refuse(frame, protocol.ERR_UNKNOWN_COMMAND)

    # ------------------------------------------------------------ self-test

    def selftest(self, scans: int = SELFTEST_SCANS) -> int:
        """Scan ``scans`` times and judge each channel's no-field reading; returns how
        many failed. Each channel's mean lands in ``idle`` and its verdict in ``verdict``:
        0, or ``FAULT_HIGH_RAIL`` / ``FAULT_LOW_RAIL`` (every reading within the rail
        margin), ``FAULT_NO_NOISE`` (one value in every scan: nothing live drives it),
        ``FAULT_OFFSET`` (the mean outside ``idle_low``..``idle_high``). Without
        ``limits`` only a frozen reading fails."""
        scanner = self.scanner
        n = scanner.channels
        low = self._st_low
        high = self._st_high
        total = self._st_total
        buffer = self._buffer
        for i in range(scans):
            scanner.scan_into(buffer)
            for c in range(n):
                v = buffer[c]
                if i == 0:
                    low[c] = v
                    high[c] = v
                    total[c] = v
                    continue
                if v < low[c]:
                    low[c] = v
                elif v > high[c]:
                    high[c] = v
                total[c] += v
        self.selftest_scans += scans
        limits = self.limits or {}
        rail_low = limits.get("rail_low", -1)
        rail_high = limits.get("rail_high", 0x10000)
        idle_low = self.idle_low
        idle_high = self.idle_high
        idle = self.idle
        verdict = self.verdict
        failed = 0
        for c in range(n):
            mean = total[c] // scans
            idle[c] = mean
            code = protocol.FAULT_NONE
            if low[c] >= rail_high:
                code = protocol.FAULT_HIGH_RAIL
            elif high[c] <= rail_low:
                code = protocol.FAULT_LOW_RAIL
            elif high[c] == low[c]:
                code = protocol.FAULT_NO_NOISE
            elif mean < idle_low or mean > idle_high:
                code = protocol.FAULT_OFFSET
            verdict[c] = code
            if code:
                failed += 1
        self._key_wanted = True  # the scans above were not sent
        return failed

    def faults(self) -> list:
        """The last self-test's failed channels as (channel, code) pairs."""
        verdict = self.verdict
        return [(c, verdict[c]) for c in range(len(verdict)) if verdict[c]]

    def send_selftest(self, command_seq: int) -> None:
        """Run the self-test and send its report, every channel's mean and verdict in
        parts of ``SELFTEST_PART`` (``command_seq`` 0: the boot test)."""
        failed = self.selftest()
        n = self.scanner.channels
        window = (self.idle_low, self.idle_high)
        first = 0
        while first < n:
            count = n - first
            if count > protocol.SELFTEST_PART:
                count = protocol.SELFTEST_PART
            self._send(
                protocol.encode_selftest_part(
                    self.seq, command_seq, failed, window, first, count, self.idle, self.verdict
                )
            )
            first += count

    # ------------------------------------------------------------ scanning

    def _send_key(self, timestamp: int, scan_us: int, track: bool) -> None:
        buffer = self._buffer
        channels = self.scanner.channels
        writer = self._writer
        first = 0
        while first < channels:
            count = channels - first
            flags = protocol.LAST
            if count > protocol.KEY_PART:
                count = protocol.KEY_PART
                flags = 0
            self._send(writer.key(self.seq, timestamp, scan_us, flags, buffer, first, count))
            first += count
        if track:  # the change finder's copy of what the host holds
            self._changes.take_all(buffer)
        self.keyframes += 1

    def scan_once(self) -> None:
        """Scan every channel and send the scan (changes, or a keyframe when due)."""
        busy = self._busy
        if busy is not None:
            busy(1)
        heap = self._heap
        if heap is None:
            self._scan_and_send()
        else:
            heap.heap_lock()
            try:
                self._scan_and_send()
            finally:
                heap.heap_unlock()
        scans = self.scans
        self.scans = scans + 1 if scans < _MASK else 0
        if busy is not None:
            busy(0)

    def _scan_and_send(self) -> None:
        clock = self.clock
        start = clock.ticks_us()
        timestamp = start & _MASK
        self.scanner.scan_into(self._buffer)
        scan_us = clock.ticks_diff(clock.ticks_us(), start)
        if scan_us > 0xFFFF:
            scan_us = 0xFFFF
        changes = self._changes
        if self.mode == protocol.MODE_FULL:
            # Every scan goes out whole: nothing to find (a MODE command restarts the
            # averages, and the first scan after it is a keyframe).
            self._key_wanted = False
            self._last_key = start
            self._send_key(timestamp, scan_us, False)
            return
        n = changes.find(self._buffer)  # every scan: it keeps the averages going
        key = self._key_wanted
        if not key and clock.ticks_diff(start, self._last_key) >= self.keyframe_ms * 1000:
            key = True
        if key or 2 * n > self.scanner.channels:  # a keyframe says it in fewer bytes
            self._key_wanted = False
            self._last_key = start
            self._send_key(timestamp, scan_us, True)
        else:
            writer = self._writer
            first = 0
            while True:
                count = n - first
                flags = protocol.LAST
                if count > protocol.DELTA_PART:
                    count = protocol.DELTA_PART
                    flags = 0
                self._send(
                    writer.delta(self.seq, timestamp, scan_us, flags, changes.out, first, count)
                )
                first += count
                if flags:
                    break

    def step(self) -> None:
        """One turn of the main loop: commands, then a scan if one is due, else a short wait."""
        self.poll_commands()
        clock = self.clock
        if not self.streaming:
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
        """Boot, then loop until ``should_stop()`` returns true (forever if None).

        With ``heap`` the loop holds the heap locked, letting go only while a command is
        decoded and obeyed: polling, pacing and scanning allocate nothing, and every call
        they make keeps its frame on the stack (the module's docstring says why that
        matters). ``port.read`` must then allocate nothing while nothing is waiting and
        nothing when bytes are (``main.UsbPort``)."""
        self.boot()
        heap = self._heap
        if heap is not None:
            heap.heap_lock()
            self._looping = True
        try:
            while should_stop is None or not should_stop():
                self.step()
        finally:
            if heap is not None:
                self._looping = False
                heap.heap_unlock()
