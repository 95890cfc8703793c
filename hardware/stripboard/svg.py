"""The 1:1 strip plan of a board as SVG: one drawing per face of the stripboard.

Every length is in millimetres (``width``/``height`` in mm, the ``viewBox`` the same
numbers), so printing at 100 % gives the board at 1:1; a 100 mm scale bar says
whether the print is true.

* ``side="component"``: the board as the front sees it: every piece's outline and
  mounting holes, the strips (pale copper, under the board) and their holes, each
  sensor's body lying flat with its pins, its capacitor, a cross on its spot, its
  space and channel, the output wire's hole, the bus wires, and the track cuts.
* ``side="copper"``: the same turned over (mirrored left to right), as a builder
  sees the strips when cutting them: the strips, every cut, every soldered hole
  (leads, wires); text reads normally.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from . import parts
from .plan import GND, VCC, BoardPlan, PiecePlan, Sensor

P = parts.PITCH_MM
MARGIN = 12.0
HEAD = 22.0
FOOT = 34.0
FONT = 'font-family="DejaVu Sans, Arial, sans-serif"'
COPPER = "#e8b98a"
CUT = "#d00000"
NET_COLOUR = {VCC: "#d00000", GND: "#000000"}
OUT = "#0055cc"
GND_DASH = 'stroke-dasharray="1.2,0.6"'


def _f(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


class _Frame:
    """Board mm → drawing mm (mirrored for the copper side)."""

    def __init__(self, width: float, mirror: bool) -> None:
        self.width = width
        self.mirror = mirror

    def x(self, x: float) -> float:
        return MARGIN + (self.width - x if self.mirror else x)

    def y(self, y: float) -> float:
        return HEAD + y

    def rect(self, x0: float, y0: float, x1: float, y1: float, style: str) -> str:
        a, b = sorted((self.x(x0), self.x(x1)))
        return (
            f'<rect x="{_f(a)}" y="{_f(self.y(min(y0, y1)))}" width="{_f(b - a)}"'
            f' height="{_f(abs(y1 - y0))}" {style}/>'
        )

    def circle(self, x: float, y: float, r: float, style: str) -> str:
        return f'<circle cx="{_f(self.x(x))}" cy="{_f(self.y(y))}" r="{_f(r)}" {style}/>'

    def line(self, x0: float, y0: float, x1: float, y1: float, style: str) -> str:
        return (
            f'<line x1="{_f(self.x(x0))}" y1="{_f(self.y(y0))}" x2="{_f(self.x(x1))}"'
            f' y2="{_f(self.y(y1))}" {style}/>'
        )

    def text(self, x: float, y: float, s: str, size: float, extra: str = "") -> str:
        return (
            f'<text x="{_f(self.x(x))}" y="{_f(self.y(y))}" font-size="{_f(size)}"'
            f" {FONT} {extra}>{escape(s)}</text>"
        )

    def poly(self, pts: tuple[tuple[float, float], ...], style: str) -> str:
        d = " ".join(f"{_f(self.x(x))},{_f(self.y(y))}" for x, y in pts)
        return f'<polygon points="{d}" {style}/>'

    def polyline(self, pts: list[tuple[float, float]], style: str) -> str:
        d = " ".join(f"{_f(self.x(x))},{_f(self.y(y))}" for x, y in pts)
        return f'<polyline points="{d}" {style}/>'


def _strips(fr: _Frame, p: PiecePlan, pid: str) -> list[str]:
    out = []
    ox, oy = fr.x(p.origin[0]), fr.y(p.origin[1])
    out.append(
        f'<pattern id="{pid}" patternUnits="userSpaceOnUse" x="{_f(ox - P / 2)}"'
        f' y="{_f(oy - P / 2)}" width="{P}" height="{P}">'
        f'<circle cx="{P / 2}" cy="{P / 2}" r="0.5" fill="#fff" stroke="#a0704a"'
        ' stroke-width="0.1"/></pattern>'
    )
    for j, (c0, c1) in enumerate(p.spans):
        if c1 < c0:
            continue
        x0, y = p.xy(c0, j)
        x1, _ = p.xy(c1, j)
        h = parts.STRIP_HALF_MM
        out.append(fr.rect(x0 - P / 2 + 0.2, y - h, x1 + P / 2 - 0.2, y + h, f'fill="{COPPER}"'))
        out.append(fr.rect(x0 - P / 2 + 0.2, y - h, x1 + P / 2 - 0.2, y + h, f'fill="url(#{pid})"'))
    return out


def _cut(fr: _Frame, p: PiecePlan, c: int, j: int) -> list[str]:
    x, y = p.xy(c, j)
    h = parts.STRIP_HALF_MM + 0.3
    style = f'stroke="{CUT}" stroke-width="0.5"'
    return [
        fr.line(x - 1.0, y - h, x + 1.0, y + h, style),
        fr.line(x - 1.0, y + h, x + 1.0, y - h, style),
    ]


def _sensor(fr: _Frame, p: PiecePlan, s: Sensor, component: bool) -> list[str]:
    out = []
    d = s.d
    lx, ly = p.xy(s.col, s.strip)
    if component:
        # The body lying flat, branded face up, from the bend to its far end.
        near = lx + d * (parts.LEAD_HALF_MM + parts.BEND_FROM_BODY_MM)
        far = near + d * parts.BODY_HEIGHT_MM
        w = parts.BODY_WIDTH_MM / 2
        out.append(
            fr.rect(near, ly - w, far, ly + w, 'fill="#d8d8d8" stroke="#333" stroke-width="0.2"')
        )
        out.append(fr.line(lx, ly - P, lx, ly + P, 'stroke="#333" stroke-width="0.4"'))
        for k, (yy, pin) in enumerate(((ly - d * P, "1"), (ly, "2"), (ly + d * P, "3"))):
            out.append(
                fr.line(
                    lx,
                    yy,
                    near,
                    ly + (k - 1) * d * parts.LEAD_PITCH_MM,
                    'stroke="#333" stroke-width="0.35"',
                )
            )
            out.append(
                fr.text(lx - d * 1.27, yy + 0.45, pin, 1.2, 'text-anchor="middle" fill="#333"')
            )
        ex, ey = s.element
        out.append(fr.circle(ex, ey, 0.5, 'fill="#0a0"'))
        # The capacitor lying flat the other way, its leads across VCC and GND.
        cx = lx - d * P
        c_near = cx - d * 0.6
        c_far = c_near - d * 3.8
        cy0, cy1 = sorted((ly - d * P, ly))
        out.append(
            fr.rect(
                c_near,
                cy0 - 0.7,
                c_far,
                cy1 + 0.7,
                'fill="#f2e6a0" stroke="#886" stroke-width="0.2"',
            )
        )
        out.append(
            fr.text(
                (c_near + c_far) / 2, (cy0 + cy1) / 2 + 0.5, "100n", 1.3, 'text-anchor="middle"'
            )
        )
        # Where the piece should be: the spot's centre.
        sx, sy = s.spot.x, s.spot.y
        style = 'stroke="#0a0" stroke-width="0.2"'
        out.append(fr.line(sx - 2, sy, sx + 2, sy, style))
        out.append(fr.line(sx, sy - 2, sx, sy + 2, style))
        if s.spot.space != p.name:  # a Judge Dredd pod is its sector: its name says it
            label_y = ly + (2 * P + 1.8 if d > 0 else -2 * P - 0.8)
            out.append(fr.text(ex, label_y, s.spot.space, 1.8, 'text-anchor="middle"'))
    for hole in s.leads():
        hx, hy = p.xy(*hole)
        out.append(fr.circle(hx, hy, 0.55, 'fill="#333"'))
    wx, wy = p.xy(s.col - d, s.strip + d)
    out.append(fr.circle(wx, wy, 0.8, f'fill="none" stroke="{OUT}" stroke-width="0.4"'))
    off = -3.2 if (d > 0) != fr.mirror else 3.2
    anchor = "end" if off < 0 else "start"
    out.append(
        fr.text(wx + (off if not fr.mirror else -off), wy + 0.6, f"ch{s.channel}", 1.8,
                f'text-anchor="{anchor}" fill="{OUT}" font-weight="bold"')
    )  # fmt: skip
    return out


def _indices(fr: _Frame, p: PiecePlan) -> list[str]:
    """Every fifth column's number under the piece, every fifth strip's beside it (the
    numbers ``hardware/STRIPBOARD.md`` uses: column 0 the leftmost hole seen from the
    component side, strip 0 the top one)."""
    out = []
    bottom = max(q[1] for q in p.outline)
    left = min(q[0] for q in p.outline)
    last = max(c1 for _, c1 in p.spans)
    for c in range(0, last + 1, 5):
        x, _ = p.xy(c, 0)
        out.append(fr.text(x, bottom + 2.2, str(c), 1.5, 'text-anchor="middle" fill="#666"'))
    for j in range(0, p.strips, 5):
        _, y = p.xy(0, j)
        anchor = "start" if fr.mirror else "end"
        out.append(fr.text(left - 1.0, y + 0.5, str(j), 1.5, f'text-anchor="{anchor}" fill="#666"'))
    return out


def _piece(fr: _Frame, p: PiecePlan, pid: str, component: bool) -> list[str]:
    out = [fr.poly(p.outline, 'fill="#fbf7f0" stroke="#000" stroke-width="0.35"')]
    out += _strips(fr, p, pid)
    out += _indices(fr, p)
    for mx, my in p.mounts:
        out.append(
            fr.circle(
                mx, my, parts.MOUNT_HOLE_MM / 2, 'fill="#fff" stroke="#000" stroke-width="0.3"'
            )
        )
    for c, j in p.cuts:
        out += _cut(fr, p, c, j)
    for s in p.sensors:
        out += _sensor(fr, p, s, component)
    top = min(q[1] for q in p.outline)
    for bus in p.buses:
        # A straight wire down its column, fed from above the piece's top edge.
        colour = NET_COLOUR[bus.net]
        pts = [p.xy(*pt) for pt in bus.points]
        x = pts[0][0]
        end = top - (6.0 if bus.net == VCC else 3.0)
        dash = "" if bus.net == VCC else f" {GND_DASH}"
        out.append(fr.line(x, end, x, pts[-1][1], f'stroke="{colour}" stroke-width="0.45"{dash}'))
        for px, py in pts:
            out.append(fr.circle(px, py, 0.75, f'fill="{colour}"'))
        anchor = "end" if fr.mirror else "start"
        out.append(
            fr.text(x + (-0.8 if fr.mirror else 0.8), end + 0.6, f"{bus.net} in", 1.8,
                    f'text-anchor="{anchor}" fill="{colour}" font-weight="bold"')
        )  # fmt: skip
    xs = [q[0] for q in p.outline]
    ys = [q[1] for q in p.outline]
    name_x = max(xs) - 1.5  # the piece's right end seen from the front, its left from behind
    name_anchor = "start" if fr.mirror else "end"
    out.append(
        fr.text(
            name_x, min(ys) - 1.2, p.name, 2.6, f'text-anchor="{name_anchor}" font-weight="bold"'
        )
    )
    return out


def _line(x0: float, y0: float, x1: float, y1: float, style: str) -> str:
    return f'<line x1="{_f(x0)}" y1="{_f(y0)}" x2="{_f(x1)}" y2="{_f(y1)}" {style}/>'


def scale_bar(x: float, y: float, length: float = 100.0) -> list[str]:
    """A 1:1 scale bar ``length`` mm long at (x, y), ticks every 10 mm, labelled."""
    out = [_line(x, y, x + length, y, 'stroke="#000" stroke-width="0.4"')]
    for k in range(int(length // 10) + 1):
        tx = x + 10 * k
        h = 3.0 if k % 5 == 0 else 1.5
        out.append(_line(tx, y, tx, y - h, 'stroke="#000" stroke-width="0.3"'))
    out.append(
        f'<text x="{_f(x + length + 2)}" y="{_f(y + 1)}" font-size="3" {FONT}>{_f(length)} mm:'
        " measure it on the print before cutting</text>"
    )
    return out


def _legend(x: float, y: float, side: str) -> list[str]:
    def t(dx: float, dy: float, s: str) -> str:
        return f'<text x="{_f(x + dx)}" y="{_f(y + dy)}" font-size="2.6" {FONT}>{escape(s)}</text>'

    cut = f'stroke="{CUT}" stroke-width="0.5"'
    out = [
        f'<rect x="{_f(x)}" y="{_f(y - 2.5)}" width="6" height="2" fill="{COPPER}"/>',
        t(8, -0.6, "copper strip (on the back)"),
        _line(x + 60, y - 2.5, x + 62, y - 0.5, cut),
        _line(x + 60, y - 0.5, x + 62, y - 2.5, cut),
        t(64, -0.6, "track cut at this hole"),
        f'<circle cx="{_f(x + 116)}" cy="{_f(y - 1.5)}" r="0.8" fill="none" stroke="{OUT}"'
        ' stroke-width="0.4"/>',
        t(118, -0.6, "chN: output wire from this hole to the multiplexer input of channel N"),
        _line(x, y + 4, x + 6, y + 4, f'stroke="{NET_COLOUR[VCC]}" stroke-width="0.45"'),
        t(8, 4.9, "+3V3 bus wire, soldered at the dots"),
        _line(x + 60, y + 4, x + 66, y + 4, f'stroke="#000" stroke-width="0.45" {GND_DASH}'),
        t(68, 4.9, "GND bus wire, soldered at the dots"),
    ]
    if side == "component":
        out += [
            f'<rect x="{_f(x + 116)}" y="{_f(y + 2.5)}" width="5" height="3" fill="#d8d8d8"'
            ' stroke="#333" stroke-width="0.2"/>',
            t(
                123,
                4.9,
                "DRV5055 (TO-92) lying flat, branded face up; pins 1 VCC, 2 GND, 3 OUT;"
                " green dot: its Hall element, green cross: the spot",
            ),
        ]
    return out


def render(bp: BoardPlan, side: str = "component") -> str:
    """The strip plan of a board, ``side`` ``"component"`` (the front) or ``"copper"``."""
    if side not in ("component", "copper"):
        raise ValueError(f"side is 'component' or 'copper', not {side!r}")
    w, h = bp.size_mm
    fr = _Frame(w, side == "copper")
    W, H = w + 2 * MARGIN, h + HEAD + FOOT
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(W)}mm" height="{_f(H)}mm"'
        f' viewBox="0 0 {_f(W)} {_f(H)}">',
        f'<rect x="0" y="0" width="{_f(W)}" height="{_f(H)}" fill="#fff"/>',
    ]
    if side == "component":
        title = (
            f"Lawmaster {bp.board}: stripboard plan, 1:1, COMPONENT side (the front)."
            " Parts go on this side; cut the strips from the other side (the copper-side"
            " plan is this one mirrored)."
        )
    else:
        title = (
            f"Lawmaster {bp.board}: stripboard plan, 1:1, COPPER side (turned over, mirrored"
            " left to right). Cut the strips at every red cross; the dots are the soldered holes."
        )
    out.append(
        f'<text x="{MARGIN}" y="9" font-size="4" {FONT} font-weight="bold">{escape(title)}</text>'
    )
    out.append(
        f'<text x="{MARGIN}" y="15" font-size="3" {FONT}>Generated by `lawmaster hardware'
        " generate` from the sensor map and the PCB pieces (hardware/stripboard/); see"
        " hardware/STRIPBOARD.md. Grey frame: the board's playing area.</text>"
    )
    out.append(
        fr.rect(0, 0, w, h, 'fill="none" stroke="#999" stroke-width="0.3" stroke-dasharray="3,2"')
    )
    for k, p in enumerate(bp.pieces):
        out += _piece(fr, p, f"holes{k}", side == "component")
    out += _legend(MARGIN, HEAD + h + 9, side)
    out += scale_bar(MARGIN, HEAD + h + 26)
    out.append("</svg>")
    return "\n".join(out) + "\n"
