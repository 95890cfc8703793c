"""Unamerican Graffiti: the hex map as an SVG, drawn on the server from one seat's view.

The map (hexes, kinds, names, the gates between Sector Houses) is the shipped
board the view names (a shipped name, or the inline board object); everything on it —
scrawls in each colour's pen, the Judges, the pawns, the cleaning Judges and,
on the seat of the scrawler about to move, the threat — comes from the view.
The game hides nothing, but the threat is only in the mover's own view, so it
is only drawn there.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from markupsafe import Markup, escape

from lawmaster.rules.core import IllegalAction
from lawmaster.rules.unamerican_graffiti import Board

from . import generic

#: Hex radius (centre to corner) in SVG user units; the SVG scales through its viewBox.
SIZE = 26.0
MARGIN = 6.0
SQRT3 = math.sqrt(3.0)

KIND_FILL = {
    "street": "#eceae4",
    "city-block": "#c9d6df",
    "landmark": "#ffe0b2",
    "sector-house": "#8d9ba6",
    "statue": "#ffd54f",
}
KIND_NAMES = {
    "street": "street",
    "city-block": "City Block",
    "landmark": "Landmark",
    "sector-house": "Sector House",
    "statue": "the Statue of Judgement",
}
#: Pen colours per player, one per colour number (a player's n-th scrawler).
PENS = {
    "chopper": ("#d32f2f", "#ef6c00", "#ad1457", "#8d6e63"),
    "phantom": ("#1565c0", "#6a1b9a", "#00838f", "#2e7d32"),
}
JUDGE_FILL = "#263238"
#: Hover feedback while a hex field waits for a tap (the page script sets body.picking).
_STYLE = (
    "<style>body.picking svg.graffiti-board [data-cell]{cursor:pointer}"
    "body.picking svg.graffiti-board .hex:hover polygon{stroke:#1565c0;stroke-width:3}</style>"
)
DREDD_RING = "#ffca28"


@lru_cache(maxsize=8)
def _board(name: str) -> Board | None:
    try:
        return Board.load(name)
    except (IllegalAction, OSError, ValueError, TypeError):
        return None


def board_of(view: Mapping[str, Any]) -> Board | None:
    """The map a view is played on: the shipped board it names, ``"standard"`` by default."""
    spec = view.get("board", "standard")
    if isinstance(spec, str):
        return _board(spec)
    if isinstance(spec, Mapping):
        try:
            return Board.from_data(spec)
        except (IllegalAction, TypeError, ValueError):
            return None
    return None


def pen(colour: object) -> str:
    """The pen colour of a scrawler colour id such as ``"chopper-1"``."""
    text = str(colour)
    player, _, number = text.rpartition("-")
    pens = PENS.get(player)
    if pens is None or not number.isdigit():
        return "#555555"
    return pens[(int(number) - 1) % len(pens)]


def centre(q: int, r: int) -> tuple[float, float]:
    """Pointy-top axial coordinates → pixel centre (before the margin shift)."""
    return SIZE * SQRT3 * (q + r / 2), SIZE * 1.5 * r


def _corners(x: float, y: float, scale: float = 1.0) -> str:
    points = []
    for i in range(6):
        angle = math.radians(60 * i - 30)
        points.append(
            f"{x + scale * SIZE * math.cos(angle):.1f},{y + scale * SIZE * math.sin(angle):.1f}"
        )
    return " ".join(points)


class _Layout:
    """Pixel centres of every hex, shifted so the map starts at the margin."""

    def __init__(self, grid: Board) -> None:
        raw = {h.id: centre(h.q, h.r) for h in grid.hexes.values()}
        left = min(x for x, _ in raw.values()) - SIZE * SQRT3 / 2 - MARGIN
        top = min(y for _, y in raw.values()) - SIZE - MARGIN
        self.at = {h: (x - left, y - top) for h, (x, y) in raw.items()}
        self.width = max(x for x, _ in self.at.values()) + SIZE * SQRT3 / 2 + MARGIN
        self.height = max(y for _, y in self.at.values()) + SIZE + MARGIN


def _known(view: Mapping[str, Any], grid: Board) -> bool:
    """Whether every hex the view names is on this map (else the view is another board's)."""
    names: list[object] = list((view.get("judges") or {}).values())
    names += list(view.get("scrawls") or {})
    names += [
        s.get("position") for s in (view.get("scrawlers") or {}).values() if isinstance(s, Mapping)
    ]
    return all(n is None or n in grid.hexes for n in names)


def board(snapshot: Mapping[str, Any]) -> Markup | None:
    """The map with what this seat's view holds, or ``None`` if it is not a Graffiti view."""
    view = snapshot.get("view")
    if not isinstance(view, Mapping) or not isinstance(view.get("judges"), Mapping):
        return None
    grid = board_of(view)
    if grid is None or not _known(view, grid):
        return None
    layout = _Layout(grid)
    parts = [
        f'<svg class="board graffiti-board" viewBox="0 0 {layout.width:.0f} {layout.height:.0f}" '
        'role="img" aria-label="Unamerican Graffiti board" xmlns="http://www.w3.org/2000/svg">',
        _STYLE,
    ]
    parts += _hexes(grid, layout)
    parts += _scrawls(view, layout)
    parts += _threat(view, layout)
    parts += _judges(view, layout)
    parts += _pawns(view, layout)
    parts.append("</svg>")
    return Markup("".join(parts))


def _hexes(grid: Board, layout: _Layout) -> list[str]:
    parts = []
    for h in grid.hexes.values():
        x, y = layout.at[h.id]
        gate = h.id in grid.gates
        note = KIND_NAMES[h.kind] if h.kind != "street" else "street"
        if h.is_location:
            note = f"{h.name} — {note}, prestige {h.prestige}"
        elif gate:
            note = f"{h.id} — street between two Sector Houses"
        else:
            note = f"{h.id} — street"
        classes = f"hex {h.kind}" + (" gate" if gate else "")
        parts.append(
            f'<g class="{classes}" data-cell="{escape(h.id)}" data-kind="{h.kind}">'
            f"<title>{escape(note)}</title>"
            f'<polygon points="{_corners(x, y)}" fill="{KIND_FILL[h.kind]}" stroke="#8a867c" '
            f'stroke-width="1"/>'
        )
        if gate:
            parts.append(
                f'<polygon points="{_corners(x, y, 0.8)}" fill="none" stroke="#37474f" '
                f'stroke-width="1.5" stroke-dasharray="3 2"/>'
            )
        if h.is_location:
            parts += _location_label(_short_name(h.kind, h.name), x, y)
            parts.append(
                f'<text class="prestige" x="{x + SIZE * 0.55:.1f}" y="{y + SIZE * 0.3:.1f}" '
                f'text-anchor="middle" font-size="7" font-weight="700" fill="#333">'
                f"{h.prestige}</text>"
            )
        parts.append("</g>")
    return parts


def _short_name(kind: str, name: str) -> str:
    """What fits in a hex: Blocks and Houses by number, other places by name."""
    if kind == "city-block":
        return "Block"
    if kind == "sector-house":
        return "House " + name.split()[-1] if name.split() else name
    return name


def _location_label(name: str, x: float, y: float) -> list[str]:
    """The location's name in at most two short lines at the top of its hex."""
    words = name.split()
    lines = [name] if len(name) <= 10 or len(words) == 1 else _two_lines(words)
    out = []
    top = y - SIZE * (0.62 if len(lines) == 1 else 0.72)
    for i, line in enumerate(lines):
        out.append(
            f'<text class="place" x="{x:.1f}" y="{top + i * 6.5:.1f}" text-anchor="middle" '
            f'font-size="6" fill="#222" pointer-events="none">{escape(line)}</text>'
        )
    return out


def _two_lines(words: list[str]) -> list[str]:
    best = min(
        range(1, len(words)),
        key=lambda i: abs(len(" ".join(words[:i])) - len(" ".join(words[i:]))),
    )
    return [" ".join(words[:best]), " ".join(words[best:])]


def _scrawls(view: Mapping[str, Any], layout: _Layout) -> list[str]:
    parts = []
    for where, colour in (view.get("scrawls") or {}).items():
        if where not in layout.at:
            continue
        x, y = layout.at[where]
        w = SIZE * 0.5
        low = y + SIZE * 0.62
        # A zigzag scrawl across the bottom of the hex (clear of a pawn), in the colour's pen.
        d = (
            f"M{x - w:.1f} {low - 2:.1f}L{x - w / 2:.1f} {low - 7:.1f}L{x:.1f} {low:.1f}"
            f"L{x + w / 2:.1f} {low - 7:.1f}L{x + w:.1f} {low - 2:.1f}"
        )
        parts.append(
            f'<path class="scrawl" data-cell="{escape(where)}" data-colour="{escape(colour)}" '
            f'd="{d}" fill="none" stroke="{pen(colour)}" stroke-width="3.5" '
            f'stroke-linecap="round" stroke-linejoin="round">'
            f"<title>{escape(where)} scrawled by {escape(colour)}</title></path>"
        )
    return parts


def _threat(view: Mapping[str, Any], layout: _Layout) -> list[str]:
    """Shading per hex the mover could end on: darker red for a likelier arrest."""
    threat = view.get("threat")
    if not isinstance(threat, Mapping):
        return []
    parts = []
    for where, info in sorted(threat.items()):
        if where not in layout.at or not isinstance(info, Mapping):
            continue
        chance = float(info.get("arrest_chance") or 0.0)
        hexes = info.get("hexes")
        x, y = layout.at[where]
        text = (
            f"end on {where}: {hexes} hex(es), the Judges move {info.get('judges_move')}; "
            f"arrest chance {100 * chance:.0f}%"
        )
        if isinstance(info.get("arrest_odds"), str):
            text += f" ({info['arrest_odds']})"
        parts.append(
            f'<g class="threat" data-cell="{escape(where)}" data-chance="{chance:.4f}">'
            f"<title>{escape(text)}</title>"
            f'<polygon points="{_corners(x, y, 0.92)}" fill="#c62828" '
            f'fill-opacity="{0.08 + 0.6 * chance:.2f}" stroke="#2e7d32" stroke-width="1.2"/>'
            "</g>"
        )
    return parts


def _judges(view: Mapping[str, Any], layout: _Layout) -> list[str]:
    cleaning = {str(n) for n in view.get("cleaning") or []}
    rolled = {str(n) for n in view.get("dice") or []}
    parts = []
    for number, where in sorted((view.get("judges") or {}).items()):
        if where not in layout.at:
            continue
        x, y = layout.at[where]
        dredd = str(number) == "1"
        side = SIZE * 0.62
        classes = (
            "piece judge"
            + (" dredd" if dredd else "")
            + (" cleaning" if number in cleaning else "")
        )
        classes += " rolled" if number in rolled else ""
        name = "Judge Dredd (1)" if dredd else f"Judge {number}"
        note = f"{name} on {where}" + (", cleaning up the scrawl" if number in cleaning else "")
        ring = DREDD_RING if dredd else "#ffffff"
        parts.append(
            f'<g class="{classes}" data-judge="{escape(number)}" data-cell="{escape(where)}">'
            f"<title>{escape(note)}</title>"
            f'<rect x="{x - side / 2:.1f}" y="{y - side / 2 - 2:.1f}" width="{side:.1f}" '
            f'height="{side:.1f}" rx="3" fill="{JUDGE_FILL}" stroke="{ring}" '
            f'stroke-width="{2.5 if dredd else 1.2}"/>'
            f'<text class="judge-number" x="{x:.1f}" y="{y + 2.5:.1f}" text-anchor="middle" '
            f'font-size="11" font-weight="700" fill="{ring}" pointer-events="none">'
            f"{escape(number)}</text>"
        )
        if dredd:
            parts.append(
                f'<text class="dredd-mark" x="{x + side / 2 + 1:.1f}" y="{y - side / 2:.1f}" '
                f'font-size="8" font-weight="700" fill="#b71c1c" pointer-events="none">D</text>'
            )
        if number in cleaning:
            parts.append(
                f'<rect class="tippex" x="{x - side / 2:.1f}" y="{y + side / 2 - 1:.1f}" '
                f'width="{side:.1f}" height="4" fill="#ffffff" stroke="#000" stroke-width="0.6"/>'
            )
        parts.append("</g>")
    return parts


def _pawns(view: Mapping[str, Any], layout: _Layout) -> list[str]:
    parts = []
    turn = view.get("turn")
    for player, pawn in (view.get("scrawlers") or {}).items():
        if not isinstance(pawn, Mapping) or pawn.get("position") not in layout.at:
            continue
        where = pawn["position"]
        x, y = layout.at[where]
        colour = pawn.get("colour")
        mover = " to-move" if player == turn and view.get("phase") == "move" else ""
        parts.append(
            f'<g class="piece pawn{mover}" data-player="{escape(player)}" '
            f'data-cell="{escape(where)}"><title>{escape(player)} ({escape(colour)}) on '
            f"{escape(where)}</title>"
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{SIZE * 0.36:.1f}" fill="{pen(colour)}" '
            f'stroke="#000" stroke-width="{2.5 if mover else 1.5}"/>'
            f'<text class="pawn-label" x="{x:.1f}" y="{y + 4:.1f}" text-anchor="middle" '
            f'font-size="11" font-weight="700" fill="#fff" pointer-events="none">'
            f"{escape(str(player)[:1].upper())}</text></g>"
        )
    return parts


def extras(snapshot: Mapping[str, Any]) -> Markup:
    """Prestige per colour, the dice, the landmarks defaced, the winner."""
    view = snapshot.get("view")
    if not isinstance(view, Mapping) or not isinstance(view.get("colours"), Mapping):
        return Markup("")
    rows = []
    for colour, info in view["colours"].items():
        if not isinstance(info, Mapping):
            continue
        state = "arrested" if info.get("arrested") else "free"
        final = info.get("final")
        rows.append(
            Markup(
                '<tr data-colour="{}"><td><span class="swatch" style="background:{}"></span>{}'
                "</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>"
            ).format(
                colour,
                pen(colour),
                colour,
                info.get("player"),
                info.get("prestige"),
                state,
                "—" if final is None else final,
            )
        )
    table = Markup(
        '<table class="prestige"><thead><tr><th>Colour</th><th>Player</th><th>Prestige</th>'
        "<th>State</th><th>Final</th></tr></thead><tbody>{}</tbody></table>"
    ).format(Markup("").join(rows))
    winner = view.get("winner")
    head = Markup("")
    if winner:
        text = "A draw." if winner == "draw" else f"{winner} wins."
        head = Markup('<p class="winner">{}</p>').format(text)
    dice = view.get("dice") or []
    dice_html = Markup("").join(Markup('<span class="die">{}</span>').format(d) for d in dice)
    defaced = view.get("defaced_landmarks") or []
    facts = Markup(
        "<dl class='view'><dt>turn</dt><dd>{} ({})</dd><dt>Judges' dice</dt><dd>{}</dd>"
        "<dt>hexes per Judge</dt><dd>{}</dd><dt>landmarks defaced</dt><dd>{} of 6: {}</dd>"
        "<dt>cleaning</dt><dd>{}</dd></dl>"
    ).format(
        view.get("turn"),
        str(view.get("phase", "")).replace("judges", "Judges move"),
        dice_html or "—",
        view.get("allowance"),
        len(defaced),
        ", ".join(map(str, defaced)) or "none",
        ", ".join(f"Judge {n}" for n in view.get("cleaning") or []) or "nobody",
    )
    return Markup('<div class="graffiti-extras">{}{}{}</div>').format(head, table, facts)


#: The referee's prompt kinds drawn here; any other kind falls to the generic forms.
COVERED_PROMPTS = frozenset({"choose_destination", "choose_landmark", "enter_dice", "move_judge"})


def controls(snapshot: Mapping[str, Any], token: str, digital_dice: bool) -> Markup:
    """Forms for the referee's prompts to this seat (from its snapshot only)."""
    return generic.prompt_controls(
        snapshot, "graffiti_controls.html", COVERED_PROMPTS, token, digital_dice
    )


def _path(event: Mapping[str, Any]) -> str:
    path = event.get("path") or []
    return " → ".join(map(str, path)) if path else "stays put"


_DESCRIBE = {
    "setup": lambda e: (
        f"Judges on the Sector Houses (Dredd roll {e.get('dredd_roll')}); "
        f"starting scrawls: {', '.join(f'{h} ({c})' for h, c in (e.get('scrawls') or {}).items())}."
    ),
    "turn": lambda e: (
        f"{e.get('player')}'s turn"
        + (" (back with a new colour)." if e.get("phase") == "reenter" else ".")
    ),
    "moved": lambda e: f"{e.get('player')} moves {e.get('hexes')} hex(es): {_path(e)}.",
    "scrawled": lambda e: (
        f"{e.get('player')} scrawls {e.get('at')} in {e.get('colour')}: "
        f"+{e.get('prestige')}, {e.get('total')} in all."
    ),
    "roll_needed": lambda e: (
        f"{e.get('player')} rolls {e.get('dice')} {'die' if e.get('dice') == 1 else 'dice'} "
        "for the Judges."
    ),
    "rolled": lambda e: (
        f"{e.get('player')} rolls {', '.join(map(str, e.get('faces') or []))}: "
        f"each Judge moves up to {e.get('hexes_per_judge')} hex(es)."
    ),
    "judge_moved": lambda e: (
        f"Judge {e.get('judge')} stays on {e.get('to')}."
        if not e.get("path")
        else f"Judge {e.get('judge')} moves to {e.get('to')}"
        + (f" ({_path(e)})." if len(e.get("path") or []) > 1 else ".")
    ),
    "judge_stops_to_clean": lambda e: f"Judge {e.get('judge')} stops to clean {e.get('at')}.",
    "cleaned": lambda e: f"Judge {e.get('judge')} cleans {e.get('colour')} off {e.get('at')}.",
    "arrested": lambda e: (
        f"Judge {e.get('judge')} arrests {e.get('player')} ({e.get('colour')}) on {e.get('at')}!"
    ),
    "arrest_scored": lambda e: (
        f"{e.get('colour')} scores {e.get('again')} again: final prestige {e.get('final')}."
    ),
    "reentered": lambda e: f"{e.get('player')} returns as {e.get('colour')} on {e.get('at')}.",
    "out": lambda e: f"{e.get('player')} is out ({e.get('reason')}).",
    "game_over": lambda e: (
        "Game over: "
        + ("a draw" if e.get("winner") == "draw" else f"{e.get('winner')} wins")
        + f" (best colour: {', '.join(f'{p} {v}' for p, v in (e.get('best') or {}).items())})."
    ),
}


def describe(event: Mapping[str, Any]) -> str:
    """One log line for an Unamerican Graffiti event."""
    line = _DESCRIBE.get(str(event.get("type")))
    if line is None:
        return generic.describe(event)
    try:
        return line(event)
    except (TypeError, ValueError, AttributeError):
        return generic.describe(event)
