"""Which channels of a scan the host must hear about: dead-band and threshold crossings.

``Changes`` keeps, per channel, the reading the host last received and a smoothed
reading (an exponential average over about four scans, ``f += (v - f) / 4``).
After a scan, ``find(readings)`` lists the channels whose smoothed reading moved
more than ``deadband`` from its value at the last send, whose reading itself moved
more than four times that from the value sent (so the host's copy is never further
off, spikes included), or whose reading crossed one of up to four ``levels`` (the
host's classification thresholds) even by less, and takes their new readings as
sent. The smoothing is what lets the band be
small: it divides the noise by about 2.6, so a still channel stays quiet under a
band of 2 noise widths, while a magnet creeping over a sensor's flat peak still
gets through in steps of the band (a wider band on raw readings hid such a slow
slide from the sensing layer's stillness test). The value sent is the reading
itself, not the average, so the host sees no lag.
The list goes into a bytearray made once (4 bytes a change: channel u16, reading
u16, little-endian), ready for ``protocol.FrameWriter.delta``.

On MicroPython the loop is ``@micropython.viper`` machine code over the arrays'
memory: no allocation, a few cycles a channel. Under CPython the same rule runs
as plain Python (the simulator).
"""

import array
import struct

_viper_find = None
_viper_take_all = None
_viper_prime = None
try:
    import micropython

    @micropython.viper
    def _viper_find(
        readings, sent, smooth4, smooth_sent, n: int, out, deadband: int, levels, nlevels: int
    ) -> int:
        r = ptr16(readings)  # noqa: F821 - viper builtin
        s = ptr16(sent)  # noqa: F821 - viper builtin
        f4 = ptr32(smooth4)  # noqa: F821 - viper builtin
        fs = ptr16(smooth_sent)  # noqa: F821 - viper builtin
        lv = ptr16(levels)  # noqa: F821 - viper builtin
        o = ptr8(out)  # noqa: F821 - viper builtin
        count = 0
        c = 0
        while c < n:
            v = int(r[c])
            old = int(s[c])
            acc = int(f4[c]) + v - (int(f4[c]) >> 2)
            f4[c] = acc
            f = acc >> 2
            d = f - int(fs[c])
            if d < 0:
                d = -d
            e = v - old
            if e < 0:
                e = -e
            moved = 0
            if d > deadband or e > (deadband << 2):
                moved = 1
            else:
                k = 0
                while k < nlevels:
                    t = int(lv[k])
                    if v >= t:
                        if old < t:
                            moved = 1
                    elif old >= t:
                        moved = 1
                    k += 1
            if moved:
                s[c] = v
                fs[c] = f
                j = count << 2
                o[j] = c & 0xFF
                o[j + 1] = c >> 8
                o[j + 2] = v & 0xFF
                o[j + 3] = v >> 8
                count += 1
            c += 1
        return count

    @micropython.viper
    def _viper_take_all(readings, sent, smooth4, smooth_sent, n: int):
        r = ptr16(readings)  # noqa: F821 - viper builtin
        s = ptr16(sent)  # noqa: F821 - viper builtin
        f4 = ptr32(smooth4)  # noqa: F821 - viper builtin
        fs = ptr16(smooth_sent)  # noqa: F821 - viper builtin
        c = 0
        while c < n:
            s[c] = r[c]
            fs[c] = f4[c] >> 2
            c += 1

    @micropython.viper
    def _viper_prime(readings, smooth4, n: int):
        r = ptr16(readings)  # noqa: F821 - viper builtin
        f4 = ptr32(smooth4)  # noqa: F821 - viper builtin
        c = 0
        while c < n:
            f4[c] = r[c] << 2
            c += 1

    if _viper_find(
        array.array("H", [9]),
        array.array("H", [0]),
        array.array("I", [0]),
        array.array("H", [0]),
        1,
        bytearray(4),
        0,
        array.array("H", [0]),
        0,
    ) != 1:
        raise ValueError("viper change finder is wrong")
except Exception:  # CPython, or a port without the viper emitter
    _viper_find = _viper_take_all = _viper_prime = None


def _python_find(readings, sent, smooth4, smooth_sent, n, out, deadband, levels, nlevels):  # noqa: ANN001, ANN202, PLR0913
    # The viper loop's rule in C-level map() steps: the simulator runs this every scan.
    from itertools import compress, repeat
    from operator import add, gt, or_, rshift, sub

    acc = list(map(add, smooth4, map(sub, readings, map(rshift, smooth4, repeat(2)))))
    smooth4[:] = array.array("I", acc)
    smooth = list(map(rshift, acc, repeat(2)))
    moved = map(gt, map(abs, map(sub, smooth, smooth_sent)), repeat(deadband))
    jumped = map(gt, map(abs, map(sub, readings, sent)), repeat(4 * deadband))
    changed = list(compress(range(n), map(or_, moved, jumped)))
    if nlevels:
        active = levels[:nlevels]
        crossed = [
            c
            for c, (v, old) in enumerate(zip(readings, sent))  # noqa: B905 - MicroPython zip
            if any((v >= t) != (old >= t) for t in active)
        ]
        changed = sorted(set(changed) | set(crossed))
    for count, c in enumerate(changed):
        v = readings[c]
        sent[c] = v
        smooth_sent[c] = smooth[c]
        struct.pack_into("<HH", out, 4 * count, c, v)
    return len(changed)


def _lanes(values) -> int:  # noqa: ANN001 - an array('H'): its values in 32-bit lanes of one int
    raw = values.tobytes()
    wide = bytearray(2 * len(raw))
    wide[0::4] = raw[0::2]  # little-endian: low bytes, then high bytes, then two zeros
    wide[1::4] = raw[1::2]
    return int.from_bytes(wide, "little")


def _outside(x: int, y: int, band: int, ones: int) -> int:
    # Per lane: bit 18 set where |x - y| > band (x, y < 2**16). z = 2**17 + x - y never
    # borrows from the next lane; adding an offset moves "z past an edge" into bit 18.
    z = x + (ones << 17) - y
    high = z + ones * ((1 << 17) - band - 1)
    low = z + ones * ((1 << 17) + band)
    bit = ones << 18
    return (high & bit) | (~low & bit)


def _little_endian() -> bool:
    return array.array("H", [1]).tobytes() == b"\x01\x00"


def _lane_find(readings, sent, smooth4, smooth_sent, n, out, deadband, levels, nlevels):  # noqa: ANN001, ANN202, PLR0913
    # The viper loop's rule on whole scans at once, as 32-bit lanes of Python ints
    # (SIMD within a register, as the host's sensing does): the simulator runs this
    # every scan, and a per-channel Python loop made it miss its scan rate.
    ones = int.from_bytes(b"\x01\x00\x00\x00" * n, "little")
    r = _lanes(readings)
    a = int.from_bytes(smooth4.tobytes(), "little")
    a = a + r - ((a >> 2) & (ones * 0x3FFFFFFF))
    smooth4[:] = array.array("I", a.to_bytes(4 * n, "little"))
    f = (a >> 2) & (ones * 0x3FFFFFFF)
    flags = _outside(f, _lanes(smooth_sent), deadband, ones)
    flags |= _outside(r, _lanes(sent), 4 * deadband, ones)
    changed = []
    if flags:
        lanes = array.array("I", flags.to_bytes(4 * n, "little"))
        changed = [c for c in range(n) if lanes[c]]
    if nlevels:
        active = levels[:nlevels]
        crossed = [
            c
            for c in range(n)
            if any((readings[c] >= t) != (sent[c] >= t) for t in active)
        ]
        changed = sorted(set(changed) | set(crossed))
    for count, c in enumerate(changed):
        v = readings[c]
        sent[c] = v
        smooth_sent[c] = smooth4[c] >> 2
        struct.pack_into("<HH", out, 4 * count, c, v)
    return len(changed)


class Changes:
    """The host's view of every channel, and what a new scan changes in it."""

    def __init__(self, channels: int, deadband: int = 0) -> None:
        self.channels = channels
        self.deadband = deadband
        self.sent = array.array("H", [0] * channels)
        self.smooth4 = array.array("I", [0] * channels)  # 4 × the smoothed reading
        self.smooth_sent = array.array("H", [0] * channels)
        self.out = bytearray(4 * channels)
        self._primed = False
        self.levels = array.array("H", [0] * 4)
        self.nlevels = 0
        if _viper_find is not None:
            self._find = _viper_find
        elif array.array("I").itemsize == 4 and _little_endian():
            self._find = _lane_find
        else:
            self._find = _python_find

    def set_levels(self, levels: "list[int] | tuple[int, ...]") -> None:
        """Classification levels (u16) whose crossing is always sent; at most four."""
        if len(levels) > len(self.levels):
            raise ValueError("at most four levels")
        for i, level in enumerate(levels):
            self.levels[i] = level
        self.nlevels = len(levels)

    def restart(self) -> None:
        """Start the averages again from the next scan (after scans ``find`` did not see)."""
        self._primed = False

    def find(self, readings: array.array) -> int:
        """How many channels changed; their (channel, reading) pairs fill ``out``."""
        if not self._primed:  # the first scan starts the averages where the readings are
            self._primed = True
            if _viper_prime is not None:
                _viper_prime(readings, self.smooth4, self.channels)
            else:
                smooth4 = self.smooth4
                for c in range(self.channels):
                    smooth4[c] = readings[c] << 2
        return self._find(
            readings,
            self.sent,
            self.smooth4,
            self.smooth_sent,
            self.channels,
            self.out,
            self.deadband,
            self.levels,
            self.nlevels,
        )

    def take_all(self, readings: array.array) -> None:
        """A keyframe went out: the host now holds every reading."""
        if _viper_take_all is not None:
            _viper_take_all(readings, self.sent, self.smooth4, self.smooth_sent, self.channels)
            return
        sent = self.sent
        smooth4 = self.smooth4
        smooth_sent = self.smooth_sent
        for c in range(self.channels):
            sent[c] = readings[c]
            smooth_sent[c] = smooth4[c] >> 2
