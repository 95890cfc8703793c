"""Field tables: what one disc magnet gives the sensor under a spot, by its offset.

The sensor sits at the origin with its branded face towards the front (+z). A
magnet of a piece is a magpylib ``Cylinder`` of the piece's size, polarised
axially with the remanence of its grade, standing ``lift_mm`` above its playing
surface (front at ``+depth``, back at ``−back_depth``). The soft-steel keepers of
the spot (``Keeper``) add their induced field. A magnet's field is
axisymmetric about its own axis and the spot's keepers are coaxial with the
sensor, so the reading depends only on the piece's sideways offset ρ and its
height above its surface h::

    table = field_table(magnet, spec)
    table.bz(rho_mm=3.0, height_mm=0.0)   # mT, for the magnet's "south-like" pose

The table holds Bz for the orientation that raises the reading; multiply by
``Magnet.sign`` for the pose the map gives. Values between grid points are
bilinear. Each table is computed once per process (``functools.lru_cache``).
"""

from __future__ import annotations

import functools
import math
from bisect import bisect_right
from dataclasses import dataclass

import magpylib as magpy
import numpy as np

from lawmaster.hardware.magnetics.data import GRADE_BR_T
from lawmaster.hardware.magnetics.softiron import MM, Keepers, keeper_centres
from lawmaster.hardware.sensor_map import Keeper, Magnet, SensorSpec

RHO_STEP_MM = 0.25
RHO_MAX_MM = 45.0
HEIGHTS_MM = tuple(
    float(h)
    for h in np.concatenate(
        [
            np.arange(0.0, 4.0, 0.1),
            np.arange(4.0, 12.0, 0.5),
            np.arange(12.0, 30.0, 2.0),
            [40, 60, 80],
        ]
    ).round(3)
)


def remanence(grade: str, which: str = "nominal") -> float:
    """Br of a grade in tesla: its ``"low"`` or ``"high"`` end, or the middle."""
    low, high = GRADE_BR_T[grade]
    return {"low": low, "high": high, "nominal": (low + high) / 2}[which]


def centre_z(magnet: Magnet, spec: SensorSpec, height_mm: float = 0.0) -> float:
    """z (mm) of a magnet's centre in the sensor's frame (front +, back −)."""
    z = spec.depth(magnet.side) + magnet.lift_mm + height_mm + magnet.thickness_mm / 2
    return z if magnet.side == "front" else -z


def cylinder(
    magnet: Magnet,
    spec: SensorSpec,
    x_mm: float = 0.0,
    y_mm: float = 0.0,
    height_mm: float = 0.0,
    br: float | None = None,
) -> magpy.magnet.Cylinder:
    """The magpylib magnet of one piece's disc, posed as the map says, in SI units."""
    j = (remanence(magnet.grade) if br is None else br) * magnet.sign
    return magpy.magnet.Cylinder(
        polarization=(0.0, 0.0, j),
        dimension=(magnet.diameter_mm * MM, magnet.thickness_mm * MM),
        position=(x_mm * MM, y_mm * MM, centre_z(magnet, spec, height_mm) * MM),
    )


@dataclass(frozen=True)
class FieldTable:
    """Bz (mT) at a spot's sensor from one magnet, on a grid of offset ρ and height h."""

    heights: tuple[float, ...]
    values: tuple[tuple[float, ...], ...]  # values[i_height][i_rho]

    def bz(self, rho_mm: float, height_mm: float = 0.0) -> float:
        """Bilinear Bz (mT) at offset ``rho_mm``; 0 beyond the grid."""
        if rho_mm >= RHO_MAX_MM or height_mm >= self.heights[-1]:
            return 0.0
        f = rho_mm / RHO_STEP_MM
        i = int(f)
        fr = f - i
        hs = self.heights
        k = bisect_right(hs, height_mm) - 1 if height_mm > 0 else 0
        fh = (height_mm - hs[k]) / (hs[k + 1] - hs[k]) if height_mm > 0 else 0.0
        lo, hi = self.values[k], self.values[k + 1]
        a = lo[i] + (lo[i + 1] - lo[i]) * fr
        b = hi[i] + (hi[i + 1] - hi[i]) * fr
        return a + (b - a) * fh


def _keeper_key(keeper: Keeper | None) -> tuple | None:
    if keeper is None:
        return None
    return (keeper.outer_mm, keeper.inner_mm, keeper.thickness_mm, keeper.gap_mm, keeper.sides)


@functools.lru_cache(maxsize=8)
def spot_keepers(spec: SensorSpec) -> Keepers | None:
    """The keepers of one spot (at the origin), solved; ``None`` without keepers."""
    if spec.keeper is None:
        return None
    return Keepers(spec.keeper, keeper_centres(spec, [(0.0, 0.0)]))


@functools.lru_cache(maxsize=32)
def _table(
    diameter: float, thickness: float, br: float, side: str, lift: float, spec: SensorSpec
) -> FieldTable:
    magnet = Magnet(side, "south" if side == "front" else "north", diameter, thickness, "N42", lift)
    rhos = np.arange(0.0, RHO_MAX_MM + 2 * RHO_STEP_MM, RHO_STEP_MM)
    heights = np.array(HEIGHTS_MM)
    hh, rr = np.meshgrid(heights, rhos, indexing="ij")
    z = np.array([centre_z(magnet, spec, h) for h in heights])
    path = np.stack([rr.ravel() * MM, np.zeros(rr.size), np.repeat(z, rhos.size) * MM], axis=1)
    source = magpy.magnet.Cylinder(
        polarization=(0.0, 0.0, br), dimension=(diameter * MM, thickness * MM), position=path
    )
    bz = magpy.getB(source, (0.0, 0.0, 0.0))[:, 2]
    grid = bz.reshape(heights.size, rhos.size)
    keepers = spot_keepers(spec)
    if keepers is not None:
        grid = grid + _keeper_grid(keepers, diameter, thickness, br, rhos, heights, z)
    grid = grid * 1000.0
    return FieldTable(HEIGHTS_MM, tuple(tuple(float(v) for v in row) for row in grid))


def _keeper_grid(
    keepers: Keepers,
    diameter: float,
    thickness: float,
    br: float,
    rhos: np.ndarray,
    heights: np.ndarray,
    z: np.ndarray,
) -> np.ndarray:
    """The keepers' share of Bz (T) on the table's grid.

    It is a smooth correction of a few per cent, so it is solved on a grid of 1 mm in
    ρ and every third height, and interpolated onto the fine grid (the magnet's own
    field, which carries the detail, is computed at every point).
    """
    coarse_r = np.arange(0.0, RHO_MAX_MM + 2.0, 1.0)
    pick = sorted(set(range(0, heights.size, 3)) | {heights.size - 1})
    hh, rr = np.meshgrid(z[pick], coarse_r, indexing="ij")
    path = np.stack([rr.ravel() * MM, np.zeros(rr.size), hh.ravel() * MM], axis=1)
    source = magpy.magnet.Cylinder(
        polarization=(0.0, 0.0, br), dimension=(diameter * MM, thickness * MM), position=path
    )
    weights = keepers.bz_weights((0.0, 0.0, 0.0))
    applied = magpy.getH(source, keepers.points) * magpy.mu_0  # (path, cells, 3)
    coarse = (applied.reshape(len(path), -1) @ weights).reshape(len(pick), coarse_r.size)
    by_rho = np.array([np.interp(rhos, coarse_r, row) for row in coarse])
    return np.array([np.interp(heights, heights[pick], col) for col in by_rho.T]).T


def field_table(magnet: Magnet, spec: SensorSpec, br: float | None = None) -> FieldTable:
    """The field table of ``magnet`` (its size, grade, side and lift) through ``spec``'s stack."""
    b = remanence(magnet.grade) if br is None else br
    return _table(magnet.diameter_mm, magnet.thickness_mm, b, magnet.side, magnet.lift_mm, spec)


def reading_mt(
    magnets: list[tuple[Magnet, float, float]], spec: SensorSpec, br_which: str = "nominal"
) -> float:
    """Bz (mT) at a sensor at the origin from magnets at (x, y) offsets, signs applied."""
    total = 0.0
    for m, x, y in magnets:
        table = field_table(m, spec, remanence(m.grade, br_which))
        total += m.sign * table.bz(math.hypot(x, y))
    return total
