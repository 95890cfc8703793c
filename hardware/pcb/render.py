"""Pictures of a board's two faces, as a builder sees them: solder mask, copper, pads, silkscreen.

KiCad 6 has no command-line renderer, so the board's own geometry (read with
``pcbnew``) is drawn with Pillow: the outline filled in solder-mask green,
copper under the mask a lighter green, bare pads and test points gold, drill
holes dark, silkscreen white. The bottom face is drawn as seen from below
(mirrored). Each picture records the SHA-256 of the ``.kicad_pcb`` it was drawn
from, so ``lawmaster hardware generate --check`` can tell a stale picture
without depending on how a Pillow version rasterises.
"""

from __future__ import annotations

import hashlib
import math
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont, PngImagePlugin

from . import kicad

MASK, COPPER, PAD, HOLE, SILK, BACKGROUND = (
    (24, 86, 44), (52, 128, 66), (212, 170, 80), (30, 30, 30), (240, 240, 235), (46, 46, 52),
)  # fmt: skip
SOURCE_KEY = "lawmaster-source-sha256"
MARGIN_MM = 4.0


def source_hash(pcb: Path) -> str:
    """The SHA-256 of a board file, as a picture records it."""
    return hashlib.sha256(pcb.read_bytes()).hexdigest()


def recorded_hash(png: Path) -> str | None:
    """The board hash a picture was drawn from (None: not one of ours)."""
    try:
        with Image.open(png) as image:
            return image.info.get(SOURCE_KEY)  # type: ignore[no-any-return]
    except OSError:
        return None


class _Canvas:
    def __init__(self, box: tuple[float, float, float, float], mirror: bool, title: str) -> None:
        x0, y0, x1, y1 = box
        self.scale = min(12.0, 1400.0 / max(x1 - x0, y1 - y0))
        self.x0, self.y0, self.x1 = x0 - MARGIN_MM, y0 - MARGIN_MM - 6.0, x1 + MARGIN_MM
        width = int((x1 - x0 + 2 * MARGIN_MM) * self.scale)
        height = int((y1 - y0 + 2 * MARGIN_MM + 6.0) * self.scale)
        self.mirror = mirror
        self.image = Image.new("RGB", (width, height), BACKGROUND)
        self.draw = ImageDraw.Draw(self.image)
        # The title fits the picture's width: about 0.55 em a character.
        size = min(
            int(3.2 * self.scale), int((width - 2 * MARGIN_MM * self.scale) / (0.55 * len(title)))
        )
        self.font = ImageFont.load_default(size=max(10, size))
        self.draw.text((int(MARGIN_MM * self.scale), int(1.0 * self.scale)), title, SILK, self.font)

    def p(self, x: float, y: float) -> tuple[float, float]:
        if self.mirror:  # seen from below
            x = self.x0 + self.x1 - x
        return ((x - self.x0) * self.scale, (y - self.y0) * self.scale)

    def polygon(self, points: list[tuple[float, float]], colour: tuple[int, int, int]) -> None:
        if len(points) >= 3:
            self.draw.polygon([self.p(x, y) for x, y in points], fill=colour)

    def line(
        self,
        a: tuple[float, float],
        b: tuple[float, float],
        width: float,
        colour: tuple[int, int, int],
    ) -> None:
        w = max(1, int(round(width * self.scale)))
        pa, pb = self.p(*a), self.p(*b)
        self.draw.line([pa, pb], fill=colour, width=w)
        r = w / 2
        for x, y in (pa, pb):
            self.draw.ellipse([x - r, y - r, x + r, y + r], fill=colour)

    def circle(
        self, x: float, y: float, radius: float, colour: tuple[int, int, int], width: float = 0
    ) -> None:
        cx, cy = self.p(x, y)
        r = radius * self.scale
        if width:
            self.draw.ellipse(
                [cx - r, cy - r, cx + r, cy + r],
                outline=colour,
                width=max(1, int(width * self.scale)),
            )
        else:
            self.draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=colour)

    def text(
        self, text: str, x: float, y: float, size: float, colour: tuple[int, int, int]
    ) -> None:
        font = ImageFont.load_default(size=max(8, int(size * self.scale)))
        cx, cy = self.p(x, y)
        self.draw.text((cx, cy), text, colour, font, anchor="mm")


def _mm(point: Any) -> tuple[float, float]:
    return (point.x / 1e6, point.y / 1e6)


def _poly_points(chain: Any) -> list[tuple[float, float]]:
    return [_mm(chain.CPoint(i)) for i in range(chain.PointCount())]


def _outline(pcbnew: Any, board: Any) -> list[tuple[float, float]]:
    shape = pcbnew.SHAPE_POLY_SET()
    board.GetBoardPolygonOutlines(shape)
    return _poly_points(shape.Outline(0))


def _shape(canvas: _Canvas, pcbnew: Any, item: Any, colour: tuple[int, int, int]) -> None:
    width = item.GetWidth() / 1e6
    kind = item.GetShape()
    if kind == pcbnew.SHAPE_T_SEGMENT:
        canvas.line(_mm(item.GetStart()), _mm(item.GetEnd()), width, colour)
    elif kind == pcbnew.SHAPE_T_RECT:
        corners = [_mm(c) for c in item.GetRectCorners()]
        for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
            canvas.line(a, b, width, colour)
    elif kind == pcbnew.SHAPE_T_CIRCLE:
        cx, cy = _mm(item.GetCenter())
        canvas.circle(cx, cy, item.GetRadius() / 1e6, colour, width or 0.1)
    elif kind == pcbnew.SHAPE_T_ARC:
        c = _mm(item.GetCenter())
        s = _mm(item.GetStart())
        e = _mm(item.GetEnd())
        r = math.dist(c, s)
        a0 = math.atan2(s[1] - c[1], s[0] - c[0])
        a1 = math.atan2(e[1] - c[1], e[0] - c[0])
        mid = _mm(item.GetArcMid())
        am = math.atan2(mid[1] - c[1], mid[0] - c[0])
        # Walk from start to end through the mid point.
        span = (a1 - a0) % (2 * math.pi)
        if (am - a0) % (2 * math.pi) > span:
            span -= 2 * math.pi
        steps = 16
        pts = [
            (c[0] + r * math.cos(a0 + span * i / steps), c[1] + r * math.sin(a0 + span * i / steps))
            for i in range(steps + 1)
        ]
        for a, b in zip(pts, pts[1:], strict=False):
            canvas.line(a, b, width, colour)
    elif kind == pcbnew.SHAPE_T_POLY:
        shape = item.GetPolyShape()
        for i in range(shape.OutlineCount()):
            canvas.polygon(_poly_points(shape.Outline(i)), colour)


def draw(pcb: Path, png: Path, side: str, title: str) -> None:
    """Draw one face (``"top"`` or ``"bottom"``) of the board in ``pcb`` into ``png``."""
    pcbnew = kicad.require()
    board = pcbnew.LoadBoard(str(pcb))
    front = side == "top"
    copper = pcbnew.F_Cu if front else pcbnew.B_Cu
    silk = pcbnew.F_SilkS if front else pcbnew.B_SilkS
    outline = _outline(pcbnew, board)
    xs = [x for x, _ in outline]
    ys = [y for _, y in outline]
    canvas = _Canvas((min(xs), min(ys), max(xs), max(ys)), not front, title)
    canvas.polygon(outline, MASK)
    for zone in board.Zones():
        if zone.GetLayer() != copper:
            continue
        filled = zone.GetFilledPolysList(copper)
        for i in range(filled.OutlineCount()):
            canvas.polygon(_poly_points(filled.Outline(i)), COPPER)
            for j in range(filled.HoleCount(i)):
                canvas.polygon(_poly_points(filled.Hole(i, j)), MASK)
    for track in board.GetTracks():
        if track.GetClass() == "PCB_VIA":
            x, y = _mm(track.GetPosition())
            canvas.circle(x, y, track.GetWidth() / 2e6, COPPER)
        elif track.GetLayer() == copper:
            canvas.line(_mm(track.GetStart()), _mm(track.GetEnd()), track.GetWidth() / 1e6, COPPER)
    for fp in board.GetFootprints():
        for pad in fp.Pads():
            if not pad.IsOnLayer(copper):
                continue
            canvas.polygon(_poly_points(pad.GetEffectivePolygon().Outline(0)), PAD)
    for fp in board.GetFootprints():
        for item in fp.GraphicalItems():
            if item.GetLayer() == silk and item.GetClass() == "MGRAPHIC":
                _shape(canvas, pcbnew, item, SILK)
        ref = fp.Reference()
        if ref.GetLayer() == silk and ref.IsVisible():
            x, y = _mm(ref.GetTextPos())
            canvas.text(ref.GetShownText(), x, y, ref.GetTextHeight() / 1e6 * 1.2, SILK)
        for item in fp.GraphicalItems():
            if item.GetClass() == "MTEXT" and item.GetLayer() == silk and item.IsVisible():
                x, y = _mm(item.GetTextPos())
                canvas.text(item.GetShownText(), x, y, item.GetTextHeight() / 1e6 * 1.2, SILK)
    for item in board.GetDrawings():
        if item.GetLayer() == silk and item.GetClass() == "PTEXT":
            x, y = _mm(item.GetTextPos())
            canvas.text(item.GetShownText(), x, y, item.GetTextHeight() / 1e6 * 1.2, SILK)
    for fp in board.GetFootprints():
        for pad in fp.Pads():
            if pad.GetDrillSize().x:
                x, y = _mm(pad.GetPosition())
                canvas.circle(x, y, pad.GetDrillSize().x / 2e6, HOLE)
    for track in board.GetTracks():
        if track.GetClass() == "PCB_VIA":
            x, y = _mm(track.GetPosition())
            canvas.circle(x, y, track.GetDrillValue() / 2e6, HOLE)
    info = PngImagePlugin.PngInfo()
    info.add_text(SOURCE_KEY, source_hash(pcb))
    png.parent.mkdir(parents=True, exist_ok=True)
    canvas.image.save(png, "PNG", pnginfo=info, optimize=True)
