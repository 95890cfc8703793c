"""The layer stack of each board as a cross-section through one sensor, at 5:1.

Drawn from :mod:`lawmaster.hardware.magnetics.stack` (every layer's thickness and
tolerance, the Hall element's height) and the sensor map (each piece's magnet and
lift), so the drawing cannot disagree with the figures: the depths it dimensions
are the ones the margins are computed for. One support (a standoff or a spacer
pad with its screw) is drawn at the side, broken off: it stands at a support
point (:mod:`.supports`), not beside the sensor.
"""

from __future__ import annotations

from lawmaster.hardware.magnetics import stack
from lawmaster.hardware.magnetics.tolerance import RIGID_SKIN_MM
from lawmaster.hardware.mechanical.svg import CUT, MEDIUM, THIN, Sheet, hatch
from lawmaster.hardware.sensor_map import Magnet, SensorMap

SCALE = 5.0
SOT23_BODY_MM = (2.9, 1.1)  # length along the section, height (TI DBZ)
MAGNET_FILL = "#9aa7b8"
COLOURS = {
    "cover": ("#d8ecf7", "#5a8fb0"),  # acrylic
    "mdf": ("#e9d7b5", "#a07d44"),
    "print": ("#fff3c4", "#b89a2a"),
    "film": ("#f5e6f5", "#9a6a9a"),
    "pcb": ("#bfe3c0", "#3d8a3f"),
    "air": ("#ffffff", "#999999"),
}


class _View:
    """Maps the board's section frame (x along the board, z up from the PCB's top, mm)
    onto the sheet at ``SCALE``."""

    def __init__(self, sheet: Sheet, x0: float, z0: float) -> None:
        self.sheet, self.x0, self.z0 = sheet, x0, z0

    def x(self, x: float) -> float:
        return self.x0 + x * SCALE

    def y(self, z: float) -> float:
        return self.z0 - z * SCALE

    def box(self, x1: float, z1: float, x2: float, z2: float, fill: str, stroke: str,
            hatched: str | None = None, width: float = MEDIUM) -> None:
        sx, sy = self.x(min(x1, x2)), self.y(max(z1, z2))
        w, h = abs(x2 - x1) * SCALE, abs(z2 - z1) * SCALE
        self.sheet.rect(sx, sy, w, h, fill=fill, stroke=stroke, width=width)
        if hatched:
            hatch(self.sheet, sx, sy, w, h, hatched)


HALF = 14.5  # the section shows ±HALF mm of board around the sensor
X0 = 28.0  # the section's left edge on the sheet
LABEL_X = X0 + 2 * HALF * SCALE + 22  # where the layer labels start


def _label(v: _View, z: float, text: str, row: int) -> None:
    """A leader from the layer at height ``z`` to its label in the right-hand column."""
    s = v.sheet
    ty = 20 + row * 9.0
    s.line(v.x(HALF) + 1, v.y(z), LABEL_X - 2, ty - 1, THIN, "#555")
    s.circle(v.x(HALF) + 1, v.y(z), 0.5, fill="#555", stroke="#555", width=0.1)
    s.text(LABEL_X, ty, text, 2.7)


def _sensor(v: _View) -> None:
    length, height = SOT23_BODY_MM
    solder = stack.SOLDER_MM
    v.box(-length / 2, solder, length / 2, solder + height, "#333", "#000")
    # leads and the 100 nF beside it
    for x in (-0.95, 0.95):
        v.box(x - 0.2, 0.0, x + 0.2, solder + 0.3, "#bbb", "#666", width=THIN)
    v.box(3.2, 0.0, 4.8, 0.8, "#c9a36b", "#7a5a2a", width=THIN)
    e = stack.ELEMENT_HEIGHT_MM
    v.sheet.circle(v.x(0), v.y(e), 1.1, fill="#f2c200", stroke="#000", width=THIN)
    v.sheet.line(v.x(-HALF), v.y(e), v.x(HALF), v.y(e), THIN, "#c00", dash="2,1.2")
    v.sheet.text(v.x(-HALF) + 1, v.y(e) - 1.2, "Hall element", 2.4, fill="#c00")


def _magnet(v: _View, m: Magnet, surface_z: float, up: bool, body: str, note: str) -> None:
    """A piece on its surface: its lift, its magnet, its body (dashed, broken off)."""
    r = m.diameter_mm / 2
    sign = 1 if up else -1
    lift_top = surface_z + sign * m.lift_mm
    mag_top = lift_top + sign * m.thickness_mm
    foot = m.footprint_mm / 2
    how = m.lift_kind or m.base
    lift_fill = {"rubber": "#555", "ptfe": "#eee", "acrylic": "#d8ecf7", "rigid": "#d9b38c"}[how]
    if how == "rigid":
        skin = RIGID_SKIN_MM
        v.box(-foot, surface_z, foot, surface_z + sign * skin, "#555", "#000", width=THIN)
        v.box(-foot, surface_z + sign * skin, foot, lift_top, lift_fill, "#7a5a2a")
    else:
        v.box(-foot, surface_z, foot, lift_top, lift_fill, "#555")
    v.box(-r, lift_top, r, mag_top, MAGNET_FILL, "#223")
    arrow = "S" if (m.pole == "south") else "N"
    v.sheet.text(v.x(0), v.y((lift_top + mag_top) / 2) + 1.0, f"{arrow} towards the board", 2.4,
                 "middle")
    top = mag_top + sign * 3.0
    v.sheet.path(
        f"M{v.x(-foot):.2f},{v.y(lift_top):.2f}L{v.x(-foot):.2f},{v.y(top):.2f}"
        f"M{v.x(foot):.2f},{v.y(lift_top):.2f}L{v.x(foot):.2f},{v.y(top):.2f}",
        stroke="#555", width=THIN, dash="1.5,1",
    )
    y = v.y(top) + (-6 if up else 4)
    v.sheet.text(v.x(0), y, f"{body}: {note}", 2.5, "middle")


def _depths(v: _View, board: str, front_z: float, back_z: float | None) -> None:
    e = stack.ELEMENT_HEIGHT_MM
    x = v.x(-HALF) - 5
    v.sheet.vdim(x, v.y(e), v.y(front_z), f"{stack.depth(board):g} to the front face", 2.3,
                 side="along")
    if back_z is not None:
        v.sheet.vdim(x, v.y(e), v.y(back_z), f"{stack.depth(board, 'back'):g} to the back face",
                     2.3, side="along")


def gw_section() -> str:
    board = "gw-brott"
    sm = SensorMap.load(board)
    sheet = Sheet(297, 210, "GW:s brott: layer stack through one sensor, 5:1")
    v = _View(sheet, X0 + HALF * SCALE, 84)
    cover = stack.layer(board, "front_cover")
    spacer = stack.layer(board, "front_spacer")
    pcb = stack.layer(board, "pcb")
    film = stack.layer(board, "back_film")
    back = stack.layer(board, "back_cover")
    keeper = sm.sensor.keeper
    assert keeper is not None
    s0 = spacer.thickness_mm
    c1 = s0 + cover.thickness_mm
    fill, edge = COLOURS["cover"]
    v.box(-HALF, s0, HALF, c1, fill, edge, edge)
    # the keeper pocket, milled from behind; its floor keeper.gap_mm under the face
    pr = keeper.outer_mm / 2 + 0.2
    floor = c1 - keeper.gap_mm
    v.box(-pr, s0, pr, floor, "#fff", CUT, width=THIN)
    for side in (-1, 1):
        v.box(side * keeper.inner_mm / 2, floor - keeper.thickness_mm, side * keeper.outer_mm / 2,
              floor, "#777", "#222", "#222")
    v.box(-HALF, 0, HALF, s0, "none", "#bbb", width=THIN)
    liner = stack.layer(board, "front_film")
    fill, edge = COLOURS["film"]
    v.box(-HALF, s0 - liner.thickness_mm, HALF, s0, fill, edge, width=THIN)
    fill, edge = COLOURS["pcb"]
    v.box(-HALF, -pcb.thickness_mm, HALF, 0, fill, edge, edge)
    z = -pcb.thickness_mm
    fill, edge = COLOURS["film"]
    v.box(-HALF, z, HALF, z - film.thickness_mm, fill, edge)
    z -= film.thickness_mm
    fill, edge = COLOURS["cover"]
    v.box(-HALF, z, HALF, z - back.thickness_mm, fill, edge, edge)
    back_face = z - back.thickness_mm
    _sensor(v)
    _standoff(v, HALF - 3.5, s0, c1, back_face)
    crim = sm.kinds["criminal"].magnets[0]
    wood = next(m for m in sm.kinds["gw"].magnets if m.side == "back")
    blue = next(m for m in sm.kinds["gw"].magnets if m.side == "front")
    _magnet(v, crim, c1, True, f"criminal's piece (Ø{crim.footprint_mm:g})",
            f"Ø{crim.diameter_mm:g} × {crim.thickness_mm:g} {crim.grade} over a"
            f" {crim.lift_mm:g} mm acrylic floor")
    _magnet(v, wood, back_face, False, f"GW's wooden piece (Ø{wood.footprint_mm:g})",
            f"Ø{wood.diameter_mm:g} × {wood.thickness_mm:g} {wood.grade}, rigid lift"
            f" {wood.lift_mm:g} (0.5 rubber skin)")
    _depths(v, board, c1, back_face)
    sheet.vdim(v.x(-9), v.y(0), v.y(s0 - liner.thickness_mm),
               f"part space {stack.part_space_mm(board, 'front'):g}", 2.4)
    sheet.vdim(v.x(-3.2), v.y(stack.SOLDER_MM + SOT23_BODY_MM[1]),
               v.y(s0 - liner.thickness_mm), f"air ≥ {stack.sensor_clearance_mm(board):g}", 2.4)
    rows = [
        (c1 - 0.3, f"criminals' face, extruded acrylic: {cover.thickness_mm:g} ± {cover.tol_mm:g}"),
        (floor - 0.4, f"keeper Ø{keeper.outer_mm:g}/{keeper.inner_mm:g} × {keeper.thickness_mm:g},"
                      f" {keeper.gap_mm:g} ± 0.05 under the face"),
        (s0 - liner.thickness_mm / 2,
         f"criminals' print on film: {liner.thickness_mm:g} ± {liner.tol_mm:g}"),
        (s0 / 2, f"air, brass standoffs: {spacer.thickness_mm:g} ± {spacer.tol_mm:g}"),
        (stack.ELEMENT_HEIGHT_MM, f"Hall element {stack.ELEMENT_HEIGHT_MM:g} ±"
                                  f" {stack.ELEMENT_HEIGHT_TOL_MM:g} over the copper"),
        (-pcb.thickness_mm / 2, f"sensor PCB, FR-4: {pcb.thickness_mm:g} ± {pcb.tol_mm:g}"),
        (-pcb.thickness_mm - film.thickness_mm / 2,
         f"film + GW's print: {film.thickness_mm:g} ± {film.tol_mm:g}"),
        (back_face + back.thickness_mm / 2,
         f"GW's face, extruded acrylic: {back.thickness_mm:g} ± {back.tol_mm:g}"),
    ]
    for k, (zz, text) in enumerate(rows):
        _label(v, zz, text, k)
    _notes_and_title(sheet, board, [
        f"GW's blue magnet (front, not drawn): Ø{blue.diameter_mm:g} × {blue.thickness_mm:g}",
        f"{blue.grade} on a {blue.lift_mm:g} mm PTFE glide.",
        "The PCB's back face is glued: no part, no lead.",
        "Support (right, broken off): M3 brass standoff",
        "F-F, countersunk nylon screws through both faces,",
        "at every support point (supports.py).",
    ])
    return sheet.svg()


def _standoff(v: _View, x: float, z_bottom: float, z_top: float, back_face: float) -> None:
    """A brass hex standoff between the faces, the PCB clamped under it, broken off."""
    s = v.sheet
    v.box(x - 2.75, 0, x + 2.75, z_bottom, "#e3c46b", "#8a6d1a", "#8a6d1a")
    for zz, d in ((z_top, -1), (back_face, 1)):
        # countersunk nylon screw head, flush with the face
        hx = [x - 3.0, x + 3.0, x + 1.5, x - 1.5]
        hz = [zz, zz, zz + d * 1.6, zz + d * 1.6]
        pts = " ".join(f"{v.x(a):.2f},{v.y(b):.2f}" for a, b in zip(hx, hz, strict=True))
        s.add(f'<polygon points="{pts}" fill="#f4f4f4" stroke="#333" stroke-width="{THIN}"/>')
    s.text(v.x(x), v.y(z_bottom / 2) + 1, "M3", 2.2, "middle")


def _notes_and_title(sheet: Sheet, board: str, notes: list[str]) -> None:
    y = 20 + 9.0 * 9
    for n in notes:
        sheet.text(LABEL_X, y, n, 2.5, fill="#333")
        y += 4
    sheet.title_block(
        [
            f"{board}: layer stack",
            "Section through one sensor, from hardware/magnetics/stack.py",
            "and the sensor map (python -m lawmaster.hardware.mechanical).",
            f"Element to front face {stack.depth(board):g} mm = the map's depth_mm.",
        ],
        SCALE,
    )
    sheet.scale_bar(12, sheet.h - 16, SCALE, 10.0)


def flat_section(board: str) -> str:
    sm = SensorMap.load(board)
    sheet = Sheet(297, 210, f"{board}: layer stack through one sensor, 5:1")
    v = _View(sheet, X0 + HALF * SCALE, 78)
    cover = stack.layer(board, "front_cover")
    spacer = stack.layer(board, "front_spacer")
    pcb = stack.layer(board, "pcb")
    legs = stack.layer(board, "back_spacer")
    pockets = stack.SPOT_POCKETS.get(board)
    s0 = spacer.thickness_mm
    sheet_t = pockets.sheet_mm if pockets else cover.thickness_mm
    c1 = s0 + sheet_t
    fill, edge = COLOURS["mdf"]
    v.box(-HALF, s0, HALF, c1, fill, edge, edge)
    top = c1
    has_print = any(la.key == "print" for la in stack.STACKS[board])
    if has_print:
        pr = stack.layer(board, "print")
        fill, edge = COLOURS["print"]
        v.box(-HALF, c1, HALF, c1 + pr.thickness_mm, fill, edge)
        top = c1 + pr.thickness_mm
    piece = next(iter(sm.kinds.values())).magnets[0]
    stand_z = top
    if pockets:
        pr_ = (piece.footprint_mm + pockets.clearance_mm) / 2
        floor = c1 - pockets.depth_mm
        v.box(-pr_, floor, pr_, c1, "#fff", CUT, width=MEDIUM)
        stand_z = floor
    v.box(-HALF, 0, HALF, s0, "none", "#bbb", width=THIN)
    fill, edge = COLOURS["pcb"]
    v.box(-HALF, -pcb.thickness_mm, HALF, 0, fill, edge, edge)
    base_top = -pcb.thickness_mm - legs.thickness_mm
    fill, edge = COLOURS["mdf"]
    v.box(-HALF, base_top, HALF, base_top - BASE_MM, fill, edge, edge)
    _sensor(v)
    # a support at the side: spacer pad, standoff, screws
    x = HALF - 4.5
    v.box(x - 4, 0, x + 4, s0, "#bfe3c0", "#3d8a3f", "#3d8a3f")
    v.box(x - 2.75, -pcb.thickness_mm, x + 2.75, base_top, "#f2f2f2", "#666")
    sheet.text(v.x(x), v.y((base_top - pcb.thickness_mm) / 2), "nylon", 2.2, "middle")
    name = "Judge" if "judge" in sm.kinds else "piece"
    _magnet(v, piece, stand_z, True, f"{name}'s base (Ø{piece.footprint_mm:g})",
            f"Ø{piece.diameter_mm:g} × {piece.thickness_mm:g} {piece.grade} on"
            f" {piece.lift_mm:g} mm of rubber")
    _depths(v, board, stand_z, None)
    sheet.vdim(v.x(-9), v.y(0), v.y(s0), f"part space {stack.part_space_mm(board, 'front'):g}",
               2.4)
    sheet.vdim(v.x(-HALF + 3), v.y(-pcb.thickness_mm), v.y(base_top),
               f"part space {stack.part_space_mm(board, 'back'):g}", 2.4)
    rows = []
    if has_print:
        rows.append((top, "printed map, glued on the cover: 0.1 ± 0.02"))
    what = "MDF cover" + (
        f", Ø{piece.footprint_mm + pockets.clearance_mm:g} × {pockets.depth_mm:g} pocket at each"
        " spot" if pockets else ""
    )
    rows += [
        (c1 - 0.5, f"{what}: {sheet_t:g} ± 0.2"),
        *([(c1 - pockets.depth_mm - 0.5,
            f"pocket floor under a piece: {cover.thickness_mm:g} ± {cover.tol_mm:g}")]
          if pockets else []),
        (s0 / 2, f"air, FR-4 spacer pads: {s0:g} ± {spacer.tol_mm:g}"),
        (stack.ELEMENT_HEIGHT_MM, f"Hall element {stack.ELEMENT_HEIGHT_MM:g} ±"
                                  f" {stack.ELEMENT_HEIGHT_TOL_MM:g} over the copper"),
        (-pcb.thickness_mm / 2, f"sensor PCB tile, FR-4: {pcb.thickness_mm:g} ± {pcb.tol_mm:g}"),
        (base_top / 2 - 1, f"M3 nylon standoffs {legs.thickness_mm:g}"),
        (base_top - BASE_MM / 2, f"base board, MDF {BASE_MM:g}"),
    ]
    for k, (zz, text) in enumerate(rows):
        _label(v, zz, text, k)
    _notes_and_title(sheet, board, [
        "Support (right, broken off): FR-4 pad Ø8 × 1.6",
        "on the tile, a nylon standoff under it, one",
        "countersunk M3 screw from the cover's face",
        "(under the print) at every support point.",
        "Scanner board: in its box beside the board.",
    ])
    return sheet.svg()


#: The flat boards' base board (MDF) under the tiles' standoffs (mm).
BASE_MM = 6.0
