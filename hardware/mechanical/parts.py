"""Every mechanical part a board needs, with its size and quantity: ``parts.json``.

The orderable bill of materials (``hardware/BOM.md``) reads this file for its
mechanical section; the sizes and counts come from the stack, the sensor map and
the drawings' modules, so they change with the design. Format (``FORMAT``,
version ``VERSION``)::

    {"format": "lawmaster-mechanical-parts", "version": 1,
     "generated_by": "python -m lawmaster.hardware.mechanical",
     "boards": {"gw-brott": [
        {"id": "front-cover", "what": "...", "material": "...",
         "size_mm": [270, 340, 2.0], "spec": "...", "qty": 1, "unit": "pcs",
         "supplier_part": null, "price": "acrylic-xt-2mm", "for": "..."}, ...]}}

``size_mm`` is the part's size (length, width, thickness; a disc is [diameter,
thickness]; a screw [thread, length]; a strip [length, width, height]); ``spec``
the standard or grade to order it by; ``unit`` is ``"pcs"`` or ``"m²"`` (sheet
material by area); ``qty`` per board; ``supplier_part`` a maker's part number where
the design names one, else ``null`` (any maker's part to ``spec`` will do);
``price`` the key of its price in ``hardware/prices.json``. The BOM prices a part
by its price's unit (:mod:`lawmaster.hardware.electronics.mechanical`): a part in
``m²`` is already an area; pieces of a price per m² are cut from sheet, each taking
its length × width (a disc the square it is cut from); pieces of a price per metre
take their length; anything else is counted.
"""

from __future__ import annotations

import json
from typing import Any

from lawmaster.hardware.magnetics import stack
from lawmaster.hardware.magnetics.placement import POCKET_CLEARANCE_MM
from lawmaster.hardware.magnetics.tolerance import RIGID_SKIN_MM
from lawmaster.hardware.mechanical.section import BASE_MM
from lawmaster.hardware.mechanical.stand import (
    SCANNER_STANDOFF_MM,
    compartment_mm,
    gw_stand,
    scanner_box,
)
from lawmaster.hardware.mechanical.supports import off_piece_points, outline, support_points
from lawmaster.hardware.sensor_map import SensorMap

FORMAT = "lawmaster-mechanical-parts"
VERSION = 1
BOARDS = ("gw-brott", "judge-dredd", "unamerican-graffiti")
#: How many pieces of each kind a game has (its rulebook): criminals 4 (GW:s brott,
#: one per criminal player), GW's pair 1; Judge Dredd 6 Judges; Graffiti 2 scrawlers
#: and 6 Judge counters. One spare magnet of each size is added.
PIECES = {
    "gw-brott": {"criminal": 4, "gw": 1},
    "judge-dredd": {"judge": 6},
    "unamerican-graffiti": {"scrawler": 2, "judge": 6},
}


def _part(
    id_: str,
    what: str,
    material: str,
    size: list[float],
    spec: str,
    qty: float,
    for_: str,
    price: str,
    unit: str = "pcs",
    supplier: str | None = None,
) -> dict[str, Any]:
    return {
        "id": id_,
        "what": what,
        "material": material,
        "size_mm": [round(v, 2) for v in size],
        "spec": spec,
        "qty": round(qty, 3) if unit != "pcs" else int(qty),
        "unit": unit,
        "supplier_part": supplier,
        "price": price,
        "for": for_,
    }


def magnet_price(diameter_mm: float, thickness_mm: float) -> str:
    """The price key of a disc magnet of this size (``prices.json``)."""
    return f"magnet-{diameter_mm:g}x{thickness_mm:g}"


def _magnets(board: str, sm: SensorMap) -> list[dict[str, Any]]:
    """One line per magnet size: the pieces' count plus a spare."""
    count: dict[tuple[float, float, str], int] = {}
    uses: dict[tuple[float, float, str], list[str]] = {}
    for name, kind in sm.kinds.items():
        for m in kind.magnets:
            key = (m.diameter_mm, m.thickness_mm, m.grade)
            count[key] = count.get(key, 0) + PIECES[board][name]
            uses.setdefault(key, []).append(name)
    out = []
    for (d, t, grade), n in count.items():
        out.append(
            _part(
                f"magnet-{d:g}x{t:g}",
                f"disc magnet Ø{d:g} × {t:g} mm, axially magnetised",
                f"sintered NdFeB {grade}, Ni-Cu-Ni plated",
                [d, t],
                f"{grade} (Br 1.28-1.32 T), Ø ±0.1, thickness ±0.1 mm",
                n + 1,
                f"the pieces: {', '.join(uses[(d, t, grade)])} (one spare)",
                magnet_price(d, t),
            )
        )
    return out


def _lifts(board: str, sm: SensorMap) -> list[dict[str, Any]]:
    out = []
    for name, kind in sm.kinds.items():
        n = PIECES[board][name]
        for m in kind.magnets:
            how = m.lift_kind or m.base
            if how == "rubber":
                out.append(_part(f"base-{name}", f"rubber base disc for a {name}",
                                 "solid rubber sheet, Shore 50-70A (not foam, not felt)",
                                 [m.footprint_mm, m.lift_mm],
                                 f"{m.lift_mm:g} ± 0.2 mm sheet, cut to Ø{m.footprint_mm:g}", n,
                                 f"{name}'s magnet {m.lift_mm:g} mm over the board",
                                 f"rubber-sheet-{m.lift_mm:g}mm"))
            elif how == "ptfe":
                out.append(_part(f"glide-{name}", f"glide under GW's blue magnet ({name})",
                                 "PTFE sheet (skived)", [m.footprint_mm, m.lift_mm],
                                 f"{m.lift_mm:g} ± 0.15 mm, cut to Ø{m.footprint_mm:g}", n,
                                 "the blue magnet's lift; low friction so it follows",
                                 "ptfe-disc"))
            elif how == "rigid":
                out.append(_part(f"lift-{name}", "rigid lift: the wooden piece's hard body",
                                 "hardwood, acetal (POM) or a PETG print",
                                 [m.footprint_mm, m.lift_mm - RIGID_SKIN_MM + m.thickness_mm],
                                 f"a Ø{m.diameter_mm + 0.2:g} pocket from the top, its floor"
                                 f" {m.lift_mm - RIGID_SKIN_MM:g} ± 0.1 mm thick", n,
                                 "GW's wooden piece: the magnet's lift, not compressible",
                                 "rigid-lift"))
                out.append(_part(f"skin-{name}", "anti-slip skin under the rigid lift",
                                 "self-adhesive rubber sheet", [m.footprint_mm, RIGID_SKIN_MM],
                                 f"{RIGID_SKIN_MM:g} ± 0.05 mm", n, "grip on GW's face",
                                 f"rubber-sheet-{RIGID_SKIN_MM:g}mm-adhesive"))
            elif how == "acrylic":
                height = m.lift_mm + 4
                out.append(_part(f"body-{name}", f"{name}'s acrylic body with its magnet pocket",
                                 "cast or extruded acrylic", [m.footprint_mm, height],
                                 f"a Ø{m.diameter_mm + 0.2:g} pocket from the top, floor"
                                 f" {m.lift_mm:g} ± 0.1 mm", n, f"{name}'s magnet lift",
                                 f"acrylic-{height:g}mm"))
    return out


def _glue(what_for: str) -> dict[str, Any]:
    return _part("glue", "two-part epoxy, 5 minutes", "epoxy adhesive", [],
                 "25 ml double syringe", 1, what_for, "epoxy")


def _gw(board: str) -> list[dict[str, Any]]:
    sm = SensorMap.load(board)
    o = outline(board)
    sw, sh = o.sheet
    n_sup = len(support_points(board))
    keeper = sm.sensor.keeper
    assert keeper is not None
    cover = stack.layer(board, "front_cover")
    crim = sm.kinds["criminal"]
    jail = sum(1 for s in sm.spots if s.space == sm.jail)
    s = gw_stand()
    inner = compartment_mm(s)
    out = [
        _part("front-cover", "criminals' face", "clear extruded acrylic (PMMA), not cast",
              [sw, sh, cover.thickness_mm], "ISO 7823-2, 2 mm ±10 %", 1,
              f"front cover; {len(sm.spots)} keeper pockets from behind, {jail} jail pockets"
              f" Ø{crim.magnets[0].footprint_mm + POCKET_CLEARANCE_MM:g}", "acrylic-xt-2mm"),
        _part("back-cover", "GW's face", "clear extruded acrylic (PMMA), not cast",
              [sw, sh, stack.layer(board, "back_cover").thickness_mm], "ISO 7823-2, 2 mm ±10 %",
              1, "back cover, glued to the PCB", "acrylic-xt-2mm"),
        _part("keeper-washer", "keeper washer", "low-carbon steel, zinc plated (magnetic: not"
              " stainless)", [keeper.outer_mm, keeper.inner_mm, keeper.thickness_mm],
              "DIN 125-A M4 (ISO 7089), 0.8 mm", len(sm.spots),
              "holds the criminals on the upright board, one under each sensor", "washer-m4"),
        _part("standoff", "hex standoff, female-female", "brass",
              [3.0, stack.layer(board, "front_spacer").thickness_mm],
              "M3 × 5 mm, 5.5 mm across flats, length ±0.1 mm", n_sup,
              "holds the criminals' face 5.0 mm over the PCB", "standoff-m3x5-brass"),
        _part("screw-front", "countersunk screw", "nylon (PA66)", [3.0, 6.0],
              "DIN 965 / ISO 7046 M3 × 6", n_sup, "criminals' face to the standoffs",
              "screw-m3x6-nylon-csk"),
        _part("screw-back", "countersunk screw", "nylon (PA66)", [3.0, 8.0],
              "DIN 965 / ISO 7046 M3 × 8", n_sup, "GW's face and the PCB to the standoffs",
              "screw-m3x8-nylon-csk"),
        _part("transfer-film", "adhesive transfer film", "acrylic adhesive transfer tape",
              [sw, sh, 0.06], "3M 467MP class, 0.06 mm", 2 * sw * sh * 1e-6,
              "the prints to the faces, GW's face to the PCB", "transfer-tape", unit="m²",
              supplier="3M 467MP"),
        _part("print", "the board's art, printed 1:1 (the owner's copy)", "paper 80-100 g/m²",
              [o.width, o.height, 0.1], "laser or inkjet, print at 100 %", 2,
              "behind each clear face", "print"),
        _glue("the keeper washers into their pockets; the magnets into their pieces"),
        *_magnets(board, sm),
        *_lifts(board, sm),
        _part("stand-top", "stand: top panel with the groove", "birch plywood",
              [s.length, s.depth, s.top_t], f"{s.top_t:g} mm", 1, f"groove {s.groove_w:g} ×"
              f" {s.groove_d:g}, cable slot {s.cable_slot[0]:g} × {s.cable_slot[1]:g}",
              f"plywood-birch-{s.top_t:g}mm"),
        _part("stand-bottom", "stand: bottom panel (screwed on: it opens)", "birch plywood",
              [inner[0], inner[1], s.wall_t], f"{s.wall_t:g} mm", 1,
              f"closes the {inner[0]:g} × {inner[1]:g} × {inner[2]:g} compartment",
              f"plywood-birch-{s.wall_t:g}mm"),
        _part("stand-wall-long", "stand: front and back wall", "birch plywood",
              [s.length, inner[2], s.wall_t], f"{s.wall_t:g} mm", 2,
              "the box's long sides; two Ø12 holes in the back one",
              f"plywood-birch-{s.wall_t:g}mm"),
        _part("stand-wall-short", "stand: end wall", "birch plywood",
              [inner[1], inner[2], s.wall_t], f"{s.wall_t:g} mm", 2,
              "the box's ends, between the long walls", f"plywood-birch-{s.wall_t:g}mm"),
        _part("stand-cheek", "stand: cheek with a vertical groove", "birch plywood",
              [s.depth, s.cheek_h, s.cheek_t], f"{s.cheek_t:g} mm", 2,
              f"holds the board's side edges, groove {s.groove_w:g} × {s.cheek_groove_d:g}",
              f"plywood-birch-{s.cheek_t:g}mm"),
        _part("felt", "adhesive felt strip", "self-adhesive felt", [500.0, 6.0, s.felt_t],
              f"{s.felt_t:g} mm", 1, "lines the grooves: a snug, scratch-free fit",
              "felt-tape"),
        _part("feet", "rubber foot, self-adhesive", "rubber", [20.0, s.feet_h],
              f"Ø20 × {s.feet_h:g} mm", 4, "under the stand", "rubber-feet"),
        _part("scanner-standoff", "hex standoff, female-female", "nylon",
              [3.0, SCANNER_STANDOFF_MM], f"M3 × {SCANNER_STANDOFF_MM:g}", 4,
              "the scanner board in the stand", f"standoff-m3x{SCANNER_STANDOFF_MM:g}-nylon"),
        _part("grommet", "rubber grommet", "rubber", [12.0, 9.0], "for a Ø12 hole", 2,
              "the Pi's USB cable and the 12 V adapter's lead into the stand", "grommet-12"),
        _part("wood-screw", "wood screw", "steel", [3.5, 16.0], "3.5 × 16 countersunk", 16,
              "the stand's box and cheeks", "wood-screw-3.5x16"),
    ]
    return out


def _flat(board: str) -> list[dict[str, Any]]:
    sm = SensorMap.load(board)
    o = outline(board)
    sw, sh = o.sheet
    n_sup = len(support_points(board))
    n_off = len(off_piece_points(board))
    spacer = stack.layer(board, "front_spacer")
    legs = stack.layer(board, "back_spacer")
    pockets = stack.SPOT_POCKETS.get(board)
    sheet_t = pockets.sheet_mm if pockets else stack.layer(board, "front_cover").thickness_mm
    rim_h = BASE_MM + legs.thickness_mm + 1.6 + spacer.thickness_mm + sheet_t
    bl, bw, bh = scanner_box()
    box_t = 6.0
    cover_note = "the playing surface"
    if pockets is not None:
        d = max(m.footprint_mm for k in sm.kinds.values() for m in k.magnets)
        cover_note += (f"; {len(sm.spots)} pockets Ø{d + pockets.clearance_mm:g} ×"
                       f" {pockets.depth_mm:g} deep")
    return [
        _part("cover", "cover", "MDF", [sw, sh, sheet_t], f"{sheet_t:g} mm, EN 622-5, ±0.2 mm",
              1, cover_note, f"mdf-{sheet_t:g}mm"),
        _part("print", "the board's art, printed 1:1 (the owner's copy)", "paper 80-100 g/m²",
              [o.width, o.height, 0.1], "laser or inkjet, print at 100 %", 1,
              "glued on the cover with spray adhesive", "print"),
        _part("spray-adhesive", "spray adhesive, repositionable", "aerosol contact adhesive",
              [], "400 ml can (3M Spray Mount class)", 1, "the print on the cover",
              "spray-adhesive"),
        _part("base", "base board", "MDF", [sw, sh, BASE_MM], f"{BASE_MM:g} mm", 1,
              "carries the tiles' standoffs", f"mdf-{BASE_MM:g}mm"),
        _part("rim", "rim strip", "pine or MDF", [2 * (sw + sh) + 4 * 18.0, 18.0, rim_h],
              f"18 × {rim_h:g} mm, total length", 1, "round the base; the cover sits inside",
              "pine-strip"),
        _part("spacer-pad", "spacer pad", "FR-4 (a blank board from the PCB fab)",
              [8.0, spacer.thickness_mm], f"Ø8 × {spacer.thickness_mm:g} mm (±10 %), Ø3.2 hole",
              n_sup + n_off, "holds the cover 1.6 mm over the PCB pieces; where a support"
              f" stands off the pieces ({n_off}), a second pad takes the PCB's place",
              "fr4-sheet-1.6mm"),
        _part("standoff", "hex standoff, female-female", "nylon",
              [3.0, legs.thickness_mm], f"M3 × {legs.thickness_mm:g} mm", n_sup,
              "the tiles over the base board", f"standoff-m3x{legs.thickness_mm:g}-nylon"),
        _part("screw-top", "countersunk screw", "nylon (PA66)", [3.0, 10.0],
              "DIN 965 / ISO 7046 M3 × 10", n_sup,
              "cover, pad and tile to the standoff (under the print)", "screw-m3x10-nylon-csk"),
        _part("screw-bottom", "pan head screw", "nylon (PA66)", [3.0, 8.0],
              "DIN 7985 / ISO 7045 M3 × 8", n_sup, "the base board to the standoffs",
              "screw-m3x8-nylon-pan"),
        _glue("the magnets on their rubber bases"),
        *_magnets(board, sm),
        *_lifts(board, sm),
        _part("scanner-box-lid", "scanner box: lid and bottom", "birch plywood",
              [bl, bw, box_t], f"{box_t:g} mm, box {bl:g} × {bw:g} × {bh:g} outside", 2,
              "the scanner board, against the board's bottom edge at its cable slot; the lid"
              " screwed on",
              f"plywood-birch-{box_t:g}mm"),
        _part("scanner-box-wall-long", "scanner box: long wall", "birch plywood",
              [bl, bh - 2 * box_t, box_t], f"{box_t:g} mm", 2,
              "between lid and bottom; their holes as the drawing shows",
              f"plywood-birch-{box_t:g}mm"),
        _part("scanner-box-wall-short", "scanner box: short wall", "birch plywood",
              [bw - 2 * box_t, bh - 2 * box_t, box_t], f"{box_t:g} mm", 2,
              "between the long walls", f"plywood-birch-{box_t:g}mm"),
        _part("scanner-standoff", "hex standoff, female-female", "nylon",
              [3.0, SCANNER_STANDOFF_MM], f"M3 × {SCANNER_STANDOFF_MM:g}", 4,
              "the scanner board in its box", f"standoff-m3x{SCANNER_STANDOFF_MM:g}-nylon"),
        _part("grommet", "rubber grommet", "rubber", [12.0, 9.0], "for a Ø12 hole", 2,
              "the Pi's USB cable and the 12 V adapter's lead into the box (the bus cables"
              " pass the rim's slot)", "grommet-12"),
        _part("feet", "rubber foot, self-adhesive", "rubber", [20.0, 5.0], "Ø20 × 5 mm", 6,
              "under the base board", "rubber-feet"),
        _part("wood-screw", "wood screw", "steel", [3.5, 16.0], "3.5 × 16 countersunk", 12,
              "the rim and the scanner box", "wood-screw-3.5x16"),
    ]


def parts() -> dict[str, Any]:
    """The whole parts list, as ``parts.json`` holds it."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "generated_by": "python -m lawmaster.hardware.mechanical",
        "boards": {b: (_gw(b) if stack.two_sided(b) else _flat(b)) for b in BOARDS},
    }


def text() -> str:
    """``parts.json``'s text."""
    return json.dumps(parts(), indent=1, ensure_ascii=False) + "\n"


