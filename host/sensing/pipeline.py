"""SCAN frames → sensing → tracker → observations: the host side of the board, wired.

``ScanPipeline.on_scan`` is the callback a :class:`lawmaster.host.link.Link` calls
for every SCAN frame (on the link's thread). Observations go to ``on_observation``
or, by default, onto :attr:`ScanPipeline.observations` (a thread-safe queue) for
the referee's thread::

    pipeline = ScanPipeline(Sensing(sensor_map, calibration), Tracker(sensor_map))
    link = Link(port, pipeline.on_scan).start()
    pipeline.expect(expectation)                   # from the referee's thread
    observation = pipeline.observations.get()

Time is the scanner's own clock (``timestamp_us``, unwrapped past its 2**32 µs
wrap), so debounce and the tracker's delays are measured in scan time, not in
when the host got round to reading the port.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Sequence
from typing import Protocol

from lawmaster.host.sensing.sensing import Sensing
from lawmaster.host.tracker import Expectation, Observation, Tracker

_WRAP = 1 << 32


class ScanLike(Protocol):
    """What the pipeline needs of a SCAN frame (``firmware.protocol.ScanFrame``)."""

    timestamp_us: int
    readings: Sequence[int]


class ScanPipeline:
    """Feeds each SCAN frame through sensing and the tracker."""

    def __init__(
        self,
        sensing: Sensing,
        tracker: Tracker,
        on_observation: Callable[[Observation], None] | None = None,
    ) -> None:
        self.sensing = sensing
        self.tracker = tracker
        self.observations: queue.SimpleQueue[Observation] = queue.SimpleQueue()
        self._emit = on_observation or self.observations.put
        self._lock = threading.Lock()
        self._last_us: int | None = None
        self._wraps = 0
        self.frames = 0

    def time_of(self, timestamp_us: int) -> float:
        """Seconds on the scanner's clock, counting its wraps."""
        if self._last_us is not None and timestamp_us < self._last_us - (_WRAP >> 1):
            self._wraps += 1
        self._last_us = timestamp_us
        return (self._wraps * _WRAP + timestamp_us) / 1e6

    @property
    def now(self) -> float:
        """The scanner time of the latest frame (0 before any)."""
        if self._last_us is None:
            return 0.0
        return (self._wraps * _WRAP + self._last_us) / 1e6

    def expect(self, expectation: Expectation) -> None:
        """Tell the tracker what is expected now (safe from any thread)."""
        with self._lock:
            self.tracker.expect(expectation, self.now)

    def on_scan(self, frame: ScanLike) -> list[Observation]:
        """Process one SCAN frame; returns (and emits) its observations."""
        with self._lock:
            self.frames += 1
            t = self.time_of(frame.timestamp_us)
            events = self.sensing.feed(frame.readings, t)
            observations = self.tracker.feed(events, t)
        for observation in observations:
            self._emit(observation)
        return observations
