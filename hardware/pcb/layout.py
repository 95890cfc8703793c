"""Where every part of a kind of piece goes, by rule, from the piece's sensors.

Coordinates are the kind's own frame (mm, y down), the frame the plan's
sensor positions are given in (:mod:`lawmaster.hardware.electronics.pieces`).
Each sensor sits exactly at its spot with its 100 nF 2.9 mm to the right of it.
What else a piece carries goes where the sensors leave room, by a rule per
family:

* GW:s brott's pieces carry everything on their **front** face: the back is
  glued to the back acrylic, so nothing may stand or poke out there (no
  through-hole part). The front face has 5.3 mm up to the front acrylic.
* The flat boards' pieces carry only the sensors and their capacitors on the
  front (1.4 mm under the map's MDF); the multiplexer, the bulk capacitor, the
  connectors and the test pad go on the **back** face, with two M3 holes for
  the standoffs that hold the piece under the map.
* The scanner board (one design for all three games) is placed by hand.

Connectors sit at a piece's edge with their cable entry facing out of it.
Multiplexers sit on a router grid point so every pin lies on a grid line.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lawmaster.hardware.electronics.parts import spec_of
from lawmaster.hardware.electronics.pieces import (
    INSET_MM,
    KindCircuit,
    kind_circuit,
    plan,
    scanner_kind,
)

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


def _mux_block(j: int, x: float, y: float, side: str, refs: tuple[str, str, str] | None = None
               ) -> list[Part]:
    """Multiplexer U<j+1> (pins along its top and bottom edges) with its 100 nF at its right
    end, beside the supply pin's corner, and its 10 µF at its left end: the pin rows stay
    free for the fan-out."""
    x, y = snap(x), snap(y)
    u, cu, cb = refs or (f"U{j + 1}", f"CU{j + 1}", f"CB{j + 1}")
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


# -- GW:s brott ------------------------------------------------------------------------------

#: The jail strip's tab reaches into the tile beside it round the jail slot in cell D6.
GW_TAB = (88.5, 36.0, 100.0, 49.0)  # in the tile's frame: x0, y0, x1, y1
GW_TILE = 100.0


def _gw(kind: str, circuit: KindCircuit) -> Layout:
    i, w = INSET_MM, GW_TILE
    parts = _sensors(circuit)
    if kind in ("tile", "tile-jail"):
        parts += _mux_block(0, 50, 50, FRONT)
        parts.append(_connector(circuit, "in", 50, 96, "down", FRONT))
        parts.append(_connector(circuit, "out", 50, 4, "up", FRONT))
        parts.append(Part("TP1", "testpoint", 75, 50))
        outline = _rect(i, i, w - i, w - i)
        if kind == "tile-jail":
            x0, y0, _, y1 = GW_TAB
            outline = (
                (i, i), (w - i, i), (w - i, y0 - i), (x0 - i, y0 - i),
                (x0 - i, y1 + i), (w - i, y1 + i), (w - i, w - i), (i, w - i),
            )  # fmt: skip
    elif kind == "strip":
        parts.append(_connector(circuit, "up", 25, 96, "down", FRONT))
        parts.append(Part("TP1", "testpoint", 25, 50))
        outline = _rect(i, i, w / 2 - i, w - i)
    elif kind == "strip-jail":
        parts += _mux_block(0, 13, 52, FRONT)
        parts += _mux_block(1, 37, 52, FRONT)
        parts.append(_connector(circuit, "sat1", 25, 4, "up", FRONT))
        parts.append(_connector(circuit, "in", 9.0, 96, "down", FRONT))
        parts.append(_connector(circuit, "sat2", 33.5, 96, "down", FRONT))
        parts.append(Part("TP1", "testpoint", 25, 75))
        x0, y0, x1, y1 = GW_TAB
        tab = (x0 - x1, y0, 0.0, y1)  # the same place in the strip's frame
        outline = (
            (i, i), (w / 2 - i, i), (w / 2 - i, w - i), (i, w - i),
            (i, tab[3] - i), (tab[0] + i, tab[3] - i), (tab[0] + i, tab[1] + i), (i, tab[1] + i),
        )  # fmt: skip
    else:
        raise KeyError(kind)
    return Layout("gw-brott", kind, circuit, outline, tuple(parts))


#: How far each kind of part reaches from its centre (mm, its courtyard's half diagonal,
#: rounded up), for keeping mounting holes clear of it.
REACH = {
    "drv5055": 2.6, "c100n": 1.7, "c10u": 2.0, "hc4067": 5.7, "jst6": 5.9, "jst10": 7.7,
    "jst12": 8.6, "testpoint": 1.2,
}  # fmt: skip
HOLE_REACH = 3.45  # the M3 hole's courtyard


def _holes(parts: list[Part], outline: tuple[tuple[float, float], ...]) -> tuple[tuple[float, float], ...]:
    """Two M3 holes where they stand clearest of every part (either face) and of the edge,
    the second well away from the first."""
    xs = [p[0] for p in outline]
    ys = [p[1] for p in outline]
    edge = HOLE_REACH + 2.0
    candidates = []
    x = min(xs) + edge
    while x <= max(xs) - edge:
        y = min(ys) + edge
        while y <= max(ys) - edge:
            room = min(((x - p.x) ** 2 + (y - p.y) ** 2) ** 0.5 - REACH.get(p.key, 3.0) for p in parts)
            candidates.append((round(room, 3), round(x, 1), round(y, 1)))
            y += 1.0
        x += 1.0
    candidates.sort(key=lambda c: (-c[0], c[1], c[2]))
    first = candidates[0]
    apart = 0.4 * max(max(xs) - min(xs), max(ys) - min(ys))
    second = next(
        c for c in candidates if ((c[1] - first[1]) ** 2 + (c[2] - first[2]) ** 2) ** 0.5 >= apart
    )
    for c in (first, second):
        if c[0] < HOLE_REACH + 0.5:
            raise ValueError("no room for a mounting hole")
    return ((first[1], first[2]), (second[1], second[2]))


# -- Judge Dredd -----------------------------------------------------------------------------

POD = 50.0


def _dredd(kind: str, circuit: KindCircuit) -> Layout:
    parts = _sensors(circuit)
    xs = [x for x, _ in circuit.sensors]
    half_w = (max(xs) - min(xs)) / 2 + (POD / 2 - 17.0)
    half_h = POD / 2
    i = INSET_MM
    outline = _rect(-half_w + i, -half_h + i, half_w - i, half_h - i)
    edge = half_h - 4.0
    if kind == "pod":
        parts.append(_connector(circuit, "up", 0, edge, "down", BACK))
        parts.append(Part("TP1", "testpoint", 0, -6, 0.0, BACK))
    else:
        parts += _mux_block(0, 0, -2, BACK)
        off = -12.0 if kind == "pod-hospital" else 0.0
        parts.append(_connector(circuit, "in", off, edge, "down", BACK))
        parts.append(_connector(circuit, "out", off, -edge, "up", BACK))
        parts.append(_connector(circuit, "sat1", -(half_w - 4.0), 0, "left", BACK))
        parts.append(_connector(circuit, "sat2", half_w - 4.0, 0, "right", BACK))
        if kind == "pod-mux":
            parts.append(_connector(circuit, "sat3", 16.0, edge, "down", BACK))
        parts.append(Part("TP1", "testpoint", 11.0, 8.0, 0.0, BACK))
    return Layout("judge-dredd", kind, circuit, outline, tuple(parts), _holes(parts, outline))


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
    return Layout("unamerican-graffiti", kind, circuit, outline, tuple(parts), _holes(parts, outline))


# -- the scanner board -----------------------------------------------------------------------

SCANNER_SIZE = (98.0, 80.0)


def scanner() -> Layout:
    """The scanner board: Pico on the left (USB at the top edge), power on the right, bus below."""
    circuit = scanner_kind()
    w, h = SCANNER_SIZE
    parts = [
        Part("U30", "pico", 16.0, 34.5),
        Part("J2", "jumper", 33.0, 38.0),
        Part("TP4", "testpoint", 33.0, 31.0),
        *_mux_block(0, 38.0, 52.0, FRONT, ("U21", "C21", "CB22")),
        Part("J1", "jack", 89.0, 60.0, 180.0),
        Part("F1", "fuse", 76.0, 66.0, 90.0),
        Part("D3", "schottky", 76.0, 56.0, 90.0),
        Part("D4", "tvs", 68.0, 52.0, 90.0),
        Part("TP1", "testpoint", 68.0, 44.5),
        Part("PS1", "buck", 66.0, 8.0),
        Part("CB1", "c10u", 48.5, 12.0, 90.0),
        Part("TP2", "testpoint", 48.5, 18.0),
        Part("TP3", "testpoint", 48.5, 22.0),
    ]
    for c in range(3):
        parts.append(_connector(circuit, f"chain{c}", 20.0 + 19.0 * c, h - 4.0, "down", FRONT))
    holes = ((4.0, 4.0), (w - 4.0, h - 4.0), (4.0, h - 4.0), (w - 4.0, 40.0))
    notes = (
        ("12 V", 89.0, 47.0, FRONT),
        ("bus 1   bus 2   bus 3", 39.0, h - 10.0, FRONT),
    )
    return Layout("", "scanner", circuit, _rect(0.0, 0.0, w, h), tuple(parts), holes, notes)


FAMILIES = {"gw-brott": _gw, "judge-dredd": _dredd, "unamerican-graffiti": _graffiti}


def layout(board: str, kind: str) -> Layout:
    """The layout of one kind of piece of ``board`` (``board`` "" and kind "scanner": the
    scanner board)."""
    if kind == "scanner":
        return scanner()
    made = plan(board)
    if kind not in {p.kind for p in made.pieces}:
        raise KeyError(f"{board} has no piece of kind {kind}")
    return FAMILIES[board](kind, kind_circuit(board, kind))
