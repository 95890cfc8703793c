"""Build one kind of PCB as a KiCad board: outline, footprints, routed copper, ground pours.

:func:`build` takes a :class:`.layout.Layout`, loads each footprint from the
project's own library, gives every pad its net from the kind's circuit,
routes every net with :mod:`.router`, pours ground on both layers and fills
the pours. :func:`save` writes the ``.kicad_pcb`` (and the project file that
carries its design rules) with every random id replaced by one derived from
the board's name and the item's place in the file, so a regenerated board is
byte-for-byte the same when nothing changed.

The design rules are a hobby fab's standard ones with room to spare:
0.15 mm clearance and track, 0.6/0.3 mm vias, 0.3 mm copper to edge (JLCPCB,
PCBWay and Aisler all make 0.127 mm tracks and gaps, 0.3 mm drills).
"""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lawmaster.hardware.electronics.footprints import LIBRARY, NICKNAME
from lawmaster.hardware.electronics.parts import spec_of
from lawmaster.hardware.electronics.pieces import RAIL_FILTER_INDUCTOR
from lawmaster.hardware.sensor_map import SensorMap

from . import kicad
from .layout import BACK, Layout, snap
from .router import (
    VIA_DIAMETER,
    VIA_DRILL,
    Escape,
    Grid,
    Pad,
    Route,
    Unroutable,
    drop,
    escape,
    route_net,
)

#: Design rules written into every board (mm).
RULES = {
    "clearance": 0.15,
    "track_min": 0.15,
    "via_min_diameter": 0.5,
    "via_min_drill": 0.3,
    "hole_to_hole": 0.25,
    "copper_to_edge": 0.3,
    "annular_min": 0.1,
}
SIGNAL_WIDTH, POWER_WIDTH = 0.15, 0.4
POWER_NETS = ("+3V3", "+3V3_BUCK", "GND", "+12V", "+12V_RAW", "+12V_FUSED")
#: The board's top-left corner sits here on KiCad's page (mm).
MARGIN = 10.0
GROUND = "GND"


@dataclass
class Built:
    """A built board and what the checks need of it."""

    board: Any
    offset: tuple[float, float]
    routes: list[Route]


def _mm(pcbnew: Any, x: float, y: float) -> Any:
    return pcbnew.wxPointMM(float(x), float(y))


def _value(lay: Layout, key: str) -> str:
    if key == "drv5055" and lay.board:
        return SensorMap.load(lay.board).sensor.part
    return spec_of(key).value


def _rules(pcbnew: Any, board: Any) -> None:
    ds = board.GetDesignSettings()
    ds.m_MinClearance = pcbnew.FromMM(RULES["clearance"])
    ds.m_TrackMinWidth = pcbnew.FromMM(RULES["track_min"])
    ds.m_ViasMinSize = pcbnew.FromMM(RULES["via_min_diameter"])
    ds.m_MinThroughDrill = pcbnew.FromMM(RULES["via_min_drill"])
    ds.m_HoleToHoleMin = pcbnew.FromMM(RULES["hole_to_hole"])
    ds.m_CopperEdgeClearance = pcbnew.FromMM(RULES["copper_to_edge"])
    ds.m_ViasMinAnnularWidth = pcbnew.FromMM(RULES["annular_min"])
    default = ds.GetNetClasses().GetDefault()
    default.SetClearance(pcbnew.FromMM(RULES["clearance"]))
    default.SetTrackWidth(pcbnew.FromMM(SIGNAL_WIDTH))
    default.SetViaDiameter(pcbnew.FromMM(VIA_DIAMETER))
    default.SetViaDrill(pcbnew.FromMM(VIA_DRILL))


def _outline(pcbnew: Any, board: Any, points: list[tuple[float, float]]) -> None:
    for a, b in zip(points, points[1:] + points[:1], strict=True):
        edge = pcbnew.PCB_SHAPE(board)
        edge.SetShape(pcbnew.SHAPE_T_SEGMENT)
        edge.SetStart(_mm(pcbnew, *a))
        edge.SetEnd(_mm(pcbnew, *b))
        edge.SetLayer(pcbnew.Edge_Cuts)
        edge.SetWidth(pcbnew.FromMM(0.1))
        board.Add(edge)


def _pads(pcbnew: Any, board: Any, index: dict[str, int]) -> list[Pad]:
    pads = []
    for fp in board.GetFootprints():
        for pad in fp.Pads():
            layers = tuple(
                i for i, layer in enumerate((pcbnew.F_Cu, pcbnew.B_Cu)) if pad.IsOnLayer(layer)
            )
            if not layers:
                continue
            name = pad.GetNetname()
            net = index.get(name, -10 - len(pads))  # an unconnected pad: a net of its own
            poly = pad.GetEffectivePolygon().Outline(0)
            points = tuple(
                (poly.CPoint(i).x / 1e6, poly.CPoint(i).y / 1e6) for i in range(poly.PointCount())
            )
            centre = pad.GetPosition()
            drill = pad.GetDrillSize().x / 1e6 if pad.GetAttribute() != pcbnew.PAD_ATTRIB_SMD else 0
            pads.append(Pad(net, layers, points, (centre.x / 1e6, centre.y / 1e6), drill))
    return pads


#: Routing orders tried in turn until every net finds its way (see `_order`).
ORDERS = ("signals-first", "supply-first", "supply-and-ground-first")


def _order(nets: list[str], pads: list[Pad], index: dict[str, int], how: str) -> list[str]:
    """The order nets are routed in: signals (shortest first), the supply, ground.

    "signals-first" lets the short sensor-to-multiplexer lines take the straight
    ways; where the supply's tree then cannot reach a pad, "supply-first" and
    "supply-and-ground-first" give the supply (and ground) the first pick.
    """

    def span(name: str) -> float:
        own = [p.centre for p in pads if p.net == index[name]]
        xs = [x for x, _ in own]
        ys = [y for _, y in own]
        return (max(xs) - min(xs)) + (max(ys) - min(ys))

    signals = sorted((n for n in nets if n not in POWER_NETS), key=lambda n: (span(n), n))
    power = [n for n in POWER_NETS if n in nets and n != GROUND]
    ground = [GROUND] if GROUND in nets else []
    if how == "supply-first":
        return power + signals + ground
    if how == "supply-and-ground-first":
        return power + ground + signals
    return signals + power + ground


def make(lay: Layout, path: Path, name: str) -> list[Path]:
    """Build, route, pour and save one kind of PCB to ``path``; returns the files written.

    The routing orders of :data:`ORDERS` are tried in turn until one connects
    every pad, counting the ground pours once KiCad has filled them.
    """
    failures = []
    for how in ORDERS:
        first: list[str] = []
        for _ in range(ATTEMPTS):
            try:
                built = build(lay, how, tuple(first))
            except Unroutable as why:
                failures.append(f"{how} {first}: {why}")
                blocked = getattr(why, "net_name", None)
                if blocked is None or blocked in first:
                    break
                first.insert(0, blocked)  # rip everything up; the net that failed goes first
                continue
            written, unconnected = save(built, path, name)
            if unconnected == 0:
                return written
            failures.append(f"{how}: {unconnected} pad(s) unconnected once the pours were filled")
            break
    raise Unroutable(f"{lay.board or 'scanner'}/{lay.kind}: " + "; ".join(failures))


#: Rip-up-and-retry rounds per routing order: each round routes the nets that failed so far
#: before all others.
ATTEMPTS = 6


def build(lay: Layout, how: str = ORDERS[0], first: tuple[str, ...] = ()) -> Built:
    """The KiCad board of one kind of PCB, routed with the nets in order ``how`` (the nets in
    ``first`` before all others)."""
    return _build(lay, how, first)


def _build(lay: Layout, how: str, first: tuple[str, ...]) -> Built:
    pcbnew = kicad.require()
    board = pcbnew.BOARD()
    _rules(pcbnew, board)
    xs = [p[0] for p in lay.outline]
    ys = [p[1] for p in lay.outline]
    ox, oy = snap(MARGIN - min(xs)), snap(MARGIN - min(ys))

    def at(x: float, y: float) -> tuple[float, float]:
        return (round(x + ox, 4), round(y + oy, 4))

    nets: dict[str, Any] = {}
    for name in lay.circuit.nets:
        info = pcbnew.NETINFO_ITEM(board, name)
        board.Add(info)
        nets[name] = info
    outline = [at(x, y) for x, y in lay.outline]
    _outline(pcbnew, board, outline)
    for part in lay.parts:
        fp = pcbnew.FootprintLoad(str(LIBRARY), part.footprint)
        if fp is None:
            raise FileNotFoundError(f"{part.footprint} is not in {LIBRARY}")
        fp.SetFPID(pcbnew.LIB_ID(NICKNAME, part.footprint))
        fp.SetReference(part.ref)
        fp.SetValue(_value(lay, part.key))
        board.Add(fp)
        fp.SetPosition(_mm(pcbnew, *at(part.x, part.y)))
        fp.SetOrientationDegrees(part.rotation)
        if part.side == BACK:
            fp.Flip(fp.GetPosition(), True)
        local = dict(lay.circuit.part(part.ref).pins)
        for pad in fp.Pads():
            net = local.get(pad.GetNumber())
            if net is not None:
                pad.SetNet(nets[net])
    for i, (x, y) in enumerate(lay.holes):
        fp = pcbnew.FootprintLoad(str(LIBRARY), "MountingHole_3.2mm_M3")
        fp.SetFPID(pcbnew.LIB_ID(NICKNAME, "MountingHole_3.2mm_M3"))
        fp.SetReference(f"MH{i + 1}")
        fp.SetValue("M3")
        board.Add(fp)
        fp.SetPosition(_mm(pcbnew, *at(x, y)))
    for text, x, y, side in lay.notes:
        note = pcbnew.PCB_TEXT(board)
        note.SetText(text)
        note.SetPosition(_mm(pcbnew, *at(x, y)))
        note.SetLayer(pcbnew.B_SilkS if side == BACK else pcbnew.F_SilkS)
        note.SetTextSize(pcbnew.wxSizeMM(1.2, 1.2))
        note.SetTextThickness(pcbnew.FromMM(0.18))
        if side == BACK:
            note.SetMirrored(True)
        board.Add(note)
    _tidy_silk(pcbnew, board, outline)
    routes = _route(pcbnew, board, lay, nets, outline, how, first)
    _pour(
        pcbnew,
        board,
        nets,
        outline,
        [(n, side, [at(x, y) for x, y in poly]) for n, side, poly in lay.planes],
    )
    return Built(board, (ox, oy), routes)


Box = tuple[float, float, float, float]


def _box(rect: Any, grow: float = 0.0) -> Box:
    return (
        rect.GetX() / 1e6 - grow,
        rect.GetY() / 1e6 - grow,
        (rect.GetX() + rect.GetWidth()) / 1e6 + grow,
        (rect.GetY() + rect.GetHeight()) / 1e6 + grow,
    )


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


#: Silkscreen keeps this far from pads and other silkscreen (KiCad's default silk checks).
SILK_GAP = 0.2


def _tidy_silk(pcbnew: Any, board: Any, outline: list[tuple[float, float]]) -> None:
    """Put every reference upright beside its part where it covers no pad and no other
    silkscreen; hide it (it stays on the fab drawing) where nothing is free."""
    xs = [x for x, _ in outline]
    ys = [y for _, y in outline]
    inner: Box = (min(xs) + 0.5, min(ys) + 0.5, max(xs) - 0.5, max(ys) - 0.5)
    obstacles: dict[bool, list[Box]] = {False: [], True: []}
    for fp in board.GetFootprints():
        for pad in fp.Pads():
            for back in (False, True):
                if pad.IsOnLayer(pcbnew.B_Cu if back else pcbnew.F_Cu):
                    obstacles[back].append(_box(pad.GetBoundingBox(), SILK_GAP))
        for item in fp.GraphicalItems():
            if (
                item.GetLayer() in (pcbnew.F_SilkS, pcbnew.B_SilkS)
                and item.GetClass() == "MGRAPHIC"
            ):
                obstacles[item.GetLayer() == pcbnew.B_SilkS].append(
                    _box(item.GetBoundingBox(), SILK_GAP)
                )
    for fp in board.GetFootprints():
        ref = fp.Reference()
        if not ref.IsVisible():
            continue
        back = fp.IsFlipped()
        ref.SetTextAngle(-fp.GetOrientation())
        x0, y0, x1, y1 = _box(fp.GetBoundingBox(False, False))
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        ref.SetPosition(pcbnew.wxPoint(int(cx * 1e6), int(cy * 1e6)))
        tw, th = (
            v / 1e6 for v in (ref.GetBoundingBox().GetWidth(), ref.GetBoundingBox().GetHeight())
        )
        candidates = [
            (cx, y0 - th / 2 - 0.3), (cx, y1 + th / 2 + 0.3),
            (x0 - tw / 2 - 0.3, cy), (x1 + tw / 2 + 0.3, cy),
        ]  # fmt: skip
        for x, y in candidates:
            ref.SetPosition(pcbnew.wxPoint(int(round(x * 1e6)), int(round(y * 1e6))))
            box = _box(ref.GetBoundingBox())
            inside = (
                inner[0] <= box[0]
                and box[2] <= inner[2]
                and inner[1] <= box[1]
                and box[3] <= inner[3]
            )
            if inside and not any(_overlaps(box, o) for o in obstacles[back]):
                obstacles[back].append(_box(ref.GetBoundingBox(), SILK_GAP))
                break
        else:
            ref.SetVisible(False)


def _route(
    pcbnew: Any,
    board: Any,
    lay: Layout,
    nets: dict[str, Any],
    outline: list[tuple[float, float]],
    how: str,
    first: tuple[str, ...] = (),
) -> list[Route]:
    names = sorted(nets)
    index = {name: i for i, name in enumerate(names)}
    pads = _pads(pcbnew, board, index)
    # Routes keep to the face the multiplexers and connectors are on (the back, on the flat
    # boards' pieces; the front, on GW's and the scanner).
    back = sum(1 for p in lay.parts if p.side == BACK and p.key != "drv5055")
    front = sum(1 for p in lay.parts if p.side != BACK and p.key not in ("drv5055", "c100n"))
    grid = Grid(outline, pads, (SIGNAL_WIDTH / 2, POWER_WIDTH / 2), 1 if back > front else 0)
    _reserve_fanout(board, grid, index)
    escapes = _escapes(pcbnew, board, grid, pads, index)
    routes = _plane_drops(pcbnew, board, lay, grid, pads, index, nets)
    order = _order(names, pads, index, how)
    order = [n for n in first if n in order] + [n for n in order if n not in first]
    for name in order:
        own = [p for p in pads if p.net == index[name]]
        if len(own) < 2:
            continue
        power = name in POWER_NETS
        try:
            route = route_net(
                grid,
                index[name],
                1 if power else 0,
                POWER_WIDTH if power else SIGNAL_WIDTH,
                own,
                poured=name == GROUND,
            )
        except Unroutable as why:
            failed = Unroutable(f"{lay.board or 'scanner'}/{lay.kind}: {name}: {why}")
            failed.net_name = name  # type: ignore[attr-defined]
            raise failed from why
        routes.append(route)
        _lay(pcbnew, board, route, nets[name])
    # The fan-out a route did not use is left out: no via connected on one side only.
    used = {r.net: r.cells for r in routes}
    for esc in escapes:
        reach, via_used = esc.used_part(used.get(esc.net, set()))
        if reach == 0:
            continue
        part = Route(esc.net, SIGNAL_WIDTH)
        start, end = esc.cells[0], esc.cells[reach]
        part.segments.append((start[0], grid.point(start[1], start[2]), grid.point(end[1], end[2])))
        if via_used:
            part.vias.append(grid.point(*esc.via))
        _lay(pcbnew, board, part, nets[names[esc.net]])
        routes.append(part)
    return routes


def _lay(pcbnew: Any, board: Any, route: Route, net: Any) -> None:
    """Add a route's tracks and vias to the board."""
    for layer, a, b in route.segments:
        track = pcbnew.PCB_TRACK(board)
        track.SetStart(_mm(pcbnew, *a))
        track.SetEnd(_mm(pcbnew, *b))
        track.SetWidth(pcbnew.FromMM(route.width))
        track.SetLayer(pcbnew.F_Cu if layer == 0 else pcbnew.B_Cu)
        track.SetNet(net)
        board.Add(track)
    for x, y in route.vias:
        via = pcbnew.PCB_VIA(board)
        via.SetPosition(_mm(pcbnew, x, y))
        via.SetWidth(pcbnew.FromMM(VIA_DIAMETER))
        via.SetDrill(pcbnew.FromMM(VIA_DRILL))
        via.SetLayerPair(pcbnew.F_Cu, pcbnew.B_Cu)
        via.SetNet(net)
        board.Add(via)


#: Round a multiplexer, this much (mm) beyond its pins and its capacitors is kept for its own
#: nets: its fan-out gets out before passing tracks can box a pin in.
FANOUT_MM = 2.6


def _reserve_fanout(board: Any, grid: Grid, index: dict[str, int]) -> None:
    for fp in board.GetFootprints():
        if not fp.GetFPID().GetLibItemName().wx_str().startswith("TSSOP"):
            continue
        nets = frozenset(index[p.GetNetname()] for p in fp.Pads() if p.GetNetname() in index)
        x0, y0, x1, y1 = _box(fp.GetBoundingBox(False, False))
        grid.reserve((x0 - FANOUT_MM, y0 - FANOUT_MM, x1 + FANOUT_MM, y1 + FANOUT_MM), nets)


def _inside(point: tuple[float, float], poly: list[tuple[float, float]]) -> bool:
    x, y = point
    inside = False
    for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
            inside = not inside
    return inside


def _plane_drops(
    pcbnew: Any,
    board: Any,
    lay: Layout,
    grid: Grid,
    pads: list[Pad],
    index: dict[str, int],
    nets: dict[str, Any],
) -> list[Route]:
    """A via beside every supply and ground pin of a connector, down to its net's plane on
    the other face, laid before anything else: the chain's current crosses the piece in the
    plane, not in a thin track (``budget.copper``)."""
    xs = [p[0] for p in lay.outline]
    ys = [p[1] for p in lay.outline]
    ox, oy = snap(MARGIN - min(xs)), snap(MARGIN - min(ys))
    planes = {
        (name, 0 if side == "front" else 1): [(x + ox, y + oy) for x, y in poly]
        for name, side, poly in lay.planes
    }
    # The connectors' supply and ground pins: their vias go behind the pin, away from
    # the connector's body, where its own signal pins leave too.
    behind: dict[tuple[float, float], list[tuple[float, float]]] = {}
    for fp in board.GetFootprints():
        if fp.GetFPID().GetLibItemName().wx_str().startswith("JST_SH_"):
            centre = fp.GetPosition()
            for pad in fp.Pads():
                c = pad.GetPosition()
                dx, dy = (c.x - centre.x) / 1e6, (c.y - centre.y) / 1e6
                # The pins sit 2 mm behind the body's middle, across the row: go further that way.
                ux, uy = (0.0, dy / abs(dy)) if abs(dy) > abs(dx) / 3 else (dx / abs(dx), 0.0)
                behind[(round(c.x / 1e6, 4), round(c.y / 1e6, 4))] = [
                    (c.x / 1e6 + 1.6 * ux, c.y / 1e6 + 1.6 * uy)
                ]
        elif fp.GetReference() == RAIL_FILTER_INDUCTOR:
            # The rail filter's output carries the whole rail (over an ampere) down to the
            # supply plane: three vias in its pad, along the pad's long side.
            for pad in fp.Pads():
                if pad.GetNetname() != "+3V3":
                    continue
                c = pad.GetPosition()
                box = pad.GetBoundingBox()
                cx, cy = c.x / 1e6, c.y / 1e6
                along = (0.0, 1.0) if box.GetHeight() > box.GetWidth() else (1.0, 0.0)
                behind[(round(cx, 4), round(cy, 4))] = [
                    (cx + k * 1.8 * along[0], cy + k * 1.8 * along[1]) for k in (-1, 0, 1)
                ]
    names = {i: n for n, i in index.items()}
    routes = []
    for pad in pads:
        name = names.get(pad.net)
        if name not in ("+3V3", GROUND) or pad.drill or len(pad.layers) != 1:
            continue
        key = (round(pad.centre[0], 4), round(pad.centre[1], 4))
        if key not in behind:
            continue
        other = 1 - pad.layers[0]
        plane = [poly for (net, layer), poly in planes.items() if net == name and layer == other]
        if not any(_inside(pad.centre, poly) for poly in plane):
            continue
        for toward in behind[key]:
            route = drop(grid, pad, 1, POWER_WIDTH, toward)
            if route is None:
                continue
            grid.extra.setdefault(id(pad), set()).update(route.cells)
            _lay(pcbnew, board, route, nets[name])
            routes.append(route)
    return routes


#: Pads narrower than this (mm) are fine-pitch: every pin gets an escape first.
FINE_PITCH = 0.5
#: Escape lengths (grid cells) of alternate pins: the vias at their ends stand in two rows.
ESCAPE_SHORT, ESCAPE_LONG = 4, 7


def _escapes(
    pcbnew: Any, board: Any, grid: Grid, pads: list[Pad], index: dict[str, int]
) -> list[Escape]:
    """Fan-out: a track and via straight out of every fine-pitch pin (the multiplexers'),
    alternate pins short and long so the vias stand in two staggered rows, laid before
    anything else; each net then starts from its pins' vias on either layer."""
    routes = []
    centres = {}
    for fp in board.GetFootprints():
        c = fp.GetPosition()
        for pad in fp.Pads():
            p = pad.GetPosition()
            centres[(round(p.x / 1e6, 4), round(p.y / 1e6, 4))] = (c.x / 1e6, c.y / 1e6)
    for pad in pads:
        xs = [x for x, _ in pad.polygon]
        ys = [y for _, y in pad.polygon]
        w, h = max(xs) - min(xs), max(ys) - min(ys)
        if min(w, h) >= FINE_PITCH or pad.drill or pad.net < 0:
            continue
        cx, cy = centres[(round(pad.centre[0], 4), round(pad.centre[1], 4))]
        if h > w:
            direction = (1 if pad.centre[1] > cy else -1, 0)
            along = pad.centre[0] - cx
        else:
            direction = (0, 1 if pad.centre[0] > cx else -1)
            along = pad.centre[1] - cy
        long_one = round(along / 0.65) % 2 == 1
        # Signal width even for the supply pins: a multiplexer draws 160 µA at most, and a
        # wider track would not pass between its neighbours' staggered vias.
        route = escape(
            grid, pad, 0, SIGNAL_WIDTH, direction, ESCAPE_LONG if long_one else ESCAPE_SHORT
        )
        if route is not None:
            routes.append(route)
    return routes


def _pour(
    pcbnew: Any,
    board: Any,
    nets: dict[str, Any],
    outline: list[tuple[float, float]],
    planes: list[tuple[str, str, list[tuple[float, float]]]],
) -> None:
    """The supply planes of the layout, and ground poured over whatever face has none (all
    filled when the board is saved: see :func:`save`)."""
    if GROUND not in nets:
        return
    zones = [(name, side, poly, 1) for name, side, poly in planes]
    # Ground is poured over a face whose planes do not already give it ground: it fills
    # round any other plane there (those come first, at the higher priority).
    planned = {side for name, side, _ in planes if name == GROUND}
    for side in ("front", "back"):
        if side not in planned:
            zones.append((GROUND, side, outline, 0))
    for name, side, poly, priority in zones:
        zone = pcbnew.ZONE(board)
        zone.SetLayer(pcbnew.B_Cu if side == BACK else pcbnew.F_Cu)
        zone.SetNet(nets[name])
        zone.SetPriority(priority)
        shape = zone.Outline()
        shape.NewOutline()
        for x, y in poly:
            shape.Append(pcbnew.FromMM(x), pcbnew.FromMM(y))
        zone.SetLocalClearance(pcbnew.FromMM(0.3))
        zone.SetMinThickness(pcbnew.FromMM(0.25))
        zone.SetThermalReliefGap(pcbnew.FromMM(0.3))
        zone.SetThermalReliefSpokeWidth(pcbnew.FromMM(0.4))
        zone.SetPadConnection(pcbnew.ZONE_CONNECTION_THERMAL)
        board.Add(zone)


# -- byte-for-byte reproducible files ---------------------------------------------------------

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _children(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """(start, end) of every list directly inside the list spanning ``text[start:end]``."""
    out = []
    depth = 0
    i = start + 1
    quoted = False
    begin = 0
    while i < end - 1:
        ch = text[i]
        if quoted:
            if ch == "\\":
                i += 1
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch == "(":
            if depth == 0:
                begin = i
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                out.append((begin, i + 1))
        i += 1
    return out


def _without_ids(block: str) -> str:
    return _UUID.sub("", block)


#: Top-level board items in the order they are written back; each kind sorted by its text.
ITEMS = ("(footprint", "(gr_", "(segment", "(arc", "(via", "(zone", "(group", "(dimension")
#: Items inside a footprint that KiCad orders by their ids: its own texts, drawings and pads.
FOOTPRINT_ITEMS = (
    "(fp_text user", "(fp_line", "(fp_circle", "(fp_arc", "(fp_rect", "(fp_poly", "(pad",
)  # fmt: skip


def _resorted(text: str, spans: list[tuple[int, int]], blocks: list[str]) -> str:
    """``text`` with the blocks at ``spans`` (in order) replaced by ``blocks``."""
    out, last = [], 0
    for (a, b), new in zip(spans, blocks, strict=True):
        out.append(text[last:a])
        out.append(new)
        last = b
    out.append(text[last:])
    return "".join(out)


def canonical(text: str) -> str:
    """The board file with KiCad's UUID-dependent orders replaced by fixed ones.

    KiCad 6 writes footprints, drawings, tracks and vias (and the drawings and pads inside
    each footprint) in an order that falls back on their random UUIDs; here each kind is
    sorted by its own text (footprints by reference), so the file no longer depends on
    those ids. The items keep their kinds' places.
    """
    root = _children(text, -1, len(text) + 1)[0]
    items = [(a, b) for a, b in _children(text, *root) if text.startswith(ITEMS, a)]

    def reference(block: str) -> str:
        match = re.search(r'\(fp_text reference "([^"]*)"', block)
        return match.group(1) if match else ""

    def tidy(a: int, b: int) -> str:
        block = text[a:b]
        kids = [
            (x - a, y - a) for x, y in _children(text, a, b) if text.startswith(FOOTPRINT_ITEMS, x)
        ]
        if not kids:
            return block
        ordered = sorted(
            (block[x:y] for x, y in kids), key=lambda k: (k.startswith("(pad"), _without_ids(k))
        )
        return _resorted(block, kids, ordered)

    def key(block: str) -> tuple[int, str, str]:
        kind = next(i for i, prefix in enumerate(ITEMS) if block.startswith(prefix))
        return (kind, reference(block) if kind == 0 else "", _without_ids(block))

    blocks = sorted(
        (tidy(a, b) if text.startswith("(footprint", a) else text[a:b] for a, b in items), key=key
    )
    return _resorted(text, items, blocks)


def stable_ids(text: str, name: str) -> str:
    """Every UUID in ``text`` replaced, in order of first use, by one derived from ``name``."""
    seen: dict[str, str] = {}

    def swap(match: re.Match[str]) -> str:
        old = match.group(0)
        if old not in seen:
            seen[old] = str(uuid.uuid5(uuid.NAMESPACE_URL, f"lawmaster:{name}:{len(seen)}"))
        return seen[old]

    return _UUID.sub(swap, text)


def save(built: Built, path: Path, name: str) -> tuple[list[Path], int]:
    """Fill the pours and write ``path`` (.kicad_pcb) and its ``.kicad_pro``; returns the files
    written and how many connections KiCad's connectivity still misses."""
    pcbnew = kicad.require()
    path.parent.mkdir(parents=True, exist_ok=True)

    def fixed() -> None:
        path.write_text(stable_ids(canonical(path.read_text("utf-8")), name), "utf-8")

    pcbnew.SaveBoard(str(path), built.board)
    fixed()
    # KiCad 6 fills zones reliably only on a board it loaded itself (filling the board
    # built in memory crashes inside ZONE_FILLER): save, load, fill, save again.
    loaded = pcbnew.LoadBoard(str(path))
    pcbnew.ZONE_FILLER(loaded).Fill(loaded.Zones())
    loaded.BuildConnectivity()
    unconnected = loaded.GetConnectivity().GetUnconnectedCount()
    pcbnew.SaveBoard(str(path), loaded)
    fixed()
    written = [path]
    project = path.with_suffix(".kicad_pro")
    if project.exists():
        data = json.loads(project.read_text("utf-8"))
        project.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", "utf-8")
        written.append(project)
    local = path.with_suffix(".kicad_prl")
    if local.exists():
        local.unlink()  # per-user view state, nothing a builder needs
    return written, unconnected
