"""Where the cover rests on the sensor PCB, and how little it sags between.

The gap between a cover and the sensors is set by a spacer (``stack.py``): on
GW:s brott brass standoffs between the two acrylic faces, on the flat boards
FR-4 spacer pads between the PCB tiles and the MDF cover. Each sits at a
*support point*, where one screw clamps the stack together, so a cover can
neither lift off its spacers nor bow away from the sensors between them:

* :func:`support_points` — the points, on a grid of at most ``SUPPORT_PITCH_MM``,
  each moved to the nearest place at least ``clearance_mm`` from every sensor
  (and from Dredd's spot pockets). The PCB tiles need a Ø3.2 mm hole at every
  point that falls on them (the "boards" layout reads this function).
* :func:`cover_sag_mm` — how far a cover bows under a player's press midway
  between four supports (a simply supported square plate with a central load,
  w = 0.0116·P·a²/D, Timoshenko & Woinowsky-Krieger, *Theory of Plates and
  Shells*, table 8), which must stay below the least air over a sensor.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from lawmaster.hardware.magnetics import stack
from lawmaster.hardware.magnetics.placement import HEX_GAMES
from lawmaster.hardware.sensor_map import SensorMap

#: The longest span a cover has between two supports (mm).
SUPPORT_PITCH_MM = 100.0
#: How far a support stays from a sensor's centre (mm): the spacer pad or standoff
#: (radius 4 mm) and the sensor with its capacitor (within 4 mm) with 2 mm between.
SENSOR_KEEPOUT_MM = 10.0
#: Frame around the playing area (mm): the covers are this much larger on every side,
#: and a row of supports stands in it.
RIM_MM = 10.0
#: GW:s brott's board stands in its stand's groove: its faces run this much further
#: below the playing area (mm).
GW_FOOT_MM = 20.0
#: A player's press on a cover (N), as in ``tolerance.PRESS_N``.
PRESS_N = 5.0
PLATE_COEFF = 0.0116  # central deflection of a simply supported square plate, P·a²/D
MATERIAL_E_MPA = {
    "acrylic": (3000.0, "extruded PMMA, tensile modulus ≈ 3.0-3.3 GPa (PLEXIGLAS XT data sheet)"),
    "mdf": (
        2500.0,
        "assumption: thin MDF's bending modulus ≈ 2500 MPa, the low end of what EN 622-5 boards"
        " reach",
    ),
}
POISSON = 0.3


@dataclass(frozen=True)
class Outline:
    """A board's sheets (mm): the playing area's size, its rim, and the sheets' size."""

    width: float
    height: float
    rim: float
    foot: float  # extra below the playing area (GW's groove)

    @property
    def sheet(self) -> tuple[float, float]:
        return (self.width + 2 * self.rim, self.height + 2 * self.rim + self.foot)

    @property
    def origin(self) -> tuple[float, float]:
        """Where the map's (0, 0) lies on the sheet."""
        return (self.rim, self.rim)


def outline(board: str) -> Outline:
    sm = SensorMap.load(board)
    assert sm.size_mm is not None
    w, h = sm.size_mm
    return Outline(w, h, RIM_MM, GW_FOOT_MM if stack.two_sided(board) else 0.0)


def clearance_mm(board: str) -> float:
    """How far a support must stay from a sensor's centre on ``board`` (mm)."""
    sm = SensorMap.load(board)
    pockets = stack.SPOT_POCKETS.get(board)
    if pockets is None:
        return SENSOR_KEEPOUT_MM
    base = max(m.footprint_mm for k in sm.kinds.values() for m in k.magnets)
    # Clear of the pocket by the screw's countersink (Ø6.3) and 3.85 mm of MDF between.
    return max(SENSOR_KEEPOUT_MM, (base + pockets.clearance_mm) / 2 + 7.0)


def _free(sm: SensorMap, x: float, y: float, clear: float) -> bool:
    return all(math.hypot(s.x - x, s.y - y) >= clear for s in sm.spots)


@functools.lru_cache(maxsize=4)
def support_points(board: str) -> tuple[tuple[float, float], ...]:
    """Support points in the map's frame (mm; the rim's lie just outside the map's size).

    A row of supports runs along the rim (half the rim in from the sheet's edge) and
    an inner grid spans the playing area at most ``SUPPORT_PITCH_MM`` apart; each
    inner point moves to the nearest free place (searched on a 0.5 mm grid) at least
    :func:`clearance_mm` from every sensor.
    """
    sm = SensorMap.load(board)
    o = outline(board)
    clear = clearance_mm(board)
    nx = math.ceil(o.width / SUPPORT_PITCH_MM)
    ny = math.ceil(o.height / SUPPORT_PITCH_MM)
    xs = [o.width * i / nx for i in range(nx + 1)]
    ys = [o.height * j / ny for j in range(ny + 1)]
    if board not in HEX_GAMES and board not in stack.SPOT_POCKETS:
        # Square cells: a support goes on the nearest cell corner, clear of every keeper.
        p = sm.pitch_mm
        xs = [round(x / p) * p for x in xs]
        ys = [round(y / p) * p for y in ys]
    edge = -o.rim / 2
    out: list[tuple[float, float]] = []
    for j, y in enumerate(ys):
        for i, x in enumerate(xs):
            on_rim_x = i in (0, nx)
            on_rim_y = j in (0, ny)
            px = edge if i == 0 else (o.width - edge if i == nx else x)
            py = edge if j == 0 else (o.height - edge if j == ny else y)
            if on_rim_x or on_rim_y:
                out.append((round(px, 2), round(py, 2)))
                continue
            out.append(_nearest_free(sm, px, py, clear))
    return tuple(out)


def _nearest_free(sm: SensorMap, x: float, y: float, clear: float) -> tuple[float, float]:
    if _free(sm, x, y, clear):
        return (round(x, 2), round(y, 2))
    best: tuple[float, float, float] | None = None
    r = 0.5
    while best is None and r < SUPPORT_PITCH_MM / 2:
        steps = max(8, int(2 * math.pi * r / 0.5))
        for k in range(steps):
            a = 2 * math.pi * k / steps
            cx, cy = x + r * math.cos(a), y + r * math.sin(a)
            if _free(sm, cx, cy, clear):
                best = (r, cx, cy)
                break
        r += 0.5
    if best is None:
        raise ValueError(f"no free support place near ({x:.0f}, {y:.0f}) on {sm.game}")
    return (round(best[1], 2), round(best[2], 2))


def largest_span_mm(board: str) -> float:
    """The side of the largest square of supports a press can sit in the middle of (mm):
    √2 × the farthest any point of the playing area lies from its nearest support."""
    pts = support_points(board)
    o = outline(board)
    worst = 0.0
    step = 5.0
    y = 0.0
    while y <= o.height:
        x = 0.0
        while x <= o.width:
            d = min(math.hypot(px - x, py - y) for px, py in pts)
            worst = max(worst, d)
            x += step
        y += step
    # The nearest support is half a diagonal away at a square's centre.
    return worst * math.sqrt(2)


def cover_sag_mm(board: str) -> float:
    """How far a player's press bows the front cover midway between supports (mm)."""
    cover = stack.layer(board, "front_cover")
    material = "acrylic" if "acrylic" in cover.what else "mdf"
    e = MATERIAL_E_MPA[material][0]
    t = cover.low  # the thinnest sheet bows the most
    pockets = stack.SPOT_POCKETS.get(board)
    if pockets is not None:  # the pockets are local: the sheet around them bends
        t += pockets.depth_mm
    d = e * t**3 / (12 * (1 - POISSON**2))
    a = largest_span_mm(board)
    return PLATE_COEFF * PRESS_N * a * a / d
