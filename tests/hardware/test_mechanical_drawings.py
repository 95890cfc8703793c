"""The mechanical drawings and parts list: generated from the stack, committed as generated,
and the design they show fits (supports clear of the sensors, covers that do not sag onto
them, a stand that holds the scanner and does not tip at a player's press)."""

from __future__ import annotations

import json
import math
import re
import struct
import xml.etree.ElementTree as ET

import pytest

from lawmaster.hardware import mechanical
from lawmaster.hardware.magnetics import stack
from lawmaster.hardware.mechanical import parts, stand, supports
from lawmaster.hardware.pcb import layout
from lawmaster.hardware.sensor_map import SensorMap

BOARDS = ("gw-brott", "judge-dredd", "unamerican-graffiti")


@pytest.fixture(scope="module")
def generated():
    return mechanical.outputs()


def test_committed_drawings_and_parts_match_the_generator(generated):
    for path, text in generated.items():
        assert path.read_text("utf-8") == text, (
            f"regenerate with: python -m lawmaster.hardware.mechanical ({path.name})"
        )


def test_every_drawing_is_a_sheet_in_mm_with_a_title_block_and_a_render(generated):
    for path, text in generated.items():
        if path.suffix != ".svg":
            continue
        root = ET.fromstring(text)
        w, h = (
            float(re.fullmatch(r"([\d.]+)mm", root.get(k)).group(1)) for k in ("width", "height")
        )
        assert [float(v) for v in root.get("viewBox").split()] == [0, 0, w, h]
        assert "Scale" in text and "dimensions in mm" in text, path.name
        png = mechanical.RENDERS / (path.stem + ".png")
        assert png.is_file(), "render it: python -m lawmaster.hardware.mechanical.render"
        pw, ph = struct.unpack(">II", png.read_bytes()[16:24])
        assert pw / ph == pytest.approx(w / h, rel=0.01), png.name


@pytest.mark.parametrize("board", BOARDS)
def test_the_section_dimensions_the_map_s_depths(board, generated):
    text = generated[mechanical.DRAWINGS / f"section-{board}.svg"]
    spec = SensorMap.load(board).sensor
    assert f"{spec.depth_mm:g} to the front face" in text
    if stack.two_sided(board):
        assert f"{spec.back_depth_mm:g} to the back face" in text
    for la in stack.STACKS[board]:
        if la.role in ("cover", "spacer", "pcb", "film") and la.side == "front":
            assert f"{la.thickness_mm:g} ± {la.tol_mm:g}" in text, la.key


@pytest.mark.parametrize("board", BOARDS)
def test_supports_stand_clear_of_every_sensor_and_hold_the_cover_flat(board):
    sm = SensorMap.load(board)
    pts = supports.support_points(board)
    clear = supports.clearance_mm(board)
    for x, y in pts:
        assert min(math.hypot(s.x - x, s.y - y) for s in sm.spots) >= clear - 1e-6
    # No point of the playing area lies further from a support than half the largest
    # span's diagonal, and that span is the design's pitch at most.
    assert supports.largest_span_mm(board) <= supports.SUPPORT_PITCH_MM * 1.01
    # Pressed with 5 N midway between supports, the cover stays off the sensors.
    assert supports.cover_sag_mm(board) < stack.sensor_clearance_mm(board)


def test_the_stand_holds_the_scanner_and_the_board():
    s = stand.gw_stand()
    length, depth, height = stand.compartment_mm(s)
    # The scanner board as it is laid out (98 × 80 mm), its plugs' room round it, and its
    # tallest part (the Pico H in its sockets, 12.51 mm) over its standoffs and its board.
    sl, sw, sh = stand.scanner_envelope()
    w, h = layout.SCANNER_SIZE
    assert (sl, sw) == (w + 45.0, h + 26.0 + 15.0)
    assert stand.scanner_tallest_mm() == pytest.approx(8.51 + 1.0 + 3.0)
    assert sh == pytest.approx(stand.SCANNER_STANDOFF_MM + 1.6 + stand.scanner_tallest_mm())
    assert length >= sl and depth >= sw and height >= sh
    assert stand.scanner_spare_mm("gw-brott") >= 0
    assert stand.scanner_room("gw-brott")["front"] == pytest.approx(39.0 - 6.0 - 1.6)
    # The grooves take the thickest board the stack's tolerances allow, lined with felt.
    assert s.groove_w - 2 * s.felt_t > stand.board_thickness("max")
    assert s.groove_w - 2 * s.felt_t - stand.board_thickness() < 1.5
    # A player's press on the board's top edge does not tip it.
    assert stand.tipping_force_n(s) > supports.PRESS_N
    bl, bw, bh = stand.scanner_box()
    assert bl - 12 >= sl and bw - 12 >= sw and bh - 12 >= sh + stand.LID_AIR_MM - 1e-9
    for board in ("judge-dredd", "unamerican-graffiti"):
        assert stand.scanner_spare_mm(board) >= 0
        assert stand.scanner_room(board)["front"] >= stand.scanner_tallest_mm()


def test_parts_json_lists_every_part_the_design_needs():
    data = json.loads(mechanical.PARTS.read_text("utf-8"))
    assert data["format"] == parts.FORMAT and data["version"] == parts.VERSION
    assert set(data["boards"]) == set(BOARDS)
    keys = {
        "id", "what", "material", "size_mm", "spec", "qty", "unit", "supplier_part", "price",
        "for",
    }
    for board, rows in data["boards"].items():
        ids = [r["id"] for r in rows]
        assert len(ids) == len(set(ids)), board
        for r in rows:
            assert set(r) == keys, (board, r["id"])
            assert r["qty"] > 0 and r["unit"] in ("pcs", "m²"), (board, r["id"])
        by = {r["id"]: r for r in rows}
        sm = SensorMap.load(board)
        assert by["standoff"]["qty"] == len(supports.support_points(board))
        for kind in sm.kinds.values():
            for m in kind.magnets:
                assert f"magnet-{m.diameter_mm:g}x{m.thickness_mm:g}" in by, (board, m)
    gw = {r["id"]: r for r in data["boards"]["gw-brott"]}
    assert gw["keeper-washer"]["qty"] == len(SensorMap.load("gw-brott").spots)
    assert "not stainless" in gw["keeper-washer"]["material"]
    assert "lift-gw" in gw and "stand-top" in gw


def test_build_md_s_stack_figures_are_the_design_s():
    # BUILD.md tells the builder the stack in words; each figure it gives is the code's.
    from lawmaster.hardware.mechanical.supports import outline

    text = (mechanical.HERE.parent / "BUILD.md").read_text("utf-8")
    text = " ".join(text.split())  # line breaks inside sentences
    gw = SensorMap.load("gw-brott")
    crim = gw.kinds["criminal"].magnets[0]
    blue, wood = gw.kinds["gw"].magnets
    sw, sh = outline("gw-brott").sheet
    dredd = stack.SPOT_POCKETS["judge-dredd"]
    phrases = [
        f"{sw:g} × {sh:g} mm sheets of {stack.layer('gw-brott', 'front_cover').thickness_mm:g}"
        " mm extruded acrylic",
        f"M3 × {stack.layer('gw-brott', 'front_spacer').thickness_mm:g} mm brass standoffs",
        f"stay under {stack.part_space_mm('gw-brott', 'front'):g} mm",
        f"stay under {stack.part_space_mm('judge-dredd', 'front'):g} mm",
        f"there are {stack.part_space_mm('judge-dredd', 'back'):g} mm",
        f"M3 × {stack.layer('judge-dredd', 'back_spacer').thickness_mm:g} mm nylon standoffs",
        f"Ø8 × {stack.layer('judge-dredd', 'front_spacer').thickness_mm:g} mm FR-4 pad",
        f"Ø{25 + dredd.clearance_mm:g} × {dredd.depth_mm:.1f} mm pocket",
        f"Ø{crim.diameter_mm:g} × {crim.thickness_mm:g} mm magnet",
        f"blue magnet (Ø{blue.diameter_mm:g} × {blue.thickness_mm:g} mm)",
        f"{blue.lift_mm:g} mm PTFE glide",
        f"Ø{wood.diameter_mm:g} × {wood.thickness_mm:g} mm magnet",
        f"rigid {wood.lift_mm:.1f} mm lift",
    ]
    # The art's print: each board's playing area 1:1, the paper the stack counts.
    sizes = {b: SensorMap.load(b).size_mm for b in BOARDS}
    names = {"gw-brott": "GW:s brott", "judge-dredd": "Judge Dredd",
             "unamerican-graffiti": "Unamerican Graffiti"}
    phrases += [f"{names[b]} {w:g} × {h:g} mm" for b, (w, h) in sizes.items()]
    paper = stack.layer("unamerican-graffiti", "print")
    phrases.append(f"counts {paper.thickness_mm:.2f} ± {paper.tol_mm:g} mm for it")
    for phrase in phrases:
        assert phrase in text, phrase


@pytest.mark.parametrize("board", ("judge-dredd", "unamerican-graffiti"))
def test_no_support_stands_in_the_rims_cable_slot(board):
    o = supports.outline(board)
    half = supports.CABLE_SLOT_MM[0] / 2
    for x, y in supports.support_points(board):
        if y > o.height:  # the bottom rim's row
            assert abs(x - o.width / 2) >= half + supports.SLOT_CLEAR_MM - 1e-9, (x, y)
