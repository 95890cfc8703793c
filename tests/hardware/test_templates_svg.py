"""The 1:1 templates and their page sets: committed files match the generator, sizes in mm
match the sheet, every sensor, support and cut-out is drawn, and the pages tile the sheet
with registration marks both neighbours carry."""

import re
import xml.etree.ElementTree as ET

import pytest

from lawmaster.hardware import templates
from lawmaster.hardware.magnetics import stack
from lawmaster.hardware.mechanical.supports import outline, support_points
from lawmaster.hardware.sensor_map import SensorMap

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("game", templates.BOARDS)
def test_committed_template_matches_generator(game):
    sm = SensorMap.load(game)
    assert templates.path_of(game).read_text("utf-8") == templates.render(sm)
    for paper in templates.PAPERS:
        assert templates.pages_path(game, paper).read_text("utf-8") == templates.pages_html(
            sm, paper
        ), f"regenerate with: python -m lawmaster.hardware.templates ({game}, {paper})"


@pytest.mark.parametrize("game", templates.BOARDS)
def test_physical_size_is_the_sheet_s(game):
    sm = SensorMap.load(game)
    o = outline(game)
    root = ET.fromstring(templates.path_of(game).read_text("utf-8"))
    w, h = (float(re.fullmatch(r"([\d.]+)mm", root.get(k)).group(1)) for k in ("width", "height"))
    assert (w, h) == o.sheet
    assert [float(v) for v in root.get("viewBox").split()] == [0, 0, w, h]
    # The playing area is the map's size, inside the rim.
    assert sm.size_mm == (o.width, o.height)
    # Every sensor is drawn, inside the playing area; every support has its hole.
    crosses = [e for e in root.iter(f"{SVG}path") if e.get("class") == "sensor"]
    assert len(crosses) == len(sm.spots)
    assert all(0 < s.x < o.width and 0 < s.y < o.height for s in sm.spots)
    holes = [e for e in root.iter(f"{SVG}circle") if e.get("class") == "support"]
    assert len(holes) == len(support_points(game))
    assert "check with a ruler" in templates.path_of(game).read_text("utf-8")


def test_dredd_s_spots_are_pockets_on_the_template():
    sm = SensorMap.load("judge-dredd")
    pockets = stack.SPOT_POCKETS["judge-dredd"]
    d = 25 + pockets.clearance_mm
    text = templates.path_of("judge-dredd").read_text("utf-8")
    assert text.count(f'r="{d / 2:.2f}" fill="none" stroke="#d00"') == len(sm.spots)


@pytest.mark.parametrize("game", templates.BOARDS)
@pytest.mark.parametrize("paper", sorted(templates.PAPERS))
def test_pages_cover_the_sheet_and_share_their_marks(game, paper):
    o = outline(game)
    sw, sh = o.sheet
    landscape, grid = templates.tiles(o, paper)
    pw, ph = templates.PAPERS[paper]
    w, h = (ph, pw) if landscape else (pw, ph)
    for t in grid:  # each tile fits the page inside its margins
        assert t.w <= w - 2 * templates.PAGE_MARGIN_MM + 1e-9
        assert t.h <= h - 2 * templates.PAGE_MARGIN_MM + 1e-9
    # Every point of the sheet is on some page (checked on a 2 mm grid).
    for y in range(0, int(sh) + 1, 2):
        for x in range(0, int(sw) + 1, 2):
            assert any(t.x <= x <= t.x + t.w and t.y <= y <= t.y + t.h for t in grid), (x, y)
    # Neighbours overlap by at least OVERLAP_MM, and at least two marks lie in each overlap
    # (so both pages print them and the pages can be lined up).
    marks = templates.marks(o, grid)
    by = {(t.row, t.col): t for t in grid}
    for (r, c), t in by.items():
        for dr, dc in ((0, 1), (1, 0)):
            n = by.get((r + dr, c + dc))
            if n is None:
                continue
            x0, x1 = max(t.x, n.x), min(t.x + t.w, n.x + n.w)
            y0, y1 = max(t.y, n.y), min(t.y + t.h, n.y + n.h)
            overlap = (x1 - x0) if dc else (y1 - y0)
            assert overlap >= templates.OVERLAP_MM - 1e-9
            shared = [(x, y) for x, y in marks if x0 <= x <= x1 and y0 <= y <= y1]
            assert len(shared) >= 2, ((r, c), (dr, dc))
    html = templates.pages_path(game, paper).read_text("utf-8")
    assert html.count('<section class="page">') == len(grid) + 1
    assert f"@page {{ size: {w:g}mm {h:g}mm; margin: 0 }}" in html
