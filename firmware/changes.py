"""Which channels of a scan the host must hear about: dead-band and threshold crossings.

``Changes`` keeps, per channel, the reading the host last received. After a scan,
``find(readings)`` lists the channels whose reading moved more than ``deadband``
from that value, or crossed one of up to four ``levels`` (the host's
classification thresholds) even by less, and takes their new readings as sent.
The list goes into a bytearray made once (4 bytes a change: channel u16, reading
u16, little-endian), ready for ``protocol.FrameWriter.delta``.

On MicroPython the loop is ``@micropython.viper`` machine code over the arrays'
memory: no allocation, a few cycles a channel. Under CPython the same rule runs
as plain Python (the simulator).
"""

import array
import struct

_viper_find = None
try:
    import micropython

    @micropython.viper
    def _viper_find(readings, sent, n: int, out, deadband: int, levels, nlevels: int) -> int:
        r = ptr16(readings)  # noqa: F821 - viper builtin
        s = ptr16(sent)  # noqa: F821 - viper builtin
        lv = ptr16(levels)  # noqa: F821 - viper builtin
        o = ptr8(out)  # noqa: F821 - viper builtin
        count = 0
        c = 0
        while c < n:
            v = int(r[c])
            old = int(s[c])
            d = v - old
            if d < 0:
                d = -d
            moved = 0
            if d > deadband:
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
                j = count << 2
                o[j] = c & 0xFF
                o[j + 1] = c >> 8
                o[j + 2] = v & 0xFF
                o[j + 3] = v >> 8
                count += 1
            c += 1
        return count

    if _viper_find(
        array.array("H", [9]), array.array("H", [0]), 1, bytearray(4), 3, array.array("H", [0]), 0
    ) != 1:
        raise ValueError("viper change finder is wrong")
except Exception:  # CPython, or a port without the viper emitter
    _viper_find = None


def _python_find(readings, sent, n, out, deadband, levels, nlevels):  # noqa: ANN001, ANN202
    count = 0
    active = levels[:nlevels]
    for c in range(n):
        v = readings[c]
        old = sent[c]
        if abs(v - old) > deadband or any((v >= t) != (old >= t) for t in active):
            sent[c] = v
            struct.pack_into("<HH", out, 4 * count, c, v)
            count += 1
    return count


class Changes:
    """The host's view of every channel, and what a new scan changes in it."""

    def __init__(self, channels: int, deadband: int = 0) -> None:
        self.channels = channels
        self.deadband = deadband
        self.sent = array.array("H", [0] * channels)
        self.out = bytearray(4 * channels)
        self.levels = array.array("H", [0] * 4)
        self.nlevels = 0
        self._find = _viper_find or _python_find

    def set_levels(self, levels: "list[int] | tuple[int, ...]") -> None:
        """Classification levels (u16) whose crossing is always sent; at most four."""
        if len(levels) > len(self.levels):
            raise ValueError("at most four levels")
        for i, level in enumerate(levels):
            self.levels[i] = level
        self.nlevels = len(levels)

    def find(self, readings: array.array) -> int:
        """How many channels changed; their (channel, reading) pairs fill ``out``."""
        return self._find(
            readings, self.sent, self.channels, self.out, self.deadband, self.levels, self.nlevels
        )

    def take_all(self, readings: array.array) -> None:
        """A keyframe went out: the host now holds every reading."""
        sent = self.sent
        for c in range(self.channels):
            sent[c] = readings[c]
