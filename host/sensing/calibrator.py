"""The guided calibration flow, as a state machine fed one frame at a time.

Steps: (1) the empty board — every magnet off — for ``empty_frames`` frames gives
each channel's baseline and noise; (2) for each kind of magnet, for each spot in
channel order, the person puts one piece of that kind on the spot asked, holds
still until the reading is steady, and takes it off again. :attr:`Calibrator.prompt`
always says what to do next, with progress ("criminal: 12 of 122 spots")::

    cal = Calibrator(sensor_map)
    while not cal.done:
        cal.feed(next_frame())        # show cal.prompt when it changes
    cal.result().save("calibration.json")

The same machine serves the real board (frames from the serial link) and the
simulated one (``lawmaster calibrate --simulated``), so the demo shows the real flow.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.sensing.calibration import MIN_NOISE, Calibration, mean_and_noise

PLACED_SIGMAS = 40.0  # a reading this many noise widths off the baseline means "a magnet"
PLACED_MIN = 600.0  # counts, whatever the noise
CLEAR_SIGMAS = 8.0  # back within this of the baseline means "taken off"


@dataclass(frozen=True)
class Prompt:
    """What the person should do now."""

    step: str  # "empty", "place", "remove", "done"
    text: str
    kind: str | None = None
    space: str | None = None
    channel: int | None = None
    done: int = 0  # spots finished for this kind
    total: int = 0  # spots for this kind


class Calibrator:
    """Walks a person through calibrating every channel of a board."""

    def __init__(
        self,
        sensor_map: SensorMap,
        *,
        empty_frames: int = 100,
        hold_frames: int = 16,
        clear_frames: int = 6,
    ) -> None:
        self.map = sensor_map
        self.empty_frames = empty_frames
        self.hold_frames = hold_frames
        self.clear_frames = clear_frames
        self.spots = sorted(sensor_map.spots, key=lambda s: s.channel)
        self.kinds = list(sensor_map.kinds)
        n = sensor_map.channels
        self._frames: list[Sequence[int]] = []
        self.baseline = [0.0] * n
        self.noise = [0.0] * n
        self.levels = {k: [0.0] * n for k in self.kinds}
        self._kind_i = 0
        self._spot_i = 0
        self._step = "empty"
        self._recent: list[int] = []
        self._limits: list[tuple[str, int, float, float]] = []
        self.warning = ""
        self.prompt = Prompt("empty", "Take every magnet off the board and keep your hands away")

    @property
    def done(self) -> bool:
        return self._step == "done"

    @property
    def total_spots(self) -> int:
        return len(self.spots) * len(self.kinds)

    def _threshold(self, ch: int) -> float:
        return max(PLACED_MIN, PLACED_SIGMAS * max(self.noise[ch], MIN_NOISE))

    def _ask_place(self) -> None:
        kind, spot = self.kinds[self._kind_i], self.spots[self._spot_i]
        self._step = "place"
        self._recent = []
        where = spot.space
        siblings = [s.channel for s in self.spots if s.space == spot.space]
        if len(siblings) > 1:
            where += f" (marked spot {siblings.index(spot.channel) + 1} of {len(siblings)})"
        self.prompt = Prompt(
            "place",
            f"Put a {kind} on {where} [channel {spot.channel}]:"
            f" {self._spot_i} of {len(self.spots)} spots done",
            kind,
            spot.space,
            spot.channel,
            self._spot_i,
            len(self.spots),
        )

    def feed(self, readings: Sequence[int]) -> Prompt:
        """Take one frame; return the (possibly new) prompt."""
        if self._step == "empty":
            self._frames.append(readings)
            if len(self._frames) >= self.empty_frames:
                for ch in range(self.map.channels):
                    self.baseline[ch], self.noise[ch] = mean_and_noise(self._frames, ch)
                self._frames = []
                # Every frame until a piece shows up is searched for it elsewhere: the
                # limits are fixed from here on, so work them out once.
                self._limits = [
                    (s.space, s.channel, self.baseline[s.channel], self._threshold(s.channel))
                    for s in self.spots
                ]
                self._ask_place()
        elif self._step == "place":
            self._feed_place(readings)
        elif self._step == "remove":
            ch = self.spots[self._spot_i].channel
            if abs(readings[ch] - self.baseline[ch]) <= CLEAR_SIGMAS * max(
                self.noise[ch], MIN_NOISE
            ):
                self._recent.append(readings[ch])
                if len(self._recent) >= self.clear_frames:
                    self._next_spot()
            else:
                self._recent = []
        return self.prompt

    def _feed_place(self, readings: Sequence[int]) -> None:
        ch = self.spots[self._spot_i].channel
        kind = self.kinds[self._kind_i]
        off = readings[ch] - self.baseline[ch]
        if abs(off) < self._threshold(ch):
            self._recent = []
            wrong = self._strongest_elsewhere(readings, ch)
            self.warning = f"that is on {wrong}, not the spot asked" if wrong else ""
            return
        polarity = "south" if off > 0 else "north"
        if polarity != self.map.kinds[kind].polarity:
            self.warning = f"the {kind} reads {polarity}: is the magnet upside down?"
            self._recent = []
            return
        self.warning = ""
        self._recent.append(readings[ch])
        recent = self._recent[-self.hold_frames :]
        steady = 6 * max(self.noise[ch], MIN_NOISE) + 0.01 * abs(off)
        if len(recent) == self.hold_frames and max(recent) - min(recent) <= steady:
            self.levels[kind][ch] = sum(recent) / len(recent)
            self._step = "remove"
            self._recent = []
            self.prompt = Prompt(
                "remove",
                f"Take the {kind} off {self.prompt.space}",
                kind,
                self.prompt.space,
                ch,
                self._spot_i + 1,
                len(self.spots),
            )

    def _strongest_elsewhere(self, readings: Sequence[int], asked: int) -> str | None:
        best, best_off = None, 0.0
        for space, ch, base, limit in self._limits:
            off = abs(readings[ch] - base)
            if off > limit and off > best_off and ch != asked:
                best, best_off = space, off
        return best

    def _next_spot(self) -> None:
        self._spot_i += 1
        if self._spot_i == len(self.spots):
            self._spot_i = 0
            self._kind_i += 1
        if self._kind_i == len(self.kinds):
            self._step = "done"
            self.prompt = Prompt(
                "done",
                f"Calibrated {len(self.spots)} spots for {', '.join(self.kinds)}",
                done=len(self.spots),
                total=len(self.spots),
            )
        else:
            self._ask_place()

    def result(self) -> Calibration:
        """The calibration measured (only once :attr:`done`)."""
        if not self.done:
            raise RuntimeError("calibration is not finished")
        return Calibration(
            self.map.game,
            self.map.board,
            tuple(self.baseline),
            tuple(self.noise),
            {k: tuple(v) for k, v in self.levels.items()},
            datetime.now(UTC).isoformat(timespec="seconds"),
        )
