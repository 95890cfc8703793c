"""Each board's plan: its sheets, where the spacers stand, every cut-out and pocket.

A plan view of the whole board at a reduced scale (the 1:1 templates in
``hardware/templates/`` carry the same positions to drill and cut from), with a
detail of the support that holds the cover over the sensors at 2:1. Positions
come from the sensor map and :mod:`.supports`; cut-outs are red, as on the
templates.
"""

from __future__ import annotations

from lawmaster.hardware.magnetics import stack
from lawmaster.hardware.magnetics.margins import footprint
from lawmaster.hardware.magnetics.placement import POCKET_CLEARANCE_MM
from lawmaster.hardware.mechanical.supports import (
    CABLE_SLOT_MM,
    SUPPORT_PITCH_MM,
    clearance_mm,
    cover_sag_mm,
    outline,
    support_points,
)
from lawmaster.hardware.mechanical.svg import CUT, MEDIUM, THICK, THIN, Sheet, hatch
from lawmaster.hardware.sensor_map import SensorMap

#: The bus cables leave every board at the middle of its bottom (near) edge, where the
#: pieces' chains start (:data:`lawmaster.hardware.electronics.pieces.SCANNER_BELOW_MM`):
#: GW's between the faces into the stand, the flat boards' through a slot in the rim to
#: the scanner box standing against that edge.
CABLE_EDGE = {"gw-brott": "bottom", "judge-dredd": "bottom", "unamerican-graffiti": "bottom"}

PAD_MM = 8.0  # FR-4 spacer pad diameter (flat boards)
SHEET = (420.0, 297.0)  # A3 landscape
PLAN_W, PLAN_H = 260.0, 230.0  # room for the plan on the sheet
STANDOFF_AF_MM = 5.5  # M3 hex standoff across flats
SCREW_HOLE_MM = 3.2
COUNTERSINK_MM = 6.3  # DIN 965 M3 head


def plan_scale(board: str) -> float:
    o = outline(board)
    w, h = o.sheet
    for s in (0.5, 1 / 3, 0.25, 0.2):
        if w * s <= PLAN_W and h * s <= PLAN_H:
            return s
    return 0.2


def cable_exit(board: str) -> tuple[float, float]:
    """Where the cable leaves the board, in the map's frame (mm)."""
    o = outline(board)
    edge = CABLE_EDGE[board]
    if edge != "bottom":
        raise ValueError(f"{board}: cables leave at the bottom edge, not {edge!r}")
    return (o.width / 2, o.height + o.rim + o.foot)


def plan(board: str) -> str:
    sm = SensorMap.load(board)
    o = outline(board)
    scale = plan_scale(board)
    sheet = Sheet(*SHEET, f"{board}: plan of the sheets, supports and cut-outs")
    ox, oy = 24.0, 22.0
    rx, ry = o.origin

    def X(x: float) -> float:
        return ox + (x + rx) * scale

    def Y(y: float) -> float:
        return oy + (y + ry) * scale

    sw, sh = o.sheet
    sheet.rect(ox, oy, sw * scale, sh * scale, fill="#f7f7f7", width=THICK)
    sheet.rect(X(0), Y(0), o.width * scale, o.height * scale, fill="#fff", stroke="#888",
               width=THIN)
    pockets = stack.SPOT_POCKETS.get(board)
    keeper = sm.sensor.keeper
    for spot in sm.spots:
        if pockets is not None:
            d = footprint(next(iter(sm.kinds.values()))) + pockets.clearance_mm
            sheet.circle(X(spot.x), Y(spot.y), d / 2 * scale, stroke=CUT, width=THIN)
        if spot.space == sm.jail and "criminal" in sm.kinds:
            d = footprint(sm.kinds["criminal"]) + POCKET_CLEARANCE_MM
            sheet.circle(X(spot.x), Y(spot.y), d / 2 * scale, stroke=CUT, width=THIN)
        elif keeper is not None:
            sheet.circle(X(spot.x), Y(spot.y), (keeper.outer_mm / 2 + 0.2) * scale, stroke=CUT,
                         width=0.12)
        sheet.circle(X(spot.x), Y(spot.y), 0.5, fill="#000", stroke="none", width=0)
    for x, y in support_points(board):
        r = (STANDOFF_AF_MM if stack.two_sided(board) else PAD_MM) / 2
        sheet.circle(X(x), Y(y), max(r * scale, 1.0), fill="#3d8a3f", stroke="#1d4a1f",
                     width=THIN)
        sheet.circle(X(x), Y(y), 0.5, fill="#fff", stroke="none", width=0)
    cx, cy = cable_exit(board)
    if stack.two_sided(board):
        # GW's cable leaves between the faces at the bottom edge, into the stand's slot.
        sheet.path(f"M{X(cx):.2f},{Y(cy) - 8 * scale:.2f}v{8 * scale + 6:.2f}", stroke=CUT,
                   width=THICK)
        sheet.path(f"M{X(cx) - 1.5:.2f},{Y(cy) + 3:.2f}l1.5,3l1.5,-3z", fill=CUT, stroke=CUT,
                   width=THIN)
        sheet.text(X(cx) + 3, Y(cy) + 6, "cable: between the faces, down into the stand", 2.5,
                   fill=CUT)
    else:
        sw_, sh_ = CABLE_SLOT_MM
        sheet.rect(X(cx) - sw_ / 2 * scale, Y(cy) - sh_ * scale, sw_ * scale, sh_ * scale,
                   fill="#fff", stroke=CUT, width=MEDIUM)
        sheet.text(X(cx) + sw_ / 2 * scale + 2, Y(cy) + 4,
                   f"{sw_:g} × {sh_:g} cable slot in the rim, to the scanner box", 2.5, fill=CUT)
    sheet.hdim(ox, ox + sw * scale, oy - 4, f"{sw:g}")
    sheet.vdim(ox - 5, oy, oy + sh * scale, f"{sh:g}", side="along")
    _legend(sheet, board, ox + PLAN_W + 22, oy, scale)
    _detail(sheet, board, ox + PLAN_W + 22, 130)
    sheet.title_block(
        [
            f"{board}: sheets, supports, cut-outs",
            "Positions from the sensor map and hardware/mechanical/supports.py;",
            "cut and drill from the 1:1 templates (hardware/templates/).",
            f"Supports ≤ {SUPPORT_PITCH_MM:g} mm apart, ≥ {clearance_mm(board):g} mm from a"
            " sensor.",
        ],
        scale,
    )
    sheet.scale_bar(12, sheet.h - 16, scale)
    return sheet.svg()


def _legend(sheet: Sheet, board: str, x: float, y: float, scale: float) -> None:
    sm = SensorMap.load(board)
    o = outline(board)
    sw, sh = o.sheet
    two = stack.two_sided(board)
    lines = [
        ("sheet", f"sheets {sw:g} × {sh:g}: "
         + ("both acrylic faces, the same outline" if two else "MDF cover and base board")),
        ("area", f"playing area {o.width:g} × {o.height:g}, rim {o.rim:g}"
         + (f", foot {o.foot:g} into the stand" if o.foot else "")),
        ("dot", f"{len(sm.spots)} sensors"),
        ("support", f"{len(support_points(board))} supports: "
         + ("M3 brass standoffs 5.0, screws both faces" if two
            else "FR-4 pads Ø8 × 1.6, nylon standoffs 12, one screw")),
    ]
    if two:
        lines.append(("cut", "keeper pockets Ø9.4 (criminals' face, from behind)"))
        lines.append(("cut", "jail pockets Ø17 (criminals' face)"))
    pockets = stack.SPOT_POCKETS.get(board)
    if pockets:
        d = footprint(next(iter(sm.kinds.values()))) + pockets.clearance_mm
        lines.append(("cut", f"spot pockets Ø{d:g} × {pockets.depth_mm:g} deep (cover's face)"))
    if not two:
        lines.append(("cut", f"cable slot {CABLE_SLOT_MM[0]:g} × {CABLE_SLOT_MM[1]:g} in the rim"))
    lines.append(("text", f"cover sag under a 5 N press: {cover_sag_mm(board):.2f} mm"))
    lines.append(("text", f"(least air over a sensor {stack.sensor_clearance_mm(board):g} mm)"))
    yy = y + 3
    for kind, text in lines:
        if kind == "sheet":
            sheet.rect(x, yy - 2.5, 4, 3, fill="#f7f7f7", width=THICK)
        elif kind == "area":
            sheet.rect(x, yy - 2.5, 4, 3, fill="#fff", stroke="#888", width=THIN)
        elif kind == "dot":
            sheet.circle(x + 2, yy - 1, 0.6, fill="#000", stroke="none", width=0)
        elif kind == "support":
            sheet.circle(x + 2, yy - 1, 1.6, fill="#3d8a3f", stroke="#1d4a1f", width=THIN)
        elif kind == "cut":
            sheet.circle(x + 2, yy - 1, 1.6, stroke=CUT, width=MEDIUM)
        sheet.text(x + 6, yy, text, 2.5)
        yy += 5.5


def _detail(sheet: Sheet, board: str, x: float, y: float) -> None:
    """The support at 2:1: its parts and heights, in section."""
    s = 2.0
    sheet.text(x, y - 4, "Support, section at 2:1", 3.0, weight="bold")
    cover = stack.layer(board, "front_cover")
    spacer = stack.layer(board, "front_spacer")
    pcb = stack.layer(board, "pcb")
    pockets = stack.SPOT_POCKETS.get(board)
    cover_t = pockets.sheet_mm if pockets else cover.thickness_mm
    w = 28.0
    z = y
    sheet.rect(x, z, w * s, cover_t * s, fill="#e9d7b5" if not stack.two_sided(board)
               else "#d8ecf7", stroke="#555", width=THIN)
    hatch(sheet, x, z, w * s, cover_t * s, "#a07d44" if not stack.two_sided(board) else "#5a8fb0")
    mid = x + w * s / 2
    # countersunk screw from the cover's face
    sheet.path(f"M{mid - COUNTERSINK_MM:.2f},{z:.2f}h{2 * COUNTERSINK_MM:.2f}"
               f"l{-COUNTERSINK_MM + SCREW_HOLE_MM:.2f},{1.7 * s:.2f}"
               f"h{-2 * SCREW_HOLE_MM + 0.0:.2f}z", fill="#f4f4f4", stroke="#333", width=THIN)
    z += cover_t * s
    r = (STANDOFF_AF_MM if stack.two_sided(board) else PAD_MM) / 2
    fill = "#e3c46b" if stack.two_sided(board) else "#bfe3c0"
    sheet.rect(mid - r * s, z, 2 * r * s, spacer.thickness_mm * s, fill=fill, stroke="#333",
               width=THIN)
    sheet.text(mid + r * s + 2, z + spacer.thickness_mm * s / 2 + 1,
               ("brass standoff M3 F-F " if stack.two_sided(board) else "FR-4 pad Ø8 ")
               + f"{spacer.thickness_mm:g} ± {spacer.tol_mm:g}", 2.4)
    z += spacer.thickness_mm * s
    sheet.rect(x, z, w * s, pcb.thickness_mm * s, fill="#bfe3c0", stroke="#3d8a3f", width=THIN)
    sheet.text(x + w * s + 2, z + 2.5, f"PCB {pcb.thickness_mm:g}, Ø{SCREW_HOLE_MM:g} hole", 2.4)
    z += pcb.thickness_mm * s
    if stack.two_sided(board):
        back = stack.layer(board, "back_cover")
        film = stack.layer(board, "back_film")
        z += film.thickness_mm * s
        sheet.rect(x, z, w * s, back.thickness_mm * s, fill="#d8ecf7", stroke="#555",
                   width=THIN)
        sheet.path(f"M{mid - COUNTERSINK_MM:.2f},{z + back.thickness_mm * s:.2f}"
                   f"h{2 * COUNTERSINK_MM:.2f}l{-COUNTERSINK_MM + SCREW_HOLE_MM:.2f},"
                   f"{-1.7 * s:.2f}h{-2 * SCREW_HOLE_MM:.2f}z", fill="#f4f4f4", stroke="#333",
                   width=THIN)
        sheet.text(x + w * s + 2, z + 3, "GW's face; nylon screw M3×8", 2.4)
        sheet.text(x + w * s + 2, y + 3, "criminals' face; nylon screw M3×6", 2.4)
    else:
        legs = stack.layer(board, "back_spacer")
        shown = 10.0
        sheet.rect(mid - STANDOFF_AF_MM / 2 * s, z, STANDOFF_AF_MM * s, shown * s, fill="#f2f2f2",
                   stroke="#666", width=THIN)
        sheet.text(mid + STANDOFF_AF_MM * s / 2 + 2, z + shown, f"nylon standoff M3 F-F"
                   f" {legs.thickness_mm:g} (broken)", 2.4)
        sheet.text(x + w * s + 2, y + 3, "cover; nylon M3×10, countersunk", 2.4)
