"""Forces on the pieces (magpylib-force): what holds them and what drags them.

Frame: the sensor plane at z = 0, the front surface at ``+depth``, the back at
``−back_depth``; x and y lie in the board. On the vertical GW:s brott board
gravity pulls along −y. A piece stays put while the friction its normal force
allows (``μ·N``) exceeds the in-plane force on it (its weight, plus any
magnetic pull along the board); the *safety factor* is their ratio.

The keepers' induced magnetisation depends on every magnet present, so each
configuration is solved afresh (``Keepers.induced``), then magpylib-force's
``getFT`` gives the force on each piece's magnet from every other source. The
keepers pull on a magnet exactly as hard as it pulls on them.
"""

from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from magpylib_force import getFT

from lawmaster.hardware.magnetics.data import NDFEB_DENSITY_G_MM3, G
from lawmaster.hardware.magnetics.fields import cylinder
from lawmaster.hardware.magnetics.softiron import Keepers, keeper_centres
from lawmaster.hardware.sensor_map import Magnet, SensorSpec

MESH = 60  # force integration points per magnet (magpylib-force meshing)


def mass_g(magnet: Magnet) -> float:
    """A piece part's mass: its disc magnet plus its body (grams)."""
    volume = math.pi * (magnet.diameter_mm / 2) ** 2 * magnet.thickness_mm
    return volume * NDFEB_DENSITY_G_MM3 + magnet.body_g


def weight_n(magnet: Magnet) -> float:
    """Its weight in newtons."""
    return mass_g(magnet) * 1e-3 * G


@dataclass(frozen=True)
class Placed:
    """One magnet of a piece at a place on the board (mm, sensor frame)."""

    magnet: Magnet
    x: float
    y: float = 0.0
    br: float | None = None


@functools.lru_cache(maxsize=16)
def keepers_at(spec: SensorSpec, spots: tuple[tuple[float, float], ...]) -> Keepers | None:
    """The solved keepers under ``spots`` (cached: a solve is the slow part)."""
    if spec.keeper is None:
        return None
    return Keepers(spec.keeper, keeper_centres(spec, spots))


def forces(
    placed: Sequence[Placed], spec: SensorSpec, spots: Sequence[tuple[float, float]] = ()
) -> list[np.ndarray]:
    """The force (N, 3-vector) on each placed magnet from all the others and the keepers."""
    magnets = [cylinder(p.magnet, spec, p.x, p.y, br=p.br) for p in placed]
    keepers = keepers_at(spec, tuple(spots))
    cells = keepers.induced(magnets) if keepers is not None else []
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # getFT warns that no torque anchor is given
        for i, target in enumerate(magnets):
            target.meshing = MESH
            sources = [m for j, m in enumerate(magnets) if j != i] + cells
            if not sources:
                out.append(np.zeros(3))
                continue
            ft = getFT(sources, [target])
            out.append(np.asarray(ft).reshape(-1, 2, 3)[0, 0])
    return out


def normal_towards_board(force: np.ndarray, magnet: Magnet) -> float:
    """The part of ``force`` pressing ``magnet`` onto its own surface (N; negative = off)."""
    return -float(force[2]) if magnet.side == "front" else float(force[2])


def max_induced_t(placed: Sequence[Placed], spec: SensorSpec, spots: Sequence[tuple]) -> float:
    """The largest polarisation induced in any keeper cell (T), to check linear steel."""
    keepers = keepers_at(spec, tuple(spots))
    if keepers is None:
        return 0.0
    magnets = [cylinder(p.magnet, spec, p.x, p.y, br=p.br) for p in placed]
    return max(float(np.linalg.norm(c.polarization)) for c in keepers.induced(magnets))
