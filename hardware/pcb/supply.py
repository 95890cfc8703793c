"""The supply's copper, board-wide: how far the 3.3 V rail and ground sag at each sensor.

Every sensor draws up to 10 mA from the 3.3 V rail and returns it on ground.
Between the buck module on the scanner board and a sensor at the far end of a
chain that current flows through the scanner board's tracks, a connector
contact, a cable's wires, another contact, the piece's tracks, and so on down
the chain. This module takes the real copper of the generated boards:

* :func:`export` (at generation, with ``pcbnew``) writes each kind of PCB's
  +3V3 and ground tracks and vias as a graph (``<name>-supply.json`` beside its
  board: nodes, track segments with length, width and layer, vias, and the
  pads on each node);
* :func:`solve` (no KiCad needed) joins the pieces of a board through their
  cables (each wire: its length of 28 AWG copper and a JST SH contact at each
  end), injects every sensor's maximum current at its pins, and solves the
  network's node voltages (sparse nodal analysis) for the rail and for ground.

The supply planes and ground pours count too: each filled area is meshed at
:data:`MESH_MM` (one square of copper between neighbouring cells) and every
track, via and pad inside it joins the cell it sits in. Copper's resistance is
taken at the warmest the board runs (:data:`TEMPERATURE_C`).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components
from scipy.sparse.linalg import spsolve

from lawmaster.hardware.electronics.datasheet import figure as f
from lawmaster.hardware.electronics.pieces import (
    Plan,
    global_ref,
    kind_circuit,
    plan,
)
from lawmaster.hardware.electronics.pieces import (
    cables as plan_cables,
)

from . import kicad
from .specs import cables as cable_specs
from .specs import folder_of, name_of

ROOT = Path(__file__).resolve().parents[2]
NETS = ("+3V3", "GND")
#: The buck's own output on the scanner board, before the rail filter: exported too, for
#: the lead from the module to the filter's inductor (:func:`lead_ohm`).
BUCK_NET = "+3V3_BUCK"
#: Where each net's current comes from on the scanner board: the rail filter's inductor
#: (its output pin) for the rail, the buck module's ground pin for ground.
SOURCES = {"+3V3": ("L1", "2"), "GND": ("PS1", "2")}
#: Copper's resistance is taken at this temperature (°C): a warm room plus the board's rise.
TEMPERATURE_C = 45.0
#: A pad's centre is joined to the nearest track end inside it by nothing (0 Ω); a pad
#: reached only through the ground pour (a via beside it) through this much pour (mm).
POUR_STRIP_MM = 2.0
#: Cell size of the mesh the planes and pours are modelled with (mm).
MESH_MM = 1.0
#: A pad reaches the plane round it across its thermal gap (0.3 mm) and spokes: plane cells
#: this close to it are joined to it.
SPOKE_MM = 0.8


def _ohm_per_square() -> float:
    """Sheet resistance of the boards' outer copper at :data:`TEMPERATURE_C` (Ω/□)."""
    rho = f("copper.rho") * (1 + f("copper.tempco") * (TEMPERATURE_C - 20.0))
    return rho / f("copper.thickness")


def _via_ohm() -> float:
    """One via's barrel: 1.6 mm of copper tube, 0.3 mm bore, plated ``copper.plating`` thick."""
    rho = f("copper.rho") * (1 + f("copper.tempco") * (TEMPERATURE_C - 20.0))
    return rho * 1.6e-3 / (math.pi * 0.3e-3 * f("copper.plating"))


# -- export (generation time, pcbnew) ---------------------------------------------------------


def export(pcb: Path, out: Path) -> None:
    """Write the +3V3 and ground copper of board ``pcb`` as a graph to ``out`` (JSON)."""
    pcbnew = kicad.require()
    board = pcbnew.LoadBoard(str(pcb))
    data: dict[str, Any] = {}
    for net in (*NETS, BUCK_NET):
        points: dict[tuple[float, float, int], int] = {}

        def node(x: float, y: float, layer: int, points: dict = points) -> int:  # type: ignore[type-arg]
            key = (round(x, 4), round(y, 4), layer)
            if key not in points:
                points[key] = len(points)
            return points[key]

        segments = []
        for track in board.GetTracks():
            if track.GetNetname() != net:
                continue
            if track.GetClass() == "PCB_VIA":
                x, y = track.GetPosition().x / 1e6, track.GetPosition().y / 1e6
                segments.append(("via", node(x, y, 0), node(x, y, 1), 0.0, 0.0))
            else:
                layer = 0 if track.GetLayer() == pcbnew.F_Cu else 1
                a, b = track.GetStart(), track.GetEnd()
                segments.append(
                    ("track", node(a.x / 1e6, a.y / 1e6, layer), node(b.x / 1e6, b.y / 1e6, layer),
                     math.dist((a.x, a.y), (b.x, b.y)) / 1e6, track.GetWidth() / 1e6)
                )  # fmt: skip
        # A branch that joins a straight run in its middle: split the run there.
        coords = {i: k for k, i in points.items()}
        split = []
        for kind, i, j, length, width in segments:
            if kind != "track":
                split.append((kind, i, j, length, width))
                continue
            (x1, y1, layer), (x2, y2, _) = coords[i], coords[j]
            inner = []
            for k, (x, y, ly) in coords.items():
                if ly != layer or k in (i, j):
                    continue
                cross = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)
                if abs(cross) > 1e-6 * max(length, 1e-9) * 1e3:
                    continue
                t = ((x - x1) * (x2 - x1) + (y - y1) * (y2 - y1)) / max(length * length, 1e-12)
                if 1e-9 < t < 1 - 1e-9:
                    inner.append((t, k))
            chain = [i] + [k for _, k in sorted(inner)] + [j]
            for a, b in zip(chain, chain[1:], strict=False):
                pa, pb = coords[a], coords[b]
                split.append(("track", a, b, math.dist(pa[:2], pb[:2]), width))
        pads = {}
        for fp in board.GetFootprints():
            for pad in fp.Pads():
                if pad.GetNetname() != net:
                    continue
                box = pad.GetBoundingBox()
                layers = [i for i, ly in enumerate((pcbnew.F_Cu, pcbnew.B_Cu)) if pad.IsOnLayer(ly)]
                pads[f"{fp.GetReference()}:{pad.GetNumber()}"] = [
                    round(box.GetX() / 1e6, 4), round(box.GetY() / 1e6, 4),
                    round((box.GetX() + box.GetWidth()) / 1e6, 4),
                    round((box.GetY() + box.GetHeight()) / 1e6, 4), layers,
                ]  # fmt: skip
        zones = []
        for zone in board.Zones():
            if zone.GetNetname() != net:
                continue
            layer = zone.GetLayer()
            filled = zone.GetFilledPolysList(layer)
            for i in range(filled.OutlineCount()):
                rings = [filled.Outline(i)] + [
                    filled.Hole(i, j) for j in range(filled.HoleCount(i))
                ]
                zones.append([
                    0 if layer == pcbnew.F_Cu else 1,
                    [[[round(r.CPoint(k).x / 1e6, 3), round(r.CPoint(k).y / 1e6, 3)]
                      for k in range(r.PointCount())] for r in rings],
                ])  # fmt: skip
        data[net] = {
            "zones": zones,
            "nodes": [[x, y, ly] for (x, y, ly), _ in sorted(points.items(), key=lambda kv: kv[1])],
            "segments": [
                [kind, a, b, round(length, 4), round(width, 4)]
                for kind, a, b, length, width in split
            ],
            "pads": dict(sorted(pads.items())),
        }
    out.write_text(json.dumps(data, indent=None, separators=(",", ":")) + "\n", "utf-8")


# -- the board-wide network (no KiCad) -------------------------------------------------------


@dataclass(frozen=True)
class SupplyDrop:
    """What the copper between the buck module and the sensors costs one board."""

    board: str
    #: Sensor reference → (3.3 V rail drop, ground rise) at its pins, volts, at full load.
    sensors: dict[str, tuple[float, float]]
    #: Worst over the sensors of rail drop + ground rise (V).
    worst_v: float
    worst_sensor: str
    #: The piece the worst sensor sits on.
    worst_piece: str
    #: Rail drop at each piece's test pad (V): TP5 and TP1xx.
    test_pads: dict[str, float]
    #: Total current the sensors draw (A).
    current_a: float


@cache
def _kind_graph(board: str, kind: str, root: Path = ROOT) -> dict[str, Any]:
    path = root / folder_of(board, kind) / f"{name_of(board, kind)}-supply.json"
    return json.loads(path.read_text("utf-8"))  # type: ignore[no-any-return]


class _Network:
    def __init__(self) -> None:
        self.index: dict[tuple[str, ...], int] = {}
        self.rows: list[int] = []
        self.cols: list[int] = []
        self.vals: list[float] = []

    def node(self, *key: str) -> int:
        if key not in self.index:
            self.index[key] = len(self.index)
        return self.index[key]

    def resistor(self, a: int, b: int, ohms: float) -> None:
        g = 1.0 / max(ohms, 1e-9)
        self.rows += [a, b, a, b]
        self.cols += [a, b, b, a]
        self.vals += [g, g, -g, -g]


def _raster(rings: list[list[list[float]]], x0: float, y0: float, nx: int, ny: int) -> np.ndarray:
    """Cells (centres on the mesh) inside a filled area given as rings (even-odd rule)."""
    mask = np.zeros((ny, nx), bool)
    ys = y0 + (np.arange(ny) + 0.5) * MESH_MM
    xs = x0 + (np.arange(nx) + 0.5) * MESH_MM
    edges = []
    for ring in rings:
        pts = np.array(ring, float)
        edges.append(np.concatenate([pts, np.roll(pts, -1, axis=0)], axis=1))
    e = np.concatenate(edges)
    for row, y in enumerate(ys):
        crossing = (e[:, 1] > y) != (e[:, 3] > y)
        if not crossing.any():
            continue
        c = e[crossing]
        xc = np.sort(c[:, 0] + (y - c[:, 1]) * (c[:, 2] - c[:, 0]) / (c[:, 3] - c[:, 1]))
        for a, b in zip(xc[0::2], xc[1::2], strict=False):
            mask[row] |= (xs >= a) & (xs < b)
    return mask


@cache
def _mesh(
    board: str, kind: str, net: str, root: Path = ROOT
) -> list[tuple[int, float, float, np.ndarray]]:
    """The filled areas of one kind's net, meshed: (layer, x0, y0, cells) per area."""
    out = []
    for layer, rings in _kind_graph(board, kind, root)[net]["zones"]:
        pts = np.array([p for ring in rings for p in ring], float)
        x0, y0 = float(pts[:, 0].min()), float(pts[:, 1].min())
        nx = int(math.ceil((pts[:, 0].max() - x0) / MESH_MM)) + 1
        ny = int(math.ceil((pts[:, 1].max() - y0) / MESH_MM)) + 1
        out.append((layer, x0, y0, _raster(rings, x0, y0, nx, ny)))
    return out


def _add_piece(
    network: _Network,
    instance: str,
    graph: dict[str, Any],
    mesh: list[tuple[int, float, float, np.ndarray]],
) -> dict[str, int]:
    """Add one PCB's copper of one net; returns pad key → node."""
    sheet = _ohm_per_square()
    via = _via_ohm()
    nodes = graph["nodes"]
    ids = [network.node(instance, "n", str(i)) for i in range(len(nodes))]
    for kind, a, b, length, width in graph["segments"]:
        ohms = via if kind == "via" else sheet * length / width
        network.resistor(ids[a], ids[b], ohms)
    # The planes and pours: a resistor of one square between neighbouring cells.
    cells: list[tuple[int, float, float, np.ndarray, dict[tuple[int, int], int]]] = []
    for area, (layer, x0, y0, mask) in enumerate(mesh):
        index = {}
        for r, c in zip(*np.nonzero(mask), strict=True):
            index[(int(r), int(c))] = network.node(instance, "z", str(area), str(r), str(c))
        for (r, c), node in index.items():
            for nb in ((r + 1, c), (r, c + 1)):
                if nb in index:
                    network.resistor(node, index[nb], sheet)
        cells.append((layer, x0, y0, mask, index))

    def join(node: int, box: tuple[float, float, float, float], layers: list[int]) -> bool:
        """Join a pad, track end or via to the plane cells round it: a pad sits in a hole of
        the fill and reaches it through thermal spokes, so the cells within
        :data:`SPOKE_MM` of its outline count, each through one square of copper."""
        joined = False
        x0b, y0b, x1b, y1b = (
            box[0] - SPOKE_MM,
            box[1] - SPOKE_MM,
            box[2] + SPOKE_MM,
            box[3] + SPOKE_MM,
        )
        for layer, x0, y0, _, index in cells:
            if layer not in layers:
                continue
            for r in range(int((y0b - y0) // MESH_MM), int((y1b - y0) // MESH_MM) + 1):
                for c in range(int((x0b - x0) // MESH_MM), int((x1b - x0) // MESH_MM) + 1):
                    cell = index.get((r, c))
                    if cell is not None:
                        network.resistor(node, cell, sheet)
                        joined = True
        return joined

    for i, (x, y, ly) in enumerate(nodes):
        join(ids[i], (x, y, x, y), [ly])
    pads = {}
    for key, (x0, y0, x1, y1, layers) in graph["pads"].items():
        pad = network.node(instance, "pad", key)
        pads[key] = pad
        in_plane = join(pad, (x0, y0, x1, y1), layers)
        inside = [
            ids[i]
            for i, (x, y, ly) in enumerate(nodes)
            if ly in layers and x0 - 1e-6 <= x <= x1 + 1e-6 and y0 - 1e-6 <= y <= y1 + 1e-6
        ]
        if inside:
            for n in inside:
                network.resistor(pad, n, 1e-6)
        elif nodes and not in_plane:
            # Joined only through the pour: a strip of it to the nearest track node.
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            nearest = min(range(len(nodes)), key=lambda i: math.dist((cx, cy), nodes[i][:2]))
            d = max(math.dist((cx, cy), nodes[nearest][:2]), 0.5)
            network.resistor(pad, ids[nearest], sheet * d / POUR_STRIP_MM)
    return pads


def _wire_ohm(length_mm: float) -> float:
    rho_t = 1 + f("copper.tempco") * (TEMPERATURE_C - 20.0)
    return f("wire.awg28_ohm_per_m") * length_mm / 1000.0 * rho_t + 2 * f("jst_sh.contact_ohm")


@cache
def solve(board: str, root: Path = ROOT) -> SupplyDrop:
    """The rail drop and ground rise at every sensor of ``board`` at full load."""
    made = plan(board)
    specs = cable_specs(board)
    lengths = {(c.a, c.b): c.length_mm for c in specs}
    instances = [(None, "scanner")] + [(p, p.kind) for p in made.pieces]
    results: dict[str, dict[str, float]] = {}
    current = 0.0
    for net in NETS:
        network = _Network()
        pads: dict[tuple[str, str], int] = {}
        for piece, kind in instances:
            name = piece.name if piece else "scanner"
            owner = board if kind != "scanner" else ""
            graph = _kind_graph(owner, kind, root)[net]
            for key, node in _add_piece(
                network, name, graph, _mesh(owner, kind, net, root)
            ).items():
                ref, pad = key.split(":")
                pads[(global_ref(made, piece, ref), pad)] = node
        # Cables: every wire of this net, pin k to pin k.
        for cable in plan_cables(made):
            ends = []
            for piece_name, ref in (cable.a, cable.b):
                piece = made.piece(piece_name) if piece_name else None
                ends.append(global_ref(made, piece, ref))
            names = tuple(f"{end[0] or 'scanner'}:{end[1]}" for end in (cable.a, cable.b))
            length = lengths[names]
            for k in range(1, cable.ways + 1):
                a, b = pads.get((ends[0], str(k))), pads.get((ends[1], str(k)))
                if a is not None and b is not None:
                    network.resistor(a, b, _wire_ohm(length))
        source = pads[SOURCES[net]]
        loads = _sensor_loads(made)
        current = sum(loads.values())
        size = len(network.index)
        g = coo_matrix((network.vals, (network.rows, network.cols)), shape=(size, size)).tocsr()
        injected = np.zeros(size)
        sign = -1.0 if net == "+3V3" else 1.0  # drawn from the rail, returned to ground
        for (ref, pin), amps in loads.items():
            injected[pads[(ref, pin if net == "+3V3" else "3")]] += sign * amps
        # Mesh cells of a plane the rasteriser cut off from its copper carry nothing: keep the
        # source's connected part only (every load must be in it).
        _, label = connected_components(g, directed=False)
        mine = label == label[source]
        for (ref, pin), _amps in loads.items():
            if not mine[pads[(ref, pin if net == "+3V3" else "3")]]:
                raise ValueError(f"{board}: {ref} is not joined to the buck module on {net}")
        # The source node is held at 0 (voltages are then the drop from it): drop its row.
        keep = np.array([i for i in range(size) if i != source and mine[i]])
        sub = g[keep][:, keep]
        volts = np.zeros(size)
        volts[keep] = spsolve(sub.tocsc(), injected[keep])
        results[net] = {
            ref: abs(float(volts[pads[(ref, "1" if net == "+3V3" else "3")]])) for ref, _ in loads
        }
        if net == "+3V3":
            tps = {}
            for (ref, _pad), node in pads.items():
                if ref.startswith("TP") and ref not in ("TP1", "TP2", "TP3", "TP4"):
                    tps[ref] = abs(float(volts[node]))
            results["testpads"] = tps
    sensors = {ref: (results["+3V3"][ref], results["GND"][ref]) for ref in results["+3V3"]}
    worst = max(sensors, key=lambda r: sum(sensors[r]))
    home = next(
        p.name
        for p in made.pieces
        if any(global_ref(made, p, f"H{k + 1}") == worst for k in range(len(p.sensors)))
    )
    return SupplyDrop(
        board, sensors, sum(sensors[worst]), worst, home, results["testpads"], current
    )


@cache
def lead_ohm(root: Path = ROOT) -> float:
    """The scanner board's copper from the buck module's output (PS1 pin 3) to the rail
    filter's inductor (L1 pin 1), Ω: the whole rail's current crosses it."""
    graph = _kind_graph("", "scanner", root).get(BUCK_NET)
    if graph is None:
        raise ValueError(f"the scanner board's files carry no {BUCK_NET} copper")
    network = _Network()
    pads = _add_piece(network, "scanner", graph, _mesh("", "scanner", BUCK_NET, root))
    source, sink = pads["PS1:3"], pads["L1:1"]
    size = len(network.index)
    g = coo_matrix((network.vals, (network.rows, network.cols)), shape=(size, size)).tocsr()
    _, label = connected_components(g, directed=False)
    if label[source] != label[sink]:
        raise ValueError(f"the scanner board's {BUCK_NET} does not join PS1 to L1")
    keep = np.array([i for i in range(size) if i != source and label[i] == label[source]])
    injected = np.zeros(size)
    injected[sink] = -1.0  # 1 A drawn at the inductor: the drop is the resistance
    volts = np.zeros(size)
    volts[keep] = spsolve(g[keep][:, keep].tocsc(), injected[keep])
    return abs(float(volts[sink]))


def _sensor_loads(made: Plan) -> dict[tuple[str, str], float]:
    """(sensor reference, VCC pin) → its maximum supply current (A)."""
    loads = {}
    for piece in made.pieces:
        circuit = kind_circuit(made.board, piece.kind)
        for part in circuit.parts:
            if part.key == "drv5055":
                loads[(global_ref(made, piece, part.ref), "1")] = f("drv5055.icc_max")
    return loads


def ground_counts(volts: float) -> float:
    """A ground rise at a sensor in ADC counts (``read_u16``: 65536 per 3.3 V)."""
    return volts / 3.3 * 65536
