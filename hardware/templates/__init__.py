"""1:1 printable templates of each board, and the same cut into A4 and Letter pages.

``python -m lawmaster.hardware.templates`` writes, per board:

* ``hardware/templates/<game>.svg`` — the board's sheet at full size. Every length
  is in millimetres (``width``/``height`` carry ``mm``, the ``viewBox`` the same
  numbers), so printing at 100 % gives the board at 1:1: the sheet's outline (cut
  line) with its rim (and GW's foot), the playing area, each space's outline, a
  cross at every sensor, the support holes (Ø3.2 mm, countersunk Ø6.3 from the
  face), and in red every cut-out: GW's keeper-washer pockets (Ø9.4, milled from
  behind) and jail pockets, Judge Dredd's standing-spot pockets. A 100 mm scale
  bar in the rim says whether the print is true.
* ``hardware/templates/<game>-a4.html`` and ``<game>-letter.html`` — the same sheet cut
  into pages for a home printer: page 1 shows which page goes where; every other
  page is one tile, overlapping its neighbours by ``OVERLAP_MM`` with registration
  marks (a cross in a circle) on the middle of each overlap, so two pages are
  lined up by laying one mark exactly over the other, and a 50 mm scale bar. Print
  "actual size" (100 %, no fit-to-page) from a browser.

Positions come from the sensor map and :mod:`lawmaster.hardware.mechanical.supports`
(a test checks the committed files match).
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

from lawmaster.hardware.magnetics import stack
from lawmaster.hardware.magnetics.margins import footprint
from lawmaster.hardware.magnetics.placement import HEX_GAMES, POCKET_CLEARANCE_MM
from lawmaster.hardware.mechanical.plans import COUNTERSINK_MM, SCREW_HOLE_MM
from lawmaster.hardware.mechanical.supports import Outline, outline, support_points
from lawmaster.hardware.sensor_map import SensorMap

BOARDS = ("gw-brott", "judge-dredd", "unamerican-graffiti")
HERE = Path(__file__).resolve().parent
CUT = 'fill="none" stroke="#d00" stroke-width="0.3"'
LINE = 'fill="none" stroke="#000" stroke-width="0.3"'
FAINT = 'fill="none" stroke="#888" stroke-width="0.2"'
MARK = 'fill="none" stroke="#06c" stroke-width="0.25"'
FONT = 'font-family="DejaVu Sans, Arial, sans-serif"'

#: Paper sizes (mm, portrait) and the margin a home printer is trusted to print inside.
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
PAGE_MARGIN_MM = 10.0
#: How far neighbouring pages overlap (mm); registration marks sit on its middle line.
OVERLAP_MM = 16.0
MARK_SPACING_MM = 60.0
MARK_R_MM = 3.0


def board_size(sensor_map: SensorMap) -> tuple[float, float]:
    """The board's playing area, width and height (mm): the map's ``size_mm``."""
    if sensor_map.size_mm is None:
        raise ValueError(f"the {sensor_map.game} map gives no size_mm")
    return sensor_map.size_mm


def _outline(sensor_map: SensorMap, x: float, y: float) -> str:
    p = sensor_map.pitch_mm
    if sensor_map.game in HEX_GAMES:
        r = p / math.sqrt(3)  # pointy-top hexagon, p across flats
        pts = " ".join(
            f"{x + r * math.cos(math.radians(90 + 60 * k)):.2f},"
            f"{y + r * math.sin(math.radians(90 + 60 * k)):.2f}"
            for k in range(6)
        )
        return f'<polygon points="{pts}" {LINE}/>'
    if sensor_map.game == "gw-brott":
        return (
            f'<rect x="{x - p / 2:.2f}" y="{y - p / 2:.2f}" width="{p:g}" height="{p:g}" {LINE}/>'
        )
    base = max(footprint(k) for k in sensor_map.kinds.values())
    return f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{base / 2:.2f}" {LINE}/>'


def scale_bar(
    x: float, y: float, length: float = 100.0, note: str = ": check with a ruler before cutting"
) -> list[str]:
    """A 1:1 scale bar ``length`` mm long at (x, y), ticks every tenth, labelled."""
    step = length / 10
    out = []
    for k in range(10):
        fill = "#000" if k % 2 == 0 else "#fff"
        out.append(
            f'<rect x="{x + k * step:.2f}" y="{y:.2f}" width="{step:g}" height="2"'
            f' fill="{fill}" stroke="#000" stroke-width="0.15"/>'
        )
    out.append(
        f'<text x="{x + length + 2:.2f}" y="{y + 2:.2f}" font-size="2.6" {FONT}>'
        f"{length:g} mm{note}</text>"
    )
    return out


def body(sensor_map: SensorMap) -> list[str]:
    """Every element of a board's template in the sheet's frame (mm, origin top-left)."""
    o = outline(sensor_map.game)
    ox, oy = o.origin
    sw, sh = o.sheet
    w, h = board_size(sensor_map)
    out = [
        f'<rect x="0" y="0" width="{sw:g}" height="{sh:g}" {LINE}/>',
        f'<rect x="{ox:g}" y="{oy:g}" width="{w:g}" height="{h:g}" {FAINT}/>',
    ]
    keeper = sensor_map.sensor.keeper
    crim = sensor_map.kinds.get("criminal")
    pockets = stack.SPOT_POCKETS.get(sensor_map.game)
    for spot in sorted(sensor_map.spots, key=lambda s: s.channel):
        x, y = spot.x + ox, spot.y + oy
        if spot.space == sensor_map.jail and crim is not None:
            pocket = footprint(crim) + POCKET_CLEARANCE_MM
            out.append(f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{pocket / 2:.2f}" {CUT}/>')
        else:
            out.append(_outline(sensor_map, x, y))
        if pockets is not None:
            d = max(footprint(k) for k in sensor_map.kinds.values()) + pockets.clearance_mm
            out.append(f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{d / 2:.2f}" {CUT}/>')
        if keeper is not None:
            out.append(
                f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{keeper.outer_mm / 2 + 0.2:.2f}" {CUT}/>'
            )
        out.append(
            f'<path class="sensor" d="M{x - 2:.2f},{y:.2f}h4M{x:.2f},{y - 2:.2f}v4" {FAINT}/>'
        )
        out.append(
            f'<text x="{x:.2f}" y="{y - 4:.2f}" font-size="2.5" text-anchor="middle"'
            f" {FONT}>{escape(spot.space)} · {spot.channel}</text>"
        )
    for sx, sy in support_points(sensor_map.game):
        x, y = sx + ox, sy + oy
        out.append(f'<circle class="support" cx="{x:.2f}" cy="{y:.2f}" r="{SCREW_HOLE_MM / 2:g}"'
                   f" {CUT}/>")
        out.append(
            f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{COUNTERSINK_MM / 2:g}" fill="none"'
            ' stroke="#d00" stroke-width="0.15" stroke-dasharray="0.8,0.6"/>'
        )
    out += scale_bar(ox + 20, sh - o.rim / 2 - (o.foot / 2 if o.foot else 0) - 1)
    out.append(
        f'<text x="{ox + 20:.2f}" y="{oy - 3:.2f}" font-size="3" {FONT}>'
        f"{escape(sensor_map.game)}: 1:1 template. Black: the sheet's edge (cut), the spaces,"
        " a cross on every sensor. Red: cut-outs and pockets; dashed red: countersink"
        "</text>"
    )
    return out


def render(sensor_map: SensorMap) -> str:
    """The SVG text of one board's 1:1 template."""
    sw, sh = outline(sensor_map.game).sheet
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{sw:g}mm" height="{sh:g}mm"'
        f' viewBox="0 0 {sw:g} {sh:g}">',
        f"<title>{escape(sensor_map.game)} {escape(sensor_map.board)}: 1:1 template (mm)</title>",
        *body(sensor_map),
        "</svg>",
    ]
    return "\n".join(out) + "\n"


# -- pages ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tile:
    """One page's window onto the sheet (mm, sheet frame) and its place in the grid."""

    row: int
    col: int
    x: float
    y: float
    w: float
    h: float


def tiles(o: Outline, paper: str) -> tuple[bool, list[Tile]]:
    """The pages covering the sheet: (landscape?, tiles), the orientation with fewer pages."""
    pw, ph = PAPERS[paper]
    best: tuple[int, bool, list[Tile]] | None = None
    for landscape in (False, True):
        w, h = (ph, pw) if landscape else (pw, ph)
        tw, th = w - 2 * PAGE_MARGIN_MM, h - 2 * PAGE_MARGIN_MM
        sw, sh = o.sheet
        cols = max(1, math.ceil((sw - OVERLAP_MM) / (tw - OVERLAP_MM)))
        rows = max(1, math.ceil((sh - OVERLAP_MM) / (th - OVERLAP_MM)))
        # Spread the pages evenly from edge to edge: every overlap is the same, at least
        # OVERLAP_MM, and the last page ends at the sheet's edge.
        sx = (sw - tw) / (cols - 1) if cols > 1 else 0.0
        sy = (sh - th) / (rows - 1) if rows > 1 else 0.0
        grid = [Tile(r, c, c * sx, r * sy, tw, th) for r in range(rows) for c in range(cols)]
        if best is None or rows * cols < best[0]:
            best = (rows * cols, landscape, grid)
    assert best is not None
    return best[1], best[2]


def marks(o: Outline, grid: list[Tile]) -> list[tuple[float, float]]:
    """Registration marks: on the middle line of every overlap between two pages, at most
    ``MARK_SPACING_MM`` apart (sheet frame, mm)."""
    by_place = {(t.row, t.col): t for t in grid}
    cols = max(t.col for t in grid) + 1
    rows = max(t.row for t in grid) + 1
    sw, sh = o.sheet
    out: set[tuple[float, float]] = set()
    for c in range(1, cols):
        left, right = by_place[(0, c - 1)], by_place[(0, c)]
        x = (right.x + left.x + left.w) / 2  # the middle of the overlap
        n = max(2, math.ceil(sh / MARK_SPACING_MM) + 1)
        for k in range(n):
            out.add((round(x, 2), round(8 + (sh - 16) * k / (n - 1), 2)))
    for r in range(1, rows):
        top, bottom = by_place[(r - 1, 0)], by_place[(r, 0)]
        y = (bottom.y + top.y + top.h) / 2
        n = max(2, math.ceil(sw / MARK_SPACING_MM) + 1)
        for k in range(n):
            out.add((round(8 + (sw - 16) * k / (n - 1), 2), round(y, 2)))
    return sorted(out)


def _mark(x: float, y: float) -> str:
    r = MARK_R_MM
    return (
        f'<g class="mark"><circle cx="{x:.2f}" cy="{y:.2f}" r="{r:g}" {MARK}/>'
        f'<path d="M{x - r - 1.5:.2f},{y:.2f}h{2 * r + 3:g}M{x:.2f},{y - r - 1.5:.2f}'
        f'v{2 * r + 3:g}" {MARK}/></g>'
    )


def pages_html(sensor_map: SensorMap, paper: str) -> str:
    """The board's template cut into ``paper`` pages: an HTML file to print at 100 %."""
    o = outline(sensor_map.game)
    landscape, grid = tiles(o, paper)
    pw, ph = PAPERS[paper]
    w, h = (ph, pw) if landscape else (pw, ph)
    sw, sh = o.sheet
    all_marks = marks(o, grid)
    title = f"{sensor_map.game}: 1:1 template on {len(grid)} {paper.upper()} pages"
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(title)}</title>",
        "<style>",
        f"@page {{ size: {w:g}mm {h:g}mm; margin: 0 }}",
        "body { margin: 0 }",
        f".page {{ position: relative; width: {w:g}mm; height: {h:g}mm; overflow: hidden;"
        " page-break-after: always; break-after: page }",
        f".tile {{ position: absolute; left: {PAGE_MARGIN_MM:g}mm; top: {PAGE_MARGIN_MM:g}mm }}",
        ".head { position: absolute; left: 10mm; top: 3mm; font: 3mm 'DejaVu Sans', Arial,"
        " sans-serif }",
        "</style></head><body>",
        '<svg width="0" height="0" style="position:absolute" aria-hidden="true"><defs>'
        '<g id="sheet">',
        *body(sensor_map),
        "</g></defs></svg>",
    ]
    # Page 1: where each page goes.
    k = min((w - 20) / sw, (h - 40) / sh)
    out.append('<section class="page">')
    out.append(f'<div class="head">{escape(title)}: print at 100 % ("actual size"), lay the'
               " pages out as below, each registration mark exactly over its twin, and tape."
               "</div>")
    out.append(
        f'<svg class="tile" width="{sw * k:.2f}mm" height="{sh * k:.2f}mm"'
        f' viewBox="0 0 {sw:g} {sh:g}" style="top:14mm"><use href="#sheet"/>'
    )
    for i, t in enumerate(grid, 2):
        out.append(
            f'<rect x="{t.x:.2f}" y="{t.y:.2f}" width="{t.w:.2f}" height="{t.h:.2f}"'
            ' fill="#06c" fill-opacity="0.06" stroke="#06c" stroke-width="1"/>'
            f'<text x="{t.x + t.w / 2:.2f}" y="{t.y + t.h / 2:.2f}" font-size="{30:g}"'
            f' text-anchor="middle" fill="#06c" {FONT}>{i}</text>'
        )
    out.append("</svg></section>")
    for i, t in enumerate(grid, 2):
        out.append('<section class="page">')
        out.append(
            f'<div class="head">{escape(sensor_map.game)} · page {i} of {len(grid) + 1} · row'
            f" {t.row + 1}, column {t.col + 1} · print at 100 %</div>"
        )
        out.append(
            f'<svg class="tile" width="{t.w:g}mm" height="{t.h:g}mm"'
            f' viewBox="{t.x:.2f} {t.y:.2f} {t.w:g} {t.h:g}"><use href="#sheet"/>'
        )
        for mx, my in all_marks:
            if t.x <= mx <= t.x + t.w and t.y <= my <= t.y + t.h:
                out.append(_mark(mx, my))
        bx, by = t.x + 4, t.y + t.h - 9
        out.append(
            f'<rect x="{bx - 2:.2f}" y="{by - 2:.2f}" width="66" height="8" fill="#fff"'
            ' stroke="none"/>'
        )
        out += scale_bar(bx, by, 50.0, "")
        out.append("</svg></section>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def path_of(game: str) -> Path:
    """Where the committed template of ``game`` lives."""
    return HERE / f"{game}.svg"


def pages_path(game: str, paper: str) -> Path:
    """Where the committed page set of ``game`` on ``paper`` lives."""
    return HERE / f"{game}-{paper}.html"


def main(argv: list[str] | None = None) -> int:
    """Write every board's template and its page sets."""
    _ = sys.argv[1:] if argv is None else argv
    for game in BOARDS:
        sm = SensorMap.load(game)
        path_of(game).write_text(render(sm), "utf-8")
        for paper in PAPERS:
            pages_path(game, paper).write_text(pages_html(sm, paper), "utf-8")
    return 0
