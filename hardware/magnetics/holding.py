"""Holding cases: the safety factor of every piece on each board.

Vertical GW:s brott board (gravity along −y, the board's face vertical):

* ``criminal`` — a criminal alone on a cell, on its keeper, centred and at the
  worst placement (the keeper's sideways pull counted as if it added to gravity);
* ``gw_blue``, ``gw_wood`` — GW's pair at rest: each part pressed on by the other
  and by the keeper;
* ``caught`` — a caught criminal hanging under GW's blue magnet (gravity pulls it
  away) as the pair walks, over a keeper and half-way between two: the pull of
  the blue magnet on it against its weight and its friction on the board.

Flat boards (Judge Dredd, Unamerican Graffiti): a piece must not be dragged by
the magnet of a piece on the neighbouring spot, both placed towards each other
as far as the placement allows: friction from its weight (``μ·m·g``, low end)
against the sideways magnetic pull.

Safety = what holds / what pulls. Friction coefficients: the low end of the base
material's range (``data.FRICTION``).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from lawmaster.hardware.magnetics.data import FRICTION
from lawmaster.hardware.magnetics.fields import remanence
from lawmaster.hardware.magnetics.forces import Placed, forces, normal_towards_board, weight_n
from lawmaster.hardware.magnetics.margins import footprint
from lawmaster.hardware.magnetics.placement import placement
from lawmaster.hardware.sensor_map import Magnet, SensorMap


@dataclass(frozen=True)
class Hold:
    """One holding case: what holds, what pulls (newtons) and their ratio."""

    case: str
    holds_n: float
    pulls_n: float

    @property
    def safety(self) -> float:
        return self.holds_n / self.pulls_n if self.pulls_n > 0 else math.inf


def _mu(m: Magnet) -> float:
    return FRICTION[m.base].low


def _weak(m: Magnet, x: float, y: float = 0.0) -> Placed:
    return Placed(m, x, y, remanence(m.grade, "low"))


def _vertical(sensor_map: SensorMap) -> list[Hold]:
    spec, p = sensor_map.sensor, sensor_map.pitch_mm
    spots = ((0.0, 0.0), (0.0, p), (0.0, -p), (p, 0.0))
    crim = sensor_map.kinds["criminal"].magnets[0]
    blue = next(m for m in sensor_map.kinds["gw"].magnets if m.side == "front")
    wood = next(m for m in sensor_map.kinds["gw"].magnets if m.side == "back")
    out = []
    f = forces([_weak(crim, 0.0)], spec, spots)[0]
    out.append(
        Hold("criminal on its cell", _mu(crim) * normal_towards_board(f, crim), weight_n(crim))
    )
    e = placement(sensor_map, footprint(sensor_map.kinds["criminal"])).worst / math.sqrt(2)
    f = forces([_weak(crim, e, e)], spec, spots)[0]
    sideways = math.hypot(f[0], f[1])
    out.append(
        Hold(
            "criminal at the worst placement",
            _mu(crim) * normal_towards_board(f, crim),
            weight_n(crim) + sideways,
        )
    )
    fb, fw = forces([_weak(blue, 0.0), _weak(wood, 0.0)], spec, spots)
    out.append(
        Hold("GW's blue magnet at rest", _mu(blue) * normal_towards_board(fb, blue), weight_n(blue))
    )
    out.append(
        Hold(
            "GW's wooden piece at rest", _mu(wood) * normal_towards_board(fw, wood), weight_n(wood)
        )
    )
    touch = (blue.footprint_mm + crim.footprint_mm) / 2
    for label, y in (("over a keeper", 0.0), ("between keepers", p / 2)):
        fb, fc, _ = forces(
            [_weak(blue, 0.0, y), _weak(crim, 0.0, y - touch), _weak(wood, 0.0, y)], spec, spots
        )
        pull = float(fc[1])  # towards the blue magnet, against gravity
        resist = _mu(crim) * max(0.0, normal_towards_board(fc, crim))
        # The pull must carry its weight; friction on the board only resists being
        # dragged along, so a criminal pressed on harder is harder to carry.
        out.append(
            Hold(f"caught criminal under the blue magnet, {label}", pull, weight_n(crim) + resist)
        )
    return out


def _flat(sensor_map: SensorMap) -> list[Hold]:
    spec = sensor_map.sensor
    out = []
    for name, kind in sensor_map.kinds.items():
        m = kind.magnets[0]
        e = placement(sensor_map, footprint(kind)).towards_neighbour
        gap = sensor_map.pitch_mm - 2 * e
        strongest = max(
            (k.magnets[0] for k in sensor_map.kinds.values()),
            key=lambda o: o.diameter_mm**2 * o.thickness_mm,
        )
        other = Placed(strongest, gap, 0.0, remanence(strongest.grade, "high"))
        f = forces([_weak(m, 0.0), other], spec)[0]
        pull = float(np.hypot(f[0], f[1]))
        holds = _mu(m) * max(0.0, weight_n(m) + normal_towards_board(f, m))
        out.append(Hold(f"{name} next to a neighbour {gap:.1f} mm away", holds, pull))
    return out


@functools.lru_cache(maxsize=16)
def holds(sensor_map: SensorMap) -> tuple[Hold, ...]:
    """Every holding case of a board (computed once per map)."""
    if sensor_map.game == "gw-brott":
        return tuple(_vertical(sensor_map))
    return tuple(_flat(sensor_map))


#: Where the blue magnet is checked on its way from one keeper to the next (mm
#: from the keeper it leaves; past half a cell the next keeper pulls it on).
FOLLOW_POSITIONS_MM = (0.0, 2.5, 5.0, 7.5, 10.0, 12.5)
#: How far the wooden piece may run ahead of the blue magnet (mm): a player moves
#: it a cell at a time, so the pair may be up to half a cell apart before the
#: blue magnet is left behind on the wrong cell.
FOLLOW_LAGS_MM = (2.0, 4.0, 6.0, 8.0, 10.0, 12.5)


@functools.lru_cache(maxsize=16)
def _follow_forces(sensor_map: SensorMap) -> tuple[tuple[tuple[float, float], ...], ...] | None:
    """(along-board pull, normal) on the blue magnet for every position and lag."""
    kind = sensor_map.kinds.get("gw")
    if kind is None:
        return None
    spec, p = sensor_map.sensor, sensor_map.pitch_mm
    blue = next(m for m in kind.magnets if m.side == "front")
    wood = next(m for m in kind.magnets if m.side == "back")
    spots = ((0.0, 0.0), (0.0, p), (0.0, -p))
    table = []
    for y in FOLLOW_POSITIONS_MM:
        row = []
        for lag in FOLLOW_LAGS_MM:
            # The weak end of the grade for both: the pair's own pull is then the
            # smallest, while the keeper's share is nearly the same either way.
            fb, _ = forces([_weak(blue, 0.0, y), _weak(wood, 0.0, y + lag)], spec, spots)
            row.append((float(fb[1]), normal_towards_board(fb, blue)))
        table.append(tuple(row))
    return tuple(table)


def gw_follow(sensor_map: SensorMap, end: str = "low") -> float | None:
    """How well GW's blue magnet follows the wooden piece up the board (None: no pair).

    The blue magnet is taken at each point of its way from one keeper towards the
    next (``FOLLOW_POSITIONS_MM``), where the keeper it leaves pulls it back; the
    wooden piece runs ahead by a lag (``FOLLOW_LAGS_MM``). At each point the best
    lag's ratio of the pull along the board (keeper included) to what resists (the
    glide's friction at the ``end`` of its range, and its weight, since going up
    is the hard way) says whether it moves on. The worst point along the way is the
    figure: below 1, the blue magnet stops there and the wooden piece leaves it.
    """
    table = _follow_forces(sensor_map)
    if table is None:
        return None
    kind = sensor_map.kinds["gw"]
    blue = next(m for m in kind.magnets if m.side == "front")
    mu = getattr(FRICTION[blue.base], end)
    worst = math.inf
    for row in table:
        best = max(pull / (mu * max(0.0, normal) + weight_n(blue)) for pull, normal in row)
        worst = min(worst, best)
    return worst
