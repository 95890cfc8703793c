"""Each board's stripboard pieces: where every sensor goes, the strips, the cuts, the wires.

The pieces are the PCB pieces (:func:`lawmaster.hardware.electronics.pieces.plan`:
which sensors each carries, so every channel is the map's) cut from stripboard to
the PCB's outline, drilled at the PCB's mounting holes
(:func:`lawmaster.hardware.pcb.layout.layout`), so the supports, the cover and the
cables of the mechanical drawings stay as they are. Everything here is in board
millimetres (the sensor map's frame, y down), seen from the **component side** (the
front); the strips run along x.

Per piece the 2.54 mm grid is laid where the sensors' Hall elements land nearest
their spots (:func:`_phase`: the piece is cut and drilled to the drawing, so the
grid's phase is free). Each sensor (:mod:`.parts`: lying flat, branded face up,
its body towards +x) puts its three leads in one column ``c`` across three strips:
VCC on strip ``g − 1``, GND on ``g`` (the element's strip), OUT on ``g + 1``; its
100 nF capacitor goes in column ``c − 1`` across VCC and GND, and its output wire
in column ``c − 1`` of its OUT strip. A strip that carries two different nets is
cut (a track cut at a hole) between them; a mounting hole severs the strips it
crosses. The supply reaches every run of strip that carries VCC or GND through one
bus wire per net (30 AWG wire-wrap wire, bared and soldered at the drawn holes
only, in the drawn order).
Every rule that could be broken (two parts in one hole, a supply segment no bus
wire reaches, rows too close) raises :class:`PlanError` instead of drawing a board
that would not work.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from lawmaster.hardware.electronics.pieces import Piece, plan
from lawmaster.hardware.pcb.layout import layout
from lawmaster.hardware.sensor_map import SensorMap, Spot

from . import parts

P = parts.PITCH_MM
VCC, GND = "+3V3", "GND"
BOARDS = ("gw-brott", "judge-dredd", "unamerican-graffiti")
#: Steps tried for each axis's grid phase (0.01 mm).
PHASE_STEPS = 254


class PlanError(ValueError):
    """A strip plan that breaks one of the rules (the message says which)."""


@dataclass(frozen=True)
class Sensor:
    """One TO-92 sensor: its spot, its lead column and GND strip, its element's place."""

    spot: Spot
    col: int
    strip: int
    element: tuple[float, float]  # board mm
    #: The body lies towards −x (its leads to the element's right) instead of +x: the one
    #: nearer the piece's edge, so the capacitor and the output wire are on the inside.
    flip: bool = False

    @property
    def d(self) -> int:
        """+1 with the body towards +x, −1 towards −x."""
        return -1 if self.flip else 1

    @property
    def channel(self) -> int:
        return self.spot.channel

    @property
    def error_mm(self) -> float:
        """How far the grid puts the element from the spot's centre (mm)."""
        return math.hypot(self.element[0] - self.spot.x, self.element[1] - self.spot.y)

    @property
    def out_net(self) -> str:
        return f"ch{self.spot.channel}"

    def leads(self) -> dict[tuple[int, int], str]:
        """(column, strip) → net of every hole this sensor's parts use."""
        c, g, d = self.col, self.strip, self.d
        return {
            (c, g - d): VCC,  # pin 1: turned with the body, the pins' order turns too
            (c, g): GND,
            (c, g + d): self.out_net,
            (c - d, g - d): VCC,  # its capacitor
            (c - d, g): GND,
            (c - d, g + d): self.out_net,  # its output wire
        }

    def covered(self) -> set[tuple[int, int]]:
        """Holes under the lying bodies (the sensor's and its capacitor's): no lead there."""
        c, g, d = self.col, self.strip, self.d
        return {(c + d, g - 1), (c + d, g), (c + d, g + 1), (c - 2 * d, g - d), (c - 2 * d, g)}


@dataclass(frozen=True)
class Segment:
    """A run of one strip between cuts (columns inclusive) and the net it carries."""

    strip: int
    first: int
    last: int
    net: str | None


@dataclass(frozen=True)
class Bus:
    """A supply bus wire: its net and the holes it is soldered to, top to bottom (all in
    one column: a straight wire, fed from the supply at its top end)."""

    net: str
    points: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class PiecePlan:
    """One stripboard piece: outline and holes (board mm), its grid, parts, cuts, wires."""

    name: str
    outline: tuple[tuple[float, float], ...]
    mounts: tuple[tuple[float, float], ...]
    origin: tuple[float, float]  # board mm of column 0, strip 0
    spans: tuple[tuple[int, int], ...]  # per strip: first and last column on the board
    sensors: tuple[Sensor, ...]
    cuts: tuple[tuple[int, int], ...]  # (column, strip) of every track cut
    severed: tuple[tuple[int, int], ...]  # (column, strip) a mounting hole cuts
    segments: tuple[Segment, ...]
    buses: tuple[Bus, ...]

    def xy(self, col: float, strip: float) -> tuple[float, float]:
        """Board mm of a hole."""
        return (self.origin[0] + col * P, self.origin[1] + strip * P)

    @property
    def strips(self) -> int:
        return len(self.spans)


@dataclass(frozen=True)
class BoardPlan:
    """A board's stripboard pieces."""

    board: str
    size_mm: tuple[float, float]
    pieces: tuple[PiecePlan, ...]

    @property
    def sensors(self) -> tuple[Sensor, ...]:
        return tuple(s for p in self.pieces for s in p.sensors)

    @property
    def worst_snap_mm(self) -> float:
        """The farthest the grid puts any element from its spot (mm)."""
        return max(s.error_mm for s in self.sensors)


def _inside(poly: tuple[tuple[float, float], ...], x: float, y: float) -> bool:
    """Whether (x, y) lies inside the polygon (even-odd rule)."""
    inside = False
    n = len(poly)
    for i in range(n):
        (x0, y0), (x1, y1) = poly[i], poly[(i + 1) % n]
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def _edge_distance(poly: tuple[tuple[float, float], ...], x: float, y: float) -> float:
    """Distance from (x, y) to the polygon's nearest edge (mm)."""
    best = math.inf
    n = len(poly)
    for i in range(n):
        (x0, y0), (x1, y1) = poly[i], poly[(i + 1) % n]
        dx, dy = x1 - x0, y1 - y0
        t = max(0.0, min(1.0, ((x - x0) * dx + (y - y0) * dy) / (dx * dx + dy * dy)))
        best = min(best, math.hypot(x - x0 - t * dx, y - y0 - t * dy))
    return best


def _phase(values: list[float]) -> float:
    """The grid phase in [0, P) that puts every value nearest a grid line (minimax)."""
    best, best_err = 0.0, math.inf
    for k in range(PHASE_STEPS):
        o = k * P / PHASE_STEPS
        err = max(abs((v - o) - P * round((v - o) / P)) for v in values)
        if err < best_err - 1e-9:
            best, best_err = o, err
    return round(best, 3)


def _board_outline(
    piece: Piece, pts: tuple[tuple[float, float], ...]
) -> tuple[tuple[float, float], ...]:
    return tuple(tuple(round(v, 3) for v in piece.to_board(x, y)) for x, y in pts)  # type: ignore[misc]


#: A hole is on the board when its centre is at least this far inside the outline (mm).
EDGE_MM = 1.0


def _piece(board: str, piece: Piece) -> PiecePlan:
    lay = layout(board, piece.kind)
    outline = _board_outline(piece, lay.outline)
    mounts = _board_outline(piece, lay.holes)
    spots = [s.spot for s in piece.sensors]
    xs = [p[0] for p in outline]
    ys = [p[1] for p in outline]
    middle = (min(xs) + max(xs)) / 2
    # The lead column lies on the far side of the element from the body (see ``Sensor``).
    ox = _phase([s.x + (1 if s.x < middle else -1) * parts.ELEMENT_DX_MM for s in spots])
    oy = _phase([s.y for s in spots])
    c0 = math.ceil((min(xs) + EDGE_MM - ox) / P)
    j0 = math.ceil((min(ys) + EDGE_MM - oy) / P)
    origin = (round(ox + c0 * P, 3), round(oy + j0 * P, 3))
    ncols = math.floor((max(xs) - EDGE_MM - origin[0]) / P) + 1
    nstrips = math.floor((max(ys) - EDGE_MM - origin[1]) / P) + 1

    def xy(c: float, j: float) -> tuple[float, float]:
        return (origin[0] + c * P, origin[1] + j * P)

    def on_board(c: int, j: int) -> bool:
        x, y = xy(c, j)
        return _inside(outline, x, y) and _edge_distance(outline, x, y) >= EDGE_MM - 1e-9

    spans = []
    for j in range(nstrips):
        cols = [c for c in range(ncols) if on_board(c, j)]
        if cols and cols != list(range(cols[0], cols[-1] + 1)):
            raise PlanError(f"{piece.name}: strip {j} is broken by the outline")
        spans.append((cols[0], cols[-1]) if cols else (0, -1))

    sensors = []
    middle = (min(xs) + max(xs)) / 2
    for s in spots:
        d = -1 if s.x < middle else 1
        c = round((s.x - d * parts.ELEMENT_DX_MM - origin[0]) / P)
        g = round((s.y - origin[1]) / P)
        hx, hy = xy(c, g)
        element = (round(hx + d * parts.ELEMENT_DX_MM, 3), round(hy, 3))
        sensors.append(Sensor(s, c, g, element, d < 0))
    sensors.sort(key=lambda s: (s.strip, s.col))

    used: dict[tuple[int, int], str] = {}
    blocked: set[tuple[int, int]] = set()
    for s in sensors:
        for hole, net in s.leads().items():
            if hole in used:
                raise PlanError(f"{piece.name}: two parts in hole {hole} (sensor {s.spot.space})")
            used[hole] = net
        blocked |= s.covered()
    for hole in used:
        c, j = hole
        if not (0 <= j < nstrips) or not (spans[j][0] <= c <= spans[j][1]):
            raise PlanError(f"{piece.name}: hole {hole} is off the board")
        if hole in blocked:
            raise PlanError(f"{piece.name}: hole {hole} lies under a part's body")

    # The mounting holes: a Ø3.2 hole severs every strip whose copper it reaches and takes
    # the holes round it.
    severed: set[tuple[int, int]] = set()
    reach = parts.MOUNT_HOLE_MM / 2 + parts.STRIP_HALF_MM
    for mx, my in mounts:
        for j in range(nstrips):
            y = xy(0, j)[1]
            if abs(y - my) >= reach:
                continue
            c = round((mx - origin[0]) / P)
            severed.add((c, j))
            for cc in range(c - 2, c + 3):
                if abs(xy(cc, j)[0] - mx) < reach:
                    blocked.add((cc, j))
                    if (cc, j) in used:
                        raise PlanError(f"{piece.name}: mounting hole at ({mx}, {my}) on a lead")

    cuts: list[tuple[int, int]] = []
    segments: list[Segment] = []
    for j in range(nstrips):
        first, last = spans[j]
        items = sorted((c, net) for (c, jj), net in used.items() if jj == j)
        breaks = sorted(c for c, jj in severed if jj == j)
        for (ca, na), (cb, nb) in zip(items, items[1:], strict=False):
            if na == nb or any(ca < b < cb for b in breaks):
                continue
            free = [c for c in range(ca + 1, cb) if (c, j) not in used]
            if not free:
                raise PlanError(f"{piece.name}: no hole to cut strip {j} between {na} and {nb}")
            mid = (ca + cb) / 2
            cut = min(free, key=lambda c: (abs(c - mid), c))
            cuts.append((cut, j))
            breaks.append(cut)
        breaks = sorted(set(breaks))
        bounds = [first - 1, *[b for b in breaks if first <= b <= last], last + 1]
        runs = []
        for a, b in zip(bounds, bounds[1:], strict=False):
            if b - a < 2:
                continue
            nets = {net for c, net in items if a < c < b}
            if len(nets) > 1:
                raise PlanError(f"{piece.name}: strip {j} joins {sorted(nets)}")
            runs.append(Segment(j, a + 1, b - 1, nets.pop() if nets else None))
        segments += runs
    # The bus wires: one hole on every run of strip that carries VCC or GND. Runs are
    # gathered on as few columns as cover them all (each column one straight wire, the one
    # free on the most runs first, leftmost on a tie); every wire is fed at its top end.
    bus_list: list[Bus] = []
    wire_cols: set[int] = set()
    for net in (VCC, GND):
        left = [r for r in segments if r.net == net]

        def free(c: int, j: int) -> bool:
            return (c, j) not in used and (c, j) not in blocked and (c, j) not in severed

        while left:
            span = range(min(r.first for r in left), max(r.last for r in left) + 1)
            cols = [c for c in span if c not in wire_cols]  # one wire per column
            counts = {
                c: [r for r in left if r.first <= c <= r.last and free(c, r.strip)] for c in cols
            }
            best = max(cols, key=lambda c: (len(counts[c]), -c))
            if not counts[best]:
                raise PlanError(f"{piece.name}: no free hole for the {net} bus")
            points = tuple(sorted(((best, r.strip) for r in counts[best]), key=lambda h: h[1]))
            for h in points:
                used[h] = net
            bus_list.append(Bus(net, points))
            wire_cols.add(best)
            left = [r for r in left if r not in counts[best]]
    return PiecePlan(
        piece.name,
        outline,
        mounts,
        origin,
        tuple(spans),
        tuple(sensors),
        tuple(sorted(cuts)),
        tuple(sorted(severed)),
        tuple(segments),
        tuple(bus_list),
    )


@functools.cache
def board_plan(board: str) -> BoardPlan:
    """The stripboard pieces of a standard board."""
    made = plan(board)
    pieces = tuple(_piece(board, p) for p in made.pieces)
    smap = SensorMap.load(board)
    placed = sorted((s.spot.x, s.spot.y) for p in pieces for s in p.sensors)
    if placed != sorted((s.x, s.y) for s in smap.spots):
        raise PlanError(f"{board}: the pieces do not carry every spot of the map exactly once")
    return BoardPlan(board, made.size_mm, pieces)
