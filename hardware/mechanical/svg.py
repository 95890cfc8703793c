"""A few SVG pieces every drawing uses: a sheet in millimetres, lines, text, dimensions.

Every drawing is an SVG whose ``width``/``height`` carry ``mm`` and whose
``viewBox`` is the same numbers, so one user unit is one millimetre of paper;
a drawing at a scale other than 1:1 says so in its title block.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

INK = "#000"
THIN = 0.18
MEDIUM = 0.35
THICK = 0.6
CUT = "#d00"  # cut-outs and pockets: red, as on the templates
FONT = 'font-family="DejaVu Sans, Arial, sans-serif"'


class Sheet:
    """An SVG drawing sheet of ``w`` × ``h`` mm that elements are appended to."""

    def __init__(self, w: float, h: float, title: str) -> None:
        self.w, self.h = w, h
        self.parts: list[str] = [
            '<?xml version="1.0" encoding="UTF-8"?>',
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:g}mm" height="{h:g}mm"'
            f' viewBox="0 0 {w:g} {h:g}">',
            f"<title>{escape(title)}</title>",
            f'<rect x="0" y="0" width="{w:g}" height="{h:g}" fill="#fff"/>',
        ]

    def add(self, element: str) -> None:
        self.parts.append(element)

    def text(
        self,
        x: float,
        y: float,
        s: str,
        size: float = 3.0,
        anchor: str = "start",
        weight: str = "normal",
        fill: str = INK,
        rotate: float | None = None,
    ) -> None:
        turn = f' transform="rotate({rotate:g} {x:.2f} {y:.2f})"' if rotate is not None else ""
        self.add(
            f'<text x="{x:.2f}" y="{y:.2f}" font-size="{size:g}" text-anchor="{anchor}"'
            f' font-weight="{weight}" fill="{fill}" {FONT}{turn}>{escape(s)}</text>'
        )

    def line(
        self, x1: float, y1: float, x2: float, y2: float, width: float = MEDIUM, colour: str = INK,
        dash: str | None = None,
    ) -> None:
        d = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(
            f'<line x1="{x1:.3f}" y1="{y1:.3f}" x2="{x2:.3f}" y2="{y2:.3f}" stroke="{colour}"'
            f' stroke-width="{width:g}"{d}/>'
        )

    def rect(
        self, x: float, y: float, w: float, h: float, fill: str = "none", stroke: str = INK,
        width: float = MEDIUM, extra: str = "",
    ) -> None:
        self.add(
            f'<rect x="{x:.3f}" y="{y:.3f}" width="{w:.3f}" height="{h:.3f}" fill="{fill}"'
            f' stroke="{stroke}" stroke-width="{width:g}"{extra}/>'
        )

    def circle(
        self, x: float, y: float, r: float, fill: str = "none", stroke: str = INK,
        width: float = MEDIUM,
    ) -> None:
        self.add(
            f'<circle cx="{x:.3f}" cy="{y:.3f}" r="{r:.3f}" fill="{fill}" stroke="{stroke}"'
            f' stroke-width="{width:g}"/>'
        )

    def path(self, d: str, fill: str = "none", stroke: str = INK, width: float = MEDIUM,
             dash: str | None = None) -> None:
        da = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(f'<path d="{d}" fill="{fill}" stroke="{stroke}" stroke-width="{width:g}"{da}/>')

    def hdim(self, x1: float, x2: float, y: float, label: str, size: float = 2.8) -> None:
        """A horizontal dimension from ``x1`` to ``x2`` drawn at height ``y``."""
        self.line(x1, y, x2, y, THIN)
        for x, s in ((x1, 1), (x2, -1)):
            self._arrow(x, y, s, 0)
        self.text((x1 + x2) / 2, y - 1.0, label, size, "middle")

    def vdim(self, x: float, y1: float, y2: float, label: str, size: float = 2.8,
             side: str = "right") -> None:
        """A vertical dimension from ``y1`` to ``y2`` drawn at ``x``, label beside it
        (``side="along"``: turned to read along the line, on its left)."""
        self.line(x, y1, x, y2, THIN)
        for y, s in ((y1, 1), (y2, -1)):
            self._arrow(x, y, 0, s if y2 > y1 else -s)
        if side == "along":
            self.text(x - 1.2, (y1 + y2) / 2, label, size, "middle", rotate=-90)
            return
        tx = x + 1.2 if side == "right" else x - 1.2
        self.text(tx, (y1 + y2) / 2 + size / 3, label, size, "start" if side == "right" else "end")

    def _arrow(self, x: float, y: float, dx: float, dy: float) -> None:
        a = 1.6
        if dx:
            self.path(f"M{x:.3f},{y:.3f} l{dx * a:.3f},{-a / 3:.3f} v{2 * a / 3:.3f} z",
                      fill=INK, width=0.01)
        else:
            self.path(f"M{x:.3f},{y:.3f} l{-a / 3:.3f},{dy * a:.3f} h{2 * a / 3:.3f} z",
                      fill=INK, width=0.01)

    def scale_bar(self, x: float, y: float, scale: float, length_mm: float = 100.0) -> None:
        """A bar ``length_mm`` of the real thing long at drawing ``scale`` (paper mm per mm),
        black and white every tenth, labelled."""
        step = length_mm / 10 * scale
        for k in range(10):
            self.rect(x + k * step, y, step, 2.0, fill=INK if k % 2 == 0 else "#fff", width=THIN)
        for k in (0, 5, 10):
            self.text(x + k * step, y + 5.2, f"{k * length_mm / 10:g}", 2.5, "middle")
        self.text(x + 10 * step + 2, y + 2, f"mm at {_scale_label(scale)}", 2.5)

    def title_block(self, lines: list[str], scale: float | None) -> None:
        """The sheet's frame and a title block bottom right: what, scale, source."""
        self.rect(5, 5, self.w - 10, self.h - 10, width=THICK)
        bw, bh = 115.0, 6.0 + 4.5 * len(lines) + (4.5 if scale else 0)
        x0, y0 = self.w - 5 - bw, self.h - 5 - bh
        self.rect(x0, y0, bw, bh, fill="#fff", width=MEDIUM)
        self.text(x0 + 3, y0 + 6, lines[0], 4.0, weight="bold")
        y = y0 + 6
        for s in lines[1:]:
            y += 4.5
            self.text(x0 + 3, y, s, 2.7)
        if scale:
            y += 4.5
            self.text(x0 + 3, y, f"Scale {_scale_label(scale)} (on the paper size of this"
                      " sheet); dimensions in mm", 2.7)

    def svg(self) -> str:
        return "\n".join([*self.parts, "</svg>"]) + "\n"


def _scale_label(scale: float) -> str:
    if scale >= 1:
        return f"{scale:g}:1"
    return f"1:{1 / scale:g}"


def hatch(sheet: Sheet, x: float, y: float, w: float, h: float, colour: str,
          step: float = 1.5, angle: float = 45.0) -> None:
    """Diagonal hatching clipped to a rectangle (cut material in a section)."""
    lines = []
    t = math.tan(math.radians(angle))
    k = -h / t
    while k < w:
        x1, y1 = x + k, y + h
        x2, y2 = x + k + h / t, y
        # clip to the rectangle
        if x1 < x:
            y1 = y + h - (x - x1) * t
            x1 = x
        if x2 > x + w:
            y2 = y + (x2 - (x + w)) * t
            x2 = x + w
        if x1 <= x + w and x2 >= x:
            lines.append(f"M{x1:.3f},{y1:.3f}L{x2:.3f},{y2:.3f}")
        k += step
    if lines:
        sheet.path("".join(lines), stroke=colour, width=0.12)
