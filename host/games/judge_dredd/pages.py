"""Judge Dredd: Mega-City One as a server-side SVG map, and the seat's combat odds.

The map is drawn from the shipped board the view names (sector positions ``x``,
``y``; borders; the river, drawn between the Sectors it separates, and its
bridges; the Justice Department Hospital; the Starting Sectors with their
refill bonus). Everything on it comes from the seat's own view: face-up Perps
(name and strength) with their Crimes, face-down Perps as card backs (the view
never holds their ids, so the page cannot either), the Judge standees (KO'd
greyed, the seat's own ringed), the Alien and quarantines. A board the view
names but that is not shipped (an inline test board) is listed as a table.

When the seat's view carries combat odds (``you.odds``: win, tie, lose), they
are shown as numbers and a bar.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from flask import render_template
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from markupsafe import Markup, escape

from lawmaster.host.ui import SeatUI
from lawmaster.host.ui.boards import tolerant
from lawmaster.host.ui.look import look_of
from lawmaster.host.ui.measure import bold_width
from lawmaster.host.ui.speak import spoken
from lawmaster.rules.judge_dredd.board import Board
from lawmaster.rules.judge_dredd.cards import CardBook

from . import bar_words, cards, words

# Parts of the view the map already shows (the rest goes to the list).
_IN_TABLE = ("judges", "perps", "crimes", "alien", "quarantined")
_BAR = {"win": "#2e7d32", "tie": "#f9a825", "lose": "#c62828"}

#: Half the size of a Sector's box, in SVG units (the board's x, y are its centre; the
#: centres are 100 apart across and 110 down).
HALF_W, HALF_H = 48, 53
#: Every mark inside a box: the Perp, the Crimes, the standees, START (16 px at 1024x768).
MARK_SIZE = 16.5
MARGIN = 3
#: Sector names, in user units. The map gets 5/7 of a landscape tablet's width
#: (``lawmaster.css``) and is about 700 units wide: at 1024x768 it is drawn at about
#: 1.0 px per unit, at 768x1024 at 1.06, so a name is 17 px or more at arm's length
#: (the browser tests measure it in Chromium).
NAME_SIZE = 17
#: The widest a line of a name may be: its box, less a unit each side.
NAME_WIDTH = 2 * HALF_W - 2
#: The height of the strip under the map where a tapped Sector's full name is shown.
CAPTION = 28
#: How the map writes the shipped Sectors whose names do not fit two lines of a box at
#: :data:`NAME_SIZE`: a long word broken where it reads, or a shorter name (the name is
#: whole in the caption on a tap, in "Names on the map" beside it and in every sentence).
MAP_NAMES: Mapping[str, tuple[str, ...]] = {
    "Spaceport": ("Space-", "port"),
    "Mega-Mall": ("Mega-", "Mall"),
    "Smokatorium": ("Smoka-", "torium"),
    "Grand Hall of Justice": ("Grand", "Hall"),
    "Justice Department Hospital": ("Hospital",),
    "Black Atlantic Docks": ("Atlantic", "Docks"),
    "Statue of Judgement": ("Statue",),
    "Otto Sump's Ugly Clinic": ("Ugly", "Clinic"),
    "Justice Department Armoury": ("Armoury",),
    "Undercity Access": ("Under-", "city"),
    "Robot Wars Arena": ("Robot", "Wars"),
    "Block Tower Row": ("Block", "Tower"),
    "Ped-Zone Plaza": ("Ped-", "Zone"),
}
KIND_FILL = {"crime": "#eceff1", "start": "#dcedc8", "hospital": "#ffebee"}
RIVER = "#1e88e5"
BRIDGE = "#8d6e63"


_board = tolerant(Board.load)


def _city_of(view: Mapping[str, Any]) -> Board | None:
    """The shipped map a view is played on (``None``: a board that is not shipped)."""
    name = view.get("board", "standard")
    return _board(name) if isinstance(name, str) else None


@lru_cache(maxsize=2)
def _names() -> Mapping[str, str]:
    return CardBook.load("standard").names


def _name(card: object) -> str:
    return _names().get(str(card), str(card))


def _sectors(view: Mapping[str, Any]) -> dict[str, dict[str, list[str]]]:
    rows: dict[str, dict[str, list[str]]] = {}

    def at(sector: object) -> dict[str, list[str]]:
        return rows.setdefault(str(sector), {"judges": [], "perp": [], "crimes": [], "notes": []})

    for seat, judge in (view.get("judges") or {}).items():
        if isinstance(judge, Mapping) and judge.get("sector"):
            label = _("%(seat)s (KO)", seat=seat) if judge.get("ko") else seat
            if judge.get("specialist"):
                label += f" [{judge['specialist']}]"
            at(judge["sector"])["judges"].append(label)
    for sector, perp in (view.get("perps") or {}).items():
        if isinstance(perp, Mapping):
            shown = (
                f"{perp.get('perp')} ({perp.get('strength')})"
                if perp.get("face_up")
                else _("face-down Perp")
            )
            at(sector)["perp"].append(shown)
    for sector, crimes in (view.get("crimes") or {}).items():
        at(sector)["crimes"].extend(str(c) for c in crimes or [])
    if view.get("alien"):
        alien = view["alien"]
        where = alien.get("sector") if isinstance(alien, Mapping) else alien
        if isinstance(where, str):
            at(where)["notes"].append(_("the Alien"))
    for sector in view.get("quarantined") or []:
        at(sector)["notes"].append(_("quarantined"))
    return rows


def _table(view: Mapping[str, Any]) -> Markup:
    """The sectors with anything on them, as a table (for boards that are not shipped)."""
    rows = Markup("").join(
        Markup("<tr><th>{}</th><td>{}</td><td>{}</td><td>{}</td></tr>").format(
            sector.replace("-", " "),
            ", ".join(things["judges"]),
            ", ".join(things["perp"]),
            ", ".join(things["crimes"] + things["notes"]),
        )
        for sector, things in sorted(_sectors(view).items())
    )
    return Markup(
        '<table class="sectors"><thead><tr><th>{}</th><th>{}</th><th>{}</th>'
        "<th>{}</th></tr></thead><tbody>{}</tbody></table>"
    ).format(_("Sector"), _("Judges"), _("Perp"), _("Crimes"), rows)


def _fits(view: Mapping[str, Any], city: Board) -> bool:
    """Whether every Sector the view names is on ``city`` (else the view is drawn as a table)."""
    named = {j.get("sector") for j in view["judges"].values() if isinstance(j, Mapping)}
    named |= set(view.get("perps") or {}) | set(view.get("crimes") or {})
    return all(s is None or s in city.sectors for s in named)


def map_svg(
    view: Mapping[str, Any], city: Board, seat: str, snapshot: Mapping[str, Any] | None = None
) -> Markup:
    """The whole map as one inline SVG, drawn from ``view`` (and the drawn snapshot's look
    and log: each Judge's colour, the last move) only."""
    snapshot = snapshot or {}
    looks = look_of(snapshot)
    xs = [s.x for s in city.sectors.values()]
    ys = [s.y for s in city.sectors.values()]
    left, top = min(xs) - HALF_W - MARGIN, min(ys) - HALF_H - MARGIN
    width = max(xs) - min(xs) + 2 * (HALF_W + MARGIN)
    height = max(ys) - min(ys) + 2 * (HALF_H + MARGIN) + CAPTION
    strip = (left + width / 2, top + height - CAPTION * 0.3)
    label = _("Mega-City One")
    parts = [
        f'<svg class="board dredd-map" viewBox="{left} {top} {width} {height}" role="img" '
        f'aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg" '
        'font-family="sans-serif">'
    ]
    parts += _links(city)
    quarantined = set(view.get("quarantined") or [])
    alien = view.get("alien")
    alien_at = alien.get("sector") if isinstance(alien, Mapping) else alien
    drawn = [
        _sector(s, s.id in quarantined, s.id == alien_at, strip) for s in city.sectors.values()
    ]
    parts += [box for box, _ in drawn]
    parts += _river(city, bool(view.get("bridges_closed")))
    # The last move, then the names over it and the river, so no line hides a name.
    parts += _last_move(snapshot, city, looks)
    parts += [label for _, label in drawn]
    for sector, perp in (view.get("perps") or {}).items():
        if sector in city.sectors and isinstance(perp, Mapping):
            parts.append(_perp(city, sector, perp))
    for sector, crimes in (view.get("crimes") or {}).items():
        if sector in city.sectors:
            parts.append(_crimes(city, sector, list(crimes or [])))
    parts += _judges(view, city, seat, looks)
    hint = _("Tap a Sector to see its full name.")
    parts.append(
        f'<text class="map-hint" x="{strip[0]}" y="{strip[1]}" text-anchor="middle" '
        f'style="font-size:{NAME_SIZE}px" fill="#4a4a4a" pointer-events="none">'
        f"{escape(hint)}</text>"
    )
    parts.append("</svg>")
    return Markup("".join(parts))


def _links(city: Board) -> list[str]:
    """Borders as faint lines between Sector centres (drawn under the boxes)."""
    out = []
    for pair in sorted(tuple(sorted(p)) for p in city.borders):
        a, b = (city.sectors[s] for s in pair)
        out.append(
            f'<line class="border" x1="{a.x}" y1="{a.y}" x2="{b.x}" y2="{b.y}" '
            'stroke="#b0bec5" stroke-width="3"/>'
        )
    return out


def _river(city: Board, closed: bool) -> list[str]:
    """The river between the Sectors it separates; a bridge across it where there is one."""
    out = []
    for pair in sorted(tuple(sorted(p)) for p in city.river):
        a, b = (city.sectors[s] for s in pair)
        mx, my = (a.x + b.x) / 2, (a.y + b.y) / 2
        dx, dy = b.x - a.x, b.y - a.y
        length = max((dx * dx + dy * dy) ** 0.5, 1.0)
        # The river runs across the line joining the two centres, at its middle.
        nx, ny = -dy / length * 30, dx / length * 30
        out.append(
            f'<line class="river" x1="{mx - nx:.1f}" y1="{my - ny:.1f}" x2="{mx + nx:.1f}" '
            f'y2="{my + ny:.1f}" stroke="{RIVER}" stroke-width="7" stroke-linecap="round"/>'
        )
        if frozenset(pair) in city.bridges:
            bx, by = dx / length * 12, dy / length * 12
            dash = ' stroke-dasharray="3 3"' if closed else ""
            bridge = _("bridge (closed)") if closed else _("bridge")
            out.append(
                f'<line class="bridge" data-bridge="{escape(pair[0])}|{escape(pair[1])}" '
                f'x1="{mx - bx:.1f}" y1="{my - by:.1f}" x2="{mx + bx:.1f}" y2="{my + by:.1f}" '
                f'stroke="{BRIDGE}" stroke-width="9"{dash}>'
                f"<title>{escape(bridge)}</title></line>"
            )
    return out


def _sector(
    sector: Any, quarantined: bool, alien: bool, strip: tuple[float, float]
) -> tuple[str, str]:
    """A Sector's box (it takes focus on a tap, and the strip under the map then shows its
    full name), and its labels (drawn later, above the river)."""
    x, y = sector.x - HALF_W, sector.y - HALF_H
    stroke = (
        ' stroke="#ef6c00" stroke-width="3" stroke-dasharray="6 3"'
        if quarantined
        else (' stroke="#546e7a" stroke-width="1"')
    )
    lines = map_lines(sector.name)
    text = "".join(
        f'<text class="sector-name" x="{sector.x}" y="{y + 16 + 18 * i}" text-anchor="middle" '
        f'style="font-size:{NAME_SIZE}px" font-weight="700" fill="#263238" paint-order="stroke" '
        f'stroke="{KIND_FILL.get(sector.kind, "#eee")}" stroke-width="4">{escape(w)}</text>'
        for i, w in enumerate(lines)
    )
    extra = ""
    if sector.kind == "start":
        start = _("START +%(bonus)s", bonus=sector.bonus)
        extra = (
            # In the row a Perp takes elsewhere (no crime is placed on a Starting Sector),
            # clear of the standees along the bottom.
            f'<text class="start-bonus" x="{sector.x}" y="{y + 56}" '
            f'style="font-size:{MARK_SIZE}px" text-anchor="middle" '
            f'fill="#33691e" font-weight="700">{escape(start)}'
            "</text>"
        )
    elif sector.kind == "hospital":
        cx, cy = sector.x, y + 50
        extra = (
            f'<g class="hospital-cross" fill="#d32f2f"><rect x="{cx - 2}" y="{cy - 7}" '
            f'width="4" height="14"/><rect x="{cx - 7}" y="{cy - 2}" width="14" height="4"/></g>'
        )
    if alien:
        # The Alien: a green badge in the box's top-left corner (the key and the list say it).
        extra += (
            f'<g class="alien"><circle cx="{x + 11}" cy="{y + 11}" r="10" fill="#1b5e20"/>'
            f'<text x="{x + 11}" y="{y + 17}" style="font-size:{MARK_SIZE}px" fill="#fff" '
            f'text-anchor="middle" font-weight="700">A</text></g>'
        )
    if quarantined:
        # Quarantine: the dashed orange border and a hazard badge in the top-right corner.
        extra += (
            f'<g class="quarantine"><circle cx="{x + 2 * HALF_W - 11}" cy="{y + 11}" r="10" '
            f'fill="#ef6c00"/><text x="{x + 2 * HALF_W - 11}" y="{y + 17}" '
            f'style="font-size:{MARK_SIZE}px" fill="#1d1d1b" text-anchor="middle" '
            f'font-weight="700">!</text></g>'
        )
    box = (
        f'<g class="sector sector-{sector.kind}" data-sector="{escape(sector.id)}" '
        f'data-key="sector-{escape(sector.id)}" tabindex="-1">'
        f"<title>{escape(sector.name)}</title>"
        f'<rect x="{x}" y="{y}" width="{2 * HALF_W}" height="{2 * HALF_H}" rx="6" '
        f'fill="{KIND_FILL.get(sector.kind, "#eee")}"{stroke}/>'
        f'<text class="caption" x="{strip[0]}" y="{strip[1]}" text-anchor="middle" '
        f'style="font-size:{NAME_SIZE}px" font-weight="700" fill="#263238" '
        f'pointer-events="none">{escape(sector.name)}</text></g>'
    )
    label = f'<g class="sector-label" aria-hidden="true" pointer-events="none">{text}{extra}</g>'
    return box, label


def map_lines(name: str) -> list[str]:
    """A Sector's name as the map writes it: in at most two lines that fit its box at
    :data:`NAME_SIZE`; the whole name when it fits, else :data:`MAP_NAMES`'s, else cut."""
    lines = _wrap_to(name, NAME_WIDTH, NAME_SIZE)
    if len(lines) <= 2 and _fit_box(lines):
        return lines
    shorter = list(MAP_NAMES.get(name, ()))
    if shorter and len(shorter) <= 2 and _fit_box(shorter):
        return shorter
    first = lines[0]
    while bold_width(first, NAME_SIZE) > NAME_WIDTH and len(first) > 2:
        first = first[:-2] + "…"
    return [first]


def map_name(name: str) -> str:
    """The map's lines of ``name`` read as one ("Space-", "port" → "Spaceport")."""
    said = ""
    for line in map_lines(name):
        if said.endswith("-"):
            said = said + line if said + line in name else said[:-1] + line
        else:
            said = f"{said} {line}" if said else line
    return said


def _map_names(city: Board | None) -> list[dict[str, str]]:
    """The Sectors the map writes shorter, each with its whole name, in map order."""
    if city is None:
        return []
    found = [s for s in city.sectors.values() if map_name(s.name) != s.name]
    return [
        {"short": map_name(s.name), "name": s.name} for s in sorted(found, key=lambda s: (s.y, s.x))
    ]


def _fit_box(lines: list[str]) -> bool:
    return all(bold_width(line, NAME_SIZE) <= NAME_WIDTH for line in lines)


def _wrap_to(text: str, width: float, size: float) -> list[str]:
    """``text`` in lines no wider than ``width`` in bold at ``size``, broken between words
    (a word wider than a line stays whole on its own line)."""
    lines: list[str] = []
    for word in str(text).split():
        if lines and bold_width(f"{lines[-1]} {word}", size) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def _perp(city: Board, sector: str, perp: Mapping[str, Any]) -> str:
    """The Perp in a Sector: a card back, or its name (as much as fits) and strength."""
    s = city.sectors[sector]
    x, y = s.x - HALF_W + 2, s.y - HALF_H + 38
    width = 2 * HALF_W - 4
    if not perp.get("face_up"):
        face_down, title = _("Perp ?"), _("a face-down Perp")
        return (
            f'<g class="perp perp-face-down" data-sector="{escape(sector)}">'
            f'<rect x="{x}" y="{y}" width="{width}" height="21" rx="3" fill="#212121" '
            'stroke="#ffca28" stroke-width="1.5"/>'
            f'<text x="{x + width / 2}" y="{y + 16}" style="font-size:{MARK_SIZE}px" '
            f'fill="#ffca28" text-anchor="middle" font-weight="700">{escape(face_down)}</text>'
            f"<title>{escape(title)}</title></g>"
        )
    name = _name(perp.get("perp"))
    strength = str(perp.get("strength"))
    room = width - 6 - bold_width(strength, MARK_SIZE) - 6
    short = _fit_words(name, room, MARK_SIZE)
    title = _("%(perp)s (strength %(strength)s)", perp=name, strength=strength)
    return (
        f'<g class="perp perp-face-up" data-sector="{escape(sector)}" '
        f'data-perp="{escape(perp.get("perp"))}">'
        f'<rect x="{x}" y="{y}" width="{width}" height="21" rx="3" fill="#fff3e0" '
        'stroke="#e65100" stroke-width="1.5"/>'
        f'<text x="{x + 3}" y="{y + 16}" style="font-size:{MARK_SIZE}px" fill="#bf360c" '
        f'font-weight="700">{escape(short)}</text>'
        f'<text x="{x + width - 3}" y="{y + 16}" style="font-size:{MARK_SIZE}px" '
        f'fill="#1d1d1b" text-anchor="end" font-weight="700">{escape(strength)}</text>'
        f"<title>{escape(title)}</title></g>"
    )


def _fit_words(name: str, room: float, size: float) -> str:
    """As many of ``name``'s words as fit ``room`` in bold at ``size`` ("Walter the Wobot"
    → "Walter"); a first word too long alone is cut to fit (the title and caption say it
    all)."""
    said = ""
    for word in str(name).split():
        trial = f"{said} {word}" if said else word
        if bold_width(trial, size) > room:
            break
        said = trial
    if not said:
        said = str(name)
        while len(said) > 2 and bold_width(said, size) > room:
            said = said[:-1]
    return said


def _crimes(city: Board, sector: str, crimes: list[Any]) -> str:
    s = city.sectors[sector]
    # Crime names do not fit a box at a readable size: the box counts them, the page's
    # "The table" list names them.
    label = ngettext("%(num)d Crime", "%(num)d Crimes", len(crimes))
    title = _("Crimes: %(crimes)s", crimes=", ".join(_name(c) for c in crimes))
    return (
        f'<g class="crimes" data-sector="{escape(sector)}" data-count="{len(crimes)}">'
        f'<text x="{s.x - HALF_W + 4}" y="{s.y - HALF_H + 76}" style="font-size:{MARK_SIZE}px" '
        f'fill="#4a148c" font-weight="700" paint-order="stroke" stroke="#fff" stroke-width="3">'
        f"{escape(label)}</text>"
        f"<title>{escape(title)}</title></g>"
    )


def _judges(view: Mapping[str, Any], city: Board, seat: str, looks: Mapping[str, Any]) -> list[str]:
    """The standees, each a pill in its player's colour with its mark, along the bottom of
    its Sector (three to a row; more stack upwards). A KO'd Judge keeps its colour,
    crossed out; this seat's own is ringed in yellow."""
    order = list(view["judges"])
    by_sector: dict[str, list[str]] = {}
    for who in order:
        judge = view["judges"].get(who)
        if isinstance(judge, Mapping) and judge.get("sector") in city.sectors:
            by_sector.setdefault(judge["sector"], []).append(who)
    out = []
    for sector, seats in by_sector.items():
        s = city.sectors[sector]
        for i, who in enumerate(seats):
            judge = view["judges"][who]
            look = looks.get(who) or {"fill": "#546e7a", "ink": "#fff", "mark": _letter(who)}
            row, col = divmod(i, 3)
            in_row = min(len(seats) - row * 3, 3)
            width = 30
            cx = s.x + (col - (in_row - 1) / 2) * (width + 1)
            top = s.y + HALF_H - 22 - row * 22
            ring = (
                ' stroke="#ffca28" stroke-width="3"'
                if who == seat
                else ' stroke="#fff" stroke-width="1.5"'
            )
            title = words.judge(who)
            if judge.get("specialist"):
                title = _(
                    "%(judge)s, %(specialist)s",
                    judge=title,
                    specialist=words.specialist(judge["specialist"]),
                )
            ko = ""
            if judge.get("ko"):
                title = _("%(judge)s (KO)", judge=title)
                ko = (
                    f'<path d="M{cx - 13:.1f} {top + 2}L{cx + 13:.1f} {top + 18}" stroke="#000" '
                    'stroke-width="2.5"/>'
                )
            out.append(
                f'<g class="standee{" ko" if judge.get("ko") else ""}" '
                f'data-judge="{escape(who)}" data-sector="{escape(sector)}" '
                f'data-fill="{escape(look["fill"])}">'
                f'<rect x="{cx - width / 2:.1f}" y="{top}" width="{width}" height="20" rx="10" '
                f'fill="{look["fill"]}"{ring}/>'
                f'<text class="standee-label" x="{cx:.1f}" y="{top + 15.5}" '
                f'style="font-size:{MARK_SIZE}px" fill="{look["ink"]}" text-anchor="middle" '
                f'font-weight="700">{escape(look["mark"])}</text>{ko}'
                f"<title>{escape(title)}</title></g>"
            )
    return out


def last_move(snapshot: Mapping[str, Any], city: Board) -> tuple[str, list[str]] | None:
    """The last Judge move in the log: the Judge and the Sectors it went through (from where
    it stood). Until the next move; a round's movement begins afresh."""
    where: dict[str, str] = {}
    found: tuple[str, list[str]] | None = None
    hospital = next((s.id for s in city.sectors.values() if s.kind == "hospital"), None)
    for e in snapshot.get("log") or []:
        if not isinstance(e, Mapping):
            continue
        kind, judge = e.get("type"), str(e.get("judge"))
        if kind == "moved":
            path = [str(p) for p in e.get("path") or []]
            start = where.get(judge)
            cells = ([start] if start else []) + path
            found = (judge, cells) if len(cells) > 1 else None
            if isinstance(e.get("sector"), str):
                where[judge] = e["sector"]
        elif kind in ("judge_placed", "barneyed", "robodoc") and isinstance(e.get("sector"), str):
            where[judge] = e["sector"]
        elif kind == "hospitalised" and hospital:
            where[judge] = hospital
    return found


def _last_move(snapshot: Mapping[str, Any], city: Board, looks: Mapping[str, Any]) -> list[str]:
    """The last move drawn as a route between Sector centres, in the Judge's colour."""
    last = last_move(snapshot, city)
    if last is None:
        return []
    judge, sectors = last
    points = [(city.sectors[s].x, city.sectors[s].y) for s in sectors if s in city.sectors]
    if len(points) < 2:
        return []
    fill = (looks.get(judge) or {}).get("fill", "#0d47a1")
    line = " ".join(f"{x},{y}" for x, y in points)
    return [
        f'<g class="last-move" data-judge="{escape(judge)}" pointer-events="none">'
        f'<polyline points="{line}" fill="none" stroke="#fff" stroke-width="11" '
        'stroke-linejoin="round" stroke-linecap="round" opacity=".9"/>'
        f'<polyline points="{line}" fill="none" stroke="{fill}" stroke-width="6" '
        'stroke-linejoin="round" stroke-linecap="round" stroke-dasharray="10 5"/>'
        f'<circle cx="{points[0][0]}" cy="{points[0][1]}" r="7" fill="#fff" stroke="{fill}" '
        'stroke-width="3"/></g>'
    ]


def _legend(view: Mapping[str, Any]) -> str:
    """What the map's marks mean, in words under the map."""
    items = [
        (
            '<span class="key key-start-sector"></span>',
            _("Starting Sector (START: its refill bonus)"),
        ),
        ('<span class="key key-river"></span>', _("the river; brown: a bridge")),
        (
            '<span class="key key-perp">?</span>',
            _("a face-down Perp; a face-up one shows its strength"),
        ),
        ('<span class="key key-alien">A</span>', _("the Alien")),
        ('<span class="key key-quarantine">!</span>', _("quarantined (dashed orange border)")),
        ('<span class="key key-trail"></span>', _("the last move, in its player's colour")),
    ]
    rows = "".join(f"<li>{key}<span>{escape(text)}</span></li>" for key, text in items)
    return f'<ul class="board-legend">{rows}</ul>'


def _squeeze(text: str, fits: int, length: int) -> str:
    """SVG attributes that narrow a label longer than ``fits`` characters to ``length``."""
    if len(text) <= fits:
        return ""
    return f' textLength="{length}" lengthAdjust="spacingAndGlyphs"'


def _short(text: str, width: int) -> str:
    """``text`` cut to about ``width`` characters on a word boundary (the title has it all)."""
    text = str(text)
    if len(text) <= width:
        return text
    cut = text[:width].rsplit(" ", 1)[0]
    return cut.rstrip(" ,") + "\u2026"


def odds_html(odds: Mapping[str, Any]) -> Markup:
    """Win/tie/lose chances as percentages and a stacked bar (an inline SVG)."""
    parts = [(k, float(odds.get(k) or 0.0)) for k in ("win", "tie", "lose")]
    x = 0.0
    rects = []
    for kind, p in parts:
        rects.append(
            Markup('<rect x="{:.2f}" y="0" width="{:.2f}" height="10" fill="{}"/>').format(
                x * 100, p * 100, _BAR[kind]
            )
        )
        x += p
    names = {"win": _("win"), "tie": _("tie"), "lose": _("lose")}
    words = Markup(" · ").join(
        Markup('<span class="odds-{}">{} {:.0f}%</span>').format(k, names[k], p * 100)
        for k, p in parts
    )
    return Markup(
        '<div class="odds" data-win="{}"><p>{}</p>'
        '<svg class="odds-bar" viewBox="0 0 100 10" preserveAspectRatio="none" role="img" '
        'aria-label="{}">{}</svg></div>'
    ).format(
        parts[0][1],
        Markup(_("Your combat odds: %(odds)s")) % {"odds": words},
        _("combat odds"),
        Markup("").join(rects),
    )


# -- "What you know": the view in sentences and cards ---------------------------------
def _judge_rows(
    view: Mapping[str, Any], seat: str, looks: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """Each Judge as the page lists it: mark and colour as on the map (the player's for the
    whole game), where, what held; in turn order."""
    order = list(view.get("turn_order") or view["judges"])
    rows = []
    for who in order:
        j = view["judges"].get(who)
        if not isinstance(j, Mapping):
            continue
        facts = [
            _("in %(sector)s", sector=words.sector(j["sector"]))
            if j.get("sector")
            else _("not on the map yet")
        ]
        facts.append(
            ngettext("%(num)d card in hand", "%(num)d cards in hand", int(j.get("hand_size") or 0))
        )
        facts.append(_("%(num)s in the score pile", num=j.get("score_pile_size", 0)))
        if j.get("ko"):
            facts.append(_("KO'd"))
        rows.append(
            {
                "seat": who,
                "letter": (looks.get(who) or {}).get("mark") or _letter(who),
                "fill": (looks.get(who) or {}).get("fill") or "#546e7a",
                "ink": (looks.get(who) or {}).get("ink") or "#fff",
                "name": (
                    _("%(judge)s (you)", judge=words.judge(who))
                    if who == seat
                    else words.judge(who)
                ),
                "specialist": words.specialist(j["specialist"]) if j.get("specialist") else "",
                "facts": ", ".join(facts),
            }
        )
    return rows


def _letter(seat: str) -> str:
    """The standee's label: the same two letters the map draws."""
    return seat[:2].upper()


def _combat_words(view: Mapping[str, Any], seat: str) -> list[str]:
    combat = view.get("combat")
    if not isinstance(combat, Mapping):
        return []
    sides = [words.judges(g) for g in combat.get("groups") or [] if isinstance(g, list) and g]
    where = words.sector(combat.get("sector"))
    perp = (view.get("perps") or {}).get(combat.get("sector")) or {}
    fighters = words.and_list(sides)
    if combat.get("kind") == "arrest":
        foe = words.card(perp["perp"]) if perp.get("perp") else _("the Perp")
        lines = [
            _("Combat in %(sector)s: %(who)s against %(foe)s.", sector=where, who=fighters, foe=foe)
        ]
    elif combat.get("kind") == "alien":
        lines = [_("Combat in %(sector)s: %(who)s against the Alien.", sector=where, who=fighters)]
    elif combat.get("kind") == "block":
        lines = [
            _("Block Mania in %(sector)s: %(who)s fight each other.", sector=where, who=fighters)
        ]
    else:
        lines = [_("The final combat: %(who)s.", who=fighters)]
    strengths = combat.get("strengths") or {}
    if strengths:
        lines.append(
            _(
                "Strength before cards and dice: %(strengths)s.",
                strengths=words.and_list(f"{words.judge(s)} {n}" for s, n in strengths.items()),
            )
        )
    cards = [c for c in combat.get("cards") or [] if isinstance(c, Mapping)]
    if cards:
        said = []
        for c in cards:
            to = words.judge(c.get("to"))
            if c.get("by") == seat and c.get("card"):
                said.append(
                    _("your %(card)s in front of %(to)s", card=words.card(c["card"]), to=to)
                )
            elif c.get("card"):
                said.append(
                    _(
                        "%(card)s from %(judge)s in front of %(to)s",
                        card=words.card(c["card"]),
                        judge=words.judge(c.get("by")),
                        to=to,
                    )
                )
            else:
                said.append(
                    _(
                        "a face-down card from %(judge)s in front of %(to)s",
                        judge=words.judge(c.get("by")),
                        to=to,
                    )
                )
        lines.append(_("Cards in: %(cards)s.", cards=words.and_list(said)))
    else:
        lines.append(_("No cards added yet."))
    if combat.get("revealed"):
        lines.append(_("The cards are revealed: the dice decide."))
    return lines


def _pending_words(view: Mapping[str, Any]) -> str:
    pending = view.get("pending")
    if not isinstance(pending, Mapping):
        return ""
    kind = pending.get("kind")
    if kind == "barney":
        return _(
            "%(judge)s played a Barney on %(target)s: new orders to go to %(sector)s.",
            judge=words.judge(pending.get("by")),
            target=words.judge(pending.get("target")),
            sector=words.sector(pending.get("to")),
        )
    if kind == "boing":
        return _(
            "%(judge)s played a BOING! on %(target)s.",
            judge=words.judge(pending.get("by")),
            target=words.judge(pending.get("target")),
        )
    if kind == "escape":
        return _("The Perp in %(sector)s is escaping.", sector=words.sector(pending.get("sector")))
    if kind == "reveal_perp":
        return _(
            "A Judge has reached the face-down Perp in %(sector)s.",
            sector=words.sector(pending.get("sector")),
        )
    if kind == "declare":
        return _(
            "%(judges)s share the Perp in %(sector)s: who arrests together?",
            judges=words.judges(pending.get("seats") or []),
            sector=words.sector(pending.get("sector")),
        )
    if kind == "robodoc":
        return _(
            "%(judges)s may still play Robodoc.", judges=words.judges(pending.get("seats") or [])
        )
    return ""


def _table_words(view: Mapping[str, Any]) -> list[str]:
    phase = str(words.PHASES.get(str(view.get("phase")), ""))
    lines = []
    if view.get("phase") not in ("setup", "over"):
        if view.get("final_round"):
            lines.append(
                _(
                    "Round %(round)s (the final round), %(phase)s.",
                    round=view.get("round"),
                    phase=phase,
                )
            )
        else:
            lines.append(_("Round %(round)s, %(phase)s.", round=view.get("round"), phase=phase))
        lines.append(
            _("%(judge)s is the Starting Player.", judge=words.judge(view.get("starting_player")))
        )
    decks = view.get("decks") or {}
    if decks:
        lines.append(
            _(
                "Left in the decks: %(sector)s Sector, %(perp)s Perp, %(crime)s Crime and"
                " %(action)s Action cards; %(discarded)s Action cards discarded.",
                sector=decks.get("sector", 0),
                perp=decks.get("perp", 0),
                crime=decks.get("crime", 0),
                action=decks.get("action", 0),
                discarded=view.get("action_discard_size", 0),
            )
        )
    if view.get("bridges_closed"):
        lines.append(_("The bridges are closed: nobody crosses the river."))
    alien = view.get("alien")
    alien_at = alien.get("sector") if isinstance(alien, Mapping) else alien
    if isinstance(alien_at, str):
        lines.append(_("The Alien is loose in %(sector)s.", sector=words.sector(alien_at)))
    for s in view.get("quarantined") or []:
        lines.append(_("%(sector)s is quarantined.", sector=words.sector(s)))
    if isinstance(view.get("scores"), Mapping):
        scores = words.and_list(f"{words.judge(s)} {n}" for s, n in view["scores"].items())
        lines.append(_("Scores: %(scores)s.", scores=scores))
    if view.get("winner"):
        lines.append(_("%(judge)s wins the game.", judge=words.judge(view["winner"])))
    return lines


def _trouble(view: Mapping[str, Any]) -> list[str]:
    """Each Sector with a Perp or Crimes, in words (the map's boxes only count the Crimes)."""
    perps = view.get("perps") or {}
    crimes = view.get("crimes") or {}
    lines = []
    for where in sorted(set(perps) | set(crimes), key=words.sector):
        parts = []
        perp = perps.get(where)
        if isinstance(perp, Mapping):
            if perp.get("face_up"):
                parts.append(
                    _(
                        "%(perp)s (strength %(strength)s)",
                        perp=words.card(perp.get("perp")),
                        strength=perp.get("strength"),
                    )
                )
            else:
                parts.append(_("a face-down Perp"))
        parts += [f"{words.card(c)} ({words.value(c)})" for c in crimes.get(where) or []]
        lines.append(f"{words.sector(where)}: {words.and_list(parts)}.")
    return lines


def _you(view: Mapping[str, Any], seat: str) -> dict[str, Any] | None:
    """The seat's own part: its Judge in a sentence, its hand and score pile as cards."""
    you = view.get("you")
    if not isinstance(you, Mapping):
        return None
    j = view["judges"].get(seat) or {}
    me = words.judge(seat)
    where = words.sector(j["sector"]) if j.get("sector") else None
    if j.get("specialist"):
        special = words.specialist(j["specialist"])
        if where:
            first = _(
                "You are %(judge)s, the %(specialist)s, in %(sector)s.",
                judge=me,
                specialist=special,
                sector=where,
            )
        else:
            first = _(
                "You are %(judge)s, the %(specialist)s, not on the map yet.",
                judge=me,
                specialist=special,
            )
    elif where:
        first = _("You are %(judge)s, in %(sector)s.", judge=me, sector=where)
    else:
        first = _("You are %(judge)s, not on the map yet.", judge=me)
    about = [first]
    about.append(
        _("Your strength is %(strength)s before cards and dice.", strength=j.get("base_strength"))
    )
    if j.get("ko"):
        about.append(_("Your Judge is KO'd: no moves or cards until the refill."))
    if you.get("movement") is not None and not j.get("moved"):
        about.append(
            ngettext(
                "You may move up to %(num)d Sector this round.",
                "You may move up to %(num)d Sectors this round.",
                int(you["movement"]),
            )
        )
    known = [c for c in you.get("known_cards") or [] if cards.is_action(c)]
    hand = [cards.action_face(c) for c in known]
    unseen = max(int(you.get("hand_size") or 0) - len(hand), 0)
    pile = [cards.scored_face(c) for c in you.get("score_pile") or [] if isinstance(c, str)]
    seen = you.get("hand_seen")
    seen_line = ""
    if isinstance(seen, Mapping):
        seen_line = words.describe({"type": "hand_seen", **seen})
    read = you.get("perps_read")
    read_lines = [
        _(
            "You have read the face-down Perp in %(sector)s: %(perp)s.",
            sector=words.sector(s),
            perp=words.card(p),
        )
        for s, p in (read.items() if isinstance(read, Mapping) else [])
    ]
    return {
        "about": about,
        "hand": hand,
        "unseen": unseen,
        "hand_size": int(you.get("hand_size") or 0),
        "hand_limit": you.get("hand_limit"),
        "pile": pile,
        "score": you.get("score", 0),
        "seen": seen_line,
        "read": read_lines,
    }


def _cap(text: object) -> str:
    text = str(spoken(text, words.why) or "").strip()
    return (text[:1].upper() + text[1:]).rstrip(".") + "." if text else ""


# -- "Your move": the view's asked entries as choices --------------------------------
#: Actions that name their seat as ``by`` (README action table); the rest do not.
WITH_BY = frozenset(
    {
        "place_judge",
        "move",
        "play",
        "accept",
        "commit",
        "cool",
        "perp_escape",
        "recycle",
        "draw",
        "internal_affairs",
        "psi_peek",
        "show",
        "decline",
    }
)

#: One-button answers: what the button says.
_BUTTONS = {
    "reveal": _l("Reveal the cards"),
    "end_movement": _l("Start the arrest phase"),
    "next_arrest": _l("Start the next arrest"),
    "cool": _l("Cool down (\u22122, no overheating)"),
}

#: The referee's prompts that wait for a card on a reader: no choices, only a sentence.
_TAPS = ("dredd_place_crime", "dredd_reveal_perp", "dredd_discard_sector")

#: The referee's prompts these controls draw themselves (the page hides the referee's own);
#: every other prompt (moves, dice, arrest groups, escapes, Sector cards, draws) is the
#: referee's, drawn by the shared prompt template.
COVERED_PROMPTS = frozenset(
    {
        "your_turn",
        "dredd_commit",
        "dredd_commit_for",
        "dredd_reveal",
        "dredd_end_movement",
        "dredd_next_arrest",
        "dredd_accept",
        "dredd_decline",
        "dredd_cool",
        "dredd_robodoc",
        *_TAPS,
    }
)


def _base(act: str, seat: str) -> dict[str, Any]:
    return {"act": act, "by": seat} if act in WITH_BY else {"act": act}


def _choice(label: str, value: Mapping[str, Any]) -> dict[str, Any]:
    return {"label": label, "value": dict(value)}


def _commit_block(view: Mapping[str, Any], seat: str, why: str) -> dict[str, Any]:
    you = view.get("you") or {}
    combat = view.get("combat") or {}
    fighters = [s for g in combat.get("groups") or [] if isinstance(g, list) for s in g]
    hand = [c for c in you.get("known_cards") or [] if cards.fights(c)]
    fan = []
    for c in hand:
        if len(fighters) <= 1:
            choices = [_choice(_("Add %(card)s", card=words.card(c)), {"card": c})]
            choices[0]["short"] = _("Add")
        else:
            # One small toggle per Judge in the fight: the Judge's mark, in its colour.
            choices = [
                {
                    **_choice(
                        _(
                            "%(card)s in front of %(judge)s",
                            card=words.card(c),
                            judge=words.judge(f),
                        ),
                        {"card": c, "for": f},
                    ),
                    "judge": f,
                }
                for f in fighters
            ]
        fan.append({"face": cards.action_face(c), "choices": choices})
    unseen = max(int(you.get("hand_size") or 0) - len(you.get("known_cards") or []), 0)
    # The buttons under each card say what a tap does; a card may also go in by a tap on
    # the seat's own reader (the only way for one the referee does not know yet).
    note = _("Or tap a card on your own reader.")
    if unseen:
        note = ngettext(
            "Or tap a card on your own reader: %(num)d card in your hand is not known yet.",
            "Or tap a card on your own reader: %(num)d cards in your hand are not known yet.",
            unseen,
        )
    odds = you.get("odds")
    return {
        "act": "commit",
        "why": why,
        "base": _base("commit", seat),
        "odds": odds_html(odds) if isinstance(odds, Mapping) else None,
        "fan": fan,
        "compact": True,
        "note": note,
        "buttons": [],
    }


def _play_block(view: Mapping[str, Any], seat: str, why: str) -> dict[str, Any] | None:
    """Special and Robodoc cards the seat holds, each with the plays the view allows."""
    you = view.get("you") or {}
    judges_in = view["judges"]
    me = judges_in.get(seat) or {}
    city = _board(view.get("board", "standard")) if isinstance(view.get("board"), str) else None
    others = [s for s, j in judges_in.items() if s != seat and not j.get("ko") and j.get("sector")]
    fan = []
    for c in you.get("known_cards") or []:
        if not cards.is_action(c):
            continue
        kind = cards.book().actions[c].kind
        choices = []
        if me.get("ko") and kind == "robodoc" and city and me.get("sector") in city.sectors:
            choices = [
                _choice(_("Move to %(sector)s", sector=words.sector(to)), {"card": c, "to": to})
                for to in city.neighbours(me["sector"])
            ]
        elif me.get("ko"):
            continue
        elif kind == "boing":
            choices = [
                _choice(_("On %(judge)s", judge=words.judge(t)), {"card": c, "target": t})
                for t in others
            ]
        elif kind == "block-mania":
            pairs = [(a, b) for i, a in enumerate(judges_in) for b in list(judges_in)[i + 1 :]]
            choices = [
                _choice(
                    _("%(judge)s against %(other)s", judge=words.judge(a), other=words.judge(b)),
                    {"card": c, "judges": [a, b]},
                )
                for a, b in pairs
                if not judges_in[a].get("ko") and not judges_in[b].get("ko")
            ]
        if choices:
            fan.append({"face": cards.action_face(c), "choices": choices})
    if me.get("ko"):
        # The referee's own Robodoc prompt is replaced by this block, so it says the same.
        note = "" if fan else _("Tap a Robodoc card on your reader first to play it here.")
    elif fan:
        note = _(
            "A Tip-Off, and any card the referee does not know yet, is played from your card"
            " reader."
        )
    else:
        return None
    return {
        "act": "play",
        "why": why,
        "base": _base("play", seat),
        "odds": None,
        "fan": fan,
        "note": note,
        "buttons": [],
    }


def _accept_block(view: Mapping[str, Any], seat: str, why: str) -> dict[str, Any]:
    pending = view.get("pending") or {}
    kind = pending.get("kind")
    you = view.get("you") or {}
    fan = []
    for c in you.get("known_cards") or []:
        if not cards.is_action(c):
            continue
        card = cards.book().actions[c]
        if kind == "boing" and card.kind == "tip-off":
            value = {"act": "play", "card": c}
            fan.append({"face": cards.action_face(c), "choices": [_choice(_("Cancel it"), value)]})
        elif card.ignores == kind:
            value = {"act": "play", "card": c, "option": "alt"}
            fan.append({"face": cards.action_face(c), "choices": [_choice(_("Cancel it"), value)]})
    what = "Barney" if kind == "barney" else "BOING!"
    return {
        "act": "accept",
        "why": _pending_words(view) or why,
        "base": _base("accept", seat),
        "odds": None,
        "fan": fan,
        "note": _("Or cancel the %(what)s with one of these cards:", what=what) if fan else "",
        "buttons": [_choice(_("Accept the %(what)s", what=what), {})],
    }


def _blocks(view: Mapping[str, Any], seat: str) -> list[dict[str, Any]]:
    out = []
    for item in view.get("asked") or []:
        if not isinstance(item, Mapping) or not isinstance(item.get("act"), str):
            continue
        act, why = item["act"], _cap(item.get("why"))
        if act == "commit":
            out.append(_commit_block(view, seat, why))
        elif act == "play":
            block = _play_block(view, seat, why)
            if block is not None:
                out.append(block)
        elif act == "accept":
            out.append(_accept_block(view, seat, why))
        elif act == "decline":
            robodoc = (view.get("pending") or {}).get("kind") == "robodoc" or (
                (view["judges"].get(seat) or {}).get("ko")
            )
            label = _("Play no Robodoc") if robodoc else _("Do not use Internal Affairs")
            out.append(_simple(act, seat, why, label))
        elif act in _BUTTONS:
            out.append(_simple(act, seat, why, str(_BUTTONS[act])))
    return out


def _tap_blocks(snapshot: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The referee's card-tap prompts (no choices on the tablet): its sentence, nothing else."""
    out = []
    for prompt in snapshot.get("prompts") or []:
        if isinstance(prompt, Mapping) and prompt.get("kind") in _TAPS:
            block = _simple(str(prompt["kind"]).removeprefix("dredd_"), "", "", "")
            block.update(why=_cap(prompt.get("message")), buttons=[], base=None)
            block["note"] = _("Tap the cards on the card reader; the referee reads them.")
            out.append(block)
    return out


def _simple(act: str, seat: str, why: str, label: str) -> dict[str, Any]:
    return {
        "act": act,
        "why": why,
        "base": _base(act, seat),
        "odds": None,
        "fan": [],
        "note": "",
        "buttons": [_choice(label, {})],
    }


class JudgeDreddUI(SeatUI):
    """Judge Dredd's seat pages: the sector map, cards drawn as cards, combat odds."""

    covered = COVERED_PROMPTS
    bar_words = bar_words

    def board(self, snapshot: Mapping[str, Any]) -> Markup:
        """The map of Mega-City One for this seat (not a Dredd view: the generic drawing)."""
        view = snapshot.get("view")
        if not isinstance(view, Mapping) or not isinstance(view.get("judges"), Mapping):
            return super().board(snapshot)
        name = view.get("board", "standard")
        city = _board(name) if isinstance(name, str) else None
        if city is None or not _fits(view, city):
            return _table(view)
        seat = str(snapshot.get("seat") or view.get("seat") or "")
        return Markup(str(map_svg(view, city, seat, snapshot)) + _legend(view))

    def extras(self, snapshot: Mapping[str, Any]) -> Markup:
        """What the seat knows, for people: sentences, its cards as cards, the Judges by letter."""
        view = snapshot.get("view")
        if not isinstance(view, Mapping) or not isinstance(view.get("judges"), Mapping):
            return Markup("")
        seat = str(snapshot.get("seat") or view.get("seat") or "")
        asked = [a for a in view.get("asked") or [] if isinstance(a, Mapping)]
        you = view.get("you")
        odds = you.get("odds") if isinstance(you, Mapping) else None
        # The odds sit beside the commit buttons while a commit is asked, else here.
        committing = any(a.get("act") == "commit" for a in asked)
        odds_here = isinstance(odds, Mapping) and not committing
        return Markup(
            render_template(
                "judge-dredd/known.html",
                you=_you(view, seat),
                odds=odds_html(odds) if odds_here and isinstance(odds, Mapping) else None,
                now=[_cap(a.get("why")) for a in asked if a.get("why")],
                combat=_combat_words(view, seat),
                pending=_pending_words(view),
                table=_table_words(view),
                trouble=_trouble(view),
                judges=_judge_rows(view, seat, look_of(snapshot)),
                names=_map_names(_city_of(view)),
                # While a commit is asked the hand is drawn under "Your move", as buttons.
                hand_above=committing,
            )
        )

    def controls(self, snapshot: Mapping[str, Any], token: str, digital_dice: bool) -> Markup:
        """The seat's choices, built from its own view: cards to tap, one-button answers."""
        view = snapshot.get("view")
        if not isinstance(view, Mapping) or not isinstance(view.get("judges"), Mapping):
            return Markup("")
        seat = str(snapshot.get("seat") or "")
        blocks = _blocks(view, seat) + _tap_blocks(snapshot)
        if not blocks:
            return Markup("")
        return Markup(
            render_template(
                "judge-dredd/controls.html", blocks=blocks, token=token, looks=look_of(snapshot)
            )
        )

    # -- names, colours, the action bar ------------------------------------------------
    def seat_name(self, seat: str) -> str:
        """A Judge as the table calls it: "Judge Hershey"."""
        return words.judge(seat)

    def seats_of(self, snapshot: Mapping[str, Any]) -> list[str]:
        view = snapshot.get("view")
        judges = view.get("judges") if isinstance(view, Mapping) else None
        return [str(s) for s in judges] if isinstance(judges, Mapping) else []

    def mark(self, seat: str) -> str:
        return _letter(seat)

    def actor(self, event: Mapping[str, Any]) -> str | None:
        for key in ("judge", "by", "seat", "winner"):
            if isinstance(event.get(key), str):
                return str(event[key])
        return None

    def describe(self, event: Mapping[str, Any]) -> str:
        """One log line: a sentence naming Judges, Perps and Sectors (see :mod:`.words`)."""
        return words.describe(event)
