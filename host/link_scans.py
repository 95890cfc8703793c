"""Whole scans again, from the scanner's keyframes and change-only frames.

The scanner sends each scan as KEY parts (every channel) or DELTA frames (only
what changed), each at most 256 bytes (see :mod:`lawmaster.firmware.protocol`).
:class:`ScanAssembler` keeps the host's copy of every channel and turns each
scan's last frame into one :class:`~lawmaster.firmware.protocol.ScanFrame`, so
everything above the link still sees one full scan per scan.

It refuses to deliver until it holds a complete keyframe, and again after any
frame may have been lost (:meth:`ScanAssembler.lose`, called by the link on a
``seq`` gap): a lost DELTA would otherwise leave a channel wrong for good.
Device time (30 bits, wrapping every ~17.9 min) is unwrapped into µs since the
first frame seen, so delivered timestamps only grow.

Example::

    assembler = ScanAssembler()
    for frame in decoder.feed(data):
        scan = assembler.feed(frame)
        if scan is not None:
            pipeline.on_scan(scan)
"""

from __future__ import annotations

from lawmaster.firmware.protocol import (
    LAST,
    SEQ_MASK,
    DeltaFrame,
    KeyFrame,
    ScanFrame,
)

__all__ = ["ScanAssembler"]


class KeyScan(ScanFrame):
    """A whole scan read afresh on the scanner (a keyframe), not rebuilt from changes:
    only such readings show a sensor's noise, so only they can show one gone still."""

    __slots__ = ()


class ScanAssembler:
    """Turns KEY and DELTA frames into full :class:`ScanFrame` objects."""

    def __init__(self) -> None:
        self.keyframes = 0
        """Complete keyframes received."""
        self.deltas = 0
        """DELTA frames applied."""
        self.dropped = 0
        """Frames that could not be used: no keyframe yet, or a keyframe with a hole."""
        self.reset()

    @property
    def synced(self) -> bool:
        """True while the host's copy of every channel is known to be the device's."""
        return self._image is not None

    @property
    def waiting(self) -> bool:
        """True when only a fresh keyframe can help (none is arriving)."""
        return self._image is None and self._key is None

    def reset(self) -> None:
        """Forget everything (a reconnect or a device restart)."""
        self._image: list[int] | None = None
        self._key: list[int] | None = None
        self._key_next = 0
        self._key_time = 0
        self._raw: int | None = None
        self._time = 0

    def lose(self) -> None:
        """Frames may have been lost: deliver nothing until the next complete keyframe."""
        self._image = None
        self._key = None

    def _unwrap(self, raw: int) -> int:
        if self._raw is not None:
            self._time += (raw - self._raw) & SEQ_MASK
        self._raw = raw
        return self._time

    def feed(self, frame: KeyFrame | DeltaFrame) -> ScanFrame | None:
        """Take one KEY or DELTA frame; the scan it completes, or None."""
        if isinstance(frame, KeyFrame):
            return self._feed_key(frame)
        return self._feed_delta(frame)

    def _feed_key(self, frame: KeyFrame) -> ScanFrame | None:
        readings = frame.readings
        if frame.first == 0:
            self._key = [0] * frame.channels
            self._key_next = 0
            self._key_time = frame.timestamp_us
        key = self._key
        if (
            key is None
            or frame.first != self._key_next
            or frame.channels != len(key)
            or frame.timestamp_us != self._key_time
        ):
            self._key = None  # a part is missing: this keyframe is no use
            self.dropped += 1
            return None
        key[frame.first : frame.first + len(readings)] = readings
        self._key_next += len(readings)
        if not frame.flags & LAST:
            return None
        self._key = None
        if self._key_next != len(key):
            self.dropped += 1
            return None
        self._image = key
        self.keyframes += 1
        return KeyScan(frame.seq, self._unwrap(frame.timestamp_us), frame.scan_us, tuple(key))

    def _feed_delta(self, frame: DeltaFrame) -> ScanFrame | None:
        image = self._image
        if image is None:
            self.dropped += 1
            return None
        channels = len(image)
        for channel, reading in frame.changes:
            if channel >= channels:  # a DELTA for another layout: resync
                self.lose()
                self.dropped += 1
                return None
            image[channel] = reading
        self.deltas += 1
        if not frame.flags & LAST:
            return None
        return ScanFrame(frame.seq, self._unwrap(frame.timestamp_us), frame.scan_us, tuple(image))
