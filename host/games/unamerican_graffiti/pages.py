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
from collections.abc import Mapping, Sequence
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from markupsafe import Markup, escape

from lawmaster.host.ui import SeatUI, generic
from lawmaster.host.ui.boards import tolerant
from lawmaster.host.ui.lists import sentence_list
from lawmaster.host.ui.look import look_of
from lawmaster.host.ui.measure import bold_width
from lawmaster.rules.core import IllegalAction
from lawmaster.rules.unamerican_graffiti import Board

from . import bar_words, know

#: Hex radius (centre to corner) in SVG user units; the SVG scales through its viewBox.
SIZE = 26.0
MARGIN = 3.0
#: Place names on the map, in user units. The map gets 5/7 of a landscape tablet's
#: width (``lawmaster.css``): at 1024x768 it is drawn at about 1.33 px per unit, at
#: 768x1024 at 1.42, so a name is 16.6 px or more at arm's length (the browser tests
#: measure it in Chromium).
PLACE_SIZE = 12.5
#: Prestige, Judge numbers, pawn letters: 16 px and more at 1024x768, as the names.
MARK_SIZE = 12.5
#: The widest a name may be: a hex is 45 units wide, and a name may reach over the
#: hex's top corners into the streets above it (never onto another name).
PLACE_WIDTH = 67.0
#: The height of the strip under the map where a tapped hex's full name is shown.
CAPTION = 24.0
#: Shorter names of the shipped map's landmarks whose names do not fit a hex.
SHORT_NAMES = {
    "Aggro Dome": "Aggro",
    "Channel 99": "Ch. 99",
    "Power Tower": "Power",
    "Palais De Boing": "Boing",
}
SQRT3 = math.sqrt(3.0)

KIND_FILL = {
    "street": "#eceae4",
    "city-block": "#c9d6df",
    "landmark": "#ffe0b2",
    "sector-house": "#8d9ba6",
    "statue": "#ffd54f",
}
KIND_NAMES = {
    "street": _l("street"),
    "city-block": _l("City Block"),
    "landmark": _l("Landmark"),
    "sector-house": _l("Sector House"),
    "statue": _l("the Statue of Judgement"),
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


_board = tolerant(Board.load)


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
    player, _sep, number = text.rpartition("-")
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
        bottom = max(y for _, y in self.at.values()) + SIZE
        #: The caption strip under the hexes: a tapped hex's full name.
        self.caption_y = bottom + CAPTION * 0.72
        self.height = bottom + CAPTION


def _known(view: Mapping[str, Any], grid: Board) -> bool:
    """Whether every hex the view names is on this map (else the view is another board's)."""
    names: list[object] = list((view.get("judges") or {}).values())
    names += list(view.get("scrawls") or {})
    names += [
        s.get("position") for s in (view.get("scrawlers") or {}).values() if isinstance(s, Mapping)
    ]
    return all(n is None or n in grid.hexes for n in names)


def _hexes(grid: Board, layout: _Layout, threat: Mapping[str, Any] | None = None) -> list[str]:
    """Every hex: its kind's colour, a location's map name and prestige, and its caption.

    A hex takes focus on a tap (``tabindex="-1"``: not a stop for the Tab key, the
    list beside the map names every place), and the caption strip under the map then
    shows its full name: what a short name on the map stands for, and which street is
    "the street west of Aggro Dome".

    On the seat of the scrawler about to move, each hex it could end on is shaded by the
    arrest chance there (:func:`_threat_mark`).
    """
    parts = []
    for h in grid.hexes.values():
        x, y = layout.at[h.id]
        gate = h.id in grid.gates
        if h.is_location:
            note = _(
                "%(name)s — %(kind)s, prestige %(prestige)s",
                name=know.place(grid, h.id),
                kind=str(KIND_NAMES[h.kind]),
                prestige=h.prestige,
            )
        else:
            note = know.place(grid, h.id)
        note = note[:1].upper() + note[1:]
        classes = f"hex {h.kind}" + (" gate" if gate else "")
        info = threat.get(h.id) if threat is not None else None
        mark = _threat_mark(info, x, y) if isinstance(info, Mapping) else None
        if mark is not None:
            classes += f" threat {mark[0]}"
        parts.append(
            f'<g class="{classes}" data-cell="{escape(h.id)}" data-key="hex-{escape(h.id)}" '
            f'data-kind="{h.kind}" tabindex="{0 if mark else -1}">'
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
            parts.append(
                f'<text class="prestige" x="{x + SIZE * 0.62:.1f}" y="{y + SIZE * 0.38:.1f}" '
                f'text-anchor="middle" font-size="{MARK_SIZE}" font-weight="700" fill="#333" '
                'stroke="#fff" stroke-width="3" paint-order="stroke">'
                f"{h.prestige}</text>"
            )
        # Shown while the hex has focus: inside the hex, where later hexes do not cover it.
        parts.append(
            f'<polygon class="ring" points="{_corners(x, y, 0.84)}" fill="none" '
            f'stroke="#0d47a1" stroke-width="3"/>'
        )
        if mark is not None:
            parts.append(mark[1])
        parts.append(_caption(note, layout))
        parts.append("</g>")
    return parts


def _places(grid: Board, layout: _Layout) -> list[str]:
    """The locations' map names, drawn over every hex (a name reaches past its own hex's
    top corners) and under the pieces."""
    labels = [
        _place_label(map_name(grid, h.id), *layout.at[h.id], layout.width)
        for h in grid.hexes.values()
        if h.is_location
    ]
    return ['<g class="places" aria-hidden="true">', *labels, "</g>"]


def map_name(grid: Board, hex_id: str) -> str:
    """What a location is called on the map itself: its name when it fits a hex at
    :data:`PLACE_SIZE`, else a shorter one (the caption and every sentence say it all)."""
    h = grid.hexes[hex_id]
    name = know.place(grid, hex_id)
    if bold_width(name, PLACE_SIZE) <= PLACE_WIDTH:
        return name
    words = name.split()
    # Places keep their printed English names (as every sentence does), only shorter.
    if h.kind == "city-block" and words:
        short = f"Block {words[-1]}"
    elif h.kind == "sector-house" and words:
        short = f"House {words[-1]}"
    elif h.kind == "statue":
        short = "Statue"
    else:
        short = SHORT_NAMES.get(name) or words[0]
    # Whatever else: cut to what fits, with an ellipsis.
    while bold_width(short, PLACE_SIZE) > PLACE_WIDTH and len(short) > 2:
        short = short[:-2].rstrip() + "…"
    return short


def _place_label(name: str, x: float, y: float, width: float) -> str:
    """A location's map name across the top of its hex, kept inside the map's edges."""
    half = bold_width(name, PLACE_SIZE) / 2 + 1
    x = min(max(x, half), width - half)
    return (
        f'<text class="place" x="{x:.1f}" y="{y - SIZE * 0.5:.1f}" text-anchor="middle" '
        f'font-size="{PLACE_SIZE}" font-weight="700" fill="#1d1d1b" paint-order="stroke" '
        f'stroke="#ffffff" stroke-width="3" stroke-linejoin="round" pointer-events="none">'
        f"{escape(name)}</text>"
    )


def _caption(text: str, layout: _Layout) -> str:
    """The words shown in the strip under the map while this hex has focus."""
    return (
        f'<text class="caption" x="{layout.width / 2:.1f}" y="{layout.caption_y:.1f}" '
        f'text-anchor="middle" font-size="{PLACE_SIZE}" font-weight="700" fill="#1d1d1b" '
        f'pointer-events="none">{escape(text)}</text>'
    )


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


#: The threat in four steps a greyscale screen keeps apart: each step's lowest arrest
#: chance, its fill and how it is said in the key (a safe hex is left unshaded).
THREAT_BOUNDS = (0.0001, 0.1, 0.3, 0.6)
THREAT_FILLS = ("#e6e6e6", "#b3b3b3", "#6e6e6e", "#2b2b2b")


def threat_level(chance: float) -> int | None:
    """The step of :data:`THREAT_BOUNDS` an arrest chance falls in (``None``: safe)."""
    found = None
    for i, bound in enumerate(THREAT_BOUNDS):
        if chance >= bound:
            found = i
    return found


def threat_words() -> list[str]:
    return [_("under 10%"), _("10 to 30%"), _("30 to 60%"), _("at least 60%")]


def destination_words(
    view: Mapping[str, Any], grid: Board | None, where: object, stay: bool = False
) -> str:
    """A hex the mover could end on, in words: how far, how the Judges move after, and the
    arrest chance with the exact count of the opponent's rolls (the threat in the view);
    ``stay``: the choice to stay where the pawn is."""
    threat = view.get("threat")
    info = threat.get(str(where)) if isinstance(threat, Mapping) else None
    place = know.place(grid, str(where))
    if not isinstance(info, Mapping):
        return _("Stay where you are") if stay else place[:1].upper() + place[1:]
    hexes = int(info.get("hexes") or 0)
    chance = float(info.get("arrest_chance") or 0.0)
    if stay or hexes == 0:
        return _("Stay where you are: %(chance)s", chance=know.chance_words(chance, 0))
    text = ngettext(
        "%(place)s (%(num)d hex, then the Judges move %(judges)s): %(chance)s",
        "%(place)s (%(num)d hexes, then the Judges move %(judges)s): %(chance)s",
        hexes,
        place=place[:1].upper() + place[1:],
        judges=info.get("judges_move"),
        chance=know.chance_words(chance, hexes),
    )
    return str(text)


def _threat_mark(info: Mapping[str, Any], x: float, y: float) -> tuple[str, str]:
    """How a hex the mover could end on is marked: its class (the shade's step,
    :data:`THREAT_BOUNDS`: ``t0`` … ``t3``, ``ts`` safe) and its percentage, shown when
    the hex is tapped.

    The hex itself carries the mark (the stylesheet shades it by the class: ``svg.graffiti-
    board g.hex.t2``), so the marks that come with every turn of a scrawler are a word in
    each hex's tag and a figure (``host/web/delta.py`` sends just that). Its words, with
    the exact count of rolls, are the choice that moves there (``controls.html``).
    """
    chance = float(info.get("arrest_chance") or 0.0)
    level = threat_level(chance)
    step = "ts" if level is None else f"t{level}"
    figure = (
        f'<text class="threat-pct" x="{x:.0f}" y="{y + SIZE * 0.2:.0f}">{100 * chance:.0f}%</text>'
    )
    return step, figure


def last_move(snapshot: Mapping[str, Any]) -> tuple[str, list[str]] | None:
    """The last move in the log: a scrawler's (``moved``) or a Judge's (``judge_moved``),
    who made it and the hexes it went through (from where it stood)."""
    found: tuple[str, list[str]] | None = None
    where: dict[str, str] = {}
    for e in snapshot.get("log") or []:
        if not isinstance(e, Mapping):
            continue
        kind = e.get("type")
        if kind == "moved":
            who = str(e.get("player"))
            path = [str(h) for h in e.get("path") or []]
            start = where.get(who)
            cells = ([start] if start else []) + path
            found = (who, cells) if len(cells) > 1 else None
            if path:
                where[who] = path[-1]
        elif kind == "judge_moved":
            judge = f"judge-{e.get('judge')}"
            path = [str(h) for h in e.get("path") or []]
            start = e.get("from") if isinstance(e.get("from"), str) else where.get(judge)
            cells = ([start] if start else []) + path
            found = (judge, cells) if len(cells) > 1 else None
            if isinstance(e.get("to"), str):
                where[judge] = e["to"]
        elif kind == "reentered" and isinstance(e.get("at"), str):
            where[str(e.get("player"))] = e["at"]
        elif kind == "setup":
            for at, colour in (e.get("scrawls") or {}).items():
                where[str(colour).rpartition("-")[0]] = str(at)
            for number, at in (e.get("judges") or {}).items():
                where[f"judge-{number}"] = str(at)
    return found


def _last_move(snapshot: Mapping[str, Any], layout: _Layout, looks: Mapping[str, Any]) -> list[str]:
    last = last_move(snapshot)
    if last is None:
        return []
    who, hexes = last
    points = [layout.at[h] for h in hexes if h in layout.at]
    if len(points) < 2:
        return []
    fill = (looks.get(who) or {}).get("fill", JUDGE_FILL)
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    return [
        f'<g class="last-move" data-who="{escape(who)}" pointer-events="none">'
        f'<polyline points="{line}" fill="none" stroke="#fff" stroke-width="8" '
        'stroke-linejoin="round" stroke-linecap="round" opacity=".9"/>'
        f'<polyline points="{line}" fill="none" stroke="{fill}" stroke-width="4" '
        'stroke-linejoin="round" stroke-linecap="round" stroke-dasharray="7 4"/>'
        f'<circle cx="{points[0][0]:.1f}" cy="{points[0][1]:.1f}" r="5" fill="#fff" '
        f'stroke="{fill}" stroke-width="2.5"/></g>'
    ]


def _legend(view: Mapping[str, Any]) -> str:
    items = [
        ('<span class="key key-judge">1</span>', _("a Judge; gold ring: Judge Dredd")),
        ('<span class="key key-scrawl"></span>', _("a scrawl, in its pen's colour")),
        ('<span class="key key-trail"></span>', _("the last move, in its player's colour")),
    ]
    if isinstance(view.get("threat"), Mapping):
        items.append(
            ('<span class="key key-safe"></span>', _("safe: no roll lets a Judge reach you"))
        )
        for fill, words in zip(THREAT_FILLS, threat_words(), strict=True):
            items.append(
                (
                    f'<span class="key" style="background:{fill}"></span>',
                    _("arrest chance %(chance)s", chance=words),
                )
            )
    rows = "".join(f"<li>{key}<span>{escape(text)}</span></li>" for key, text in items)
    return f'<ul class="board-legend">{rows}</ul>'


def _judges(view: Mapping[str, Any], layout: _Layout) -> list[str]:
    """The six Judge counters: dark squares with their number; Judge Dredd's (counter 1)
    has a gold ring, as the rulebook marks it; a cleaning Judge a white bar under it."""
    cleaning = {str(n) for n in view.get("cleaning") or []}
    rolled = {str(n) for n in view.get("dice") or []}
    parts = []
    for number, where in sorted((view.get("judges") or {}).items()):
        if where not in layout.at:
            continue
        x, y = layout.at[where]
        dredd = str(number) == "1"
        side = SIZE * 0.78
        classes = (
            "piece judge"
            + (" dredd" if dredd else "")
            + (" cleaning" if number in cleaning else "")
        )
        classes += " rolled" if number in rolled else ""
        name = "Judge Dredd (1)" if dredd else know.judge_name(number)
        if number in cleaning:
            note = _("%(judge)s on %(hex)s, cleaning up the scrawl", judge=name, hex=where)
        else:
            note = _("%(judge)s on %(hex)s", judge=name, hex=where)
        ring = DREDD_RING if dredd else "#ffffff"
        parts.append(
            f'<g class="{classes}" data-judge="{escape(number)}" data-cell="{escape(where)}">'
            f"<title>{escape(note)}</title>"
            f'<rect x="{x - side / 2:.1f}" y="{y - side / 2 + 1:.1f}" width="{side:.1f}" '
            f'height="{side:.1f}" rx="3" fill="{JUDGE_FILL}" stroke="{ring}" '
            f'stroke-width="{2.5 if dredd else 1.2}"/>'
            f'<text class="judge-number" x="{x:.1f}" y="{y + 1 + MARK_SIZE * 0.36:.1f}" '
            f'text-anchor="middle" font-size="{MARK_SIZE}" font-weight="700" fill="{ring}" '
            f'pointer-events="none">{escape(number)}</text>'
        )
        if number in cleaning:
            parts.append(
                f'<rect class="tippex" x="{x - side / 2:.1f}" y="{y + side / 2 + 1:.1f}" '
                f'width="{side:.1f}" height="4" fill="#ffffff" stroke="#000" stroke-width="0.6"/>'
            )
        parts.append("</g>")
    return parts


def _pawns(view: Mapping[str, Any], layout: _Layout, looks: Mapping[str, Any]) -> list[str]:
    """Each scrawler's pawn: its player's colour and letter for the whole game, ringed in
    the pen it scrawls with now."""
    parts = []
    turn = view.get("turn")
    for player, pawn in (view.get("scrawlers") or {}).items():
        if not isinstance(pawn, Mapping) or pawn.get("position") not in layout.at:
            continue
        where = pawn["position"]
        x, y = layout.at[where]
        colour = pawn.get("colour")
        look = looks.get(str(player)) or {
            "fill": pen(colour),
            "ink": "#fff",
            "mark": str(player)[:1].upper(),
        }
        mover = " to-move" if player == turn and view.get("phase") == "move" else ""
        title = _(
            "%(player)s (%(colour)s) on %(hex)s",
            player=know.player_name(player),
            colour=know.colour_name(colour),
            hex=where,
        )
        parts.append(
            f'<g class="piece pawn{mover}" data-player="{escape(player)}" '
            f'data-cell="{escape(where)}" data-fill="{escape(look["fill"])}">'
            f"<title>{escape(title)}</title>"
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{SIZE * 0.42:.1f}" fill="{pen(colour)}" '
            f'stroke="#000" stroke-width="1"/>'
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{SIZE * 0.32:.1f}" fill="{look["fill"]}" '
            f'stroke="#fff" stroke-width="{2.5 if mover else 1.5}"/>'
            f'<text class="pawn-label" x="{x:.1f}" y="{y + MARK_SIZE * 0.36:.1f}" '
            f'text-anchor="middle" font-size="{MARK_SIZE}" font-weight="700" '
            f'fill="{look["ink"]}" pointer-events="none">{escape(look["mark"])}</text></g>'
        )
    return parts


def _badge(player: object, colour: object) -> Markup:
    return Markup(
        '<span class="graffiti-badge" style="background:{}" aria-hidden="true">{}</span>'
    ).format(pen(colour), str(player)[:1].upper())


def _you(view: Mapping[str, Any], seat: str) -> Markup:
    pawn = (view.get("scrawlers") or {}).get(seat)
    if not isinstance(pawn, Mapping):
        return Markup("")
    colour = pawn.get("colour")
    name = know.player_name(seat)
    if pawn.get("out"):
        text = _("You are %(name)s. You have no scrawler left on the map.", name=name)
    elif pawn.get("position") is None:
        text = _("You are %(name)s. Your scrawler was arrested.", name=name)
    else:
        where = know.place(board_of(view), pawn.get("position"))
        text = _(
            "You are %(name)s: your pawn is the round %(letter)s, scrawling in %(colour)s,"
            " now on %(place)s.",
            name=name,
            letter=seat[:1].upper(),
            colour=know.colour_name(colour),
            place=where,
        )
    return Markup('<p class="graffiti-you">{}{}</p>').format(_badge(seat, colour), text)


def _threat_summary(view: Mapping[str, Any]) -> Markup:
    """How many of the hexes the mover could end on are safe. The chance of each is in
    the list of choices (:func:`destination_words`) and shaded on the map."""
    threat = view.get("threat")
    if not isinstance(threat, Mapping) or not threat:
        return Markup("")
    chances = [
        float(info.get("arrest_chance") or 0.0)
        for info in threat.values()
        if isinstance(info, Mapping)
    ]
    safe = sum(1 for chance in chances if chance <= 0)
    return Markup('<p class="graffiti-threat">{}</p>').format(
        _(
            "Arrest chance where you could end: %(safe)s of %(ends)s safe",
            safe=safe,
            ends=len(chances),
        )
    )


def _map_names(grid: Board) -> Markup:
    """What the shorter names on the map stand for (a tap on a hex says it too)."""
    numbered = {"city-block", "sector-house"}
    lines: list[str] = []
    shortened = [
        (h, map_name(grid, h.id))
        for h in sorted(grid.hexes.values(), key=lambda h: (h.r, h.q))
        if h.is_location and map_name(grid, h.id) != know.place(grid, h.id)
    ]
    if any(h.kind in numbered for h, _short in shortened):
        lines.append(
            _(
                "A City Block is “Block” and its number on the map, a Sector House"
                " “House” and its number."
            )
        )
    lines += [
        Markup("<strong>{}</strong>: {}").format(short, know.place(grid, h.id))
        for h, short in shortened
        if h.kind not in numbered
    ]
    if not lines:
        return Markup("")
    items = Markup("").join(Markup("<li>{}</li>").format(line) for line in lines)
    return Markup(
        '<details class="map-names" data-key="map-names"><summary>{}</summary><ul>{}</ul></details>'
    ).format(_("Names on the map"), items)


def _prestige(view: Mapping[str, Any]) -> Markup:
    """Each colour's prestige as a narrow table (it sits beside the map on a tablet)."""
    rows = []
    for colour, info in view["colours"].items():
        if not isinstance(info, Mapping):
            continue
        final = info.get("final")
        state = (
            Markup('<span class="graffiti-state">{}</span>').format(_("arrested"))
            if info.get("arrested")
            else ""
        )
        rows.append(
            Markup('<tr data-colour="{}"><td>{}{}{}</td><td>{}</td><td>{}</td></tr>').format(
                colour,
                _badge(info.get("player"), colour),
                know.colour_name(colour),
                state,
                info.get("prestige"),
                "—" if final is None else final,
            )
        )
    return Markup(
        '<table class="prestige"><caption>{}</caption><thead><tr><th>{}</th><th>{}</th>'
        "<th>{}</th></tr></thead><tbody>{}</tbody></table>"
    ).format(
        _("Prestige per colour (the best single colour wins)"),
        _("Colour"),
        _("Prestige"),
        _("Final"),
        Markup("").join(rows),
    )


def _facts(view: Mapping[str, Any], grid: Board | None) -> Markup:
    lines: list[str] = []
    dice = view.get("dice") or []
    if dice:
        faces = Markup("").join(Markup('<span class="die">{}</span>').format(d) for d in dice)
        allowance = int(view.get("allowance") or 0)
        said = ngettext(
            "The Judges' dice: %(faces)s — each named Judge moves up to %(num)d hex per die.",
            "The Judges' dice: %(faces)s — each named Judge moves up to %(num)d hexes per die.",
            allowance,
            faces="\x00",
        )
        before, _sep, after = said.partition("\x00")
        lines.append(Markup("{}{}{}").format(before, faces, after))
    cleaning = {str(n) for n in view.get("cleaning") or []}
    judges = []
    for number, where in sorted((view.get("judges") or {}).items(), key=lambda j: str(j[0])):
        values = {"judge": know.judge_name(number), "place": know.place(grid, where)}
        if str(number) in cleaning:
            judges.append(_("%(judge)s on %(place)s (cleaning up)", **values))
        else:
            judges.append(_("%(judge)s on %(place)s", **values))
    if judges:
        lines.append(_("Judges: %(judges)s.", judges="; ".join(judges)))
    scrawls = [
        f"{know.place(grid, where)} ({know.colour_name(colour)})"
        for where, colour in (view.get("scrawls") or {}).items()
    ]
    lines.append(_("Scrawled: %(scrawls)s.", scrawls="; ".join(scrawls) or _("nothing")))
    defaced = [know.place(grid, h) for h in view.get("defaced_landmarks") or []]
    if defaced:
        lines.append(
            _(
                "Landmarks defaced: %(num)s of 6: %(places)s.",
                num=len(defaced),
                places=", ".join(defaced),
            )
        )
    else:
        lines.append(_("Landmarks defaced: %(num)s of 6.", num=0))
    items = Markup("").join(Markup("<li>{}</li>").format(line) for line in lines)
    return Markup('<ul class="graffiti-facts">{}</ul>').format(items)


#: The referee's prompt kinds drawn here; any other kind falls to the generic forms.
COVERED_PROMPTS = frozenset({"choose_destination", "choose_landmark", "enter_dice", "move_judge"})


def _at(hex_id: object) -> str:
    """A hex of the standard map by its name (events carry hex ids, not the board)."""
    return know.place(_board("standard"), hex_id)


def _who(player: object) -> str:
    return know.player_name(player)


def _path(event: Mapping[str, Any]) -> str:
    path = event.get("path") or []
    return " → ".join(_at(h) for h in path) if path else _("stays put")


def _moved(e: Mapping[str, Any]) -> str:
    path = e.get("path") or []
    who = _who(e.get("player"))
    if not path:
        return _("%(who)s stays put.", who=who)
    return ngettext(
        "%(who)s moves %(num)d hex to %(place)s.",
        "%(who)s moves %(num)d hexes to %(place)s.",
        int(e.get("hexes") or 0),
        who=who,
        place=_at(path[-1]),
    )


def _judge_moved(e: Mapping[str, Any]) -> str:
    judge = know.judge_name(e.get("judge"))
    path = e.get("path") or []
    if not path:
        return _("%(judge)s stays on %(place)s.", judge=judge, place=_at(e.get("to")))
    if len(path) > 1:
        return _(
            "%(judge)s moves to %(place)s by way of %(path)s.",
            judge=judge,
            place=_at(e.get("to")),
            path=_path({"path": path[:-1]}),
        )
    return _("%(judge)s moves to %(place)s.", judge=judge, place=_at(e.get("to")))


def _game_over(e: Mapping[str, Any]) -> str:
    best = e.get("best") or {}
    pairs = best.items() if isinstance(best, Mapping) else []
    scores = ", ".join(f"{_who(p)} {v}" for p, v in pairs)
    if e.get("winner") == "draw":
        if scores:
            return _("Game over: it is a draw (best single colour: %(scores)s).", scores=scores)
        return _("Game over: it is a draw.")
    who = _who(e.get("winner"))
    if scores:
        return _(
            "Game over: %(who)s wins (best single colour: %(scores)s).", who=who, scores=scores
        )
    return _("Game over: %(who)s wins.", who=who)


def _setup(e: Mapping[str, Any]) -> str:
    scrawls = ", ".join(
        _("%(place)s in %(colour)s", place=_at(h), colour=know.colour_name(c))
        for h, c in (e.get("scrawls") or {}).items()
    )
    return _(
        "The Judges start on the Sector Houses (Dredd's roll: %(roll)s). Starting scrawls:"
        " %(scrawls)s.",
        roll=e.get("dredd_roll"),
        scrawls=scrawls,
    )


def _turn(e: Mapping[str, Any]) -> str:
    who = _who(e.get("player"))
    if e.get("phase") == "reenter":
        return _("It is %(who)s's turn, back with a new colour.", who=who)
    return _("It is %(who)s's turn.", who=who)


_DESCRIBE = {
    "setup": _setup,
    "turn": _turn,
    "moved": _moved,
    "scrawled": lambda e: _(
        "%(who)s scrawls %(place)s in %(colour)s: +%(prestige)s prestige, %(total)s in all.",
        who=_who(e.get("player")),
        place=_at(e.get("at")),
        colour=know.colour_name(e.get("colour")),
        prestige=e.get("prestige"),
        total=e.get("total"),
    ),
    "roll_needed": lambda e: ngettext(
        "%(who)s rolls %(num)d die for the Judges.",
        "%(who)s rolls %(num)d dice for the Judges.",
        int(e.get("dice") or 0),
        who=_who(e.get("player")),
    ),
    "rolled": lambda e: ngettext(
        "%(who)s rolls %(faces)s: each Judge rolled moves up to %(num)d hex.",
        "%(who)s rolls %(faces)s: each Judge rolled moves up to %(num)d hexes.",
        int(e.get("hexes_per_judge") or 0),
        who=_who(e.get("player")),
        faces=", ".join(map(str, e.get("faces") or [])),
    ),
    "judge_moved": _judge_moved,
    "judge_stops_to_clean": lambda e: _(
        "%(judge)s stops to clean up %(place)s.",
        judge=know.judge_name(e.get("judge")),
        place=_at(e.get("at")),
    ),
    "cleaned": lambda e: _(
        "%(judge)s cleans %(colour)s off %(place)s.",
        judge=know.judge_name(e.get("judge")),
        colour=know.colour_name(e.get("colour")),
        place=_at(e.get("at")),
    ),
    "arrested": lambda e: _(
        "%(judge)s arrests %(who)s (%(colour)s) on %(place)s!",
        judge=know.judge_name(e.get("judge")),
        who=_who(e.get("player")),
        colour=know.colour_name(e.get("colour")),
        place=_at(e.get("at")),
    ),
    "arrest_scored": lambda e: _(
        "%(colour)s scores %(again)s again for the scrawls left: final prestige %(final)s.",
        colour=know.colour_name(e.get("colour")),
        again=e.get("again"),
        final=e.get("final"),
    ),
    "reentered": lambda e: _(
        "%(who)s comes back as %(colour)s on %(place)s.",
        who=_who(e.get("player")),
        colour=know.colour_name(e.get("colour")),
        place=_at(e.get("at")),
    ),
    "out": lambda e: _(
        "%(who)s is out of the game (%(reason)s).",
        who=_who(e.get("player")),
        reason=e.get("reason"),
    ),
    "game_over": _game_over,
}


class GraffitiUI(SeatUI):
    """Unamerican Graffiti's seat pages: the hex map, scrawls, the Judges' threat per hex."""

    covered = COVERED_PROMPTS
    bar_words = bar_words

    def board(self, snapshot: Mapping[str, Any]) -> Markup:
        """The map with what this seat's view holds (not a Graffiti view: the generic drawing)."""
        view = snapshot.get("view")
        if not isinstance(view, Mapping) or not isinstance(view.get("judges"), Mapping):
            return super().board(snapshot)
        grid = board_of(view)
        if grid is None or not _known(view, grid):
            return super().board(snapshot)
        layout = _Layout(grid)
        looks = look_of(snapshot)
        parts = [
            '<svg class="board graffiti-board" '
            f'viewBox="0 0 {layout.width:.0f} {layout.height:.0f}" '
            'role="img" aria-label="Unamerican Graffiti board" xmlns="http://www.w3.org/2000/svg">',
            _STYLE,
        ]
        threat = view.get("threat")
        parts += _hexes(grid, layout, threat if isinstance(threat, Mapping) else None)
        parts += _scrawls(view, layout)
        parts += _places(grid, layout)
        parts += _last_move(snapshot, layout, looks)
        parts += _judges(view, layout)
        parts += _pawns(view, layout, looks)
        hint = _("Tap a hex to see its full name.")
        parts.append(
            f'<text class="map-hint" x="{layout.width / 2:.1f}" y="{layout.caption_y:.1f}" '
            f'text-anchor="middle" font-size="{PLACE_SIZE}" fill="#4a4a4a" '
            f'pointer-events="none">{escape(hint)}</text>'
        )
        parts.append("</svg>")
        return Markup("".join(parts) + _legend(view))

    def extras(self, snapshot: Mapping[str, Any]) -> Markup:
        """What this seat knows in sentences: what it may do, colours, Judges, the threat."""
        view = snapshot.get("view")
        if not isinstance(view, Mapping) or not isinstance(view.get("colours"), Mapping):
            return Markup("")
        grid = board_of(view)
        seat = str(view.get("seat") or snapshot.get("seat") or "")
        parts = [_you(view, seat), sentence_list(know.may_do(view, grid), "graffiti-may")]
        parts.append(_threat_summary(view))
        parts.append(_prestige(view))
        parts.append(_facts(view, grid))
        if grid is not None:
            parts.append(_map_names(grid))
        return Markup('<div class="graffiti-extras">{}</div>').format(Markup("").join(parts))

    def controls(self, snapshot: Mapping[str, Any], token: str, digital_dice: bool) -> Markup:
        """Forms for the referee's prompts to this seat (from its snapshot only)."""
        found = snapshot.get("view")
        view: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
        grid = board_of(view) if view else None
        return generic.prompt_controls(
            snapshot,
            "unamerican-graffiti/controls.html",
            self.covered,
            token,
            digital_dice,
            place=lambda hex_id: know.place(grid, hex_id),
            destination=lambda hex_id, stay=False: destination_words(view, grid, hex_id, stay),
            judge_name=know.judge_name,
        )

    # -- names, colours, the action bar ------------------------------------------------
    def seat_name(self, seat: str) -> str:
        return know.player_name(seat)

    def seats_of(self, snapshot: Mapping[str, Any]) -> list[str]:
        return ["chopper", "phantom"]

    def colour_slots(self) -> list[tuple[str, str, str]]:
        """None: each player's colour is its pens' (Chopper red, Phantom blue)."""
        return []

    def seat_colours(self, seats: Sequence[str], chosen: Mapping[str, Any]) -> dict[str, str]:
        fixed = {"chopper": "red", "phantom": "blue"}
        return {s: fixed.get(s, "teal") for s in seats}

    def actor(self, event: Mapping[str, Any]) -> str | None:
        player = event.get("player")
        if isinstance(player, str):
            return player
        return None

    def describe(self, event: Mapping[str, Any]) -> str:
        """One log line for an Unamerican Graffiti event."""
        line = _DESCRIBE.get(str(event.get("type")))
        if line is None:
            return super().describe(event)
        try:
            return line(event)
        except (TypeError, ValueError, AttributeError):
            return super().describe(event)
