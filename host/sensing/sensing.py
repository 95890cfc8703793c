"""Raw readings → stable occupancy per space, with the kind (polarity) of each magnet.

Per frame :meth:`Sensing.feed` takes one reading per channel and returns events:

* :class:`Occupancy` — the count of magnets of some kind in a space changed (a
  spot's class was different for ``debounce`` consecutive frames). ``counts`` is
  the space's new count per kind (kinds with 0 left out).
* :class:`Settled` — a spot that just gained a magnet now reads steadily (its last
  ``frames`` readings lie within a few noise widths): the magnet has come to
  rest there. Reported twice: after ``still_frames`` (5) readings within the
  *landed* spread (``LANDED``: a piece put down from above may still bob a few
  tenths of a millimetre in height, which swings its reading though it stands
  where it landed), and again after the long window (the kind's own, else
  ``LONG_STILL_MS``: 14 readings at 200 scans/s) within the tight *still* spread
  (a few noise widths). A
  magnet sliding over a spot is seen (``Occupancy``) but does not settle, which is
  how the tracker tells the cells a slide passed from the cell where it stopped; a
  slow slide looks steady for 5 frames as it crosses a sensor's centre (the field
  is flat at its peak), so the tracker waits for the long one when a magnet
  arrived sliding. The long window is as short as the field allows: just longer
  than a careful slide stays within the still spread crossing a centre
  (:mod:`lawmaster.host.sensing.stillness` computes that from the field tables).

Speed: most frames change nothing. Each channel has a precomputed band (the
readings that keep its present class, hysteresis included). The whole frame is
checked against all bands at once, SIMD-within-a-register style: the readings go
into 32-bit lanes of one Python integer (``array('I')`` → ``int.from_bytes``), the
band edges are two more such integers, and one addition, one subtraction and two
masks say whether any lane left its band (a lane's bit 17 is set exactly when
its reading is on the right side of its edge). Only channels out of band, and the
few being debounced or watched for stillness, get per-channel Python work.

Thresholds, per channel, from the calibration: a spot becomes "kind K" when the
reading is more than ``enter`` (35 %) of the way from the baseline to K's level,
and stays K until it falls back under ``leave`` (25 %); between two kinds on
the same side the cut is halfway, ±10 %. A magnet is thus seen about 5 mm from
the spot's centre on the reference hardware.
"""

from __future__ import annotations

import math
from array import array
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.sensing.calibration import MIN_NOISE, Calibration, CalibrationError

ENTER = 0.35
LEAVE = 0.25
BETWEEN_KINDS = 0.10
#: The short window's spread, as a share of the way from baseline to the level: a
#: magnet put down from above may still bob by half a millimetre in height (its
#: reading then swings by ~15 % of the level) while it stands where it landed.
LANDED = 0.20
#: The long window also passes a magnet still creeping by under ``CREEP_MM`` in the
#: window (0.25 mm in 50 ms, 5 mm/s), the slow end of a hand's slide. Off a
#: sensor's centre a hair of travel swings the reading by hundreds of counts (the
#: field's slope there), which the tight spread alone would call moving. The slope
#: is estimated from how far the reading lies below the magnet's level: near the
#: centre the field is a paraboloid, ``level − reading ≈ a·d²``, so the slope is
#: ``2·√(a·(level − reading))``, with ``a`` ≈ ``CURVATURE`` × the level's height per
#: mm²: the largest of the reference boards' magnets through their stacks (magpylib:
#: the Graffiti pieces' 0.01650 rounded up, the gw_brott criminal's 0.0121, Dredd's
#: Judges' 0.0149, GW's pair 0.0147), so no kind's creep is taken for motion; a larger
#: value would let a slide
#: look still further off the centre. At the centre the slope is nil and the tight
#: spread alone decides, so a slow slide crossing a centre is not still.
CREEP_MM = 0.25
CURVATURE = 0.0166
#: The long window, for a kind whose sensor map gives none (``Kind.long_still_ms``).
#: A careful slide (``stillness.CAREFUL_CROSSING_MM_S``) crossing a sensor's centre
#: keeps the reading within the still spread for up to 63 ms with the magpylib
#: fields of the reference boards (the gw_brott criminal's flat top, Ø15 mm since its
#: margins were taken at every tolerance corner, at the board's datasheet noise
#: figure of 46 counts); the window must outlast that, and this is the next whole
#: scan at 200 scans/s. Each kind's own window, in its map, is as short as its own
#: field allows (GW's pair 45 ms). ``tests/sensing/test_sensing_stillness.py``
#: recomputes both from the field tables, so a magnet or stack change that needs a
#: longer window (or allows a shorter one) fails there instead of in a game.
LONG_STILL_MS = 65.0
_LOW, _HIGH = -1, 65536  # outside any u16 reading
_LANE = 32
_BIT = 17  # lane value = 2**17 ± (reading − edge): bit 17 set ⇔ reading inside the edge


def long_window_frames(long_still_ms: float, rate: float) -> int:
    """Readings in a long window of ``long_still_ms`` at ``rate`` scans/s (its span is
    the time between the first and the last reading, hence the one more)."""
    return round(long_still_ms * rate / 1000) + 1


def creep_counts(height: float, below: float) -> float:
    """The swing ``CREEP_MM`` of travel makes on a reading ``below`` counts under a
    level ``height`` counts from the baseline (see ``CURVATURE``)."""
    return 2.0 * math.sqrt(CURVATURE * height * below) * CREEP_MM


def still_spread(noise: float, height: float) -> float:
    """The tight spread (counts) the long window allows a level ``height`` from the
    baseline, on a channel of ``noise`` counts."""
    return 5 * max(noise, MIN_NOISE) + 0.005 * abs(height)


@dataclass(frozen=True, slots=True)
class Occupancy:
    """The magnets counted in ``space`` changed; ``counts`` is kind → number now."""

    space: str
    counts: Mapping[str, int]
    t: float


@dataclass(frozen=True, slots=True)
class Settled:
    """A magnet of ``kind`` came to rest on ``channel``'s spot in ``space``.

    ``frames`` is how many consecutive steady readings that is.
    """

    space: str
    kind: str
    channel: int
    t: float
    frames: int = 5


SensingEvent = Occupancy | Settled


@dataclass(frozen=True)
class _Channel:
    """One channel's classes in reading order, the cuts between them and their bands."""

    classes: tuple[str | None, ...]  # None = empty
    cuts: tuple[float, ...]  # plain classification: class i below cuts[i]
    lows: tuple[float, ...]  # band of class i: [lows[i], highs[i]]
    highs: tuple[float, ...]
    still_tol: tuple[float, ...]  # per class: spread of readings that counts as "still"
    landed_tol: tuple[float, ...]  # per class: spread allowed in the short window (see LANDED)


def _channel_table(base: float, noise: float, levels: Mapping[str, float]) -> _Channel:
    order = sorted([(base, None), *((lv, k) for k, lv in levels.items())], key=lambda p: p[0])
    classes = tuple(k for _, k in order)
    cuts, lows, highs = [], [float(_LOW)], []
    for (a, ka), (b, kb) in zip(order, order[1:], strict=False):
        gap = b - a
        if ka is None:  # empty below a south kind
            cut, lower_top, upper_bottom = a + ENTER * gap, a + ENTER * gap, a + LEAVE * gap
        elif kb is None:  # a north kind below empty
            cut, lower_top, upper_bottom = b - ENTER * gap, b - LEAVE * gap, b - ENTER * gap
        else:
            cut = a + gap / 2
            lower_top, upper_bottom = cut + BETWEEN_KINDS * gap, cut - BETWEEN_KINDS * gap
        cuts.append(cut)
        highs.append(lower_top)
        lows.append(upper_bottom)
    highs.append(float(_HIGH))
    sigma = max(noise, MIN_NOISE)
    still = tuple(still_spread(noise, lv - base) for lv, _ in order)
    landed = tuple(5 * sigma + LANDED * abs(lv - base) for lv, _ in order)
    return _Channel(classes, tuple(cuts), tuple(lows), tuple(highs), still, landed)


class Sensing:
    """Turns frames of raw readings into occupancy changes per space.

    ``sensor_map`` says which channel is which space; ``calibration`` gives the
    per-channel levels. ``debounce`` frames of agreement make a change;
    ``still_frames`` steady readings make a magnet :class:`Settled`. Those two
    guard against noise, which is new in every scan, so they count scans and end
    sooner at a faster ``rate`` (scans/s); the long window guards against a slow
    slide, which is a matter of time, so it spans ``long_still_ms`` whatever the rate.
    """

    def __init__(
        self,
        sensor_map: SensorMap,
        calibration: Calibration,
        *,
        debounce: int = 4,
        still_frames: int = 5,
        long_still_frames: int | None = None,
        rate: float = 200.0,
        long_still_ms: float = LONG_STILL_MS,
    ) -> None:
        if calibration.channels < sensor_map.channels:
            raise CalibrationError(
                f"the calibration has {calibration.channels} channels, the map needs"
                f" {sensor_map.channels}"
            )
        missing = set(sensor_map.kinds) - set(calibration.levels)
        if missing:
            raise CalibrationError(f"the calibration lacks the kind(s) {sorted(missing)}")
        self.map = sensor_map
        self.calibration = calibration
        self.debounce = debounce
        self.still_frames = still_frames
        # A slow slide crossing a sensor's centre looks still for a *time* (the field
        # is flat at its peak), however fast the scans come: the long window spans
        # ``long_still_ms`` (14 readings at 200 scans/s, 27 at 400), or the kind's own
        # window where its map gives one. ``long_still_frames`` sets every kind's.
        if long_still_frames is None:
            long_still_frames = long_window_frames(long_still_ms, rate)
            own = {k: v.long_still_ms for k, v in sensor_map.kinds.items() if v.long_still_ms}
        else:
            own = {}
        self.long_still_frames = max(long_still_frames, still_frames)
        """The default long window (readings): a kind without one of its own uses it."""
        self._long_frames: dict[str | None, int] = {
            kind: max(long_window_frames(ms, rate), still_frames) for kind, ms in own.items()
        }
        n = calibration.channels
        self.channels = n
        self._space: list[str | None] = sensor_map.space_of_channel() + [None] * (
            n - sensor_map.channels
        )
        self._tables: list[_Channel] = []
        self._levels: list[tuple[float, ...]] = []  # per channel: each class's level
        for ch in range(n):
            levels = {k: calibration.levels[k][ch] for k in sensor_map.kinds}
            table = _channel_table(calibration.baseline[ch], calibration.noise[ch], levels)
            self._tables.append(table)
            self._levels.append(
                tuple(calibration.baseline[ch] if k is None else levels[k] for k in table.classes)
            )
        # Present class per channel as an index into its table's classes.
        self._state = [t.classes.index(None) for t in self._tables]
        self._los = [_LOW] * n
        self._his = [_HIGH] * n
        self._lo_lanes = 0  # Σ (2**17 − lo) << 32·ch
        self._hi_lanes = 0  # Σ (2**17 + hi) << 32·ch
        self._mask = sum(1 << (_LANE * ch + _BIT) for ch in range(n))
        for ch in range(n):
            self._lo_lanes += ((1 << _BIT) - _LOW) << (_LANE * ch)
            self._hi_lanes += ((1 << _BIT) + _HIGH) << (_LANE * ch)
            if self._space[ch] is not None:  # unused channels never leave their band
                self._set_band(ch, self._state[ch])
        self._pending: dict[int, list[int]] = {}  # channel -> [candidate class, frames]
        # channel -> [short stillness reported (0/1), recent readings...]
        self._watch: dict[int, list[int]] = {}
        self._counts: dict[str, dict[str, int]] = {s: {} for s in sensor_map.spaces}
        self.frames = 0

    # -- queries -----------------------------------------------------------
    def occupancy(self) -> dict[str, dict[str, int]]:
        """Every space's present count per kind (copies; empty spaces map to ``{}``)."""
        return {s: dict(c) for s, c in self._counts.items()}

    def kind_at(self, channel: int) -> str | None:
        """The debounced class of one channel (``None``: empty)."""
        return self._tables[channel].classes[self._state[channel]]

    def classify(self, readings: Sequence[int]) -> list[str | None]:
        """Stateless classification of one frame (no hysteresis, no debounce)."""
        return [
            t.classes[bisect_right(t.cuts, r)]
            for t, r in zip(self._tables, readings[: self.channels], strict=False)
        ]

    # -- the frame loop ----------------------------------------------------
    def _set_band(self, ch: int, cls: int) -> None:
        table = self._tables[ch]
        lo, hi = math.ceil(table.lows[cls]), math.floor(table.highs[cls])
        shift = _LANE * ch
        self._lo_lanes += (self._los[ch] - lo) << shift
        self._hi_lanes += (hi - self._his[ch]) << shift
        self._los[ch], self._his[ch] = lo, hi

    def out_of_band(self, readings: Sequence[int]) -> list[int]:
        """The channels whose reading lies outside their present class's band."""
        n = self.channels
        if len(readings) < n:
            raise ValueError(f"a frame of {len(readings)} readings; the calibration has {n}")
        lanes = array("I", readings if len(readings) == n else readings[:n])
        x = int.from_bytes(lanes.tobytes(), "little")
        mask = self._mask
        bad = (((x + self._lo_lanes) & mask) ^ mask) | (((self._hi_lanes - x) & mask) ^ mask)
        channels = []
        while bad:
            low = bad & -bad
            channels.append((low.bit_length() - 1) // _LANE)
            bad ^= low
        return channels

    def feed(self, readings: Sequence[int], t: float) -> list[SensingEvent]:
        """Take one frame (one reading per channel) at time ``t`` seconds; return events."""
        self.frames += 1
        out_of_band = self.out_of_band(readings)
        if not out_of_band and not self._pending and not self._watch:
            return []
        events: list[SensingEvent] = []
        for ch in out_of_band:
            if ch not in self._pending:
                self._pending[ch] = [-1, 0]
        for ch in list(self._pending):
            self._step_pending(ch, readings[ch], t, events)
        for ch in list(self._watch):
            self._step_watch(ch, readings[ch], t, events)
        return events

    def _step_pending(self, ch: int, r: int, t: float, events: list[SensingEvent]) -> None:
        table = self._tables[ch]
        if self._los[ch] <= r <= self._his[ch]:
            del self._pending[ch]  # back in its band: the excursion was noise
            return
        cls = bisect_right(table.cuts, r)
        pending = self._pending[ch]
        if cls == pending[0]:
            pending[1] += 1
        else:
            pending[0], pending[1] = cls, 1
        if pending[1] >= self.debounce:
            del self._pending[ch]
            self._commit(ch, cls, r, t, events)

    def _commit(self, ch: int, cls: int, r: int, t: float, events: list[SensingEvent]) -> None:
        table = self._tables[ch]
        old_kind = table.classes[self._state[ch]]
        new_kind = table.classes[cls]
        self._state[ch] = cls
        self._set_band(ch, cls)
        space = self._space[ch]
        assert space is not None
        counts = self._counts[space]
        if old_kind is not None:
            counts[old_kind] -= 1
            if not counts[old_kind]:
                del counts[old_kind]
        if new_kind is not None:
            counts[new_kind] = counts.get(new_kind, 0) + 1
            self._watch[ch] = [0]  # not yet reported; readings are added by _step_watch
        else:
            self._watch.pop(ch, None)
        events.append(Occupancy(space, dict(counts), t))

    def _step_watch(self, ch: int, r: int, t: float, events: list[SensingEvent]) -> None:
        if ch in self._pending:
            return  # a change in progress: judge stillness after it
        watch = self._watch[ch]  # [reported_short (0/1), reading, reading, ...]
        watch.append(r)
        state = self._state[ch]
        kind = self._tables[ch].classes[state]
        short = self.still_frames
        long = self._long_frames.get(kind, self.long_still_frames)
        while len(watch) > long + 1:
            del watch[1]
        tol = self._tables[ch].still_tol[state]
        if not watch[0]:
            if len(watch) > short:
                window = watch[-short:]
                if max(window) - min(window) <= self._tables[ch].landed_tol[state]:
                    watch[0] = 1
                    self._settled(ch, state, t, short, events)
                    if short == long:
                        del self._watch[ch]
            return
        if len(watch) > long:
            window = watch[1:]
            spread = max(window) - min(window)
            if spread <= tol + self._creep(ch, state, window):
                del self._watch[ch]
                self._settled(ch, state, t, long, events)

    def _creep(self, ch: int, state: int, window: list[int]) -> float:
        """The swing in counts that ``CREEP_MM`` of travel makes where the magnet now is."""
        level, base = self._levels[ch][state], self.calibration.baseline[ch]
        height = abs(level - base)
        below = max(0.0, height - abs(sum(window) / len(window) - base))
        return creep_counts(height, below)

    def _settled(
        self, ch: int, state: int, t: float, frames: int, events: list[SensingEvent]
    ) -> None:
        kind = self._tables[ch].classes[state]
        space = self._space[ch]
        assert kind is not None and space is not None
        events.append(Settled(space, kind, ch, t, frames))
