"""1:1 printable SVG templates of each board, generated from its sensor map.

``python -m lawmaster.hardware.templates`` writes ``hardware/templates/<game>.svg``.
Every length is in millimetres (the SVG's ``width``/``height`` carry ``mm`` and
its ``viewBox`` is the same numbers), so printing at 100 % gives the board at
full size: cell outlines, a cross at every sensor, the keeper-washer pockets and
the jail's piece pockets (red: cut-outs), and each space's name.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
from xml.sax.saxutils import escape

from lawmaster.hardware.magnetics.margins import footprint
from lawmaster.hardware.magnetics.placement import HEX_GAMES, POCKET_CLEARANCE_MM
from lawmaster.hardware.sensor_map import SensorMap

BOARDS = ("gw-brott", "judge-dredd", "unamerican-graffiti")
HERE = Path(__file__).resolve().parent
CUT = 'fill="none" stroke="#d00" stroke-width="0.3"'
LINE = 'fill="none" stroke="#000" stroke-width="0.3"'
FAINT = 'fill="none" stroke="#888" stroke-width="0.2"'


def board_size(sensor_map: SensorMap) -> tuple[float, float]:
    """The board's width and height (mm): the map's ``size_mm``."""
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


def render(sensor_map: SensorMap) -> str:
    """The SVG text of one board's template."""
    w, h = board_size(sensor_map)
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:g}mm" height="{h:g}mm"'
        f' viewBox="0 0 {w:g} {h:g}">',
        f"<title>{escape(sensor_map.game)} {escape(sensor_map.board)}: 1:1 template (mm)</title>",
        f'<rect x="0" y="0" width="{w:g}" height="{h:g}" {LINE}/>',
    ]
    keeper = sensor_map.sensor.keeper
    crim = sensor_map.kinds.get("criminal")
    for spot in sorted(sensor_map.spots, key=lambda s: s.channel):
        x, y = spot.x, spot.y
        if spot.space == sensor_map.jail and crim is not None:
            pocket = footprint(crim) + POCKET_CLEARANCE_MM
            out.append(f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{pocket / 2:.2f}" {CUT}/>')
        else:
            out.append(_outline(sensor_map, x, y))
        if keeper is not None:
            out.append(
                f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{keeper.outer_mm / 2 + 0.2:.2f}" {CUT}/>'
            )
        out.append(f'<path d="M{x - 2:.2f},{y:.2f}h4M{x:.2f},{y - 2:.2f}v4" {FAINT}/>')
        out.append(
            f'<text x="{x:.2f}" y="{y - 4:.2f}" font-size="2.5" text-anchor="middle"'
            f' font-family="sans-serif">{escape(spot.space)} · {spot.channel}</text>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def path_of(game: str) -> Path:
    """Where the committed template of ``game`` lives."""
    return HERE / f"{game}.svg"


def main(argv: list[str] | None = None) -> int:
    """Write every board's template."""
    _ = sys.argv[1:] if argv is None else argv
    for game in BOARDS:
        path_of(game).write_text(render(SensorMap.load(game)), "utf-8")
    return 0
