"""Simulated hands: lift, carry, place, slide and bump pieces at human speeds.

Each gesture is scheduled on the simulated clock and returns the time the magnet
comes to rest, so a script (a test, the bench, the demo) can chain gestures
without sleeping::

    hands = Hands(board, seed=3)
    t = hands.slide("gw", ["J11", "J10", "J9"], start=clock.now)
    t = hands.lift_place("c1", "D4", start=t + 0.5)

Gestures may be scheduled from any thread (the demo's) while the scanner thread
reads frames: both go through the board's lock. Times are on the board's clock:
a :class:`~lawmaster.host.sim.physics.SimClock` in tests, ``time.monotonic`` in a
live demo (``PhysicalBoard(map, clock=time.monotonic)``).

Motions follow the minimum-jerk profile people use for point-to-point reaches
(slow start, fast middle, slow stop). Durations, landing offsets (a piece lands
within ~2 mm of the spot's centre) and the small bounce of a dropped piece are
drawn from a seeded :class:`random.Random`, so a seed replays the same game.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from lawmaster.host.sim.physics import PhysicalBoard, locked

Where = str | tuple[float, float]
HAND_HEIGHT_MM = 60.0  # a piece held in the hand: far out of every sensor's reach


def min_jerk(tau: float) -> float:
    """Fraction of the way covered at time fraction ``tau`` (0..1)."""
    tau = min(1.0, max(0.0, tau))
    return tau * tau * tau * (10 - 15 * tau + 6 * tau * tau)


@dataclass
class _Motion:
    piece: str
    t0: float
    t1: float
    at: Callable[[float], tuple[float, float, float]]  # time fraction → x, y, height


class Hands:
    """Moves pieces of a :class:`PhysicalBoard` over simulated time."""

    def __init__(
        self,
        board: PhysicalBoard,
        *,
        seed: int = 0,
        slide_speed: tuple[float, float] = (110.0, 220.0),
        landing_mm: float = 1.5,
        bounce_mm: tuple[float, float] = (0.0, 2.0),
    ) -> None:
        self.board = board
        self.rng = random.Random(seed)
        self.slide_speed = slide_speed
        self.landing_mm = landing_mm
        self.bounce_mm = bounce_mm
        self._motions: list[_Motion] = []
        self._busy_until: dict[str, float] = {}
        board.attach(self)

    # -- the animator hook ----------------------------------------------------
    @locked
    def pose(self, board: PhysicalBoard, t: float) -> None:
        """Put every piece with a motion under way where it is at time ``t``."""
        if not self._motions:
            return
        still: list[_Motion] = []
        for m in self._motions:
            if t < m.t0:
                still.append(m)
                continue
            frac = 1.0 if m.t1 <= m.t0 else (t - m.t0) / (m.t1 - m.t0)
            if m.piece in board.pieces:
                board.move(m.piece, *m.at(min(1.0, frac)))
            if frac < 1.0:
                still.append(m)
        self._motions = still

    @locked
    def busy(self, t: float) -> bool:
        """Whether any gesture is under way or still to come at time ``t``."""
        return any(m.t1 > t for m in self._motions)

    # -- helpers -------------------------------------------------------------
    def _spot(self, where: Where, piece: str) -> tuple[float, float]:
        """Where a piece lands: a free marked spot of the space, a little off centre."""
        if isinstance(where, tuple):
            x, y = where
        else:
            x, y = self.free_spot(where, piece)
        r = abs(self.rng.gauss(0.0, self.landing_mm / 1.5))
        r = min(r, 2.0 * self.landing_mm)
        a = self.rng.uniform(0, 2 * math.pi)
        return x + r * math.cos(a), y + r * math.sin(a)

    def free_spot(self, space: str, piece: str | None = None) -> tuple[float, float]:
        """The first spot of ``space`` with no other piece standing on it."""
        return self.board.free_spot(space, piece)

    def _start(self, piece: str, start: float) -> float:
        return max(start, self._busy_until.get(piece, start))

    @locked
    def _add(self, piece: str, t0: float, t1: float, at: Callable[[float], tuple]) -> float:
        self._motions.append(_Motion(piece, t0, t1, at))
        self._busy_until[piece] = t1
        return t1

    @locked
    def _current(self, piece: str) -> tuple[float, float, float]:
        """Where the piece will be once its scheduled motions are done."""
        last = [m for m in self._motions if m.piece == piece]
        if last:
            return last[-1].at(1.0)
        return self.board.where(piece)

    # -- gestures --------------------------------------------------------------
    def slide(self, piece: str, path: Sequence[Where], start: float) -> float:
        """Slide a piece along the board through ``path`` (spaces or points); returns rest time."""
        t0 = self._start(piece, start)
        x0, y0, _ = self._current(piece)
        points = [(x0, y0)]
        for i, where in enumerate(path):
            if i == len(path) - 1:
                points.append(self._spot(where, piece))
            elif isinstance(where, tuple):
                points.append(where)
            else:
                points.append(self.board.map.centre(where))
        lengths = [math.dist(a, b) for a, b in zip(points, points[1:], strict=False)]
        total = sum(lengths) or 1e-9
        speed = self.rng.uniform(*self.slide_speed)
        duration = 0.12 + total / speed * 1.4  # min-jerk peak ≈ 1.9× its mean speed

        def at(frac: float) -> tuple[float, float, float]:
            d = min_jerk(frac) * total
            for (a, b), seg in zip(zip(points, points[1:], strict=False), lengths, strict=False):
                if d <= seg and seg > 0:
                    k = d / seg
                    return a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k, 0.0
                d -= seg
            return points[-1][0], points[-1][1], 0.0

        return self._add(piece, t0, t0 + duration, at)

    def lift(self, piece: str, start: float) -> float:
        """Lift a piece into the hand (it stays there); returns when it is out of reach."""
        t0 = self._start(piece, start)
        x, y, h = self._current(piece)
        duration = self.rng.uniform(0.1, 0.18)
        return self._add(
            piece,
            t0,
            t0 + duration,
            lambda f: (x, y, h + (HAND_HEIGHT_MM - h) * min_jerk(f)),
        )

    def place(self, piece: str, to: Where, start: float) -> float:
        """Carry a piece held in the hand to ``to`` and put it down; returns rest time."""
        t0 = self._start(piece, start)
        x0, y0, h0 = self._current(piece)
        h0 = max(h0, HAND_HEIGHT_MM)
        x1, y1 = self._spot(to, piece)
        carry = 0.15 + math.dist((x0, y0), (x1, y1)) / self.rng.uniform(250, 450)
        lower = self.rng.uniform(0.12, 0.2)
        bounce_h = self.rng.uniform(*self.bounce_mm)
        bounce_t = 0.04 if bounce_h > 0.2 else 0.0
        total = carry + lower + bounce_t

        def at(frac: float) -> tuple[float, float, float]:
            t = frac * total
            if t < carry:
                k = min_jerk(t / carry)
                return x0 + (x1 - x0) * k, y0 + (y1 - y0) * k, h0
            if t < carry + lower:
                return x1, y1, h0 * (1 - min_jerk((t - carry) / lower))
            if bounce_t:
                return (
                    x1,
                    y1,
                    bounce_h * math.sin(math.pi * min(1.0, (t - carry - lower) / bounce_t)),
                )
            return x1, y1, 0.0

        return self._add(piece, t0, t0 + total, at)

    def lift_place(self, piece: str, to: Where, start: float) -> float:
        """Pick a piece up and put it down on ``to``; returns rest time."""
        return self.place(piece, to, self.lift(piece, start))

    def bump(
        self, piece: str, start: float, distance_mm: float, angle: float | None = None
    ) -> float:
        """Knock a piece sideways by ``distance_mm`` in a quick jolt; returns rest time."""
        t0 = self._start(piece, start)
        x, y, _ = self._current(piece)
        if angle is None:
            angle = self.rng.uniform(0, 2 * math.pi)
        dx, dy = distance_mm * math.cos(angle), distance_mm * math.sin(angle)
        duration = 0.05 + distance_mm / 400
        return self._add(
            piece,
            t0,
            t0 + duration,
            lambda f: (x + dx * min_jerk(f), y + dy * min_jerk(f), 0.0),
        )
