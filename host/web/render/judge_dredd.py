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
from markupsafe import Markup, escape

from lawmaster.rules.core import IllegalAction
from lawmaster.rules.judge_dredd.board import Board
from lawmaster.rules.judge_dredd.cards import CardBook

from . import generic

# Parts of the view the map already shows (the rest goes to the list).
_IN_TABLE = ("judges", "perps", "crimes", "alien", "quarantined")
_BAR = {"win": "#2e7d32", "tie": "#f9a825", "lose": "#c62828"}

#: Half the size of a Sector's box, in SVG units (the board's x, y are its centre).
HALF_W, HALF_H = 46, 50
MARGIN = 8
KIND_FILL = {"crime": "#eceff1", "start": "#dcedc8", "hospital": "#ffebee"}
RIVER = "#1e88e5"
BRIDGE = "#8d6e63"
#: Standee colours, by the seat's place in the turn order.
JUDGE_FILLS = ("#1565c0", "#c62828", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f")
KO_FILL = "#9e9e9e"


@lru_cache(maxsize=8)
def _board(name: str) -> Board | None:
    try:
        return Board.load(name)
    except (IllegalAction, OSError, ValueError, TypeError):
        return None


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
            label = seat + (" (KO)" if judge.get("ko") else "")
            if judge.get("specialist"):
                label += f" [{judge['specialist']}]"
            at(judge["sector"])["judges"].append(label)
    for sector, perp in (view.get("perps") or {}).items():
        if isinstance(perp, Mapping):
            shown = (
                f"{perp.get('perp')} ({perp.get('strength')})"
                if perp.get("face_up")
                else "face-down Perp"
            )
            at(sector)["perp"].append(shown)
    for sector, crimes in (view.get("crimes") or {}).items():
        at(sector)["crimes"].extend(str(c) for c in crimes or [])
    if view.get("alien"):
        alien = view["alien"]
        where = alien.get("sector") if isinstance(alien, Mapping) else alien
        if isinstance(where, str):
            at(where)["notes"].append("the Alien")
    for sector in view.get("quarantined") or []:
        at(sector)["notes"].append("quarantined")
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
        '<table class="sectors"><thead><tr><th>Sector</th><th>Judges</th><th>Perp</th>'
        "<th>Crimes</th></tr></thead><tbody>{}</tbody></table>"
    ).format(rows)


def board(snapshot: Mapping[str, Any]) -> Markup | None:
    """The map of Mega-City One for this seat (``None`` if this is not a Dredd view)."""
    view = snapshot.get("view")
    if not isinstance(view, Mapping) or not isinstance(view.get("judges"), Mapping):
        return None
    name = view.get("board", "standard")
    city = _board(name) if isinstance(name, str) else None
    if city is None or not _fits(view, city):
        return _table(view)
    return map_svg(view, city, str(snapshot.get("seat") or view.get("seat") or ""))


def _fits(view: Mapping[str, Any], city: Board) -> bool:
    """Whether every Sector the view names is on ``city`` (else the view is drawn as a table)."""
    named = {j.get("sector") for j in view["judges"].values() if isinstance(j, Mapping)}
    named |= set(view.get("perps") or {}) | set(view.get("crimes") or {})
    return all(s is None or s in city.sectors for s in named)


def map_svg(view: Mapping[str, Any], city: Board, seat: str) -> Markup:
    """The whole map as one inline SVG, drawn from ``view`` only."""
    xs = [s.x for s in city.sectors.values()]
    ys = [s.y for s in city.sectors.values()]
    left, top = min(xs) - HALF_W - MARGIN, min(ys) - HALF_H - MARGIN
    width = max(xs) - min(xs) + 2 * (HALF_W + MARGIN)
    height = max(ys) - min(ys) + 2 * (HALF_H + MARGIN)
    parts = [
        f'<svg class="board dredd-map" viewBox="{left} {top} {width} {height}" role="img" '
        'aria-label="Mega-City One" xmlns="http://www.w3.org/2000/svg" '
        'font-family="sans-serif">'
    ]
    parts += _links(city)
    quarantined = set(view.get("quarantined") or [])
    alien = view.get("alien")
    alien_at = alien.get("sector") if isinstance(alien, Mapping) else alien
    for sector in city.sectors.values():
        parts.append(_sector(sector, sector.id in quarantined, sector.id == alien_at))
    parts += _river(city, bool(view.get("bridges_closed")))
    for sector, perp in (view.get("perps") or {}).items():
        if sector in city.sectors and isinstance(perp, Mapping):
            parts.append(_perp(city, sector, perp))
    for sector, crimes in (view.get("crimes") or {}).items():
        if sector in city.sectors:
            parts.append(_crimes(city, sector, list(crimes or [])))
    parts += _judges(view, city, seat)
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
            out.append(
                f'<line class="bridge" data-bridge="{escape(pair[0])}|{escape(pair[1])}" '
                f'x1="{mx - bx:.1f}" y1="{my - by:.1f}" x2="{mx + bx:.1f}" y2="{my + by:.1f}" '
                f'stroke="{BRIDGE}" stroke-width="9"{dash}><title>bridge'
                f"{' (closed)' if closed else ''}</title></line>"
            )
    return out


def _sector(sector: Any, quarantined: bool, alien: bool) -> str:
    x, y = sector.x - HALF_W, sector.y - HALF_H
    stroke = (
        ' stroke="#ef6c00" stroke-width="3" stroke-dasharray="6 3"'
        if quarantined
        else (' stroke="#546e7a" stroke-width="1"')
    )
    words = _wrap(sector.name, 19)
    text = "".join(
        f'<text class="sector-name" x="{sector.x}" y="{y + 11 + 10 * i}" text-anchor="middle" '
        f'style="font-size:8px" fill="#37474f">{escape(w)}</text>'
        for i, w in enumerate(words)
    )
    extra = ""
    if sector.kind == "start":
        extra = (
            f'<text class="start-bonus" x="{x + 3}" y="{y + 2 * HALF_H - 4}" style="font-size:8px" '
            f'fill="#33691e" font-weight="700">START +{sector.bonus}</text>'
        )
    elif sector.kind == "hospital":
        cx, cy = x + 2 * HALF_W - 11, y + 2 * HALF_H - 11
        extra = (
            f'<g class="hospital-cross" fill="#d32f2f"><rect x="{cx - 2}" y="{cy - 7}" '
            f'width="4" height="14"/><rect x="{cx - 7}" y="{cy - 2}" width="14" height="4"/></g>'
        )
    if alien:
        extra += (
            f'<text class="alien" x="{x + 3}" y="{y + 2 * HALF_H - 14}" style="font-size:9px" '
            'fill="#1b5e20" font-weight="700">ALIEN</text>'
        )
    if quarantined:
        extra += (
            f'<text class="quarantine" x="{x + 2 * HALF_W - 3}" y="{y + 2 * HALF_H - 4}" '
            'style="font-size:7px" fill="#ef6c00" text-anchor="end">QUARANTINE</text>'
        )
    return (
        f'<g class="sector sector-{sector.kind}" data-sector="{escape(sector.id)}">'
        f"<title>{escape(sector.name)}</title>"
        f'<rect x="{x}" y="{y}" width="{2 * HALF_W}" height="{2 * HALF_H}" rx="6" '
        f'fill="{KIND_FILL.get(sector.kind, "#eee")}"{stroke}/>{text}{extra}</g>'
    )


def _perp(city: Board, sector: str, perp: Mapping[str, Any]) -> str:
    s = city.sectors[sector]
    x, y = s.x - 40, s.y - 22
    if not perp.get("face_up"):
        return (
            f'<g class="perp perp-face-down" data-sector="{escape(sector)}">'
            f'<rect x="{x}" y="{y}" width="34" height="24" rx="3" fill="#212121" '
            'stroke="#ffca28" stroke-width="1.5"/>'
            f'<text x="{x + 17}" y="{y + 16}" style="font-size:10px" fill="#ffca28" '
            'text-anchor="middle" font-weight="700">PERP</text>'
            "<title>a face-down Perp</title></g>"
        )
    name = _name(perp.get("perp"))
    return (
        f'<g class="perp perp-face-up" data-sector="{escape(sector)}" '
        f'data-perp="{escape(perp.get("perp"))}">'
        f'<rect x="{x}" y="{y}" width="80" height="24" rx="3" fill="#fff3e0" '
        'stroke="#e65100" stroke-width="1.5"/>'
        f'<text x="{x + 3}" y="{y + 10}" style="font-size:7.5px" fill="#bf360c">'
        f"{escape(_wrap(name, 20)[0])}</text>"
        f'<text x="{x + 77}" y="{y + 21}" style="font-size:10px" fill="#bf360c" text-anchor="end" '
        f'font-weight="700">{escape(perp.get("strength"))}</text>'
        f"<title>{escape(name)} (strength {escape(perp.get('strength'))})</title></g>"
    )


def _crimes(city: Board, sector: str, crimes: list[Any]) -> str:
    s = city.sectors[sector]
    x, y = s.x - 40, s.y + 4
    items = []
    for i, crime in enumerate(crimes[:2]):
        items.append(
            f'<text x="{x + 2}" y="{y + 8 + 8 * i}" style="font-size:7px" fill="#4a148c">'
            f"{escape(_wrap(_name(crime), 22)[0])}</text>"
        )
    more = f" +{len(crimes) - 2}" if len(crimes) > 2 else ""
    title = ", ".join(_name(c) for c in crimes)
    return (
        f'<g class="crimes" data-sector="{escape(sector)}" data-count="{len(crimes)}">'
        f"<title>Crimes: {escape(title)}{more}</title>{''.join(items)}</g>"
    )


def _judges(view: Mapping[str, Any], city: Board, seat: str) -> list[str]:
    order = list(view.get("turn_order") or view["judges"])
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
            # Standees stand in a row along the bottom of the box, like its sensor spots.
            cx = s.x - HALF_W + 12 + i * (2 * HALF_W - 24) / max(len(seats) - 1, 1)
            if len(seats) == 1:
                cx = s.x
            cy = s.y + 28
            fill = KO_FILL if judge.get("ko") else JUDGE_FILLS[order.index(who) % 6]
            ring = (
                ' stroke="#ffca28" stroke-width="3"'
                if who == seat
                else (' stroke="#fff" stroke-width="1.5"')
            )
            status = " (KO)" if judge.get("ko") else ""
            special = f", {judge['specialist']}" if judge.get("specialist") else ""
            out.append(
                f'<g class="standee{" ko" if judge.get("ko") else ""}" '
                f'data-judge="{escape(who)}" data-sector="{escape(sector)}">'
                f'<circle cx="{cx:.1f}" cy="{cy}" r="10" fill="{fill}"{ring}/>'
                f'<text class="standee-label" x="{cx:.1f}" y="{cy + 4}" style="font-size:10px" '
                f'fill="#fff" text-anchor="middle" font-weight="700">'
                f"{escape(who[:2].upper())}</text>"
                f"<title>{escape(who)}'s Judge{escape(special)}{status}</title></g>"
            )
    return out


def _wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most about ``width`` characters (two lines at most)."""
    lines: list[str] = []
    for word in str(text).split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    if len(lines) > 2:
        lines = [lines[0], " ".join(lines[1:])]
    return lines or [""]


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
    words = Markup(" · ").join(
        Markup('<span class="odds-{}">{} {:.0f}%</span>').format(k, k, p * 100) for k, p in parts
    )
    return Markup(
        '<div class="odds" data-win="{}"><p>Your combat odds: {}</p>'
        '<svg class="odds-bar" viewBox="0 0 100 10" preserveAspectRatio="none" role="img" '
        'aria-label="combat odds">{}</svg></div>'
    ).format(parts[0][1], words, Markup("").join(rects))


def extras(snapshot: Mapping[str, Any]) -> Markup:
    """The seat's combat odds (when its view has them), then the rest of the view."""
    view = snapshot.get("view")
    if not isinstance(view, Mapping):
        return Markup("")
    you = view.get("you") if isinstance(view.get("you"), Mapping) else {}
    odds = you.get("odds")
    panel = odds_html(odds) if isinstance(odds, Mapping) else Markup("")
    rest = {k: v for k, v in view.items() if k not in (*_IN_TABLE, "seat", "game")}
    return Markup("{}{}").format(panel, generic.value_html(rest))


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

#: What each asked action needs besides its name and seat, as a starting point to fill.
_PREFILL: dict[str, Any] = {
    "place_judge": {"sector": ""},
    "place_crime": {"sector_card": "", "crime": ""},
    "move": {"path": []},
    "commit": {"card": ""},
    "roll": {"judge": [], "perp": []},
    "perp_escape": {"to": ""},
    "recycle": {"count": 0},
    "draw": {"count": 1},
    "reveal_perp": {"sector": "", "perp": ""},
    "discard_sector": {"sector_card": ""},
    "play": {"card": ""},
    "internal_affairs": {"target": ""},
}

#: The base referee asks "your_turn"; the forms below say what exactly, and they already
#: offer what the Dredd referee's simplest prompts ask (commit a known card, reveal, end the
#: movement phase, next arrest, accept). Its other prompts (destinations, dice per roller,
#: arrest groups, escapes, what to tap) are drawn by the shared prompt template.
COVERED_PROMPTS = frozenset(
    {
        "your_turn",
        "dredd_commit",
        "dredd_reveal",
        "dredd_end_movement",
        "dredd_next_arrest",
        "dredd_accept",
    }
)


def controls(snapshot: Mapping[str, Any], token: str, digital_dice: bool) -> Markup:
    """One form per action the engine waits for from this seat (from its own view)."""
    view = snapshot.get("view")
    asked = view.get("asked") if isinstance(view, Mapping) else None
    if not isinstance(asked, list) or not asked:
        return Markup("")
    items = [a for a in asked if isinstance(a, Mapping) and isinstance(a.get("act"), str)]
    prefill = dict(_PREFILL)
    seat = snapshot.get("seat")
    if seat and isinstance(view.get("judges"), Mapping):
        prefill["arrest"] = {"groups": [[seat]]}
    you = view.get("you") if isinstance(view.get("you"), Mapping) else {}
    known = [c for c in you.get("known_cards") or [] if isinstance(c, str)]
    return Markup(
        render_template(
            "jd_controls.html",
            asked=items,
            known_cards=known,
            seat=seat,
            token=token,
            with_by=WITH_BY,
            prefill=prefill,
        )
    )


def describe(event: Mapping[str, Any]) -> str:
    """Log lines: the generic wording (the engine's events are self-describing)."""
    return generic.describe(event)
