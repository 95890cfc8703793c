"""Where every part of a kind of piece goes, by rule, from the piece's sensors.

Coordinates are the kind's own frame (mm, y down), the frame the plan's
sensor positions are given in (:mod:`lawmaster.hardware.electronics.pieces`).
Each sensor sits exactly at its spot with its 100 nF 2.9 mm to the right of it.
What else a piece carries goes where the sensors leave room, by a rule per
family:

* GW:s brott's pieces carry everything on their **front** face: the back is
  glued to the back acrylic, so nothing may stand or poke out there (no
  through-hole part). The front face has the room the stack leaves under the
  front acrylic (``stack.part_space_mm``: 4.55 mm). Each piece has one M3 hole
  (:data:`GW_HOLES`) at a cell corner, where a brass standoff holds the front
  acrylic over it.
* The flat boards' pieces carry only the sensors and their capacitors on the
  front (1.34 mm under the map's MDF); the multiplexer, the bulk capacitor, the
  connectors and the test pad go on the **back** face, with two M3 holes
  (:func:`_holes`) where the screws that clamp the cover, its spacer pad, the
  piece and its standoff to the base go through.
* Every mounting hole is a support of the cover
  (:func:`lawmaster.hardware.mechanical.supports.support_points` reads them) and
  keeps the supports' distance from every sensor
  (:func:`lawmaster.hardware.mechanical.keepout.clearance_mm`).
* The scanner board (one design for all three games) is placed by hand.

Connectors sit at a piece's edge with their cable entry facing out of it.
Multiplexers sit on a router grid point so every pin lies on a grid line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

import numpy as np
from scipy.spatial import ConvexHull

from lawmaster.hardware.electronics.parts import spec_of
from lawmaster.hardware.electronics.pieces import (
    INSET_MM,
    RAIL_FILTER_CAPS,
    RAIL_FILTER_INDUCTOR,
    KindCircuit,
    kind_circuit,
    plan,
    scanner_kind,
)
from lawmaster.hardware.mechanical.keepout import clearance_mm

from .router import PITCH

FRONT, BACK = "front", "back"
#: Sensor to its decoupling capacitor (centre to centre, mm): the capacitor's pads sit
#: 0.75 mm from the sensor's ground pad, inside the 2 mm the DRV5055 data sheet asks for.
CAP_OFFSET = 2.9
#: Connector rotation for a cable entry facing each way (front face; see `Part.rotation`).
FACING = {"down": 0.0, "up": 180.0, "right": 90.0, "left": 270.0}


@dataclass(frozen=True)
class Part:
    """One footprint on a kind's PCB."""

    ref: str
    key: str
    x: float
    y: float
    rotation: float = 0.0
    side: str = FRONT

    @property
    def footprint(self) -> str:
        """The footprint's name in the Lawmaster library."""
        return spec_of(self.key).footprint.split(":", 1)[1]


@dataclass(frozen=True)
class Layout:
    """A kind of PCB: its outline, its parts, its mounting holes, the faces' room."""

    board: str
    kind: str
    circuit: KindCircuit
    outline: tuple[tuple[float, float], ...]
    parts: tuple[Part, ...]
    holes: tuple[tuple[float, float], ...] = ()
    #: Silkscreen notes: (text, x, y, side).
    notes: tuple[tuple[str, float, float, str], ...] = field(default=())
    #: Supply planes: (net, side, polygon): the chain's current runs through these from one
    #: bus connector to the other instead of through thin tracks (``budget.copper``).
    planes: tuple[tuple[str, str, tuple[tuple[float, float], ...]], ...] = field(default=())

    def part(self, ref: str) -> Part:
        """The part ``ref``."""
        return next(p for p in self.parts if p.ref == ref)

    @property
    def size_mm(self) -> tuple[float, float]:
        """Width and height of the outline's bounding box."""
        xs = [p[0] for p in self.outline]
        ys = [p[1] for p in self.outline]
        return (round(max(xs) - min(xs), 2), round(max(ys) - min(ys), 2))


def snap(value: float) -> float:
    """The nearest router grid coordinate."""
    return round(round(value / PITCH) * PITCH, 4)


def _rect(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def _sensors(circuit: KindCircuit, side: str = FRONT) -> list[Part]:
    out = []
    for k, (x, y) in enumerate(circuit.sensors):
        out.append(Part(f"H{k + 1}", "drv5055", x, y, 0.0, side))
        out.append(Part(f"C{k + 1}", "c100n", x + CAP_OFFSET, y, 270.0, side))
    return out


def _mux_block(
    j: int,
    x: float,
    y: float,
    side: str,
    refs: tuple[str, str, str] | None = None,
    upright: bool = False,
) -> list[Part]:
    """Multiplexer U<j+1> with its 100 nF and its 10 µF at its two ends (where it has no pins):
    the pin rows stay free for the fan-out.

    Lying (the default) its pin rows face up and down; ``upright``, they face left and
    right, towards connectors at the piece's sides.
    """
    x, y = snap(x), snap(y)
    u, cu, cb = refs or (f"U{j + 1}", f"CU{j + 1}", f"CB{j + 1}")
    if upright:
        return [
            Part(u, "hc4067", x, y, 180.0, side),
            Part(cu, "c100n", x, y - 5.4, 0.0, side),
            Part(cb, "c10u", x, y + 5.9, 0.0, side),
        ]
    return [
        Part(u, "hc4067", x, y, 270.0, side),
        Part(cu, "c100n", x + 5.4, y, 90.0, side),
        Part(cb, "c10u", x - 5.9, y, 90.0, side),
    ]


def _connector(circuit: KindCircuit, role: str, x: float, y: float, facing: str, side: str) -> Part:
    """A connector whose cable entry faces ``facing`` (seen from the part's own face).

    A back-face part is flipped left to right after it is turned, so a cable
    entry meant to face left or right on the back is turned the other way first.
    """
    ref = circuit.connector(role)
    if side == BACK and facing in ("left", "right"):
        facing = "right" if facing == "left" else "left"
    return Part(ref, circuit.part(ref).key, x, y, FACING[facing], side)


Planes = tuple[tuple[str, str, tuple[tuple[float, float], ...]], ...]
#: Half the width of the supply band under a chain piece's bus connectors (mm): their four
#: supply pins lie within 6 mm of the connector's middle, on either side as it is turned.
BAND_MM = 8.0


def _band(
    outline: tuple[tuple[float, float], ...], x: float, side: str, right: float | None = None
) -> Planes:
    """The supply and ground planes of one face of a piece: a band of supply along the bus
    from one connector (centred at ``x``) to the other (or, ``right`` given, as far right as
    that), ground either side of it (each plane is clipped to the outline when KiCad fills
    it)."""
    xs = [p[0] for p in outline]
    ys = [p[1] for p in outline]
    y0, y1 = min(ys), max(ys)
    x0, x1 = x - BAND_MM, x + BAND_MM if right is None else right
    planes = [("+3V3", side, _rect(x0, y0, x1, y1))]
    if x0 - 0.6 > min(xs):
        planes.append(("GND", side, _rect(min(xs), y0, x0 - 0.6, y1)))
    planes.append(("GND", side, _rect(x1 + 0.6, y0, max(xs), y1)))
    return tuple(planes)


# -- GW:s brott ------------------------------------------------------------------------------

#: Each GW piece's mounting holes (its frame, mm): on cell corners, 17.7 mm from the four
#: sensors round each, where a brass standoff holds the front acrylic (``supports``). The
#: jail strip has two, either side of the jail (its middle one would be 9.8 mm from a jail
#: slot), so no point of the front lies more than half a 100 mm square's diagonal from a
#: standoff.
GW_HOLES: dict[str, tuple[tuple[float, float], ...]] = {
    "tile": ((75.0, 50.0),),
    "tile-jail": ((75.0, 50.0),),
    "strip": ((25.0, 50.0),),
    "strip-jail": ((25.0, 25.0), (25.0, 75.0)),
}
#: The jail strip's tab reaches into the tile beside it round the jail slot in cell D6.
GW_TAB = (88.5, 36.0, 100.0, 49.0)  # in the tile's frame: x0, y0, x1, y1
GW_TILE = 100.0


def _gw(kind: str, circuit: KindCircuit) -> Layout:
    i, w = INSET_MM, GW_TILE
    parts = _sensors(circuit)
    planes: Planes = ()
    if kind in ("tile", "tile-jail"):
        parts += _mux_block(0, 50, 50, FRONT)
        parts.append(_connector(circuit, "in", 50, 96, "down", FRONT))
        parts.append(_connector(circuit, "out", 50, 4, "up", FRONT))
        parts.append(Part("TP1", "testpoint", 62.5, 50))
        outline = _rect(i, i, w - i, w - i)
        if kind == "tile-jail":
            x0, y0, _, y1 = GW_TAB
            outline = (
                (i, i), (w - i, i), (w - i, y0 - i), (x0 - i, y0 - i),
                (x0 - i, y1 + i), (w - i, y1 + i), (w - i, w - i), (i, w - i),
            )  # fmt: skip
    elif kind == "strip":
        parts.append(_connector(circuit, "up", 25, 96, "down", FRONT))
        parts.append(Part("TP1", "testpoint", 25, 62.5))
        outline = _rect(i, i, w / 2 - i, w - i)
        planes = _band(outline, 25.0, BACK)
    elif kind == "strip-jail":
        parts += _mux_block(0, 13, 52, FRONT)
        parts += _mux_block(1, 37, 52, FRONT)
        parts.append(_connector(circuit, "sat1", 25, 4, "up", FRONT))
        parts.append(_connector(circuit, "in", 10.0, 96, "down", FRONT))
        parts.append(_connector(circuit, "sat2", 33.5, 96, "down", FRONT))
        parts.append(Part("TP1", "testpoint", 25, 87.5))
        x0, y0, x1, y1 = GW_TAB
        tab = (x0 - x1, y0, 0.0, y1)  # the same place in the strip's frame
        outline = (
            (i, i), (w / 2 - i, i), (w / 2 - i, w - i), (i, w - i),
            (i, tab[3] - i), (tab[0] + i, tab[3] - i), (tab[0] + i, tab[1] + i), (i, tab[1] + i),
        )  # fmt: skip
    else:
        raise KeyError(kind)
    # The back face is free copper (no parts): on the chain pieces a supply band runs along
    # it from one bus connector to the other, with ground either side.
    if kind in ("tile", "tile-jail"):
        planes = _band(outline, 50.0, BACK)
    elif kind == "strip-jail":
        # From the bus connector (bottom left) up to the top strip's cable (top middle).
        planes = _band(outline, 10.0, BACK, 33.0)
    return Layout("gw-brott", kind, circuit, outline, tuple(parts), GW_HOLES[kind], (), planes)


#: How far each kind of part reaches from its centre (mm, its courtyard's half diagonal,
#: rounded up), for keeping mounting holes clear of it.
REACH = {
    "drv5055": 2.6, "c100n": 1.7, "c10u": 2.0, "hc4067": 5.7, "jst6": 5.9, "jst10": 7.7,
    "jst15": 10.4, "testpoint": 1.2, "inductor": 8.9,
}  # fmt: skip
HOLE_REACH = 3.45  # the M3 hole's courtyard


def _holes(
    parts: list[Part],
    outline: tuple[tuple[float, float], ...],
    sensors: tuple[tuple[float, float], ...],
    clear: float,
) -> tuple[tuple[float, float], ...]:
    """Two M3 holes, as far apart as the piece allows, each where it stands clear of
    every part (either face) and the edge, and at least ``clear`` from every sensor's
    centre (a hole is a support of the cover: :mod:`lawmaster.hardware.mechanical.keepout`).

    Candidates lie on a 1 mm grid of the piece's own frame; of those with room, the
    two farthest apart (found on their convex hull) are taken.
    """
    xs = [p[0] for p in outline]
    ys = [p[1] for p in outline]
    edge = HOLE_REACH + 2.0
    gx = np.arange(np.ceil(min(xs) + edge), np.floor(max(xs) - edge) + 1)
    gy = np.arange(np.ceil(min(ys) + edge), np.floor(max(ys) - edge) + 1)
    px, py = np.meshgrid(gx, gy)
    points = np.column_stack([px.ravel(), py.ravel()])
    room = np.full(len(points), np.inf)
    for p in parts:
        d = np.hypot(points[:, 0] - p.x, points[:, 1] - p.y) - REACH.get(p.key, 3.0)
        room = np.minimum(room, d)
    far = np.full(len(points), np.inf)
    for x, y in sensors:
        far = np.minimum(far, np.hypot(points[:, 0] - x, points[:, 1] - y))
    good = points[(room >= HOLE_REACH + 1.5) & (far >= clear)]
    if len(good) < 2:
        raise ValueError("no room for two mounting holes")
    hull = good[ConvexHull(good).vertices] if len(good) > 2 else good
    apart = ((hull[:, None, :] - hull[None, :, :]) ** 2).sum(axis=-1)
    i, j = np.unravel_index(int(np.argmax(apart)), apart.shape)
    first, second = sorted(
        (tuple(float(v) for v in hull[int(i)]), tuple(float(v) for v in hull[int(j)]))
    )
    return (first, second)


# -- Judge Dredd -----------------------------------------------------------------------------

#: A satellite pod is 50 mm square; a pod with the multiplexer and its five connectors 60 mm.
POD, MUX_POD = 50.0, 60.0


def _dredd(kind: str, circuit: KindCircuit) -> Layout:
    parts = _sensors(circuit)
    xs = [x for x, _ in circuit.sensors]
    size = POD if kind == "pod" else MUX_POD
    half_w = (max(xs) - min(xs)) / 2 + (size / 2 - 17.0)
    half_h = size / 2
    i = INSET_MM
    outline = _rect(-half_w + i, -half_h + i, half_w - i, half_h - i)
    edge = half_h - 4.0
    off = -12.0 if kind == "pod-hospital" else 0.0
    # A pod's holes stand in its middle, the one place 20 mm from all four of its spots
    # (``keepout.clearance_mm``: the screws' heads clear the cover's pockets): the back-face
    # parts keep out of it.
    if kind == "pod":
        parts.append(_connector(circuit, "up", 0, edge, "down", BACK))
        parts.append(Part("TP1", "testpoint", 10, -10, 0.0, BACK))
    else:
        # Upright: its input rows face the satellite connectors at the pod's sides.
        parts += _mux_block(0, -13.0 if kind == "pod-mux" else 0, -2, BACK, upright=True)
        parts.append(_connector(circuit, "in", off, edge, "down", BACK))
        parts.append(_connector(circuit, "out", off, -edge, "up", BACK))
        parts.append(_connector(circuit, "sat1", -(half_w - 4.0), 0, "left", BACK))
        parts.append(_connector(circuit, "sat2", half_w - 4.0, 0, "right", BACK))
        if kind == "pod-mux":
            parts.append(_connector(circuit, "sat3", 19.0, -edge, "up", BACK))
        parts.append(Part("TP1", "testpoint", 11.0, 8.0, 0.0, BACK))
    # The front face carries only the sensors: on the multiplexer pods a supply band runs
    # along it between the back-face bus connectors, with ground either side.
    planes = () if kind == "pod" else _band(outline, off, FRONT)
    holes = _holes(parts, outline, circuit.sensors, clearance_mm("judge-dredd"))
    return Layout("judge-dredd", kind, circuit, outline, tuple(parts), holes, (), planes)


# -- Unamerican Graffiti ---------------------------------------------------------------------


def _graffiti(kind: str, circuit: KindCircuit) -> Layout:
    margin = 8.0
    xs = [x for x, _ in circuit.sensors]
    ys = [y for _, y in circuit.sensors]
    w, h = max(xs) + margin, max(ys) + margin
    i = INSET_MM
    parts = _sensors(circuit)
    parts += _mux_block(0, w / 2, h / 2 - 2, BACK)
    parts.append(_connector(circuit, "in", w / 2, h - 4.0, "down", BACK))
    if "out" in dict(circuit.connectors):
        parts.append(_connector(circuit, "out", w / 2, 4.0, "up", BACK))
    parts.append(Part("TP1", "testpoint", w / 2 + 9.0, h / 2 + 6.0, 0.0, BACK))
    outline = _rect(i, i, w - i, h - i)
    planes = _band(outline, w / 2, FRONT)
    return Layout(
        "unamerican-graffiti",
        kind,
        circuit,
        outline,
        tuple(parts),
        _holes(parts, outline, circuit.sensors, clearance_mm("unamerican-graffiti")),
        (),
        planes,
    )


# -- the scanner board -----------------------------------------------------------------------

SCANNER_SIZE = (98.0, 80.0)
#: The buck module's output (VOUT, pin 3 at (66, 8)) to the rail filter's inductor (its
#: pin 1 at (82.95, 8)): a pour on the front face, the whole rail's current in a few mΩ.
BUCK_POUR = ((64.5, 2.5), (85.0, 2.5), (85.0, 13.5), (64.5, 13.5))


def scanner() -> Layout:
    """The scanner board: Pico on the left (USB at the top edge), power on the right (the buck
    module, the rail filter beside it), bus below."""
    circuit = scanner_kind()
    w, h = SCANNER_SIZE
    parts = [
        Part("U30", "pico", 16.0, 34.5),
        Part("J2", "jumper", 33.0, 38.0),
        Part("TP4", "testpoint", 33.0, 31.0),
        *_mux_block(0, 38.0, 52.0, FRONT, ("U21", "C21", "CB22")),
        # The jack's plug opening faces the right edge (its body runs 14.2 mm from pin 1).
        Part("J1", "jack", w - 15.0, 62.0, 90.0),
        Part("F1", "fuse", 76.0, 66.0, 90.0),
        Part("D3", "schottky", 76.0, 56.0, 90.0),
        Part("D4", "tvs", 68.0, 52.0, 90.0),
        Part("TP1", "testpoint", 68.0, 44.5),
        Part("PS1", "buck", 66.0, 8.0),
        Part("CB1", "c10u", 76.0, 4.0),
        # The rail filter: the inductor beside the buck module's pins, its four capacitors
        # under it; the module's output reaches the inductor through a pour (BUCK_POUR).
        Part(RAIL_FILTER_INDUCTOR, "inductor", 88.0, 8.0),
        *(Part(ref, "c10u", 84.0 + 3.5 * k, 18.5, 90.0) for k, ref in enumerate(RAIL_FILTER_CAPS)),
        Part("TP2", "testpoint", 48.5, 18.0),
        Part("TP3", "testpoint", 48.5, 22.0),
    ]
    for c in range(3):
        parts.append(_connector(circuit, f"chain{c}", 20.0 + 19.0 * c, h - 4.0, "down", FRONT))
    holes = ((4.0, 4.0), (w - 4.0, h - 4.0), (4.0, h - 4.0), (w - 4.0, 40.0))
    # The back face: a supply plane from the buck module (top right) round under the bus
    # connectors, ground under the Pico; the front face is poured with ground.
    supply = ((45.0, 0.0), (w, 0.0), (w, h), (0.0, h), (0.0, 62.0), (45.0, 62.0))
    planes: Planes = (
        ("+3V3_BUCK", FRONT, BUCK_POUR),
        ("+3V3", BACK, supply),
        ("GND", BACK, ((0.0, 0.0), (44.4, 0.0), (44.4, 61.4), (0.0, 61.4))),
    )
    notes = (
        ("12 V in", w - 9.0, 50.0, FRONT),
        *((f"bus {c + 1}", 20.0 + 19.0 * c, h - 12.5, FRONT) for c in range(3)),
    )
    return Layout("", "scanner", circuit, _rect(0.0, 0.0, w, h), tuple(parts), holes, notes, planes)


FAMILIES = {"gw-brott": _gw, "judge-dredd": _dredd, "unamerican-graffiti": _graffiti}


@cache
def layout(board: str, kind: str) -> Layout:
    """The layout of one kind of piece of ``board`` (``board`` "" and kind "scanner": the
    scanner board)."""
    if kind == "scanner":
        return scanner()
    made = plan(board)
    if kind not in {p.kind for p in made.pieces}:
        raise KeyError(f"{board} has no piece of kind {kind}")
    return FAMILIES[board](kind, kind_circuit(board, kind))
