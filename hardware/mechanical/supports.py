"""Where the cover rests on the sensor PCB, and how little it sags between.

The gap between a cover and the sensors is set by a spacer (``stack.py``): on
GW:s brott brass standoffs between the two acrylic faces, on the flat boards
FR-4 spacer pads between the PCB pieces and the MDF cover. Each sits at a
*support point*, where one screw clamps the stack together, so a cover can
neither lift off its spacers nor bow away from the sensors between them:

* :func:`support_points` — the points: every mounting hole of every PCB piece
  (:mod:`lawmaster.hardware.pcb.layout` puts them where they keep
  :func:`.keepout.clearance_mm` from every sensor), a row along the rim, and
  where the pieces leave the cover more than ``SUPPORT_PITCH_MM`` without one, a
  support of its own beside them (:func:`off_piece_points`; on the flat boards a
  second spacer pad there stands in for the PCB's thickness).
* :func:`cover_sag_mm` — how far a cover bows under a player's press midway
  between four supports (a simply supported square plate with a central load,
  w = 0.0116·P·a²/D, Timoshenko & Woinowsky-Krieger, *Theory of Plates and
  Shells*, table 8), which must stay below the least air over a sensor.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from lawmaster.hardware.electronics.pieces import Piece, plan
from lawmaster.hardware.magnetics import stack
from lawmaster.hardware.magnetics.placement import HEX_GAMES
from lawmaster.hardware.mechanical.keepout import clearance_mm
from lawmaster.hardware.pcb.layout import layout
from lawmaster.hardware.sensor_map import SensorMap

#: The longest span a cover has between two supports (mm).
SUPPORT_PITCH_MM = 100.0
#: The flat boards' slot in the rim at the middle of the bottom edge: the bus cables'
#: 15-way JST SH housings (18 mm wide, (15 − 1) × 1.0 mm pitch + 4 mm of housing) pass it
#: one at a time (``plans.CABLE_EDGE``). The rim's supports keep ``SLOT_CLEAR_MM`` off it.
CABLE_SLOT_MM = (24.0, 8.0)
SLOT_CLEAR_MM = 6.0
#: A support off the pieces stands at least this far from every piece's edge (mm): its
#: spacer pad (Ø8) clear of the PCB with a millimetre to spare.
PIECE_EDGE_MM = 5.0
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


def _free(sm: SensorMap, x: float, y: float, clear: float) -> bool:
    return all(math.hypot(s.x - x, s.y - y) >= clear for s in sm.spots)


def _pieces(board: str) -> tuple[Piece, ...]:
    return plan(board).pieces


@functools.lru_cache(maxsize=4)
def hole_points(board: str) -> tuple[tuple[float, float], ...]:
    """Every mounting hole of every PCB piece of ``board``, in the map's frame (mm)."""
    out = []
    for piece in _pieces(board):
        for x, y in layout(board, piece.kind).holes:
            bx, by = piece.to_board(x, y)
            out.append((round(bx, 2), round(by, 2)))
    return tuple(out)


def _on_a_piece(board: str, x: float, y: float, margin: float) -> bool:
    """Whether (x, y) lies on a piece or within ``margin`` of one."""
    for piece in _pieces(board):
        pts = [piece.to_board(px, py) for px, py in layout(board, piece.kind).outline]
        xs = [p[0] for p in pts]
        ys = [p[1] for p in pts]
        if min(xs) - margin <= x <= max(xs) + margin and min(ys) - margin <= y <= max(ys) + margin:
            return True
    return False


def _grid(board: str) -> tuple[list[float], list[float]]:
    """The lines of a grid at most ``SUPPORT_PITCH_MM`` apart over the playing area."""
    sm = SensorMap.load(board)
    o = outline(board)
    nx = math.ceil(o.width / SUPPORT_PITCH_MM)
    ny = math.ceil(o.height / SUPPORT_PITCH_MM)
    xs = [o.width * i / nx for i in range(nx + 1)]
    ys = [o.height * j / ny for j in range(ny + 1)]
    if board not in HEX_GAMES and board not in stack.SPOT_POCKETS:
        # Square cells: a support goes on the nearest cell corner, clear of every keeper.
        p = sm.pitch_mm
        xs = [round(x / p) * p for x in xs]
        ys = [round(y / p) * p for y in ys]
    return xs, ys


def rim_points(board: str) -> tuple[tuple[float, float], ...]:
    """The row of supports along the rim, half the rim in from the sheet's edge."""
    o = outline(board)
    xs, ys = _grid(board)
    nx, ny = len(xs) - 1, len(ys) - 1
    edge = -o.rim / 2
    # The flat boards' cable slot in the bottom rim: a support there moves beside it.
    beside = CABLE_SLOT_MM[0] / 2 + SLOT_CLEAR_MM
    out: list[tuple[float, float]] = []
    for j, y in enumerate(ys):
        for i, x in enumerate(xs):
            if i in (0, nx) or j in (0, ny):
                px = edge if i == 0 else (o.width - edge if i == nx else x)
                py = edge if j == 0 else (o.height - edge if j == ny else y)
                middle = o.width / 2
                if j == ny and not stack.two_sided(board) and abs(px - middle) < beside:
                    px = middle - beside if px <= middle else middle + beside
                out.append((round(px, 2), round(py, 2)))
    return tuple(out)


#: No point of the cover may lie farther than this from a support (mm): the middle of a
#: square of supports ``SUPPORT_PITCH_MM`` apart.
REACH_MM = SUPPORT_PITCH_MM / math.sqrt(2)
#: The playing area is searched for its point farthest from a support on this grid (mm).
COVER_STEP_MM = 5.0
#: A square of supports exactly ``SUPPORT_PITCH_MM`` on a side meets the rule: rounding.
REACH_TOLERANCE_MM = 0.05


def _farthest(board: str, points: list[tuple[float, float]]) -> tuple[float, float, float]:
    """(distance, x, y) of the playing area's point farthest from every support."""
    o = outline(board)
    gx = np.arange(0.0, o.width + 1e-9, COVER_STEP_MM)
    gy = np.arange(0.0, o.height + 1e-9, COVER_STEP_MM)
    px, py = np.meshgrid(gx, gy)
    grid = np.column_stack([px.ravel(), py.ravel()])
    sup = np.array(points)
    d = np.sqrt(((grid[:, None, :] - sup[None, :, :]) ** 2).sum(axis=-1)).min(axis=1)
    k = int(np.argmax(d))
    return float(d[k]), float(grid[k, 0]), float(grid[k, 1])


@functools.lru_cache(maxsize=4)
def off_piece_points(board: str) -> tuple[tuple[float, float], ...]:
    """Supports of their own, off the pieces: while some point of the cover lies farther
    than :data:`REACH_MM` from the rim's row and the pieces' holes, one more goes at the
    nearest place to it that stands :data:`PIECE_EDGE_MM` off every piece and
    :func:`.keepout.clearance_mm` from every sensor."""
    sm = SensorMap.load(board)
    clear = clearance_mm(board)
    points = list(rim_points(board) + hole_points(board))
    out: list[tuple[float, float]] = []
    while True:
        d, x, y = _farthest(board, points)
        if d <= REACH_MM + REACH_TOLERANCE_MM:
            return tuple(out)
        new = _nearest_free(sm, x, y, clear, board)
        if new in points:
            raise ValueError(f"{board}: no support place covers ({x:.0f}, {y:.0f})")
        points.append(new)
        out.append(new)


@functools.lru_cache(maxsize=4)
def support_points(board: str) -> tuple[tuple[float, float], ...]:
    """Support points in the map's frame (mm; the rim's lie just outside the map's size):
    the rim's row, the pieces' mounting holes and the supports off the pieces."""
    return rim_points(board) + hole_points(board) + off_piece_points(board)


def _nearest_free(
    sm: SensorMap, x: float, y: float, clear: float, board: str
) -> tuple[float, float]:
    def free(px: float, py: float) -> bool:
        return _free(sm, px, py, clear) and not _on_a_piece(board, px, py, PIECE_EDGE_MM)

    if free(x, y):
        return (round(x, 2), round(y, 2))
    best: tuple[float, float, float] | None = None
    r = 0.5
    while best is None and r < SUPPORT_PITCH_MM / 2:
        steps = max(8, int(2 * math.pi * r / 0.5))
        for k in range(steps):
            a = 2 * math.pi * k / steps
            cx, cy = x + r * math.cos(a), y + r * math.sin(a)
            if free(cx, cy):
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
