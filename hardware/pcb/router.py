"""A small two-layer grid router: A* over a 0.325 mm grid with clearances kept by construction.

The pieces' patterns are regular but not identical (the jail, hex rows, the
scanner's modules), so routes are found rather than drawn: each net is grown
as a tree, one terminal at a time, by A* from the tree to the next pad over a
grid on both copper layers, with vias between them. The grid's pitch is half
the 0.65 mm pin pitch of the TSSOP multiplexers, so a multiplexer placed on a
grid point has every pin on a grid line.

Clearances hold by construction: every copper object (pad, track, via) marks
the cells a track or via of another net must not use, at its real distance
(its outline plus the clearance plus the other object's half width); a cell
two nets both claim is closed to both. The clearance the router keeps
(:data:`CLEARANCE`) is above the boards' design rule, so KiCad's own DRC,
which measures the real copper, has room to spare.

Pure Python and NumPy: the board builder (:mod:`.board`) hands in pads and
outline, takes the tracks and vias back and adds them to the KiCad board.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field

import numpy as np
from scipy import ndimage

PITCH = 0.325
CLEARANCE = 0.16  # the boards' rule is 0.15 mm (board.RULES): 0.01 mm to spare for rounding
EDGE = 0.45  # track or via edge to the board outline
VIA_DIAMETER, VIA_DRILL = 0.6, 0.3
HOLE_GAP = 0.3  # drill to drill, any nets
#: A drilled pad's hole needs 0.25 mm to other copper (KiCad's hole clearance): more than
#: the copper clearance when the pad has no ring (a mounting hole).
HOLE_EXTRA = 0.1
VIA_COST = 12.0
TURN_COST = 0.4
#: Weighted A*: the heuristic counts this much more than a step, trading a little length
#: for an order of magnitude fewer cells searched.
GREED = 2.0
#: A step on the layer the parts are not on costs this much: tracks keep to the parts' side
#: and cross on the other, so the other side's ground pour stays whole.
OTHER_LAYER_COST = 2.5
FREE, TAKEN = -1, -2


@dataclass(frozen=True)
class Pad:
    """A copper pad: its net (index), layers (0 front, 1 back), outline polygon, drill (mm)."""

    net: int
    layers: tuple[int, ...]
    polygon: tuple[tuple[float, float], ...]
    centre: tuple[float, float]
    drill: float = 0.0


@dataclass
class Route:
    """What the router laid for one net: track segments per layer and vias."""

    net: int
    width: float
    segments: list[tuple[int, tuple[float, float], tuple[float, float]]] = field(
        default_factory=list
    )
    vias: list[tuple[float, float]] = field(default_factory=list)
    #: Every grid cell the route runs through, (layer, row, column).
    cells: set[tuple[int, int, int]] = field(default_factory=set)


@dataclass
class Escape:
    """A fan-out laid before routing: cells straight out of a pad, a via at the end."""

    net: int
    cells: list[tuple[int, int, int]]
    via: tuple[int, int]

    def used_part(self, route_cells: set[tuple[int, int, int]]) -> tuple[int, bool]:
        """How far along its cells the net's route used the escape, and whether its via."""
        layer = self.cells[0][0]
        via_used = (1 - layer, *self.via) in route_cells
        reach = max((i for i, cell in enumerate(self.cells) if cell in route_cells), default=0)
        return (len(self.cells) - 1 if via_used else reach), via_used


class Unroutable(RuntimeError):
    """A net found no path."""


def _disk(radius_cells: float) -> np.ndarray:
    r = int(math.ceil(radius_cells))
    yy, xx = np.mgrid[-r : r + 1, -r : r + 1]
    return (xx * xx + yy * yy) <= radius_cells * radius_cells + 1e-9


def _polygon_distance(px: np.ndarray, py: np.ndarray, poly: np.ndarray) -> np.ndarray:
    """Distance from points to a polygon's area (0 inside)."""
    x1, y1 = poly[:, 0], poly[:, 1]
    x2, y2 = np.roll(x1, -1), np.roll(y1, -1)
    dx, dy = x2 - x1, y2 - y1
    length2 = np.maximum(dx * dx + dy * dy, 1e-12)
    t = ((px[..., None] - x1) * dx + (py[..., None] - y1) * dy) / length2
    t = np.clip(t, 0.0, 1.0)
    cx, cy = x1 + t * dx, y1 + t * dy
    dist = np.sqrt((px[..., None] - cx) ** 2 + (py[..., None] - cy) ** 2).min(axis=-1)
    # Inside test by crossing number.
    crossing = ((y1 > py[..., None]) != (y2 > py[..., None])) & (
        px[..., None] < (x2 - x1) * (py[..., None] - y1) / np.where(dy == 0, 1e-12, dy) + x1
    )
    inside = crossing.sum(axis=-1) % 2 == 1
    return np.where(inside, 0.0, dist)


class Grid:
    """The routing grid of one board: who may use each cell, on each layer and for vias."""

    def __init__(
        self,
        outline: list[tuple[float, float]],
        pads: list[Pad],
        half_widths: tuple[float, ...],
        parts_layer: int = 0,
    ) -> None:
        #: The layer most parts sit on (0 front, 1 back): routes prefer it.
        self.parts_layer = parts_layer
        xs = [p[0] for p in outline]
        ys = [p[1] for p in outline]
        self.x0 = math.floor(min(xs) / PITCH) * PITCH
        self.y0 = math.floor(min(ys) / PITCH) * PITCH
        self.nx = int(math.ceil((max(xs) - self.x0) / PITCH)) + 1
        self.ny = int(math.ceil((max(ys) - self.y0) / PITCH)) + 1
        self.half_widths = half_widths
        shape = (self.ny, self.nx)
        #: owner[w][layer]: for a track of half width half_widths[w].
        self.owner = [[np.full(shape, FREE, np.int32) for _ in range(2)] for _ in half_widths]
        self.via_owner = np.full(shape, FREE, np.int32)
        self.holes = np.zeros(shape, bool)
        self.pads = pads
        #: Cells already joined to a pad by an escape (pad id → cells), start points for its net.
        self.extra: dict[int, set[tuple[int, int, int]]] = {}
        #: Areas kept for the nets of one part (a multiplexer's fan-out): (cells, nets).
        self.reserved: list[tuple[np.ndarray, frozenset[int]]] = []
        gx = self.x0 + np.arange(self.nx) * PITCH
        gy = self.y0 + np.arange(self.ny) * PITCH
        self.gx, self.gy = np.meshgrid(gx, gy)
        # Outside the outline, or too near it: closed to everyone.
        poly = np.array(outline, float)
        inside = _polygon_distance(self.gx, self.gy, poly) == 0.0
        edge_dist = self._edge_distance(poly)
        for w, half in enumerate(half_widths):
            closed = ~inside | (edge_dist < EDGE + half)
            for layer in range(2):
                self.owner[w][layer][closed] = TAKEN
        self.via_owner[~inside | (edge_dist < EDGE + VIA_DIAMETER / 2)] = TAKEN
        for pad in pads:
            self._mark_polygon(pad)

    def _edge_distance(self, poly: np.ndarray) -> np.ndarray:
        x1, y1 = poly[:, 0], poly[:, 1]
        x2, y2 = np.roll(x1, -1), np.roll(y1, -1)
        out = np.full(self.gx.shape, np.inf)
        for i in range(len(poly)):
            dx, dy = x2[i] - x1[i], y2[i] - y1[i]
            length2 = max(dx * dx + dy * dy, 1e-12)
            t = np.clip(((self.gx - x1[i]) * dx + (self.gy - y1[i]) * dy) / length2, 0, 1)
            d = np.hypot(self.gx - (x1[i] + t * dx), self.gy - (y1[i] + t * dy))
            out = np.minimum(out, d)
        return out

    # -- cells -------------------------------------------------------------------------------
    def reserve(self, box: tuple[float, float, float, float], nets: frozenset[int]) -> None:
        """Keep the cells in ``box`` (x0, y0, x1, y1) for ``nets``: other nets go round."""
        mask = (self.gx >= box[0]) & (self.gx <= box[2]) & (self.gy >= box[1]) & (self.gy <= box[3])
        self.reserved.append((mask, nets))

    def closed_to(self, net: int) -> np.ndarray:
        """Cells a net may not use because another part keeps them."""
        closed = np.zeros((self.ny, self.nx), bool)
        for mask, nets in self.reserved:
            if net not in nets:
                closed |= mask
        return closed

    def cell(self, x: float, y: float) -> tuple[int, int]:
        """(row, column) of the grid point nearest (x, y)."""
        return int(round((y - self.y0) / PITCH)), int(round((x - self.x0) / PITCH))

    def point(self, iy: int, ix: int) -> tuple[float, float]:
        """The board position of a grid point."""
        return (round(self.x0 + ix * PITCH, 4), round(self.y0 + iy * PITCH, 4))

    @staticmethod
    def _merge(target: np.ndarray, mask: np.ndarray, net: int) -> None:
        current = target[mask]
        target[mask] = np.where((current == FREE) | (current == net), net, TAKEN)

    def _window(self, cx: float, cy: float, reach: float) -> tuple[slice, slice]:
        r0 = max(0, int((cy - reach - self.y0) / PITCH) - 1)
        r1 = min(self.ny, int((cy + reach - self.y0) / PITCH) + 2)
        c0 = max(0, int((cx - reach - self.x0) / PITCH) - 1)
        c1 = min(self.nx, int((cx + reach - self.x0) / PITCH) + 2)
        return slice(r0, r1), slice(c0, c1)

    def _mark_polygon(self, pad: Pad) -> None:
        poly = np.array(pad.polygon, float)
        size = float(np.max(np.hypot(poly[:, 0] - pad.centre[0], poly[:, 1] - pad.centre[1])))
        reach = size + CLEARANCE + HOLE_EXTRA + max(max(self.half_widths), VIA_DIAMETER / 2) + PITCH
        rows, cols = self._window(pad.centre[0], pad.centre[1], reach)
        dist = _polygon_distance(self.gx[rows, cols], self.gy[rows, cols], poly)
        if pad.drill:
            dist = dist - HOLE_EXTRA
        for w, half in enumerate(self.half_widths):
            mask = dist < CLEARANCE + half
            for layer in pad.layers:
                self._merge(self.owner[w][layer][rows, cols], mask, pad.net)
        self._merge(self.via_owner[rows, cols], dist < CLEARANCE + VIA_DIAMETER / 2, pad.net)
        if pad.drill:
            centre = np.hypot(
                self.gx[rows, cols] - pad.centre[0], self.gy[rows, cols] - pad.centre[1]
            )
            hole = self.holes[rows, cols]
            hole |= centre < pad.drill / 2 + HOLE_GAP + VIA_DRILL / 2
            # A via never lands inside a through-hole pad of any net.
            self.via_owner[rows, cols][dist <= 0.0] = TAKEN

    def terminals(self, pad: Pad, w: int) -> list[tuple[int, int, int]]:
        """(layer, row, column) cells inside ``pad`` a track of its net may start from."""
        poly = np.array(pad.polygon, float)
        rows, cols = self._window(pad.centre[0], pad.centre[1], 3.0)
        dist = _polygon_distance(self.gx[rows, cols], self.gy[rows, cols], poly)
        out = []
        for layer in pad.layers:
            own = self.owner[w][layer][rows, cols]
            ok = (dist == 0.0) & ((own == FREE) | (own == pad.net))
            for r, c in zip(*np.nonzero(ok), strict=True):
                out.append((layer, int(r + rows.start), int(c + cols.start)))
        return out

    def commit(
        self, route: Route, cells: set[tuple[int, int, int]], vias: set[tuple[int, int]]
    ) -> None:
        """Mark a laid route's copper so later nets keep clear of it."""
        half = route.width / 2
        for layer in range(2):
            mask = np.zeros((self.ny, self.nx), bool)
            for ly, r, c in cells:
                if ly == layer:
                    mask[r, c] = True
            for r, c in vias:
                mask[r, c] = True
            if not mask.any():
                continue
            for w, other in enumerate(self.half_widths):
                for radius, source in ((CLEARANCE + half + other, mask),):
                    grown = ndimage.binary_dilation(source, _disk(radius / PITCH - 1e-6))
                    self._merge(self.owner[w][layer], grown, route.net)
            # Vias of other nets keep clear of this layer's copper too.
            grown = ndimage.binary_dilation(
                mask, _disk((CLEARANCE + half + VIA_DIAMETER / 2) / PITCH - 1e-6)
            )
            self._merge(self.via_owner, grown, route.net)
        if vias:
            mask = np.zeros((self.ny, self.nx), bool)
            for r, c in vias:
                mask[r, c] = True
            # Via copper is wider than the track the cells were marked for.
            for w, other in enumerate(self.half_widths):
                grown = ndimage.binary_dilation(
                    mask, _disk((CLEARANCE + VIA_DIAMETER / 2 + other) / PITCH - 1e-6)
                )
                for layer in range(2):
                    self._merge(self.owner[w][layer], grown, route.net)
            grown = ndimage.binary_dilation(mask, _disk((CLEARANCE + VIA_DIAMETER) / PITCH - 1e-6))
            self._merge(self.via_owner, grown, route.net)
            self.holes |= ndimage.binary_dilation(
                mask, _disk((HOLE_GAP + VIA_DRILL) / PITCH - 1e-6)
            )


def _reachable(
    grid: Grid,
    net: int,
    w: int,
    sources: set[tuple[int, int, int]],
    targets: set[tuple[int, int, int]],
    window: tuple[int, int, int, int],
) -> bool:
    """Whether any target lies in the same connected region as a source, inside ``window``.

    The two layers are stacked with a middle plane of the cells where a via may
    stand, so connected-component labelling sees the vias as the only way between them.
    """
    r0, r1, c0, c1 = window
    f = grid.owner[w][0][r0:r1, c0:c1]
    b = grid.owner[w][1][r0:r1, c0:c1]
    v = grid.via_owner[r0:r1, c0:c1]
    open_ = ~grid.closed_to(net)[r0:r1, c0:c1]
    front = ((f == FREE) | (f == net)) & open_
    back = ((b == FREE) | (b == net)) & open_
    via = ((v == FREE) | (v == net)) & ~grid.holes[r0:r1, c0:c1] & front & back
    labels, _ = ndimage.label(np.stack([front, via, back]))
    plane = {0: 0, 1: 2}
    found = {
        int(labels[plane[ly], r - r0, c - c0])
        for ly, r, c in sources
        if r0 <= r < r1 and c0 <= c < c1
    }
    found.discard(0)
    return any(
        int(labels[plane[ly], r - r0, c - c0]) in found
        for ly, r, c in targets
        if r0 <= r < r1 and c0 <= c < c1
    )


def _search(
    grid: Grid,
    net: int,
    w: int,
    sources: set[tuple[int, int, int]],
    targets: set[tuple[int, int, int]],
    window: tuple[int, int, int, int],
) -> list[tuple[int, int, int]]:
    """A* from any source cell to any target cell; the path, source to target.

    A node is ``layer * cells + row * columns + column`` (an int, for speed).
    """
    nx = grid.nx
    n = grid.nx * grid.ny
    r0, r1, c0, c1 = window
    if not _reachable(grid, net, w, sources, targets, window):
        raise Unroutable  # cheap: a failing A* would search every cell it can reach
    step_cost = (1.0, OTHER_LAYER_COST) if grid.parts_layer == 0 else (OTHER_LAYER_COST, 1.0)
    own0, own1 = grid.owner[w][0], grid.owner[w][1]
    open_ = ~grid.closed_to(net)
    usable = ((((own0 == FREE) | (own0 == net)) & open_).ravel().tolist()) + (
        (((own1 == FREE) | (own1 == net)) & open_).ravel().tolist()
    )
    vown = grid.via_owner
    via_ok = (((vown == FREE) | (vown == net)) & ~grid.holes).ravel().tolist()
    goal = {ly * n + r * nx + c for ly, r, c in targets}
    tr = sum(r for _, r, _ in targets) / len(targets)
    tc = sum(c for _, _, c in targets) / len(targets)
    spread = max(abs(r - tr) + abs(c - tc) for _, r, c in targets)
    best: dict[int, float] = {}
    came: dict[int, int] = {}
    heap: list[tuple[float, float, int]] = []
    for ly, r, c in sources:
        node = ly * n + r * nx + c
        best[node] = 0.0
        came[node] = -1
        heapq.heappush(heap, (GREED * max(abs(r - tr) + abs(c - tc) - spread, 0.0), 0.0, node))
    push, pop = heapq.heappush, heapq.heappop
    inf = math.inf
    while heap:
        _, g, node = pop(heap)
        if g > best.get(node, inf) + 1e-9:
            continue
        if node in goal:
            path = []
            while node != -1:
                ly, idx = divmod(node, n)
                path.append((ly, idx // nx, idx % nx))
                node = came[node]
            return path[::-1]
        ly, idx = divmod(node, n)
        r, c = divmod(idx, nx)
        parent = came[node]
        pstep = node - parent if parent != -1 and parent // n == ly else 0
        for step, nr, nc in ((1, r, c + 1), (-1, r, c - 1), (nx, r + 1, c), (-nx, r - 1, c)):
            if not (r0 <= nr < r1 and c0 <= nc < c1):
                continue
            nnode = node + step
            if not usable[nnode]:
                continue
            cost = g + step_cost[ly] + (TURN_COST if pstep and pstep != step else 0.0)
            if cost < best.get(nnode, inf) - 1e-9:
                best[nnode] = cost
                came[nnode] = node
                hval = abs(nr - tr) + abs(nc - tc) - spread
                push(heap, (cost + (GREED * hval if hval > 0 else 0.0), cost, nnode))
        if via_ok[idx]:
            onode = (1 - ly) * n + idx
            if usable[onode]:
                cost = g + VIA_COST
                if cost < best.get(onode, inf) - 1e-9:
                    best[onode] = cost
                    came[onode] = node
                    hval = abs(r - tr) + abs(c - tc) - spread
                    push(heap, (cost + (GREED * hval if hval > 0 else 0.0), cost, onode))
    raise Unroutable


def _segments(grid: Grid, path: list[tuple[int, int, int]]) -> tuple[list, list]:
    """Straight runs and vias of a cell path."""
    segments = []
    vias = []
    start = path[0]
    prev = path[0]
    direction = None
    for cell in path[1:]:
        if cell[0] != prev[0]:
            if start != prev:
                segments.append(
                    (prev[0], grid.point(start[1], start[2]), grid.point(prev[1], prev[2]))
                )
            vias.append(grid.point(cell[1], cell[2]))
            start, prev, direction = cell, cell, None
            continue
        step = (cell[1] - prev[1], cell[2] - prev[2])
        if direction is not None and step != direction:
            segments.append((prev[0], grid.point(start[1], start[2]), grid.point(prev[1], prev[2])))
            start = prev
        direction = step
        prev = cell
    if start != prev:
        segments.append((prev[0], grid.point(start[1], start[2]), grid.point(prev[1], prev[2])))
    return segments, vias


def _prim_order(points: list[tuple[float, float]]) -> list[int]:
    """Indices 1… in the order Prim's algorithm adds them to a spanning tree from point 0:
    each next pad is the one nearest to a pad already joined."""
    joined = [0]
    rest = list(range(1, len(points)))
    dist = {i: math.dist(points[0], points[i]) for i in rest}
    order = []
    while rest:
        nearest = min(rest, key=lambda i: (dist[i], i))
        rest.remove(nearest)
        order.append(nearest)
        joined.append(nearest)
        for i in rest:
            dist[i] = min(dist[i], math.dist(points[nearest], points[i]))
    return order


def escape(
    grid: Grid, pad: Pad, w: int, width: float, direction: tuple[int, int], length: int
) -> Escape | None:
    """A short track straight out of a fine-pitch pad and a via at its end, laid before the
    signals so they cannot box the pad in (None when the way out is taken)."""
    r, c = grid.cell(*pad.centre)
    dr, dc = direction
    cells = [(0 if 0 in pad.layers else 1, r + dr * k, c + dc * k) for k in range(length + 1)]
    layer = cells[0][0]
    for _, rr, cc in cells:
        if not (0 <= rr < grid.ny and 0 <= cc < grid.nx):
            return None
        own = grid.owner[w][layer][rr, cc]
        if own not in (FREE, pad.net):
            return None
    end = cells[-1]
    vown = grid.via_owner[end[1], end[2]]
    if vown not in (FREE, pad.net) or grid.holes[end[1], end[2]]:
        return None
    route = Route(pad.net, width)
    grid.commit(route, set(cells), {(end[1], end[2])})
    grid.extra.setdefault(id(pad), set()).update(cells + [(1 - layer, end[1], end[2])])
    return Escape(pad.net, cells, (end[1], end[2]))


def drop(
    grid: Grid, pad: Pad, w: int, width: float, toward: tuple[float, float] | None = None
) -> Route | None:
    """A via beside ``pad`` (a short track on the pad's layer to it): the pad joins the
    pour or plane of its net on the other layer. The via goes as near ``toward`` (default:
    the pad's centre) as it fits. None if nothing fits."""
    layer = pad.layers[0]
    r, c = grid.cell(*pad.centre)
    tr, tc = grid.cell(*(toward or pad.centre))
    reach = int(2.0 / PITCH)
    starts = [(ly, rr, cc) for ly, rr, cc in grid.terminals(pad, w) if ly == layer]
    if not starts:
        return None
    best = None
    for dr in range(-reach, reach + 1):
        for dc in range(-reach, reach + 1):
            rr, cc = r + dr, c + dc
            if not (0 <= rr < grid.ny and 0 <= cc < grid.nx):
                continue
            if grid.via_owner[rr, cc] not in (FREE, pad.net) or grid.holes[rr, cc]:
                continue
            if grid.owner[w][1 - layer][rr, cc] not in (FREE, pad.net):
                continue
            d = abs(rr - tr) + abs(cc - tc)
            if best is None or d < best[0]:
                best = (d, rr, cc)
    if best is None:
        return None
    _, vr, vc = best
    try:
        path = _search(
            grid,
            pad.net,
            w,
            set(starts),
            {(layer, vr, vc)},
            (
                max(0, r - reach - 2),
                min(grid.ny, r + reach + 3),
                max(0, c - reach - 2),
                min(grid.nx, c + reach + 3),
            ),
        )
    except Unroutable:
        return None
    if any(ly != layer for ly, _, _ in path):
        return None
    route = Route(pad.net, width)
    segs, _ = _segments(grid, path)
    route.segments += segs
    route.vias.append(grid.point(vr, vc))
    route.cells.update(path)
    route.cells.add((1 - layer, vr, vc))
    grid.commit(route, set(path), {(vr, vc)})
    return route


def route_net(
    grid: Grid,
    net: int,
    w: int,
    width: float,
    pads: list[Pad],
    margin_mm: float = 12.0,
    poured: bool = False,
) -> Route:
    """Connect every pad of ``net`` as one tree; commit its copper to the grid.

    ``poured``: the net has a pour on both layers (ground), so a pad the tree
    cannot reach is dropped to the pour through a via beside it instead.
    """
    route = Route(net, width)
    terminals = [set(grid.terminals(p, w)) | grid.extra.get(id(p), set()) for p in pads]
    for p, cells in zip(pads, terminals, strict=True):
        if not cells:
            raise Unroutable(f"pad at {p.centre} has no free cell inside it")
    tree = set(terminals[0])
    rows = [r for cells in terminals for _, r, _ in cells]
    cols = [c for cells in terminals for _, _, c in cells]
    m = int(margin_mm / PITCH)
    for nearest in _prim_order([p.centre for p in pads]):
        if terminals[nearest] & tree:
            continue
        path = None
        for grow in (m, 4 * m, 10**6):
            window = (
                max(0, min(rows) - grow), min(grid.ny, max(rows) + grow + 1),
                max(0, min(cols) - grow), min(grid.nx, max(cols) + grow + 1),
            )  # fmt: skip
            try:
                path = _search(grid, net, w, tree, terminals[nearest], window)
                break
            except Unroutable:
                continue
        if path is None:
            dropped = drop(grid, pads[nearest], w, width) if poured else None
            if dropped is None:
                raise Unroutable(f"net {net}: no path to the pad at {pads[nearest].centre}")
            route.segments += dropped.segments
            route.vias += dropped.vias
            route.cells |= dropped.cells
            continue
        segs, vias = _segments(grid, path)
        route.segments += segs
        route.vias += vias
        tree.update(path)
        route.cells.update(path)
        tree |= terminals[nearest]
        # Commit as we go, so this net's own later branches see their vias' hole gaps.
        grid.commit(route, {(ly, r, c) for ly, r, c in path}, {grid.cell(x, y) for x, y in vias})
    return route
