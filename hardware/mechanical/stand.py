"""GW:s brott's stand, and the flat boards' scanner box.

GW's two-sided board stands upright: its foot (``supports.GW_FOOT_MM`` below the
playing area) sits in a groove in the stand's top, its side rims in grooves in
two cheeks, so it neither wobbles nor hides a cell of either face. The stand is a
box: the scanner board (with room round it for its plugs, :func:`scanner_envelope`)
lives inside, its cable comes down
from between the board's faces through a slot in the groove's floor, and the
Pi's USB cable and the 12 V lead leave through the back. :func:`tipping_force_n`
says how hard a player may push the board's top edge sideways before the whole
table-top stand tips.

The flat boards lie on the table; their scanner board sits in a small box
screwed to the board's rim (``plans.CABLE_EDGE``), the bus cables through the rim's
slot. :func:`scanner_room` is the room each compartment leaves over and under the
scanner board; the parts-fit check (``lawmaster.hardware.pcb.fit``) holds the board's
parts and its plugs against it.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

from lawmaster.hardware.electronics.parts import spec_of
from lawmaster.hardware.magnetics import stack
from lawmaster.hardware.mechanical.supports import outline, support_points
from lawmaster.hardware.mechanical.svg import CUT, MEDIUM, THIN, Sheet, hatch
from lawmaster.hardware.pcb.layout import SCANNER_SIZE, scanner
from lawmaster.hardware.pcb.specs import THICKNESS_MM
from lawmaster.hardware.sensor_map import SensorMap

SCANNER_STANDOFF_MM = 6.0
#: Room the scanner board's plugs need beyond its edges (mm): its layout puts the Pico's
#: micro-USB 9 mm in from the top edge, the 12 V jack's mouth at the right edge and the
#: three bus connectors' cable entries at the bottom edge. Assumptions: a micro-USB plug
#: and its overmould stand about 20 mm out of the receptacle and the cable turns in about
#: 15 mm (35 − 9 = 26 beyond the edge); the adapter's straight 5.5 × 2.1 mm plug with its
#: strain relief about 30 mm and its lead's turn 15 mm; a JST SH housing 4.3 mm and the
#: 28 AWG leads' turn about 10 mm.
PLUG_ROOM_MM = {"top": 26.0, "right": 45.0, "bottom": 15.0}
#: Air kept over the tallest part under the compartment's lid (mm).
LID_AIR_MM = 8.0
#: Room beside the envelope inside the flat boards' box (mm, each side).
BOX_SPARE_MM = 5.0

# Densities (g/mm³) for the stand's mass and the board's.
ACRYLIC_G_MM3 = 1.19e-3  # PMMA 1.19 g/cm³ (PLEXIGLAS data sheet)
FR4_G_MM3 = 1.85e-3  # FR-4 laminate ≈ 1.85 g/cm³
PLYWOOD_G_MM3 = 0.68e-3  # birch plywood ≈ 0.65-0.70 g/cm³
STEEL_G_MM3 = 7.85e-3
DENSITY_SOURCE = (
    "densities: PMMA 1.19 g/cm³ (PLEXIGLAS data sheet), FR-4 ≈ 1.85 g/cm³, birch plywood"
    " 0.65-0.70 g/cm³ (0.68 taken), steel 7.85 g/cm³"
)


@dataclass(frozen=True)
class Stand:
    """GW's stand, all in mm: the box, its top's groove, the cheeks."""

    length: float  # along the board's width
    depth: float  # across the board's faces
    height: float  # the box
    top_t: float  # top panel
    wall_t: float  # walls and bottom
    groove_w: float  # the board's foot and rims sit in grooves this wide
    groove_d: float  # the top's groove depth
    cheek_t: float
    cheek_h: float
    cheek_groove_d: float
    felt_t: float  # adhesive felt in the grooves, each side
    cable_slot: tuple[float, float]  # through the groove's floor
    feet_h: float


def board_thickness(which: str = "nominal") -> float:
    """GW's board from face to face (mm), at its nominal or its thickest."""
    layers = [la for la in stack.STACKS["gw-brott"] if la.role != "print"]
    if which == "max":
        return round(sum(la.high for la in layers), 3)
    return round(sum(la.thickness_mm for la in layers), 3)


def gw_stand() -> Stand:
    o = outline("gw-brott")
    sw, _ = o.sheet
    # The grooves take the thickest board with 0.3 mm to spare, lined with 0.5 mm felt
    # on each side that squeezes up the thinnest board's slack.
    groove_w = round(board_thickness("max") + 0.3 + 2 * 0.5, 1)
    cheek_t = 18.0
    length = sw + 2 * cheek_t + 2 * 20.0
    return Stand(
        length=length,
        depth=240.0,
        height=60.0,
        top_t=12.0,
        wall_t=9.0,
        groove_w=groove_w,
        groove_d=6.0,
        cheek_t=cheek_t,
        cheek_h=120.0,
        cheek_groove_d=8.0,
        felt_t=0.5,
        cable_slot=(40.0, 8.0),
        feet_h=5.0,
    )


def scanner_tallest_mm() -> float:
    """The tallest part over the scanner board's front face (mm): the Pico H in its sockets."""
    return max(spec_of(p.key).height.above_mm for p in scanner().parts)


def scanner_envelope() -> tuple[float, float, float]:
    """What a compartment must hold (mm): the scanner board with its plugs' room round it
    (length along its width, width along its height), and its height from the compartment's
    floor: the standoffs, the board, its tallest part."""
    w, h = SCANNER_SIZE
    return (
        w + PLUG_ROOM_MM["right"],
        h + PLUG_ROOM_MM["top"] + PLUG_ROOM_MM["bottom"],
        SCANNER_STANDOFF_MM + THICKNESS_MM + scanner_tallest_mm(),
    )


def compartments() -> dict[str, tuple[float, float, float]]:
    """Inside length, width and height of each place a scanner board lives (mm)."""
    wall = 6.0
    bl, bw, bh = scanner_box()
    return {
        "gw-brott": compartment_mm(gw_stand()),
        "judge-dredd": (bl - 2 * wall, bw - 2 * wall, bh - 2 * wall),
        "unamerican-graffiti": (bl - 2 * wall, bw - 2 * wall, bh - 2 * wall),
    }


def scanner_room(board: str) -> dict[str, float]:
    """Room over the scanner board's front face and under its back in ``board``'s
    compartment (mm): the compartment's height less the standoffs and the board; the
    standoffs' height under it."""
    height = compartments()[board][2]
    return {
        "front": round(height - SCANNER_STANDOFF_MM - THICKNESS_MM, 3),
        "back": SCANNER_STANDOFF_MM,
    }


def scanner_spare_mm(board: str) -> float:
    """The least room left round the scanner board and its plugs in ``board``'s
    compartment, across and along (mm; negative: it does not fit)."""
    length, width, _ = scanner_envelope()
    inner = compartments()[board]
    return round(min(inner[0] - length, inner[1] - width), 3)


def compartment_mm(s: Stand) -> tuple[float, float, float]:
    """The stand's inside: length, depth, height (mm)."""
    return (s.length - 2 * s.wall_t, s.depth - 2 * s.wall_t, s.height - s.top_t - s.wall_t)


def board_mass_g() -> float:
    """GW's board: both acrylic faces, the PCB, the keepers, standoffs and screws (g)."""
    o = outline("gw-brott")
    sw, sh = o.sheet
    sm = SensorMap.load("gw-brott")
    faces = sum(
        sw * sh * la.thickness_mm for la in stack.STACKS["gw-brott"] if la.role == "cover"
    ) * ACRYLIC_G_MM3
    pcb = o.width * o.height * stack.layer("gw-brott", "pcb").thickness_mm * FR4_G_MM3
    k = sm.sensor.keeper
    assert k is not None
    washer = 3.14159 / 4 * (k.outer_mm**2 - k.inner_mm**2) * k.thickness_mm * STEEL_G_MM3
    hardware = len(support_points("gw-brott")) * 1.5  # a brass standoff and two nylon screws
    return faces + pcb + len(sm.spots) * washer + hardware


def stand_mass_g(s: Stand) -> float:
    """The stand's plywood (g): top, bottom, four walls, two cheeks (trapezoids)."""
    inner_l, inner_d, inner_h = compartment_mm(s)
    top = s.length * s.depth * s.top_t
    bottom = inner_l * inner_d * s.wall_t
    walls = 2 * (s.length * inner_h * s.wall_t) + 2 * (inner_d * inner_h * s.wall_t)
    cheek = (s.depth + 40.0) / 2 * s.cheek_h * s.cheek_t  # a trapezoid, 40 mm wide at the top
    return (top + bottom + walls + 2 * cheek) * PLYWOOD_G_MM3


def tipping_force_n(s: Stand | None = None) -> float:
    """The sideways push at the board's top edge that tips the stand over (N): its whole
    weight's moment about the front edge of its feet over the height of that edge."""
    s = s or gw_stand()
    o = outline("gw-brott")
    _, sh = o.sheet
    mass_kg = (board_mass_g() + stand_mass_g(s)) / 1000
    top = s.feet_h + s.height - s.groove_d + sh
    return mass_kg * 9.81 * (s.depth / 2) / top


def gw_stand_drawing() -> str:
    s = gw_stand()
    o = outline("gw-brott")
    sw, sh = o.sheet
    scale = 1 / 3
    sheet = Sheet(420, 297, "GW:s brott: the stand")
    k = scale

    # -- front view (the criminals' face) ------------------------------------------
    fx, base = 30.0, 250.0  # left edge, table line
    box_top = base - (s.feet_h + s.height) * k
    sheet.line(fx - 8, base, fx + s.length * k + 8, base, THIN)
    for foot_x in (15.0, s.length - 35.0):
        sheet.rect(fx + foot_x * k, base - s.feet_h * k, 20 * k, s.feet_h * k, fill="#444",
                   width=THIN)
    sheet.rect(fx, box_top, s.length * k, s.height * k, fill="#eadcc0", stroke="#7a5a2a")
    bx = fx + (s.length - sw) / 2 * k
    board_bottom = box_top + s.groove_d * k
    sheet.rect(bx, board_bottom - sh * k, sw * k, sh * k, fill="#e7f3fa", stroke="#5a8fb0",
               width=MEDIUM)
    sheet.rect(bx + o.rim * k, board_bottom - (sh - o.rim) * k, o.width * k, o.height * k,
               fill="none", stroke="#888", width=THIN)
    for cx in (bx - (s.cheek_t - s.cheek_groove_d) * k, bx + sw * k - s.cheek_groove_d * k):
        sheet.rect(cx, box_top - s.cheek_h * k, s.cheek_t * k, s.cheek_h * k, fill="#d9c39a",
                   stroke="#7a5a2a")
    sheet.text(bx + sw * k / 2, board_bottom - sh * k / 2, "GW's board (criminals' face)", 3.0,
               "middle")
    sheet.text(bx + sw * k / 2, box_top + s.height * k / 2 + 1, "scanner compartment", 2.6,
               "middle")
    sheet.hdim(fx, fx + s.length * k, base + 8, f"{s.length:g}")
    sheet.vdim(fx - 6, base, box_top, f"{s.height + s.feet_h:g}", side="along")
    sheet.vdim(bx + sw * k + s.cheek_t * k + 6, box_top, box_top - s.cheek_h * k,
               f"cheek {s.cheek_h:g}")
    sheet.text(fx, 18, "Front view (criminals' side; GW's side is the mirror)", 3.2,
               weight="bold")

    # -- side section through the groove -------------------------------------------
    sx = 200.0
    sheet.text(sx, 18, "Section across the board", 3.2, weight="bold")
    sheet.line(sx - 5, base, sx + s.depth * k + 5, base, THIN)
    cheek = [(0, 0), (s.depth, 0), (s.depth / 2 + 20, -s.cheek_h), (s.depth / 2 - 20, -s.cheek_h)]
    pts = " ".join(f"{sx + a * k:.2f},{box_top + b * k:.2f}" for a, b in cheek)
    sheet.add(f'<polygon points="{pts}" fill="#f3ead8" stroke="#7a5a2a" stroke-width="{THIN}"'
              ' stroke-dasharray="2,1"/>')
    sheet.text(sx + s.depth * k / 2 + 10, box_top - s.cheek_h * k + 8, "cheek behind", 2.4)
    sheet.rect(sx, box_top, s.depth * k, s.height * k, fill="#fff", stroke="#7a5a2a")
    sheet.rect(sx, box_top, s.depth * k, s.top_t * k, fill="#eadcc0", stroke="#7a5a2a")
    hatch(sheet, sx, box_top, s.depth * k, s.top_t * k, "#a07d44")
    sheet.rect(sx, base - (s.feet_h + s.wall_t) * k, s.depth * k, s.wall_t * k, fill="#eadcc0",
               stroke="#7a5a2a")
    t = board_thickness()
    mid = sx + s.depth * k / 2
    sheet.rect(mid - s.groove_w * k / 2, box_top, s.groove_w * k, s.groove_d * k, fill="#fff",
               stroke=CUT, width=THIN)
    sheet.rect(mid - t * k / 2, board_bottom - sh * k, t * k, sh * k, fill="#e7f3fa",
               stroke="#5a8fb0", width=THIN)
    sc_l, _, sc_top = scanner_envelope()
    sc_h = sc_top - SCANNER_STANDOFF_MM
    floor = base - (s.feet_h + s.wall_t) * k
    sheet.rect(mid + 8, floor - (SCANNER_STANDOFF_MM + sc_h) * k, sc_l * k * 0.6,
               sc_h * k, fill="#bfe3c0", stroke="#3d8a3f", width=THIN)
    sheet.text(mid + 9, floor - (SCANNER_STANDOFF_MM + sc_h / 2) * k + 1, "scanner", 2.2)
    # the cable: down between the faces, through the slot, to the scanner board
    sheet.path(f"M{mid:.2f},{board_bottom - 20 * k:.2f}V{box_top + (s.top_t + 4) * k:.2f}"
               f"H{mid + 8:.2f}", stroke=CUT, width=MEDIUM)
    sheet.text(mid - 3, board_bottom - 25 * k, "cable", 2.4, "end", fill=CUT)
    sheet.hdim(sx, sx + s.depth * k, base + 8, f"{s.depth:g}")
    sheet.vdim(sx + s.depth * k + 5, box_top, box_top + s.top_t * k, f"top {s.top_t:g}", 2.4)

    # -- the groove at 2:1 ------------------------------------------------------------
    gx, gy, g = 300.0, 40.0, 2.0
    sheet.text(gx, 18, "Groove in the top, 2:1", 3.2, weight="bold")
    sheet.rect(gx, gy, 90, s.top_t * g, fill="#eadcc0", stroke="#7a5a2a")
    gm = gx + 45
    sheet.rect(gm - s.groove_w * g / 2, gy, s.groove_w * g, s.groove_d * g, fill="#fff",
               stroke=CUT, width=MEDIUM)
    for side in (-1, 1):
        sheet.rect(gm + side * (s.groove_w * g / 2) - (s.felt_t * g if side > 0 else 0), gy,
                   s.felt_t * g, s.groove_d * g, fill="#888", stroke="none", width=0)
    sheet.rect(gm - t * g / 2, gy - 14, t * g, 14 + s.groove_d * g, fill="#e7f3fa",
               stroke="#5a8fb0", width=THIN)
    sheet.hdim(gm - s.groove_w * g / 2, gm + s.groove_w * g / 2, gy + s.top_t * g + 6,
               f"{s.groove_w:g}")
    sheet.vdim(gm + s.groove_w * g / 2 + 12, gy, gy + s.groove_d * g, f"{s.groove_d:g} deep",
               2.5)
    sheet.text(gx, gy + s.top_t * g + 14,
               f"board {board_thickness():g} (≤ {board_thickness('max'):g}) between", 2.5)
    sheet.text(gx, gy + s.top_t * g + 18.5, f"{s.felt_t:g} mm adhesive felt strips each side;",
               2.5)
    sheet.text(gx, gy + s.top_t * g + 23, f"the cheeks' grooves: {s.groove_w:g} wide,"
               f" {s.cheek_groove_d:g} deep", 2.5)

    # -- notes -----------------------------------------------------------------------
    inner = compartment_mm(s)
    notes = [
        f"Box: {s.length:g} × {s.depth:g} × {s.height:g}, birch plywood: top {s.top_t:g},"
        f" walls and bottom {s.wall_t:g}.",
        f"Compartment inside: {inner[0]:g} × {inner[1]:g} × {inner[2]:g}; the scanner board"
        f" {SCANNER_SIZE[0]:g} × {SCANNER_SIZE[1]:g} with its plugs' room"
        f" ({scanner_envelope()[0]:g} × {scanner_envelope()[1]:g},"
        f" {scanner_envelope()[2]:g} high on",
        f"M3 × {SCANNER_STANDOFF_MM:g} standoffs) on the bottom, beside the cable slot.",
        f"Cable slot {s.cable_slot[0]:g} × {s.cable_slot[1]:g} through the groove's floor,"
        " under the board's middle.",
        "Back wall: two Ø12 grommets, the Pi's USB cable and the 12 V adapter's lead (its",
        "plug passes the hole and goes into the scanner board's jack J1).",
        "The bottom is screwed on (4 × 3.5 × 16 wood screws): it opens for the scanner.",
        f"Cheeks: {s.cheek_t:g} plywood, {s.depth:g} deep at the foot, 40 at the top,"
        f" {s.cheek_h:g} tall, glued and screwed to the top.",
        f"Board {board_mass_g() / 1000:.2f} kg, stand {stand_mass_g(s) / 1000:.2f} kg: a push"
        f" of {tipping_force_n(s):.1f} N",
        "at the board's top edge tips it (a player's press is taken as 5 N).",
        DENSITY_SOURCE + ".",
    ]
    y = 150.0
    for n in notes:
        for k_, part in enumerate(textwrap.wrap(n, 78)):
            sheet.text(300 + (3 if k_ else 0), y, part, 2.5)
            y += 4
        y += 1
    sheet.title_block(
        [
            "GW:s brott: the stand",
            "From hardware/mechanical/stand.py and the board's stack;",
            "python -m lawmaster.hardware.mechanical writes it.",
        ],
        scale,
    )
    sheet.scale_bar(12, sheet.h - 16, scale)
    return sheet.svg()


def scanner_box() -> tuple[float, float, float]:
    """The flat boards' scanner box, outside (mm): 6 mm walls round the scanner board and
    its plugs' room (:func:`scanner_envelope`) with ``BOX_SPARE_MM`` to spare each way,
    ``LID_AIR_MM`` of air over its tallest part."""
    wall = 6.0
    length, width, height = scanner_envelope()
    return (
        length + 2 * BOX_SPARE_MM + 2 * wall,
        width + 2 * BOX_SPARE_MM + 2 * wall,
        round(height + LID_AIR_MM + 2 * wall, 2),
    )


def scanner_box_drawing() -> str:
    sheet = Sheet(297, 210, "The flat boards' scanner box")
    bl, bw, bh = scanner_box()
    k = 1.0
    x0, y0 = 20.0, 40.0
    wall = 6.0
    sheet.text(x0, 22, "Top view, lid off (1:1)", 3.2, weight="bold")
    sheet.rect(x0, y0, bl * k, bw * k, fill="#eadcc0", stroke="#7a5a2a", width=MEDIUM)
    sheet.rect(x0 + wall, y0 + wall, (bl - 2 * wall) * k, (bw - 2 * wall) * k, fill="#fff",
               stroke="#7a5a2a", width=THIN)
    sl, sw_ = SCANNER_SIZE
    bx = x0 + wall + BOX_SPARE_MM
    by = y0 + wall + BOX_SPARE_MM + PLUG_ROOM_MM["top"]
    sheet.rect(bx, by, sl, sw_, fill="#bfe3c0", stroke="#3d8a3f", width=THIN)
    sheet.text(bx + sl / 2, by + sw_ / 2, "scanner board", 3.0, "middle")
    for hx, hy in scanner().holes:
        sheet.circle(bx + hx, by + hy, 1.6, stroke="#333", width=THIN)
    # The plugs' room: USB up, the 12 V plug right, the bus cables down.
    sheet.text(bx + 2, by - 3, f"USB plug: {PLUG_ROOM_MM['top']:g}", 2.2, fill="#555")
    sheet.text(bx + sl + 2, by + 62, f"12 V plug: {PLUG_ROOM_MM['right']:g}", 2.2, fill="#555")
    sheet.text(bx + 2, by + sw_ + 5, f"bus cables: {PLUG_ROOM_MM['bottom']:g}", 2.2,
               fill="#555")
    sheet.rect(x0 + bl / 2 - 12, y0 + bw - wall, 24, wall, fill="#fff", stroke=CUT, width=MEDIUM)
    sheet.text(x0 + bl / 2, y0 + bw + 9, "24 × 8 slot facing the rim's slot (the bus cables)",
               2.5, "middle", fill=CUT)
    sheet.circle(x0 + bl, y0 + bw / 3, 6, fill="#fff", stroke=CUT, width=MEDIUM)
    sheet.circle(x0 + bl, y0 + 2 * bw / 3, 6, fill="#fff", stroke=CUT, width=MEDIUM)
    sheet.text(x0 + bl + 8, y0 + bw / 3 + 1, "Ø12 grommet: USB to the Pi", 2.5, fill=CUT)
    sheet.text(x0 + bl + 8, y0 + 2 * bw / 3 + 1, "Ø12 grommet: the 12 V lead", 2.5, fill=CUT)
    sheet.hdim(x0, x0 + bl, y0 - 5, f"{bl:g}")
    sheet.vdim(x0 - 6, y0, y0 + bw, f"{bw:g}", side="along")
    notes = [
        f"Outside {bl:g} × {bw:g} × {bh:g}, 6 mm plywood, lid screwed on.",
        f"Holds the {sl:g} × {sw_:g} scanner board on M3 × {SCANNER_STANDOFF_MM:g}",
        f"standoffs, its plugs' room round it, {LID_AIR_MM:g} mm over its tallest part",
        f"({scanner_tallest_mm():g} mm: the Pico H in its sockets).",
        "Stands against the board's bottom edge at its cable slot",
        "(plan drawing), screwed to the rim with two 3.5 × 16 screws.",
    ]
    for i, n in enumerate(notes):
        sheet.text(192, 40 + 5 * i, n, 2.5)
    sheet.title_block(["Scanner box (Judge Dredd, Graffiti)",
                       "From hardware/mechanical/stand.py."], k)
    sheet.scale_bar(12, sheet.h - 16, k, 50.0)
    return sheet.svg()


__all__ = [
    "compartments",
    "scanner_envelope",
    "scanner_room",
    "scanner_spare_mm",
    "Stand",
    "gw_stand",
    "gw_stand_drawing",
    "scanner_box",
    "scanner_box_drawing",
    "tipping_force_n",
]
