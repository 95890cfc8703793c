"""The scanner's wire protocol: the one module both the firmware and the host import.

Runs unchanged under MicroPython (the Pico, the unix port) and CPython (the host),
so it uses only ``struct``, ``array`` and builtins; type hints are in comments
or on signatures (MicroPython does not evaluate annotations).

A frame on the wire::

    COBS( type:u8 | seq:u32 | payload | crc:u16 ) 0x00

All integers are little-endian. ``crc`` is CRC-16/CCITT-FALSE (poly 0x1021,
init 0xFFFF, no reflection, no final xor) over ``type | seq | payload``.
COBS removes every 0x00 from the frame, so 0x00 marks frame ends and a reader
resynchronises after garbage at the next 0x00. Empty frames (``00 00``) are
ignored, so a sender may emit a lone 0x00 to flush a half-sent frame.

Every frame the device sends is at most ``MAX_FRAME`` (256) bytes with its
delimiter: TinyUSB's CDC transmit buffer on the Pico is 256 bytes, so a frame
never blocks half-written inside the USB stack. A scan therefore travels as
one or more frames; the last one of a scan has ``LAST`` set in ``flags``.

Device → host frames (``seq`` counts every frame the device sends, from 0 at boot,
wrapping at 2**30 so it stays a small int on the RP2040):

=========  ====  ==============================================================
HELLO      0x01  version:u8 channels:u16 rate:u16 streaming:u8 muxes:u8 inputs:u8
                 capacity:u16 mode:u8 deadband:u16 keyframe_ms:u16 (the first
                 payload byte stays the protocol version in every version)
SCAN       0x02  timestamp_us:u32 scan_us:u16 count:u16 readings:count×u16
                 (version 1's one-frame scan; read, never sent by version 2)
PONG       0x03  ping_seq:u32 timestamp_us:u32
ACK        0x04  command:u8 command_seq:u32
ERROR      0x05  code:u8 command:u8 command_seq:u32
KEY        0x06  timestamp_us:u32 scan_us:u16 flags:u8 channels:u16 first:u16
                 count:u8 readings:count×u16 (channels first..first+count-1 of
                 one scan: a keyframe is one KEY part per ``KEY_PART`` channels)
DELTA      0x07  timestamp_us:u32 scan_us:u16 flags:u8 count:u8
                 changes:count×(channel:u16 reading:u16)
SELFTEST   0x08  command_seq:u32 channels:u16 failed:u16 low:u16 high:u16 first:u16
                 count:u8 flags:u8 entries:count×(reading:u16 code:u8) (channels
                 first..first+count-1: each one's mean idle reading and its verdict,
                 0 = good or a ``FAULT_*`` code; ``failed`` channels failed in all;
                 ``low``..``high`` the idle window they were judged against)
=========  ====  ==============================================================

Host → device commands (``seq`` is the host's command counter, echoed in replies):

==========  ====  =============================================================
START       0x81  (none) → ACK, then HELLO, then a keyframe and scans
STOP        0x82  (none) → ACK
RATE        0x83  scans_per_second:u16 (0 = as fast as possible) → ACK or ERROR
PING        0x84  (none) → PONG
KEYFRAME    0x85  (none) → ACK; the next scan goes out whole
MODE        0x86  mode:u8 deadband:u16 keyframe_ms:u16 → ACK or ERROR
SELFTEST    0x87  (none) → ACK, then SELFTEST part(s)
LAYOUT      0x88  channels:u16 muxes:u8 → ACK or ERROR (the next HELLO says it)
THRESHOLDS  0x89  count:u8 levels:count×u16 (≤ 4) → ACK or ERROR
IDLE        0x8A  low:u16 high:u16 → ACK or ERROR: the window a good sensor's no-field
                  reading lies in (the self-test's judge from then on)
==========  ====  =============================================================

Modes: ``MODE_CHANGES`` (the normal one) sends, per scan, a DELTA with the
channels whose reading moved more than ``deadband`` from the value last sent, or
crossed one of the THRESHOLDS levels, and a whole keyframe every ``keyframe_ms``
(and when asked, and when a keyframe is smaller than the changes); a scan with
nothing new is an empty DELTA (the host still counts every scan).
``MODE_FULL`` (calibration) sends every scan as a keyframe.

``timestamp_us`` is the device's microsecond ticks, wrapping at 2**30 (~17.9 min);
the host unwraps it.

A self-test report carries every channel, not only the failed ones: a builder
bringing up a board reads each sensor's idle voltage against its window
(``lawmaster selftest``), and a reading just inside the window says as much as one
just outside it.
"""

import array
import struct

try:  # type names for annotations only; MicroPython has no typing module
    from typing import TYPE_CHECKING
except ImportError:
    TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

try:  # CPython: the C implementation of the same CRC; the table below is the reference.
    from binascii import crc_hqx as _crc_hqx
except ImportError:  # MicroPython's binascii has no crc_hqx
    _crc_hqx = None

VERSION = 3
"""Protocol version this module speaks, sent in HELLO."""

SUPPORTED_VERSIONS = (3,)
"""Versions a host built from this module can read."""

# Frame types: device → host.
HELLO = 0x01
SCAN = 0x02
PONG = 0x03
ACK = 0x04
ERROR = 0x05
KEY = 0x06
DELTA = 0x07
SELFTEST_REPORT = 0x08
# Frame types: host → device.
START = 0x81
STOP = 0x82
RATE = 0x83
PING = 0x84
KEYFRAME = 0x85
MODE = 0x86
SELFTEST = 0x87
LAYOUT = 0x88
THRESHOLDS = 0x89
IDLE_WINDOW = 0x8A

TYPE_NAMES = {
    HELLO: "HELLO",
    SCAN: "SCAN",
    PONG: "PONG",
    ACK: "ACK",
    ERROR: "ERROR",
    KEY: "KEY",
    DELTA: "DELTA",
    SELFTEST_REPORT: "SELFTEST",
    START: "START",
    STOP: "STOP",
    RATE: "RATE",
    PING: "PING",
    KEYFRAME: "KEYFRAME",
    MODE: "MODE",
    SELFTEST: "SELFTEST",
    LAYOUT: "LAYOUT",
    THRESHOLDS: "THRESHOLDS",
    IDLE_WINDOW: "IDLE",
}
COMMANDS = (START, STOP, RATE, PING, KEYFRAME, MODE, SELFTEST, LAYOUT, THRESHOLDS, IDLE_WINDOW)

# ERROR codes.
ERR_BAD_FRAME = 1  # the device received a frame that failed CRC/length checks
ERR_UNKNOWN_COMMAND = 2
ERR_BAD_ARGUMENT = 3

try:
    _Struct = struct.Struct
except AttributeError:  # MicroPython has only the module functions

    class _Struct:
        def __init__(self, fmt):
            self.format = fmt
            self.size = struct.calcsize(fmt)

        def pack(self, *values):
            return struct.pack(self.format, *values)

        def unpack_from(self, buffer, offset=0):
            return struct.unpack_from(self.format, buffer, offset)


MAX_CHANNELS = 1024
MAX_RATE = 2000

MAX_FRAME = 256
"""Longest frame the device sends, delimiter included (TinyUSB's CDC buffer)."""
SEQ_MASK = 0x3FFFFFFF
"""Device ``seq`` and ``timestamp_us`` wrap at ``SEQ_MASK + 1`` (2**30): both stay
small ints on the RP2040, whose small ints hold 31 bits."""
SEQ_MOD = SEQ_MASK + 1
LAST = 0x01
"""``flags`` bit: the last frame of a scan (or of a self-test report)."""
MODE_CHANGES = 0
MODE_FULL = 1
MAX_THRESHOLDS = 4
# Self-test verdicts and the words the host shows for them (0: the channel is good).
FAULT_NONE = 0
FAULT_HIGH_RAIL = 1
FAULT_LOW_RAIL = 2
FAULT_NO_NOISE = 3
FAULT_OFFSET = 4
FAULT_NAMES = {
    FAULT_HIGH_RAIL: "stuck at the high rail",
    FAULT_LOW_RAIL: "stuck at the low rail",
    FAULT_NO_NOISE: "no noise",
    FAULT_OFFSET: "idle reading outside its window",
}

_HEADER = _Struct("<BI")
_HELLO_V1 = _Struct("<BHHB")
_HELLO = _Struct("<BHHBBBHBHH")
_SCAN = _Struct("<IHH")
_PONG = _Struct("<II")
_ACK = _Struct("<BI")
_ERROR = _Struct("<BBI")
_RATE = _Struct("<H")
_KEY = _Struct("<IHBHHB")
_DELTA = _Struct("<IHBB")
_SELFTEST = _Struct("<IHHHHHBB")
_WINDOW = _Struct("<HH")
_MODE = _Struct("<BHH")
_LAYOUT = _Struct("<HB")
_CRC = _Struct("<H")

HEADER_SIZE = 5
SCAN_HEAD_SIZE = HEADER_SIZE + 8
KEY_HEAD_SIZE = HEADER_SIZE + 12
DELTA_HEAD_SIZE = HEADER_SIZE + 8
SELFTEST_HEAD_SIZE = HEADER_SIZE + 16
# A body (with CRC) of at most 252 bytes COBS-encodes to at most 253: + delimiter = 254.
MAX_SMALL_BODY = MAX_FRAME - 4
KEY_PART = (MAX_SMALL_BODY - 2 - KEY_HEAD_SIZE) // 2
"""Readings per KEY frame (116)."""
DELTA_PART = (MAX_SMALL_BODY - 2 - DELTA_HEAD_SIZE) // 4
"""Changes per DELTA frame (59)."""
SELFTEST_PART = (MAX_SMALL_BODY - 2 - SELFTEST_HEAD_SIZE) // 3
"""Channels per SELFTEST frame (76): a mean reading (u16) and a verdict (u8) each."""
MAX_BODY = SCAN_HEAD_SIZE + 2 * MAX_CHANNELS + 2
MAX_ENCODED = MAX_BODY + MAX_BODY // 254 + 2
"""Longest COBS-encoded frame (without delimiter) a decoder accepts."""


# ---------------------------------------------------------------- CRC-16/CCITT-FALSE


def _make_table() -> list:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


CRC_TABLE = _make_table()


def crc16_table(data: bytes | bytearray | memoryview, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE of ``data`` (bytes-like), table-driven, pure Python.

    The reference implementation; equal to ``binascii.crc_hqx(data, crc)``.
    """
    table = CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFF00) ^ table[(crc >> 8) ^ byte]
    return crc


crc16 = crc16_table
"""The fastest available CRC-16/CCITT-FALSE: ``crc16(data, crc=0xFFFF) -> int``."""

# Allocation-free machine-code helpers for the firmware's SCAN path (MicroPython only).
_crc16_viper = None
_copy_viper = None
_frame_viper = None
_TABLE16 = None

if _crc_hqx is not None:

    def crc16(data: bytes | bytearray | memoryview, crc: int = 0xFFFF) -> int:  # noqa: F811 - C version
        """CRC-16/CCITT-FALSE of ``data`` via ``binascii.crc_hqx`` (CPython)."""
        return _crc_hqx(data, crc)

else:
    try:
        import micropython

        _TABLE_BYTES = bytearray(512)
        for _i in range(256):
            _TABLE_BYTES[2 * _i] = CRC_TABLE[_i] >> 8
            _TABLE_BYTES[2 * _i + 1] = CRC_TABLE[_i] & 0xFF

        @micropython.viper
        def _crc16_viper(data, n: int, crc: int) -> int:
            # Viper compiles to machine code: ~50x the bytecode loop on the RP2040.
            p = ptr8(data)  # noqa: F821 - viper builtin
            t = ptr8(_TABLE_BYTES)  # noqa: F821 - viper builtin
            i = 0
            while i < n:
                k = ((crc >> 8) ^ p[i]) << 1
                crc = ((crc << 8) & 0xFF00) ^ ((t[k] << 8) | t[k + 1])
                i += 1
            return crc

        def crc16(data: bytes | bytearray | memoryview, crc: int = 0xFFFF) -> int:  # noqa: F811
            """CRC-16/CCITT-FALSE of ``data`` via a viper loop (MicroPython)."""
            return _crc16_viper(data, len(data), crc)

        @micropython.viper
        def _copy_viper(dst, offset: int, src, n: int):
            d = ptr8(dst)  # noqa: F821 - viper builtin
            s = ptr8(src)  # noqa: F821 - viper builtin
            i = 0
            while i < n:
                d[offset + i] = s[i]
                i += 1

        _TABLE16 = array.array("H", CRC_TABLE)

        @micropython.viper
        def _frame_viper(head, head_n: int, src, start: int, n: int, out, table) -> int:
            # One pass over head[:head_n] + src[start:start + n] + the CRC: CRC-16 and
            # COBS byte by byte into out; returns the encoded length (no delimiter).
            # head needs two spare bytes after head_n (the CRC goes there to be encoded).
            # A third of the cost of copy, CRC and COBS as three loops on the RP2040.
            t = ptr16(table)  # noqa: F821 - viper builtin
            d = ptr8(out)  # noqa: F821 - viper builtin
            p = ptr8(head)  # noqa: F821 - viper builtin
            j = 0
            end = head_n
            part = 0
            crc = 0xFFFF
            code_at = 0
            o = 1
            code = 1
            while True:
                if j >= end:
                    if part == 0:
                        p = ptr8(src)  # noqa: F821 - viper builtin
                        j = start
                        end = start + n
                        part = 1
                        continue
                    if part == 1:
                        p = ptr8(head)  # noqa: F821 - viper builtin
                        p[head_n] = crc & 0xFF
                        p[head_n + 1] = crc >> 8
                        j = head_n
                        end = head_n + 2
                        part = 2
                        continue
                    break
                b = p[j]
                crc = ((crc << 8) ^ t[((crc >> 8) ^ b) & 0xFF]) & 0xFFFF
                if b == 0:
                    d[code_at] = code
                    code_at = o
                    o += 1
                    code = 1
                else:
                    d[o] = b
                    o += 1
                    code += 1
                    if code == 0xFF:
                        d[code_at] = code
                        code_at = o
                        o += 1
                        code = 1
                j += 1
            d[code_at] = code
            return o

        if crc16(b"123456789") != 0x29B1:  # a port without a working viper emitter
            raise ValueError("viper CRC is wrong")
    except Exception:  # no micropython module or no viper emitter on this port
        crc16 = crc16_table
        _crc16_viper = _copy_viper = _frame_viper = _TABLE16 = None


# ---------------------------------------------------------------- COBS


def cobs_encode(data: bytes | bytearray | memoryview) -> bytearray:
    """COBS-encode ``data``; the result contains no 0x00 (the delimiter is not added)."""
    out = bytearray()
    n = len(data)
    start = 0
    while True:
        zero = data.find(b"\x00", start)
        end = n if zero < 0 else zero
        while end - start >= 254:
            out.append(0xFF)
            out += data[start : start + 254]
            start += 254
        out.append(end - start + 1)
        out += data[start:end]
        if zero < 0:
            return out
        start = end + 1


def cobs_decode(data: bytes | bytearray | memoryview) -> bytearray:
    """Decode one COBS block (without delimiter); ``ValueError`` if it is malformed."""
    n = len(data)
    if data.find(b"\x00") >= 0:
        raise ValueError("zero byte inside COBS data")
    # Every code byte stands for the zero in front of its block, except the first one and
    # those after a 0xFF code (a full block with no zero): zero the former in place, cut
    # the latter out. The loop touches code bytes only, so its cost is one step per zero.
    out = bytearray(data)
    cuts = [0]
    full = False
    i = 0
    while i < n:
        code = data[i]
        if full:
            cuts.append(i)
        elif i:
            out[i] = 0
        full = code == 0xFF
        i += code
    if i != n:
        raise ValueError("COBS block runs past the end")
    if len(cuts) == 1:
        return out[1:]
    cuts.append(n)
    decoded = bytearray()
    for k in range(len(cuts) - 1):
        decoded += out[cuts[k] + 1 : cuts[k + 1]]
    return decoded


# ---------------------------------------------------------------- frames


class Frame:
    """A decoded frame: ``kind`` (a type constant) and ``seq``; subclasses add fields."""

    __slots__ = ("kind", "seq")
    FIELDS = ()

    def __init__(self, kind: int, seq: int) -> None:
        self.kind = kind
        self.seq = seq

    def _values(self) -> tuple:
        return tuple(getattr(self, name) for name in self.FIELDS)

    def __eq__(self, other: object) -> bool:
        return (
            type(self) is type(other)
            and self.kind == other.kind
            and self.seq == other.seq
            and self._values() == other._values()
        )

    def __repr__(self) -> str:
        fields = "".join(f", {n}={getattr(self, n)!r}" for n in self.FIELDS)
        return f"{type(self).__name__}(seq={self.seq}{fields})"


class HelloFrame(Frame):
    """The device announces itself: protocol version, its layout, rate, streaming, mode.

    ``channels`` on ``muxes`` multiplexers of ``inputs`` inputs each are scanned;
    ``capacity`` is the most channels its wiring can scan (what LAYOUT may ask for).
    """

    __slots__ = (
        "version",
        "channels",
        "rate",
        "streaming",
        "muxes",
        "inputs",
        "capacity",
        "mode",
        "deadband",
        "keyframe_ms",
    )
    FIELDS = __slots__

    def __init__(
        self,
        seq: int,
        version: int,
        channels: int,
        rate: int,
        streaming: bool,
        muxes: int | None = None,
        inputs: int = 16,
        capacity: int | None = None,
        mode: int = 0,
        deadband: int = 0,
        keyframe_ms: int = 0,
    ) -> None:
        Frame.__init__(self, HELLO, seq)
        self.version = version
        self.channels = channels
        self.rate = rate
        self.streaming = bool(streaming)
        self.muxes = (channels + inputs - 1) // inputs if muxes is None else muxes
        self.inputs = inputs
        self.capacity = channels if capacity is None else capacity
        self.mode = mode
        self.deadband = deadband
        self.keyframe_ms = keyframe_ms


class ScanFrame(Frame):
    """One full scan: when it started (device µs, wraps at 2**32), how long it took,
    and one u16 reading per channel in channel order (a tuple)."""

    __slots__ = ("timestamp_us", "scan_us", "readings")
    FIELDS = ("timestamp_us", "scan_us", "readings")

    def __init__(
        self, seq: int, timestamp_us: int, scan_us: int, readings: tuple[int, ...]
    ) -> None:
        Frame.__init__(self, SCAN, seq)
        self.timestamp_us = timestamp_us
        self.scan_us = scan_us
        self.readings = readings


class KeyFrame(Frame):
    """Part of a keyframe: ``readings`` (a tuple) of channels ``first`` onwards of a
    scan of ``channels`` channels; ``flags & LAST`` on the scan's last frame."""

    __slots__ = ("timestamp_us", "scan_us", "flags", "channels", "first", "readings")
    FIELDS = __slots__

    def __init__(
        self,
        seq: int,
        timestamp_us: int,
        scan_us: int,
        flags: int,
        channels: int,
        first: int,
        readings: tuple[int, ...],
    ) -> None:
        Frame.__init__(self, KEY, seq)
        self.timestamp_us = timestamp_us
        self.scan_us = scan_us
        self.flags = flags
        self.channels = channels
        self.first = first
        self.readings = readings


class DeltaFrame(Frame):
    """The channels of a scan that changed: ``changes`` is a tuple of (channel, reading)."""

    __slots__ = ("timestamp_us", "scan_us", "flags", "changes")
    FIELDS = __slots__

    def __init__(
        self, seq: int, timestamp_us: int, scan_us: int, flags: int, changes: tuple
    ) -> None:
        Frame.__init__(self, DELTA, seq)
        self.timestamp_us = timestamp_us
        self.scan_us = scan_us
        self.flags = flags
        self.changes = changes


class SelfTestFrame(Frame):
    """Part of a self-test report of ``channels`` channels, ``failed`` of them failed:
    channels ``first``.. with each one's mean idle reading (``readings``, u16 counts)
    and verdict (``codes``: 0 or a ``FAULT_*``), judged against the idle window
    ``low``..``high``; ``command_seq`` is 0 for the test at boot."""

    __slots__ = (
        "command_seq",
        "channels",
        "failed",
        "low",
        "high",
        "first",
        "flags",
        "readings",
        "codes",
    )
    FIELDS = __slots__

    def __init__(
        self,
        seq: int,
        command_seq: int,
        channels: int,
        failed: int,
        low: int,
        high: int,
        first: int,
        flags: int,
        readings: tuple,
        codes: tuple,
    ) -> None:
        Frame.__init__(self, SELFTEST_REPORT, seq)
        self.command_seq = command_seq
        self.channels = channels
        self.failed = failed
        self.low = low
        self.high = high
        self.first = first
        self.flags = flags
        self.readings = readings
        self.codes = codes


class PongFrame(Frame):
    """Reply to PING: the ping's seq and the device clock when it answered."""

    __slots__ = ("ping_seq", "timestamp_us")
    FIELDS = ("ping_seq", "timestamp_us")

    def __init__(self, seq: int, ping_seq: int, timestamp_us: int) -> None:
        Frame.__init__(self, PONG, seq)
        self.ping_seq = ping_seq
        self.timestamp_us = timestamp_us


class AckFrame(Frame):
    """A command was accepted."""

    __slots__ = ("command", "command_seq")
    FIELDS = ("command", "command_seq")

    def __init__(self, seq: int, command: int, command_seq: int) -> None:
        Frame.__init__(self, ACK, seq)
        self.command = command
        self.command_seq = command_seq


class ErrorFrame(Frame):
    """A command (or a received frame) was rejected; ``code`` says why."""

    __slots__ = ("code", "command", "command_seq")
    FIELDS = ("code", "command", "command_seq")

    def __init__(self, seq: int, code: int, command: int, command_seq: int) -> None:
        Frame.__init__(self, ERROR, seq)
        self.code = code
        self.command = command
        self.command_seq = command_seq


class CommandFrame(Frame):
    """A host command; ``value`` is RATE's scans/s (else the first argument or 0) and
    ``args`` all of the command's arguments (MODE: mode, deadband, keyframe_ms;
    LAYOUT: channels, muxes; THRESHOLDS: the levels; IDLE_WINDOW: low, high)."""

    __slots__ = ("value", "args")
    FIELDS = ("value", "args")

    def __init__(self, kind: int, seq: int, value: int = 0, args: tuple = ()) -> None:
        Frame.__init__(self, kind, seq)
        self.args = tuple(args) if args else ((value,) if kind == RATE else ())
        self.value = self.args[0] if self.args else value


# ---------------------------------------------------------------- encoding


def _finish(body: bytearray) -> bytearray:
    """Append the CRC to ``body`` (a bytearray), COBS it and add the delimiter."""
    body += _CRC.pack(crc16(body))
    out = cobs_encode(body)
    out.append(0)
    return out


def encode_hello(
    seq: int,
    channels: int,
    rate: int,
    streaming: bool,
    version: int = VERSION,
    muxes: int | None = None,
    inputs: int = 16,
    capacity: int | None = None,
    mode: int = MODE_CHANGES,
    deadband: int = 0,
    keyframe_ms: int = 0,
) -> bytearray:
    """Encoded HELLO frame (bytes-like, delimiter included)."""
    if muxes is None:
        muxes = (channels + inputs - 1) // inputs
    body = bytearray(_HEADER.pack(HELLO, seq & 0xFFFFFFFF))
    body += _HELLO.pack(
        version,
        channels,
        rate,
        1 if streaming else 0,
        muxes,
        inputs,
        channels if capacity is None else capacity,
        mode,
        deadband,
        keyframe_ms,
    )
    return _finish(body)


def encode_selftest_part(
    seq: int,
    command_seq: int,
    failed: int,
    window: "Sequence[int]",
    first: int,
    count: int,
    readings: "Sequence[int]",
    codes: "Sequence[int]",
) -> bytearray:
    """One SELFTEST frame: channels ``first``..``first + count - 1`` of a report on
    ``len(readings)`` channels (``readings``: each one's mean idle reading; ``codes``:
    its verdict), ``failed`` failed in all, judged against ``window`` (low, high);
    ``count`` ≤ ``SELFTEST_PART``. ``LAST`` is set on the part that ends the report."""
    channels = len(readings)
    last = first + count >= channels
    body = bytearray(_HEADER.pack(SELFTEST_REPORT, seq & SEQ_MASK))
    body += _SELFTEST.pack(
        command_seq & 0xFFFFFFFF,
        channels,
        failed,
        window[0],
        window[1],
        first,
        count,
        LAST if last else 0,
    )
    for channel in range(first, first + count):
        body += struct.pack("<HB", readings[channel], codes[channel])
    return _finish(body)


def encode_selftest(
    seq: int,
    command_seq: int,
    window: "Sequence[int]",
    readings: "Sequence[int]",
    codes: "Sequence[int]",
) -> list:
    """The SELFTEST frames of a whole report (one per ``SELFTEST_PART`` channels; at
    least one), numbered from ``seq``."""
    channels = len(readings)
    failed = 0
    for code in codes:
        if code:
            failed += 1
    frames = []
    first = 0
    while True:
        count = channels - first
        if count > SELFTEST_PART:
            count = SELFTEST_PART
        frames.append(
            encode_selftest_part(
                seq + len(frames), command_seq, failed, window, first, count, readings, codes
            )
        )
        first += count
        if first >= channels:
            return frames


def encode_scan(seq: int, timestamp_us: int, scan_us: int, readings: "Sequence[int]") -> bytearray:
    """Encoded SCAN frame; ``readings`` is an ``array('H')`` (fast path) or a sequence."""
    count = len(readings)
    body = bytearray(_HEADER.pack(SCAN, seq & 0xFFFFFFFF))
    body += _SCAN.pack(timestamp_us & 0xFFFFFFFF, min(scan_us, 0xFFFF), count)
    if _NATIVE_U16_LE and getattr(readings, "typecode", None) == "H":
        body.extend(readings)
    else:
        body += struct.pack(f"<{count}H", *readings)
    return _finish(body)


class FrameWriter:
    """Encodes the device's KEY and DELTA frames into buffers it reuses.

    On MicroPython with the viper emitter nothing is allocated per frame: the
    header goes in by ``struct.pack_into``, and one machine-code pass reads header,
    readings (or changes) and CRC and writes them COBS-encoded into the output; the
    result is one of the memoryviews made once here (one per length), since slicing
    a memoryview would allocate. Elsewhere the portable encoders run. A returned
    frame is valid until the next.
    """

    def __init__(self) -> None:
        self._body = bytearray(MAX_SMALL_BODY)
        self._out = bytearray(MAX_FRAME)
        self._fast = _frame_viper is not None and _NATIVE_U16_LE
        if self._fast:
            view = memoryview(self._out)
            self._views = [view[:n] for n in range(MAX_FRAME + 1)]

    def _finish(self, size: int) -> bytearray | memoryview:
        return _finish(bytearray(self._body[:size]))

    def _encode(self, head_size: int, src: object, start: int, n: int) -> memoryview:
        length = _frame_viper(self._body, head_size, src, start, n, self._out, _TABLE16)
        self._out[length] = 0
        return self._views[length + 1]

    def key(
        self,
        seq: int,
        timestamp_us: int,
        scan_us: int,
        flags: int,
        readings: "Sequence[int]",
        first: int,
        count: int,
    ) -> bytearray | memoryview:
        """KEY frame of ``readings[first:first + count]`` (an ``array('H')``), count ≤ KEY_PART."""
        body = self._body
        struct.pack_into(
            "<BIIHBHHB",
            body,
            0,
            KEY,
            seq,
            timestamp_us,
            scan_us,
            flags,
            len(readings),
            first,
            count,
        )
        if self._fast:
            return self._encode(KEY_HEAD_SIZE, readings, 2 * first, 2 * count)
        if _NATIVE_U16_LE and getattr(readings, "typecode", None) == "H":
            raw = memoryview(readings).cast("B")
            body[KEY_HEAD_SIZE : KEY_HEAD_SIZE + 2 * count] = raw[2 * first : 2 * (first + count)]
        else:
            for i in range(count):
                struct.pack_into("<H", body, KEY_HEAD_SIZE + 2 * i, readings[first + i])
        return self._finish(KEY_HEAD_SIZE + 2 * count)

    def delta(
        self,
        seq: int,
        timestamp_us: int,
        scan_us: int,
        flags: int,
        changes: bytearray,
        first: int,
        count: int,
    ) -> bytearray | memoryview:
        """DELTA frame of changes ``first``..``first + count - 1`` of ``changes`` (4 bytes
        each: channel u16, reading u16), count ≤ DELTA_PART."""
        body = self._body
        struct.pack_into("<BIIHBB", body, 0, DELTA, seq, timestamp_us, scan_us, flags, count)
        if self._fast:
            return self._encode(DELTA_HEAD_SIZE, changes, 4 * first, 4 * count)
        start = DELTA_HEAD_SIZE
        body[start : start + 4 * count] = changes[4 * first : 4 * (first + count)]
        return self._finish(DELTA_HEAD_SIZE + 4 * count)


def encode_pong(seq: int, ping_seq: int, timestamp_us: int) -> bytearray:
    """Encoded PONG frame."""
    body = bytearray(_HEADER.pack(PONG, seq & 0xFFFFFFFF))
    body += _PONG.pack(ping_seq & 0xFFFFFFFF, timestamp_us & 0xFFFFFFFF)
    return _finish(body)


def encode_ack(seq: int, command: int, command_seq: int) -> bytearray:
    """Encoded ACK frame."""
    body = bytearray(_HEADER.pack(ACK, seq & 0xFFFFFFFF))
    body += _ACK.pack(command, command_seq & 0xFFFFFFFF)
    return _finish(body)


def encode_error(seq: int, code: int, command: int, command_seq: int) -> bytearray:
    """Encoded ERROR frame."""
    body = bytearray(_HEADER.pack(ERROR, seq & 0xFFFFFFFF))
    body += _ERROR.pack(code, command, command_seq & 0xFFFFFFFF)
    return _finish(body)


def encode_command(kind: int, seq: int, value: int = 0, args: "Sequence[int]" = ()) -> bytearray:
    """Encoded host command: RATE with ``value`` scans/s; MODE ``args`` = (mode, deadband,
    keyframe_ms); LAYOUT ``args`` = (channels, muxes); THRESHOLDS ``args`` = levels;
    IDLE_WINDOW ``args`` = (low, high) counts."""
    if kind not in COMMANDS:
        raise ValueError(f"not a host command: {kind!r}")
    body = bytearray(_HEADER.pack(kind, seq & 0xFFFFFFFF))
    if kind == RATE:
        body += _RATE.pack(value)
    elif kind == MODE:
        body += _MODE.pack(*args)
    elif kind == LAYOUT:
        body += _LAYOUT.pack(*args)
    elif kind == IDLE_WINDOW:
        body += _WINDOW.pack(*args)
    elif kind == THRESHOLDS:
        if len(args) > MAX_THRESHOLDS:
            raise ValueError(f"at most {MAX_THRESHOLDS} threshold levels")
        body.append(len(args))
        for level in args:
            body += _RATE.pack(level)
    return _finish(body)


def encode_raw(kind: int, seq: int, payload: bytes | bytearray | memoryview) -> bytearray:
    """Encoded frame of any type with a raw payload (tests and tools)."""
    body = bytearray(_HEADER.pack(kind & 0xFF, seq & 0xFFFFFFFF))
    body += payload
    return _finish(body)


def _native_u16_le() -> bool:
    try:
        import sys

        return sys.byteorder == "little"
    except Exception:
        return False


_NATIVE_U16_LE = _native_u16_le()


# ---------------------------------------------------------------- decoding


class FrameError(ValueError):
    """A frame failed a check; ``reason`` is "crc", "length", "type" or "cobs"."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(reason + (": " + detail if detail else ""))
        self.reason = reason


_SCAN_STRUCTS = {}


def _readings(body: bytes | bytearray | memoryview, count: int) -> tuple:
    fmt = _SCAN_STRUCTS.get(count)
    if fmt is None:
        fmt = _Struct(f"<{count}H")
        _SCAN_STRUCTS[count] = fmt
    return fmt.unpack_from(body, SCAN_HEAD_SIZE)


_PAYLOAD_SIZES = {
    HELLO: 15,
    PONG: 8,
    ACK: 5,
    ERROR: 6,
    START: 0,
    STOP: 0,
    RATE: 2,
    PING: 0,
    KEYFRAME: 0,
    MODE: 5,
    SELFTEST: 0,
    LAYOUT: 3,
    IDLE_WINDOW: 4,
}


def parse_body(body: bytes | bytearray | memoryview) -> Frame:
    """Parse a checked body (``type | seq | payload``, CRC removed) into a Frame.

    Raises ``FrameError`` with reason "length" or "type".
    """
    size = len(body)
    if size < HEADER_SIZE:
        raise FrameError("length", f"{size}-byte body")
    kind, seq = _HEADER.unpack_from(body, 0)
    if kind == SCAN:
        if size < SCAN_HEAD_SIZE:
            raise FrameError("length", "short SCAN header")
        timestamp_us, scan_us, count = _SCAN.unpack_from(body, HEADER_SIZE)
        if size != SCAN_HEAD_SIZE + 2 * count or count > MAX_CHANNELS:
            raise FrameError("length", f"SCAN of {count} channels in {size} bytes")
        return ScanFrame(seq, timestamp_us, scan_us, _readings(body, count))
    if kind == KEY:
        if size < KEY_HEAD_SIZE:
            raise FrameError("length", "short KEY header")
        timestamp_us, scan_us, flags, channels, first, count = _KEY.unpack_from(body, HEADER_SIZE)
        if size != KEY_HEAD_SIZE + 2 * count or first + count > channels:
            raise FrameError("length", f"KEY of {count} readings from {first} in {size} bytes")
        readings = _unpack_u16(body, KEY_HEAD_SIZE, count)
        return KeyFrame(seq, timestamp_us, scan_us, flags, channels, first, readings)
    if kind == DELTA:
        if size < DELTA_HEAD_SIZE:
            raise FrameError("length", "short DELTA header")
        timestamp_us, scan_us, flags, count = _DELTA.unpack_from(body, HEADER_SIZE)
        if size != DELTA_HEAD_SIZE + 4 * count:
            raise FrameError("length", f"DELTA of {count} changes in {size} bytes")
        flat = _unpack_u16(body, DELTA_HEAD_SIZE, 2 * count)
        changes = tuple((flat[i], flat[i + 1]) for i in range(0, 2 * count, 2))
        return DeltaFrame(seq, timestamp_us, scan_us, flags, changes)
    if kind == SELFTEST_REPORT:
        if size < SELFTEST_HEAD_SIZE:
            raise FrameError("length", "short SELFTEST header")
        command_seq, channels, failed, low, high, first, count, flags = _SELFTEST.unpack_from(
            body, HEADER_SIZE
        )
        if size != SELFTEST_HEAD_SIZE + 3 * count or first + count > channels:
            raise FrameError("length", f"SELFTEST of {count} channels in {size} bytes")
        entries = [
            struct.unpack_from("<HB", body, SELFTEST_HEAD_SIZE + 3 * i) for i in range(count)
        ]
        return SelfTestFrame(
            seq,
            command_seq,
            channels,
            failed,
            low,
            high,
            first,
            flags,
            tuple(e[0] for e in entries),
            tuple(e[1] for e in entries),
        )
    if kind == THRESHOLDS:
        if size < HEADER_SIZE + 1:
            raise FrameError("length", "THRESHOLDS without a count")
        count = body[HEADER_SIZE]
        if count > MAX_THRESHOLDS or size != HEADER_SIZE + 1 + 2 * count:
            raise FrameError("length", f"THRESHOLDS of {count} levels in {size} bytes")
        return CommandFrame(kind, seq, args=_unpack_u16(body, HEADER_SIZE + 1, count))
    expected = _PAYLOAD_SIZES.get(kind)
    if expected is None:
        raise FrameError("type", f"unknown frame type 0x{kind:02x}")
    if kind == HELLO:
        # Only the version byte is fixed across versions: check it before the length, so
        # an older or newer firmware is reported as "incompatible", not as garbage.
        if size < HEADER_SIZE + 1:
            raise FrameError("length", "HELLO without version")
        if body[HEADER_SIZE] != VERSION and size != HEADER_SIZE + expected:
            if size == HEADER_SIZE + 6:
                return HelloFrame(seq, *_HELLO_V1.unpack_from(body, HEADER_SIZE))
            return HelloFrame(seq, body[HEADER_SIZE], 0, 0, 0)
    if size != HEADER_SIZE + expected:
        raise FrameError("length", f"{TYPE_NAMES[kind]} with {size - HEADER_SIZE}-byte payload")
    if kind == HELLO:
        return HelloFrame(seq, *_HELLO.unpack_from(body, HEADER_SIZE))
    if kind == PONG:
        return PongFrame(seq, *_PONG.unpack_from(body, HEADER_SIZE))
    if kind == ACK:
        return AckFrame(seq, *_ACK.unpack_from(body, HEADER_SIZE))
    if kind == ERROR:
        return ErrorFrame(seq, *_ERROR.unpack_from(body, HEADER_SIZE))
    if kind == RATE:
        return CommandFrame(kind, seq, _RATE.unpack_from(body, HEADER_SIZE)[0])
    if kind == MODE:
        return CommandFrame(kind, seq, args=_MODE.unpack_from(body, HEADER_SIZE))
    if kind == LAYOUT:
        return CommandFrame(kind, seq, args=_LAYOUT.unpack_from(body, HEADER_SIZE))
    if kind == IDLE_WINDOW:
        return CommandFrame(kind, seq, args=_WINDOW.unpack_from(body, HEADER_SIZE))
    return CommandFrame(kind, seq)


def _unpack_u16(body: bytes | bytearray | memoryview, offset: int, count: int) -> tuple:
    fmt = _SCAN_STRUCTS.get(count)
    if fmt is None:
        fmt = _Struct(f"<{count}H")
        _SCAN_STRUCTS[count] = fmt
    return fmt.unpack_from(body, offset)


def decode_frame(encoded: bytes | bytearray | memoryview) -> Frame:
    """Decode one frame (COBS data without its delimiter) into a Frame.

    Raises ``FrameError`` with reason "cobs", "length", "crc" or "type".
    """
    if len(encoded) > MAX_ENCODED:
        raise FrameError("length", f"{len(encoded)} encoded bytes")
    try:
        data = cobs_decode(encoded)
    except ValueError as exc:
        raise FrameError("cobs", str(exc)) from None
    if len(data) < HEADER_SIZE + 2:
        raise FrameError("length", f"{len(data)}-byte frame")
    body = memoryview(data)[:-2]
    if crc16(body) != _CRC.unpack_from(data, len(data) - 2)[0]:
        raise FrameError("crc")
    return parse_body(body)


class Decoder:
    """Streaming decoder: ``feed(bytes)`` returns the complete, valid frames.

    Bad frames are dropped and counted by reason in ``bad_crc``, ``bad_length``,
    ``bad_type`` and ``bad_cobs``; ``bad`` is their sum. A run of bytes longer than any
    valid frame is counted once as ``bad_length`` and skipped up to the next 0x00.
    """

    def __init__(self, max_encoded: int = MAX_ENCODED) -> None:
        self.max_encoded = max_encoded
        self.frames_ok = 0
        self.bad_crc = 0
        self.bad_length = 0
        self.bad_type = 0
        self.bad_cobs = 0
        self.last_error = None
        self._buf = bytearray()
        self._skipping = False

    @property
    def bad(self) -> int:
        """Number of frames dropped for any reason."""
        return self.bad_crc + self.bad_length + self.bad_type + self.bad_cobs

    def reset(self) -> None:
        """Forget any partial frame (after a reconnect)."""
        self._buf = bytearray()
        self._skipping = False

    def _count(self, error: FrameError) -> None:
        self.last_error = error
        reason = error.reason
        if reason == "crc":
            self.bad_crc += 1
        elif reason == "type":
            self.bad_type += 1
        elif reason == "cobs":
            self.bad_cobs += 1
        else:
            self.bad_length += 1

    def feed(self, data: bytes | bytearray | memoryview) -> list[Frame]:
        """Add received bytes; return the list of frames they completed."""
        frames = []
        buf = self._buf
        buf += data
        start = 0
        while True:
            end = buf.find(b"\x00", start)
            if end < 0:
                break
            if self._skipping:
                self._skipping = False
            elif end > start:
                try:
                    frames.append(decode_frame(buf[start:end]))
                    self.frames_ok += 1
                except FrameError as exc:
                    self._count(exc)
            start = end + 1
        if start:
            buf = self._buf = buf[start:]
        if len(buf) > self.max_encoded:
            if not self._skipping:
                self._count(FrameError("length", f"no delimiter in {len(buf)} bytes"))
            self._skipping = True
            self._buf = bytearray()
        return frames
