"""The simulated physical board: magnets above hall sensors, read as the scanner would.

:class:`PhysicalBoard` holds pieces (each a set of disc magnets, see
:class:`lawmaster.hardware.sensor_map.Kind`) at positions in millimetres and
computes what every DRV5055 under the board reads::

    board = PhysicalBoard(SensorMap.load("gw-brott"), seed=1)
    board.put("c1", "criminal", "C7")
    board.read(17)          # u16, ratiometric: 32768 is mid-scale (no field)
    board.frame()           # every channel at the clock's current time

Model (why it is good enough for the host code that has to cope with it):

* Each magnet is a real cylinder of its size and grade, computed with magpylib
  through the board's stack, the soft-steel keeper washers included
  (:mod:`lawmaster.hardware.magnetics.fields`): a table of Bz at the sensor by the
  piece's sideways offset ρ and its height above the surface, read bilinearly.
  The same tables give the published margins (``hardware/MAGNETICS.md``), so the
  simulator cannot flatter the design. A piece is seen only within a few mm of a
  sensor, with a small opposite-sign ring further out, and a lifted piece vanishes.
* The sensor is ratiometric: ``32768 + offset + gain · sensitivity · B``, clamped
  to the output rails (0.2 V from each supply rail), then ADC noise on top. Each
  sensor has its own offset and gain (seeded spread), as real parts do.
* Noise: Gaussian noise from a seeded pool of noise frames (fast), plus optional
  rare spikes (a single channel jumping for one scan). Its size is, unless a
  test asks for another, the board's own noise figure from the datasheets (the
  DRV5055's noise and the RP2040 ADC's ENOB, ``hardware.magnetics.margins.
  noise``): the same figure the published margins are measured against.
* "Clicks": in GW:s brott a criminal's magnet snaps onto GW's blue magnet when
  GW's pair comes over it (a north-down and a south-down disc side by side
  attract); the criminal then rides along at the blue magnet's side.

Time comes from a clock (any ``Callable[[], float]``, seconds): a :class:`SimClock`
for tests (deterministic, no sleeping) or the wall clock for the demo. Things
that move pieces over time (:class:`lawmaster.host.sim.hands.Hands`) register
with :meth:`PhysicalBoard.attach` and are asked to pose the pieces before each
frame is computed.
"""

from __future__ import annotations

import functools
import math
import random
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from operator import add
from typing import Protocol

from lawmaster.hardware.magnetics.fields import FieldTable, field_table
from lawmaster.hardware.magnetics.margins import noise as board_noise
from lawmaster.hardware.sensor_map import SensorMap

MID_SCALE = 32768
CUTOFF_MM = 45.0  # beyond this a piece's field is far below the noise: skip it
_BUCKET_MM = 50.0
_NOISE_POOL = 257  # noise frames kept; prime so the pool does not beat with periodic scripts


def locked(method: Callable) -> Callable:
    """Run a method under its object's board lock (the scanner thread reads frames while
    the demo's thread moves pieces)."""

    @functools.wraps(method)
    def wrapper(self: object, *args: object, **kwargs: object) -> object:
        board = getattr(self, "board", self)
        with board.lock:  # type: ignore[attr-defined]
            return method(self, *args, **kwargs)

    return wrapper


class SimClock:
    """A clock that moves only when told: ``clock()`` is the time, ``advance(dt)`` moves it."""

    def __init__(self, start: float = 0.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        """Move the clock on by ``seconds``; returns the new time."""
        self.now += seconds
        return self.now


class Animator(Protocol):
    """Something that poses pieces for a given time (the hands)."""

    def pose(self, board: PhysicalBoard, t: float) -> None: ...


@dataclass
class Pose:
    """Where a piece is: x, y in mm on the board and its height above the surface."""

    kind: str
    x: float
    y: float
    height: float = 0.0
    riding_on: str | None = None  # the piece this one has clicked onto
    ride_dx: float = 0.0  # where it sits relative to that piece (mm)
    ride_dy: float = 0.0


class PhysicalBoard:
    """Magnets on a board over hall sensors; ``read(channel) -> int`` like the scanner's ADC."""

    def __init__(
        self,
        sensor_map: SensorMap,
        *,
        seed: int = 0,
        noise_counts: float | None = None,
        gain_spread: float = 0.08,
        offset_counts: float = 400.0,
        spike_rate: float = 0.0,
        clock: Callable[[], float] | None = None,
        clicks: Mapping[str, str] | None = None,
        click_mm: float = 7.0,
    ) -> None:
        if noise_counts is None:
            noise_counts = board_noise(sensor_map)
        if noise_counts > 400:
            raise ValueError("noise above 400 counts would push readings past the u16 range")
        self.map = sensor_map
        self.lock = threading.RLock()
        self.clock = clock if clock is not None else SimClock()
        self.rng = random.Random(seed)
        self.noise_counts = noise_counts
        self.spike_rate = spike_rate
        # Which magnets click onto which is the pieces' own design (the sensor map says).
        self.clicks = dict(sensor_map.clicks if clicks is None else clicks)
        self.click_mm = click_mm
        n = sensor_map.channels
        self.channels = n
        spec = sensor_map.sensor
        self._counts_per_mt = spec.sensitivity_mv_per_mt / (spec.supply_v * 1000) * 65536
        rail = spec.rail_v / spec.supply_v * 65536
        self._rails = (int(rail), int(65535 - rail))
        self.offsets = [0.0] * n
        self.gains = [1.0] * n
        self._pos: list[tuple[float, float] | None] = [None] * n
        for spot in sensor_map.spots:
            self.offsets[spot.channel] = self.rng.gauss(0.0, offset_counts / 2)
            self.gains[spot.channel] = 1.0 + self.rng.uniform(-gain_spread, gain_spread)
            self._pos[spot.channel] = (spot.x, spot.y)
        self._buckets: dict[tuple[int, int], list[int]] = {}
        for ch, p in enumerate(self._pos):
            if p is not None:
                key = (int(p[0] // _BUCKET_MM), int(p[1] // _BUCKET_MM))
                self._buckets.setdefault(key, []).append(ch)
        self._noise = [
            [round(self.rng.gauss(0.0, noise_counts)) for _ in range(n)] for _ in range(_NOISE_POOL)
        ]
        # A grounded input (no spot on the channel) reads 0: no noise below it.
        unused = [ch for ch, p in enumerate(self._pos) if p is None]
        for row in self._noise:
            for ch in unused:
                row[ch] = 0
        # Per kind, each magnet's field table with its sign (built once per process).
        self._tables: dict[str, list[tuple[int, FieldTable]]] = {
            name: [(m.sign, field_table(m, spec)) for m in kind.magnets]
            for name, kind in sensor_map.kinds.items()
        }
        self.pieces: dict[str, Pose] = {}
        self._contrib: dict[str, dict[int, float]] = {}
        self._field = [0.0] * n  # counts from magnets, before gain, per channel
        self._animators: list[Animator] = []
        self._frame_time: float | None = None
        self._frame: list[int] = []
        self._dirty = True
        self._clean: list[int] = []

    # -- pieces -------------------------------------------------------------
    def attach(self, animator: Animator) -> None:
        """Ask ``animator`` to pose pieces before each new frame."""
        self._animators.append(animator)

    @locked
    def free_spot(self, space: str, piece: str | None = None) -> tuple[float, float]:
        """The first marked spot of ``space`` with no other piece standing on it."""
        spots = self.map.spots_of(space)
        if not spots:
            raise KeyError(f"no sensor spot on {space!r}")
        for spot in spots:
            taken = any(
                name != piece
                and p.riding_on is None
                and p.height < 5
                and math.hypot(p.x - spot.x, p.y - spot.y) < 8
                for name, p in self.pieces.items()
            )
            if not taken:
                return spot.x, spot.y
        return spots[0].x, spots[0].y

    @locked
    def put(self, piece: str, kind: str, where: str | tuple[float, float]) -> None:
        """Put a piece at rest on a space (a free marked spot) or at an (x, y) in mm."""
        if kind not in self.map.kinds:
            raise ValueError(f"no magnet kind {kind!r} on this board")
        x, y = self.free_spot(where, piece) if isinstance(where, str) else where
        self.pieces[piece] = Pose(kind, x, y)
        self._update(piece)

    @locked
    def remove(self, piece: str) -> None:
        """Take a piece off the board altogether."""
        self.pieces.pop(piece, None)
        self._set_contrib(piece, {})
        for other in self.pieces.values():
            if other.riding_on == piece:
                other.riding_on = None

    @locked
    def move(self, piece: str, x: float, y: float, height: float = 0.0) -> None:
        """Put a piece at (x, y) mm, ``height`` mm above the surface; riders follow."""
        pose = self.pieces[piece]
        pose.x, pose.y, pose.height = x, y, height
        pose.riding_on = None
        self._update(piece)
        for name, other in self.pieces.items():
            if other.riding_on == piece:
                other.x, other.y, other.height = x + other.ride_dx, y + other.ride_dy, height
                self._update(name)
        self._check_clicks(piece)

    @locked
    def where(self, piece: str) -> tuple[float, float, float]:
        """(x, y, height) of a piece."""
        p = self.pieces[piece]
        return p.x, p.y, p.height

    @locked
    def riders(self, piece: str) -> list[str]:
        """Pieces that have clicked onto ``piece``."""
        return [n for n, p in self.pieces.items() if p.riding_on == piece]

    def _check_clicks(self, mover: str) -> None:
        pose = self.pieces[mover]
        if pose.height > 3.0:
            return
        for name, other in self.pieces.items():
            if name == mover or other.riding_on is not None or other.height > 3.0:
                continue
            dx, dy = other.x - pose.x, other.y - pose.y
            dist = math.hypot(dx, dy)
            if dist <= self.click_mm and self.clicks.get(other.kind) == pose.kind:
                # It snaps to touch the side of the mover's front magnet.
                touch = self._front_radius(pose.kind) + self._front_radius(other.kind)
                if dist < 1e-6:
                    dx, dy, dist = 1.0, 0.0, 1.0
                other.riding_on = mover
                other.ride_dx, other.ride_dy = dx / dist * touch, dy / dist * touch
                other.x, other.y = pose.x + other.ride_dx, pose.y + other.ride_dy
                other.height = pose.height
                self._update(name)

    def _front_radius(self, kind: str) -> float:
        """Half the width of the kind's front part: its base where given, else its magnet."""
        fronts = [
            (m.footprint_mm or m.diameter_mm) / 2
            for m in self.map.kinds[kind].magnets
            if m.side == "front"
        ]
        return max(fronts, default=0.0)

    # -- fields -------------------------------------------------------------
    def _update(self, piece: str) -> None:
        pose = self.pieces[piece]
        tables = self._tables[pose.kind]
        contrib: dict[int, float] = {}
        bx, by = int(pose.x // _BUCKET_MM), int(pose.y // _BUCKET_MM)
        cut2 = CUTOFF_MM * CUTOFF_MM
        height = pose.height  # a lifted piece takes all its magnets
        for gx in (bx - 1, bx, bx + 1):
            for gy in (by - 1, by, by + 1):
                for ch in self._buckets.get((gx, gy), ()):
                    sx, sy = self._pos[ch]  # type: ignore[misc]
                    rho2 = (sx - pose.x) ** 2 + (sy - pose.y) ** 2
                    if rho2 > cut2:
                        continue
                    rho = math.sqrt(rho2)
                    mt = 0.0
                    for sign, table in tables:
                        mt += sign * table.bz(rho, height)
                    contrib[ch] = mt * self._counts_per_mt
        self._set_contrib(piece, contrib)

    def _set_contrib(self, piece: str, contrib: dict[int, float]) -> None:
        old = self._contrib.get(piece, {})
        for ch, v in old.items():
            self._field[ch] -= v
        for ch, v in contrib.items():
            self._field[ch] += v
        self._contrib[piece] = contrib
        self._dirty = True

    def clean_reading(self, channel: int) -> int:
        """The reading without ADC noise (offset, gain and clamp applied); 0 for a channel
        no spot uses: the board ties that multiplexer input to ground."""
        if self._pos[channel] is None:
            return 0
        lo, hi = self._rails
        value = MID_SCALE + self.offsets[channel] + self.gains[channel] * self._field[channel]
        return int(min(hi, max(lo, round(value))))

    # -- reading ------------------------------------------------------------
    @locked
    def frame(self) -> list[int]:
        """Every channel's u16 reading at the clock's current time (one scan)."""
        now = self.clock()
        if now != self._frame_time:
            for animator in self._animators:
                animator.pose(self, now)
            if self._dirty:
                self._clean = [self.clean_reading(ch) for ch in range(self.channels)]
                self._dirty = False
            noisy = list(map(add, self._clean, self._noise[self.rng.randrange(_NOISE_POOL)]))
            if self.spike_rate and self.rng.random() < self.spike_rate * self.channels:
                ch = self.rng.randrange(self.channels)
                jump = self.rng.choice((-1, 1)) * self.rng.randint(2000, 8000)
                noisy[ch] = min(65535, max(0, noisy[ch] + jump))
            self._frame = noisy
            self._frame_time = now
        return self._frame

    def read(self, channel: int) -> int:
        """One channel's u16 reading now: the callable the simulated scanner samples."""
        return self.frame()[channel]
