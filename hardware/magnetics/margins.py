"""Readings and classification margins per board and kind of piece, in ADC counts.

The sensing layer (``lawmaster.host.sensing.sensing``) calls a spot "kind K" once
its reading is ``ENTER`` (35 %) of the way from the baseline to K's calibrated
level, and lets go under ``LEAVE`` (25 %). The calibrated level is what one
piece reads standing on the spot's centre. Margins here are taken the hard way
round: the piece played may be the weakest of its grade (Br low end) while the
level was calibrated with the strongest (Br high end), and the reverse for what
a piece does to its neighbour. A margin is how many counts a reading stays on
the right side of its threshold; the saturation margin is the headroom left to
the DRV5055's linear range and the ADC rails.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from lawmaster.hardware.magnetics.data import DRV5055, noise_counts
from lawmaster.hardware.magnetics.fields import field_table, remanence
from lawmaster.hardware.magnetics.placement import Placement, placement
from lawmaster.hardware.sensor_map import Kind, Magnet, SensorMap
from lawmaster.host.sensing.sensing import ENTER, LEAVE


def counts_per_mt(sensor_map: SensorMap) -> float:
    """u16 counts per millitesla of the map's sensor (ratiometric, 65536 = supply)."""
    spec = sensor_map.sensor
    return spec.sensitivity_mv_per_mt / (spec.supply_v * 1000) * 65536


def kind_reading_mt(
    sensor_map: SensorMap,
    kind: Kind,
    offset_mm: float,
    br: str = "nominal",
    magnets: tuple[Magnet, ...] | None = None,
    offsets: tuple[float, ...] | None = None,
) -> float:
    """Bz (mT, signed) under a spot from one piece of ``kind`` ``offset_mm`` off its centre."""
    spec = sensor_map.sensor
    magnets = kind.magnets if magnets is None else magnets
    offsets = (offset_mm,) * len(magnets) if offsets is None else offsets
    total = 0.0
    for m, off in zip(magnets, offsets, strict=True):
        table = field_table(m, spec, remanence(m.grade, br))
        total += m.sign * table.bz(abs(off))
    return total


def footprint(kind: Kind) -> float:
    """The base a player aims with: the widest of the kind's parts."""
    return max(m.footprint_mm for m in kind.magnets)


def _nearest(sensor_map: SensorMap, pocket: bool) -> float:
    """Shortest distance from a spot of this class to any other spot (mm)."""
    jail = sensor_map.jail
    best = math.inf
    for a in sensor_map.spots:
        if (a.space == jail) != pocket:
            continue
        for b in sensor_map.spots:
            if b is not a:
                best = min(best, math.hypot(a.x - b.x, a.y - b.y))
    return best


@dataclass(frozen=True)
class Row:
    """One line of a board's margin table (readings in counts from the baseline)."""

    kind: str
    where: str  # "cell" or "jail"
    placement: Placement
    centre: float
    worst: float
    neighbour: float
    neighbour_distance: float
    enter_margin: float
    neighbour_margin: float
    saturation_margin: float


def _rows_for(sensor_map: SensorMap, name: str, kind: Kind, pocket: bool) -> Row:
    cpm = counts_per_mt(sensor_map)
    place = placement(sensor_map, footprint(kind), pocket=pocket)
    centre = kind_reading_mt(sensor_map, kind, 0.0) * cpm
    level_high = kind_reading_mt(sensor_map, kind, 0.0, "high") * cpm
    worst = kind_reading_mt(sensor_map, kind, place.worst, "low") * cpm
    distance = _nearest(sensor_map, pocket) - place.towards_neighbour
    neighbour = kind_reading_mt(sensor_map, kind, distance, "high") * cpm
    enter = abs(worst) - ENTER * abs(level_high)
    # The neighbour must not enter any kind whose level lies on its reading's side.
    nb = math.inf
    for other in sensor_map.kinds.values():
        low = kind_reading_mt(sensor_map, other, 0.0, "low") * cpm
        if (low > 0) == (neighbour > 0):
            nb = min(nb, ENTER * abs(low) - abs(neighbour))
    if nb == math.inf:  # no kind on that side: the neighbour can only look empty
        nb = ENTER * min(
            abs(kind_reading_mt(sensor_map, k, 0.0, "low") * cpm) for k in sensor_map.kinds.values()
        ) - abs(neighbour)
    return Row(
        name,
        "jail" if pocket else "cell",
        place,
        centre,
        worst,
        neighbour,
        distance,
        enter,
        nb,
        saturation_headroom(sensor_map) - abs(level_high),
    )


def saturation_headroom(sensor_map: SensorMap) -> float:
    """Counts from mid-scale to the nearer of the linear-range edge and the ADC rail."""
    spec = sensor_map.sensor
    linear = DRV5055[spec.part].linear_range_mt * counts_per_mt(sensor_map)
    rail = (spec.supply_v / 2 - spec.rail_v) / spec.supply_v * 65536
    return min(linear, rail)


def rows(sensor_map: SensorMap) -> list[Row]:
    """The margin table of a board: every kind on cells (and criminals in the jail)."""
    out = []
    for name, kind in sensor_map.kinds.items():
        out.append(_rows_for(sensor_map, name, kind, pocket=False))
        if sensor_map.jail is not None and name == "criminal":
            out.append(_rows_for(sensor_map, name, kind, pocket=True))
    return out


@dataclass(frozen=True)
class Lag:
    """GW's pair with the blue magnet one cell behind the wooden piece (counts)."""

    wood_cell: float
    blue_cell: float
    wood_margin: float  # over ENTER of GW's level: GW is seen where the wooden piece is
    blue_margin: float  # under LEAVE: the lagging blue magnet lets its cell go


def gw_lag(sensor_map: SensorMap) -> Lag | None:
    """The lag case, or ``None`` on a board without GW's pair."""
    kind = sensor_map.kinds.get("gw")
    if kind is None:
        return None
    cpm = counts_per_mt(sensor_map)
    front = next(m for m in kind.magnets if m.side == "front")
    back = next(m for m in kind.magnets if m.side == "back")
    p = sensor_map.pitch_mm
    pair = (front, back)
    wood_cell = kind_reading_mt(sensor_map, kind, 0, "low", pair, (p, 0.0)) * cpm
    blue_cell = kind_reading_mt(sensor_map, kind, 0, "high", pair, (0.0, p)) * cpm
    level_high = kind_reading_mt(sensor_map, kind, 0.0, "high") * cpm
    level_low = kind_reading_mt(sensor_map, kind, 0.0, "low") * cpm
    return Lag(
        wood_cell,
        blue_cell,
        wood_cell - ENTER * level_high,
        LEAVE * level_low - blue_cell,
    )


def min_margin(sensor_map: SensorMap) -> float:
    """The worst margin (counts) over every kind, placement and the lag case."""
    values = []
    for r in rows(sensor_map):
        values += [r.enter_margin, r.neighbour_margin, r.saturation_margin]
    lag = gw_lag(sensor_map)
    if lag is not None:
        values += [lag.wood_margin, lag.blue_margin]
    return min(values)


def noise(sensor_map: SensorMap) -> float:
    """RMS noise of one reading of this board's sensor (counts)."""
    return noise_counts(sensor_map.sensor.part, sensor_map.sensor.supply_v)
