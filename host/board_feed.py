"""The one path from a scan to an observation: sensing → tracker → the referee's inputs.

:class:`BoardFeed` takes every scan of the board, whoever made it: the serial
link's thread at a table and in the demo (the real firmware on a pty), the
stepped rig of the tests and the sensing bench. It times each scan by the
hardware's clock, runs sensing and the tracker, watches every channel for faults
(:class:`~lawmaster.host.sensing.faults.ChannelWatch`) and hands each
observation to the referee's inputs. :meth:`BoardFeed.for_board` builds it as a
table does; nothing else builds sensing and the tracker for a board.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from lawmaster.firmware import protocol
from lawmaster.hardware.sensor_map import SensorMap

from .link_scans import KeyScan
from .sensing import Calibration, Sensing
from .sensing.faults import ChannelWatch, board_agrees
from .tracker import Observation, Tracker


class Scan(Protocol):
    """What the feed needs of a scan (a :class:`~lawmaster.firmware.protocol.ScanFrame`)."""

    @property
    def readings(self) -> Sequence[int]: ...


class RefereeInputs(Protocol):
    """Where the findings go: the referee's queue (:class:`~lawmaster.host.inputs.Inputs`)."""

    def observation(self, observation: Observation, now: float) -> None: ...

    def board_matches(self) -> None: ...


class NoReferee:
    """Inputs nobody referees (a rig stepped for the tracker alone)."""

    def observation(self, observation: Observation, now: float) -> None:
        """Dropped: the caller listens to :attr:`BoardFeed.on_observation`."""

    def board_matches(self) -> None:
        """Dropped."""


class BoardFeed:
    """Scans → sensing → tracker → the referee's inputs, on the thread that reads the scans.

    The referee tells the feed what to expect (:meth:`expect`, any thread); the
    scans' thread hands it to the tracker before the next scan, so the tracker
    is only ever touched by one thread.
    """

    #: Scans read before observations count: the sensing layer needs a few (its
    #: debounce) to see the pieces already standing on the board at start-up.
    WARMUP_FRAMES = 20

    #: How long (scan time) the board must match the game, after it came back, to resume.
    RECHECK_S = 0.3

    def __init__(
        self,
        sensing: Sensing,
        tracker: Tracker,
        inputs: RefereeInputs,
        clock: Callable[[], float],
        watch: ChannelWatch | None = None,
        health: Any = None,
        *,
        warmup: int = WARMUP_FRAMES,
    ) -> None:
        self.sensing = sensing
        self.tracker = tracker
        self.inputs = inputs
        self.clock = clock
        #: The channel watch, if any.
        self.watch = watch
        self.health = health
        self.warmup = warmup
        self.frames = 0
        self._lock = threading.Lock()
        self._expectation: Any = None
        self._latest: Any = None
        self._recheck = False
        self._holding = False
        self._match_since: float | None = None
        self._matched = False
        self._rate_t0: float | None = None
        self._rate_frames = 0
        #: Called with each observation and the time it was made (for the bench).
        self.on_observation: list[Callable[[Observation, float], None]] = []

    @classmethod
    def for_board(
        cls,
        sensor_map: SensorMap,
        calibration: Calibration,
        inputs: RefereeInputs,
        clock: Callable[[], float],
        *,
        rate: float,
        health: Any = None,
        warmup: int = WARMUP_FRAMES,
    ) -> BoardFeed:
        """The feed a table runs for a board scanned ``rate`` times a second."""
        return cls(
            Sensing(sensor_map, calibration, rate=rate),
            Tracker(sensor_map),
            inputs,
            clock,
            watch=ChannelWatch(sensor_map, calibration, rate=rate),
            health=health,
            warmup=warmup,
        )

    def expect(self, expectation: Any) -> None:
        with self._lock:
            self._expectation = expectation
            self._latest = expectation

    def hold(self, on: bool) -> None:
        """The referee holds its inputs (blind, or checking): pieces astray are no sensor fault."""
        self._holding = on

    def recheck(self, on: bool) -> None:
        """Compare the board with the expectation until they agree (the board came back)."""
        with self._lock:
            if on != self._recheck:
                self._recheck = on
                self._match_since = None
                self._matched = False

    def on_scan(self, frame: Scan) -> None:
        """One scan: its observations go to the listeners and the referee's inputs."""
        t = self.clock()
        self.frames += 1
        with self._lock:
            expectation, self._expectation = self._expectation, None
            if self.warmup and self.frames == self.warmup:
                # Match the game's pieces to what the sensors now see on the board.
                expectation = self._latest
        if expectation is not None:
            self.tracker.expect(expectation, t)
            if self.watch is not None:
                self.watch.expect(expectation)
        observations = self.tracker.feed(self.sensing.feed(frame.readings, t), t)
        self._look_after(frame.readings, t, fresh=isinstance(frame, KeyScan))
        if self.frames <= self.warmup:
            return  # the pieces standing on the board at start-up are not moves
        for observation in observations:
            for listener in self.on_observation:
                listener(observation, t)
            self.inputs.observation(observation, t)

    def _look_after(self, readings: Sequence[int], t: float, fresh: bool) -> None:
        """Channel faults, the scan rate, and the check of a board that came back."""
        health = self.health
        watch = self.watch
        judge = not self._holding
        changed = watch is not None and watch.feed(
            readings, t, self.sensing.kind_at, judge, fresh=fresh
        )
        if watch is not None and changed and health:
            health.channel_faults("play", watch.flagged)
        if self._rate_t0 is None:
            self._rate_t0, self._rate_frames = t, 0
        self._rate_frames += 1
        if t - self._rate_t0 >= 1.0:
            if health is not None:
                health.set_scan_rate(self._rate_frames / (t - self._rate_t0))
            self._rate_t0, self._rate_frames = t, 0
        if not self._recheck or self._matched or self.frames % 8:
            return
        with self._lock:
            latest = self._latest
        if latest is None or not board_agrees(self.tracker.seen, latest):
            self._match_since = None
            return
        if self._match_since is None:
            self._match_since = t
        elif t - self._match_since >= self.RECHECK_S:
            self._matched = True
            self.inputs.board_matches()


def sensor_faults(failed: Mapping[int, str]) -> dict[int, str]:
    """The self-test's failures that mean a broken channel whatever stands on the board.

    An offset out of tolerance is also what a magnet on the spot reads like: with
    a game under way (or resumed after a power cut) pieces stand on the board while
    the scanner tests itself, so that reason is left to the calibration's check of
    an empty board. A rail or a reading without noise no magnet can cause.
    """
    offset = protocol.FAULT_NAMES[protocol.FAULT_OFFSET]
    return {channel: reason for channel, reason in failed.items() if reason != offset}
