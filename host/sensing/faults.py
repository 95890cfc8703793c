"""Channels that cannot be trusted, found from the readings themselves while the table plays.

:class:`ChannelWatch` is fed every frame beside the sensing layer and keeps the
set of flagged channels, each a :class:`ChannelFault` with its reason:

* ``"rail"`` — the reading sits beyond what a DRV5055 can output. The sensor's
  output clamps ``rail_v`` (0.2 V, its datasheet's output swing) from each supply
  rail, so a reading within half of that of 0 V or of the supply is no magnet
  at all: an open multiplexer input, a broken wire, a short. Flagged after
  ``rail_samples`` such samples in a row (a lone glitch is not a fault).
* ``"stuck"`` — the reading has not changed by a single count for ``stuck_s``
  of scan time. A live sensor and ADC always show some noise (the calibration
  measured at least :data:`~lawmaster.host.sensing.calibration.MIN_NOISE`
  counts of it on every channel), so with several hundred scans the chance of
  a live channel repeating one value throughout is nil; a frozen ADC input, a
  sensor without supply behind a pulled input, or a stuck mux select is caught.
* ``"jump"`` — a step between two consecutive samples larger than the whole span
  any magnet can make on that channel (from its strongest level of one
  polarity to its strongest of the other, as calibrated, plus ten noise
  widths): no piece moves from one to the other within a few milliseconds.
  One such step
  is counted (EMI, a loose contact); ``jumps`` of them within ``jump_window_s``
  flag the channel.
* ``"disagrees"`` — the game has a piece that may not move now on the
  channel's space, and the channel has read no magnet there for longer than a
  move takes (``move_s``). The fault names the piece so that only the seats
  that may know where it stands are told the cell.

The readings are looked at in every ``stride``-th scan (about ``sample_hz``,
100, a second): the faults above last far longer than that. A flag clears
when its cause has gone (a jump: after ``clear_s`` without one; stuck: as soon
as the reading moves; disagreement: as soon as the space agrees again). Time
is the frame time passed in (the scanner's clock), never the wall clock.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.sensing.calibration import MIN_NOISE, Calibration

#: Plain words per reason, completed by the space's name ("the sensor under C7 ...").
WORDS = {
    "rail": "reads at the edge of its range, which no magnet can cause (a wire or the"
    " sensor is broken)",
    "stuck": "reads exactly the same value scan after scan (the sensor or its input is dead)",
    "jump": "jumps further between two scans than any piece can move it (a loose contact)",
    "disagrees": "has not seen the piece the game has there for longer than a move takes",
    "self-test": "failed the scanner's own test",
}


@dataclass(frozen=True)
class ChannelFault:
    """One channel not to be trusted: ``reason`` (a key of :data:`WORDS`) and since when.

    ``piece`` is set for a disagreement: the piece the game has on ``space``
    (whose position may be secret from some seats). ``source`` says who found
    it: ``"start-up"`` (within the first window of scans), ``"play"`` or
    ``"self-test"``.
    """

    channel: int
    space: str | None
    reason: str
    since: float
    source: str = "play"
    detail: str = ""
    piece: str | None = None

    def words(self, name_cell: bool = True) -> str:
        """The fault as a sentence for players (the cell left out when it is secret)."""
        where = f"under {self.space}" if self.space and name_cell else "under one cell"
        if self.space is None:
            where = f"on spare channel {self.channel}"
        text = WORDS.get(self.reason, self.reason)
        if self.reason == "self-test" and self.detail:
            text = f"failed the scanner's own test ({self.detail})"
        return f"the sensor {where} {text}"


class ChannelWatch:
    """Flags channels from each frame's readings (see the module docstring)."""

    def __init__(
        self,
        sensor_map: SensorMap,
        calibration: Calibration,
        *,
        rate: float = 200.0,
        sample_hz: float = 100.0,
        stuck_s: float = 1.0,
        min_stuck_samples: int = 100,
        rail_samples: int = 10,
        jumps: int = 3,
        jump_window_s: float = 2.0,
        clear_s: float = 5.0,
        move_s: float = 45.0,
        stuck_keyframes: int = 10,
    ) -> None:
        self.map = sensor_map
        n = sensor_map.channels
        self.channels = n
        self._space = sensor_map.space_of_channel()
        self._used_channels = [ch for ch, s in enumerate(self._space) if s is not None]
        spec = sensor_map.sensor
        clamp = spec.rail_v / spec.supply_v * 65536
        # Beyond half the sensor's output swing from a rail: no sensor output reaches there.
        self._rail_low, self._rail_high = clamp / 2, 65535 - clamp / 2
        # Every channel is looked at in every ``stride``-th scan only (about ``sample_hz``
        # times a second): a per-channel Python loop on every scan of a 256-channel
        # board at 400 scans/s would cost more than the sensing layer itself.
        self._stride = max(1, round(rate / sample_hz))
        sampled = rate / self._stride
        self._stuck_samples = max(min_stuck_samples, round(stuck_s * sampled))
        self._frames = 0
        self._scans = 0
        self._rail_samples = rail_samples
        self._jumps_needed = jumps
        self._jump_window = jump_window_s
        self._clear = clear_s
        self._move = move_s
        self._bound: list[float] = []
        for ch in range(n):
            values = [calibration.baseline[ch]]
            values += [levels[ch] for levels in calibration.levels.values()]
            sigma = max(calibration.noise[ch], MIN_NOISE)
            self._bound.append(max(values) - min(values) + 10 * sigma)
        self._prev: list[int] | None = None
        self._same = [0] * n
        # A change-only link sends a reading only when it moves past a dead-band, so
        # an unchanged reading between two scans says nothing there. Then stillness
        # is counted between keyframes (fresh raw readings, noise and all): ten of
        # them alike (20 s at a keyframe every 2 s) is a dead sensor, while a live
        # one repeats a 12-bit reading with ~1 LSB of noise ten times about once in
        # 10**5 years of play.
        self._change_only = False
        self._stuck_keyframes = stuck_keyframes
        self._key_prev: list[int] | None = None
        self._rail = [0] * n
        self._jump_times: dict[int, list[float]] = {}
        self._last_jump: dict[int, float] = {}
        self._spaces_of: dict[str, list[int]] = {}
        for ch, space in enumerate(self._space):
            if space is not None:
                self._spaces_of.setdefault(space, []).append(ch)
        self._watched: dict[str, tuple[str, str]] = {}  # space -> (piece, kind)
        self._missing_since: dict[str, float] = {}
        #: The channels flagged now.
        self.flagged: dict[int, ChannelFault] = {}
        self.jumps_seen = 0

    # -- what the game says ------------------------------------------------------
    def expect(self, expectation: Any) -> None:
        """The pieces that may not move now, and where: their spaces are watched."""
        watched: dict[str, tuple[str, str]] = {}
        movers = set(expectation.movers) | set(expectation.to_jail)
        for piece, space in expectation.positions.items():
            if space is None or piece in movers or space == expectation.jail:
                continue
            if space in self._spaces_of:
                watched[space] = (piece, expectation.kinds[piece])
        self._watched = watched
        self._missing_since = {s: t for s, t in self._missing_since.items() if s in watched}

    # -- the frame loop ------------------------------------------------------------
    def feed(
        self,
        readings: Sequence[int],
        t: float,
        kind_at: Any = None,
        judge: bool = True,
        fresh: bool | None = None,
    ) -> bool:
        """Take one frame at scan time ``t``; ``True`` when the flagged set changed.

        ``kind_at(channel)`` is the sensing layer's debounced class of a channel
        (for the disagreement check; ``None`` skips it). With ``judge`` false (the
        referee is paused or checking the board: pieces are known to be astray)
        a disagreement is only withdrawn, never raised, and none is being timed.
        ``fresh`` says whether every reading was read afresh (a keyframe) or the
        scan was rebuilt from changes; ``None``: every frame is fresh (a full-frame
        scanner, or readings fed directly).
        """
        before = dict(self.flagged)
        if fresh is False:
            self._change_only = True
        if fresh and self._change_only:
            self._count_keyframe(readings, t)
        self._scans += 1
        if self._scans % self._stride:
            # Not a sampled scan, but a keyframe counted above may have raised a flag:
            # say so, or the health panel and the referee would never hear of it.
            return self.flagged != before
        prev = self._prev
        n = self.channels
        if prev is not None:
            same, rail, bound = self._same, self._rail, self._bound
            low, high = self._rail_low, self._rail_high
            for ch in self._used_channels:
                r = readings[ch]
                step = r - prev[ch]
                if step:
                    same[ch] = 0
                    if step > bound[ch] or -step > bound[ch]:
                        self._jumped(ch, t)
                elif not self._change_only:
                    same[ch] += 1
                if r < low or r > high:
                    rail[ch] += 1
                elif rail[ch]:
                    rail[ch] = 0
            self._frames += 1
            if self._frames % 4 == 0:  # flags need no faster than every 4th sample
                self._update(t)
        self._prev = list(readings[:n])
        if not judge:
            self._missing_since.clear()
        if kind_at is not None and self._watched:
            self._check_agreement(t, kind_at, judge)
        return self.flagged != before

    def _count_keyframe(self, readings: Sequence[int], t: float) -> None:
        prev, same = self._key_prev, self._same
        if prev is not None:
            for ch in self._used_channels:
                if readings[ch] == prev[ch]:
                    same[ch] += 1
                else:
                    same[ch] = 0
            self._update(t)
        self._key_prev = list(readings[: self.channels])

    @property
    def _stuck_needed(self) -> int:
        return self._stuck_keyframes if self._change_only else self._stuck_samples

    def _jumped(self, ch: int, t: float) -> None:
        self.jumps_seen += 1
        self._jump_times.setdefault(ch, []).append(t)
        self._last_jump[ch] = t

    def _jumping(self, ch: int, t: float) -> bool:
        times = self._jump_times.get(ch)
        if not times:
            return False
        times[:] = [x for x in times if t - x <= self._jump_window]
        if not times:
            del self._jump_times[ch]
            return False
        return len(times) >= self._jumps_needed

    def _source(self, ch: int, reason: str) -> str:
        # A rail or a frozen reading held since the very first scan was there at start-up.
        held = {"rail": self._rail[ch], "stuck": self._same[ch]}.get(reason, -1)
        return "start-up" if held >= self._frames else "play"

    def _flag(self, ch: int, reason: str, t: float, piece: str | None = None) -> None:
        current = self.flagged.get(ch)
        if current is None or current.reason != reason:
            source = self._source(ch, reason)
            self.flagged[ch] = ChannelFault(ch, self._space[ch], reason, t, source, piece=piece)

    def _update(self, t: float) -> None:
        same, rail = self._same, self._rail
        stuck_n, rail_n = self._stuck_needed, self._rail_samples
        # Only channels with something to say: a long run, a jump, or a flag to review.
        suspects = {ch for ch in self._used_channels if same[ch] >= stuck_n or rail[ch] >= rail_n}
        suspects.update(self._jump_times, self.flagged)
        for ch in suspects:
            fault = self.flagged.get(ch)
            if self._rail[ch] >= self._rail_samples:
                self._flag(ch, "rail", t)
            elif self._same[ch] >= self._stuck_needed:
                self._flag(ch, "stuck", t)
            elif self._jumping(ch, t):
                self._flag(ch, "jump", t)
            elif fault is not None and fault.reason != "disagrees":
                calm = t - self._last_jump.get(ch, float("-inf")) >= self._clear
                if fault.reason != "jump" or calm:
                    del self.flagged[ch]

    def _check_agreement(self, t: float, kind_at: Any, judge: bool) -> None:
        for space, (piece, kind) in self._watched.items():
            channels = self._spaces_of[space]
            seen = any(kind_at(ch) == kind for ch in channels)
            if seen:
                self._missing_since.pop(space, None)
                for ch in channels:
                    if self.flagged.get(ch, None) is not None and self.flagged[ch].reason == (
                        "disagrees"
                    ):
                        del self.flagged[ch]
                continue
            if not judge:
                continue
            since = self._missing_since.setdefault(space, t)
            if t - since >= self._move:
                for ch in channels:
                    if ch not in self.flagged:
                        self._flag(ch, "disagrees", t, piece)
        # A disagreement on a space no longer watched (the game moved on) is withdrawn.
        for ch, fault in list(self.flagged.items()):
            if fault.reason == "disagrees" and fault.space not in self._watched:
                del self.flagged[ch]


def self_test_faults(
    failed: Mapping[int, str], sensor_map: SensorMap | None, t: float
) -> dict[int, ChannelFault]:
    """A scanner's self-test report (channel → reason) as faults named by cell.

    With a map, a channel no spot uses is left out: its multiplexer input is tied to
    ground on the board (channels follow the pieces, 16 × multiplexer + input, so a
    board has such gaps) and reads the low rail by design.
    """
    spaces = sensor_map.space_of_channel() if sensor_map is not None else []
    if sensor_map is not None:
        failed = {ch: why for ch, why in failed.items() if 0 <= ch < len(spaces) and spaces[ch]}
    return {
        int(ch): ChannelFault(
            int(ch),
            spaces[ch] if 0 <= ch < len(spaces) else None,
            "self-test",
            t,
            "self-test",
            str(reason),
        )
        for ch, reason in failed.items()
    }


def board_agrees(seen: Mapping[str, Mapping[str, int]], expectation: Any) -> bool:
    """Whether the sensed counts per space and kind are what ``expectation`` has there.

    Pieces on their way to the jail are left out (they may be anywhere until
    jailed), and so are the spaces they stand on, as the game has them.
    """
    wanted: dict[str, dict[str, int]] = {}
    loose = set(expectation.to_jail)
    skip = {expectation.positions.get(p) for p in loose}
    for piece, space in expectation.positions.items():
        if space is None or piece in loose:
            continue
        kinds = wanted.setdefault(space, {})
        kind = expectation.kinds[piece]
        kinds[kind] = kinds.get(kind, 0) + 1
    for space in set(wanted) | {s for s, c in seen.items() if any(c.values())}:
        if space in skip:
            continue
        have = {k: n for k, n in seen.get(space, {}).items() if n}
        if have != wanted.get(space, {}):
            return False
    return True
