"""The soft-steel keeper washers: their induced magnetisation, solved as cells.

A washer is cut into small uniformly polarised cuboids (cells). In an applied
field each cell's polarisation is ``J = χ·μ0·H`` with ``H`` the applied field
plus the field of every cell (its own demagnetising field included), taken at
the cell's centre: the point-matching method of ``magpylib-material-response``
(`apply_demag(..., interaction="point")`), written here as one dense linear
system so that the response can be factorised once and reused for every
position of a magnet (a test checks this against the library). Linear steel is
valid while the induced polarisation stays well under saturation; the doc
reports the largest value met.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import magpylib as magpy
import numpy as np

from lawmaster.hardware.magnetics.data import STEEL_CHI
from lawmaster.hardware.sensor_map import Keeper, SensorSpec

MM = 1e-3


def ring_cells(
    keeper: Keeper, centre_mm: tuple[float, float, float], radial: int = 3, around: int = 24
) -> list[magpy.magnet.Cuboid]:
    """Cuboid cells filling one washer centred at ``centre_mm`` (its mid-plane)."""
    cells = []
    ri, ro = keeper.inner_mm / 2, keeper.outer_mm / 2
    edges = np.linspace(ri, ro, radial + 1)
    x0, y0, z0 = centre_mm
    for a, b in zip(edges[:-1], edges[1:], strict=True):
        r = (a + b) / 2
        n = max(8, round(around * r / ro))
        arc = 2 * math.pi * r / n
        for k in range(n):
            phi = 2 * math.pi * (k + 0.5) / n
            cell = magpy.magnet.Cuboid(
                polarization=(0, 0, 0),
                dimension=((b - a) * MM, arc * MM, keeper.thickness_mm * MM),
                position=((x0 + r * math.cos(phi)) * MM, (y0 + r * math.sin(phi)) * MM, z0 * MM),
            )
            cell.rotate_from_angax(math.degrees(phi), "z", anchor=cell.position)
            cells.append(cell)
    return cells


def keeper_centres(
    spec: SensorSpec, spots: Iterable[tuple[float, float]]
) -> list[tuple[float, float, float]]:
    """Mid-planes of the keepers of ``spots`` (sensor plane z = 0, front at +z), mm."""
    keeper = spec.keeper
    if keeper is None:
        return []
    out = []
    for x, y in spots:
        for side in keeper.sides:
            face = spec.depth(side) - keeper.gap_mm  # the washer face nearest its surface
            mid = face - keeper.thickness_mm / 2
            out.append((x, y, mid if side == "front" else -mid))
    return out


class Keepers:
    """Every keeper cell of a set of washers, with the solved linear response.

    ``response`` maps the applied field at the cell centres (μ0·H, tesla, flattened
    ``3n``) to the cells' polarisation (tesla, ``3n``).
    """

    def __init__(
        self, keeper: Keeper, centres: Sequence[tuple[float, float, float]], chi: float = STEEL_CHI
    ) -> None:
        self.chi = chi
        self.cells: list[magpy.magnet.Cuboid] = []
        for c in centres:
            self.cells.extend(ring_cells(keeper, c))
        self.points = np.array([c.position for c in self.cells])
        n = len(self.cells)
        # Column 3j+k of the interaction: μ0·H at every centre from cell j polarised
        # 1 T along global axis k (the cell's own demagnetising field included).
        units = self._unit_cells()
        fields = magpy.getH(units, self.points) * magpy.mu_0  # (3n, n, 3)
        interaction = fields.reshape(3 * n, 3 * n).T
        # (I − χT)·J = χ·μ0H_applied
        self.response = np.linalg.solve(np.eye(3 * n) - chi * interaction, chi * np.eye(3 * n))

    def _unit_cells(self) -> list[magpy.magnet.Cuboid]:
        """Each cell three times, polarised 1 T along global x, y and z in turn."""
        out = []
        for cell in self.cells:
            for k in range(3):
                unit = np.zeros(3)
                unit[k] = 1.0
                out.append(cell.copy(polarization=cell.orientation.inv().apply(unit)))
        return out

    def polarise(self, applied: np.ndarray) -> np.ndarray:
        """Cell polarisations (n, 3) for the applied μ0·H (n, 3) at the cell centres."""
        return (self.response @ applied.reshape(-1)).reshape(-1, 3)

    def induced(self, sources: Sequence[magpy.magnet.Cylinder]) -> list[magpy.magnet.Cuboid]:
        """Copies of the cells polarised by ``sources`` (magnets), ready for field or force."""
        applied = magpy.getH(list(sources), self.points, sumup=True) * magpy.mu_0
        pol = self.polarise(np.asarray(applied).reshape(-1, 3))
        out = []
        for cell, j in zip(self.cells, pol, strict=True):
            out.append(cell.copy(polarization=cell.orientation.inv().apply(j)))
        return out

    def bz_weights(self, point_mm: tuple[float, float, float]) -> np.ndarray:
        """Weights w (3n) so that Bz at ``point_mm`` from the cells is ``w · μ0H_applied``."""
        point = np.array(point_mm) * MM
        g = magpy.getB(self._unit_cells(), point)[:, 2]
        return g @ self.response
