"""The PCB pieces follow the mechanical design: every support of the cover that falls on a
piece is a mounting hole of that piece, in the generated KiCad board too, and every hole
keeps the supports' distance from every sensor (``mechanical.keepout``)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from lawmaster.hardware.electronics.pieces import plan
from lawmaster.hardware.mechanical import supports
from lawmaster.hardware.mechanical.keepout import clearance_mm
from lawmaster.hardware.pcb.board import MARGIN
from lawmaster.hardware.pcb.layout import layout, snap
from lawmaster.hardware.pcb.specs import folder_of, name_of
from lawmaster.hardware.sensor_map import SensorMap

ROOT = Path(__file__).resolve().parents[2]
BOARDS = ("gw-brott", "judge-dredd", "unamerican-graffiti")


def _inside(point: tuple[float, float], poly: list[tuple[float, float]]) -> bool:
    x, y = point
    inside = False
    for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
            inside = not inside
    return inside


@pytest.mark.parametrize("board", BOARDS)
def test_every_support_on_a_piece_is_one_of_its_holes(board):
    made = plan(board)
    points = supports.support_points(board)
    holes = set(supports.hole_points(board))
    assert holes <= set(points)
    on_pieces = 0
    for x, y in points:
        for piece in made.pieces:
            lay = layout(board, piece.kind)
            outline = [piece.to_board(px, py) for px, py in lay.outline]
            if _inside((x, y), outline):
                on_pieces += 1
                mine = [piece.to_board(hx, hy) for hx, hy in lay.holes]
                assert any(math.dist((x, y), h) < 0.01 for h in mine), (piece.name, x, y)
    # Every hole is a support on its piece; the flat boards' supports off the pieces stand
    # clear of every piece's edge.
    assert on_pieces == len(holes) == sum(len(layout(board, p.kind).holes) for p in made.pieces)
    for x, y in supports.off_piece_points(board):
        for piece in made.pieces:
            outline = [piece.to_board(px, py) for px, py in layout(board, piece.kind).outline]
            xs = [p[0] for p in outline]
            ys = [p[1] for p in outline]
            margin = supports.PIECE_EDGE_MM
            assert not (
                min(xs) - margin < x < max(xs) + margin and min(ys) - margin < y < max(ys) + margin
            ), (piece.name, x, y)


@pytest.mark.parametrize("board", BOARDS)
def test_every_hole_keeps_clear_of_every_sensor(board):
    spots = SensorMap.load(board).spots
    clear = clearance_mm(board)
    for x, y in supports.hole_points(board):
        assert min(math.hypot(s.x - x, s.y - y) for s in spots) >= clear - 1e-6, (x, y)
    for piece in plan(board).pieces:
        lay = layout(board, piece.kind)
        assert lay.holes, f"{board}/{piece.kind} has no mounting hole"
        for hx, hy in lay.holes:
            for sx, sy in lay.circuit.sensors:
                assert math.hypot(sx - hx, sy - hy) >= clear - 1e-6


@pytest.mark.parametrize("board", BOARDS)
def test_the_generated_boards_have_their_holes_where_the_layout_puts_them(board):
    for kind in dict.fromkeys(p.kind for p in plan(board).pieces):
        lay = layout(board, kind)
        text = (ROOT / folder_of(board, kind) / f"{name_of(board, kind)}.kicad_pcb").read_text()
        found = sorted(
            (round(float(x), 3), round(float(y), 3))
            for x, y in re.findall(
                r'\(footprint "Lawmaster:MountingHole_3\.2mm_M3".*?\(at ([-\d.]+) ([-\d.]+)\)',
                text,
                re.S,
            )
        )
        xs = [p[0] for p in lay.outline]
        ys = [p[1] for p in lay.outline]
        ox, oy = snap(MARGIN - min(xs)), snap(MARGIN - min(ys))
        wanted = sorted((round(x + ox, 3), round(y + oy, 3)) for x, y in lay.holes)
        assert found == wanted, kind
