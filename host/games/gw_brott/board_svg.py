"""GW:s brott's board as an SVG, drawn on the server from one seat's drawn snapshot.

What is drawn comes from the snapshot only: houses, jail, exits and evidence spaces
from the board topology (public), GW's magnet from ``gw_position``, criminals only
where the view gives their position, GW's deduction (possible spaces, marked with the
letters of the pieces that may be there on a pill whose darkness says how likely), the
last move of the log (until the next), the places this seat may move to now (from its
prompts), and at the end of the game the whole trail of every criminal this seat saw
move (a criminal's page: its log holds every criminal's position; GW's and the table's
never did, so they show GW's own trail only).

Sizes are in SVG units; at 1024x768 the board is drawn at 1.25 px per unit or more
(the page gives it the height below the bars), so :data:`TEXT` is 16 px or more there
(the browser tests measure every text element).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from flask import has_request_context, request
from flask_babel import gettext as _
from flask_babel import ngettext
from markupsafe import escape

from lawmaster.host.ui.look import look_of
from lawmaster.host.ui.measure import bold_width
from lawmaster.rules.core import IllegalAction
from lawmaster.rules.gw_brott.board import Board

from . import know as gw_know

CELL = 40  # user units per cell; the SVG scales to its box through viewBox
MARGIN = 26  # room for the column letters and row numbers
#: Every word and number on the board (13.2 units: 16.5 px at 1.25 px per unit).
TEXT = 13.2
#: The letters of a piece on its disc.
PIECE_TEXT = 15

EVIDENCE_FILL = {
    "blue": "#3b6fd8",
    "red": "#d8443b",
    "green": "#3ba35a",
    "yellow": "#e8c53a",
    "white": "#f4f4f4",
}
GW_FILL = "#0d2f6b"
#: The board as seen from ``"criminals"`` (A1 top-left) or from ``"gw"`` (left-right
#: mirrored: GW sits on the other side of the vertical board).
SIDES = ("criminals", "gw")


def side_of(snapshot: Mapping[str, Any]) -> str:
    """The side to draw from: ``?side=`` if the page asked, else the seat's own side."""
    if has_request_context():
        asked = request.args.get("side")
        if asked in SIDES:
            return asked
    return "gw" if snapshot.get("seat") == "gw" else "criminals"


def criminal_positions(view: Mapping[str, Any]) -> dict[str, str]:
    """Piece → cell name, for the pieces whose position this view gives (never guessed)."""
    found: dict[str, str] = {}
    criminals = view.get("criminals")
    if isinstance(criminals, Mapping):
        for piece, info in criminals.items():
            where = info.get("position") if isinstance(info, Mapping) else info
            if isinstance(where, str):
                found[str(piece)] = where
    return found


def piece_order(view: Mapping[str, Any]) -> list[str]:
    """The criminal pieces in the view's order, for stable colours."""
    for key in ("criminals", "pieces", "deduction"):
        value = view.get(key)
        if isinstance(value, Mapping):
            return [str(p) for p in value]
        if isinstance(value, list):
            return [str(p) for p in value if isinstance(p, str)]
    return []


def deduction_of(view: Mapping[str, Any]) -> dict[str, list[str]]:
    """GW's deduction map from the view: piece → cell names (and maybe ``"jail"``)."""
    deduction = view.get("deduction")
    result: dict[str, list[str]] = {}
    if isinstance(deduction, Mapping):
        for piece, cells in deduction.items():
            if isinstance(cells, Iterable) and not isinstance(cells, str | bytes | Mapping):
                result[str(piece)] = [str(c) for c in cells]
    return result


def handed_in_cards(view: Mapping[str, Any]) -> set[str]:
    """Evidence cards GW already holds (their spaces no longer matter)."""
    cards = set()
    for item in view.get("evidence_handed_in") or []:
        card = item.get("card") if isinstance(item, Mapping) else item
        if isinstance(card, str):
            cards.add(card)
    return cards


def cell_of(board: Board, name: object) -> int | None:
    if not isinstance(name, str):
        return None
    try:
        return board.cell(name)
    except IllegalAction:
        return None


class Drawing:
    """One board drawing: the grid's geometry from one side, and the seats' looks."""

    def __init__(self, board: Board, snapshot: Mapping[str, Any], mirror: bool) -> None:
        self.board = board
        self.mirror = mirror
        self.looks = look_of(snapshot)

    def origin(self, cell: int) -> tuple[float, float]:
        col, row = self.board.xy(cell)
        if self.mirror:
            col = self.board.width - 1 - col
        return MARGIN + col * CELL, MARGIN + row * CELL

    def centre(self, cell: int) -> tuple[float, float]:
        x, y = self.origin(cell)
        return x + CELL / 2, y + CELL / 2

    def look(self, seat: str) -> dict[str, str]:
        found = self.looks.get(seat)
        if found:
            return found
        return {"fill": "#546e7a", "ink": "#ffffff", "mark": str(seat)[:1].upper()}

    @property
    def size(self) -> tuple[int, int]:
        return MARGIN + self.board.width * CELL + 2, MARGIN + self.board.height * CELL + 2


def _defs() -> str:
    return (
        "<defs>"
        '<pattern id="jail-bars" width="8" height="8" patternUnits="userSpaceOnUse">'
        '<rect width="8" height="8" fill="#5d4037"/>'
        '<rect x="0" width="3" height="8" fill="#3e2723"/></pattern>'
        '<marker id="gw-arrow" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="4" '
        'markerHeight="4" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" '
        'fill="context-stroke"/></marker>'
        "</defs>"
    )


def _labels(d: Drawing) -> list[str]:
    parts = []
    for col in range(d.board.width):
        x = MARGIN + (d.board.width - 1 - col if d.mirror else col) * CELL + CELL / 2
        parts.append(
            f'<text class="label" x="{x}" y="{MARGIN - 8}" text-anchor="middle" '
            f'font-size="{TEXT}">{chr(65 + col)}</text>'
        )
    for row in range(d.board.height):
        y = MARGIN + row * CELL + CELL / 2 + TEXT * 0.36
        parts.append(
            f'<text class="label" x="{MARGIN - 4}" y="{y:.1f}" text-anchor="end" '
            f'font-size="{TEXT}">{row + 1}</text>'
        )
    return parts


class Mark:
    """What a space carries besides its kind: classes, attributes, words added to its
    title, and drawing inside it (a deduction pill, the die that takes a piece there)."""

    def __init__(self) -> None:
        self.classes: list[str] = []
        self.attrs = ""
        self.words = ""
        self.inside: list[str] = []


def _cells(d: Drawing, view: Mapping[str, Any], marks: Mapping[int, Mark]) -> list[str]:
    """Every space, with what :func:`deduction_marks` and :func:`targets` put on it.

    The marks live in the space's own element (a class, a word of its title, a pill):
    a live update then sends what changed on each space, a few characters, not a layer
    of shapes drawn again (``host/web/delta.py``)."""
    grid = d.board
    on_cell = {cell: card for card, cell in grid.evidence.items()}
    gone = handed_in_cards(view)
    exits = set(grid.jail_exits)
    words = {"street": _("street"), "house": _("house"), "jail": _("jail")}
    parts = []
    for cell in range(grid.size):
        x, y = d.origin(cell)
        name = grid.name_of(cell)
        kind, fill, note = "street", "#eceae4", words["street"]
        if cell in grid.houses:
            kind, fill, note = "house", "#6b6b6b", words["house"]
        elif cell in grid.jail_cells:
            kind, fill, note = "jail", "url(#jail-bars)", words["jail"]
        elif cell in on_cell:
            card = on_cell[cell]
            kind, fill = f"evidence {grid.colour_of(card)}", EVIDENCE_FILL[grid.colour_of(card)]
            printed = gw_know.card_name(card)
            if card in gone:
                note = _("evidence: %(card)s (handed in)", card=printed)
            else:
                note = _("evidence: %(card)s", card=printed)
        if cell in exits:
            note = _("%(space)s, jail exit", space=note)
        if cell == grid.gw_start:
            note = _("%(space)s, GW's starting space", space=note)
        mark = marks.get(cell)
        classes = " ".join([kind, *mark.classes]) if mark else kind
        attrs = mark.attrs if mark else ""
        title = f"{name}: {note}" + (f"; {mark.words}" if mark and mark.words else "")
        parts.append(
            f'<g class="cell {classes}" data-cell="{name}"{attrs}><title>{escape(title)}</title>'
            f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" '
            f'stroke="#9e9a90" stroke-width="1"/>'
        )
        if cell in exits:
            parts.append(
                f'<rect class="exit" x="{x + 3}" y="{y + 3}" width="{CELL - 6}" '
                f'height="{CELL - 6}" fill="none" stroke="#3e2723" stroke-width="2" '
                f'stroke-dasharray="4 3"/>'
            )
        if cell == grid.gw_start:
            # GW's starting space: a corner flag in GW's colour (the legend says so).
            parts.append(
                f'<path class="gw-start" d="M{x + CELL} {y}l0 14l-14 -14z" fill="{GW_FILL}"/>'
            )
        if cell in on_cell:
            card = on_cell[cell]
            ink = "#1d1d1b" if grid.colour_of(card) in ("yellow", "white") else "#fff"
            parts.append(
                f'<text class="card" x="{x + 3}" y="{y + TEXT}" font-size="{TEXT}" '
                f'fill="{ink}">{escape(card.split("-", 1)[1])}</text>'
            )
            if card in gone:
                parts.append(
                    f'<path class="gone" d="M{x + 6} {y + 6}L{x + CELL - 6} {y + CELL - 6}'
                    f'M{x + CELL - 6} {y + 6}L{x + 6} {y + CELL - 6}" stroke="#222" '
                    f'stroke-width="2"/>'
                )
        if mark:
            parts += mark.inside
        parts.append("</g>")
    return parts


def _pill(d: Drawing, cell: int, text: str, css: str) -> str:
    """A line of letters across the bottom of a space, on a pill (its colours, outline
    and type in the stylesheet by ``css``: ``svg.gw-board .l0`` … ``.l3``, ``.tg``)."""
    x, y = d.origin(cell)
    width = bold_width(text, TEXT)
    room = CELL - 8
    squeeze = f' textLength="{room}" lengthAdjust="spacingAndGlyphs"' if width > room else ""
    shown = round(min(width, room) + 4, 1)
    cx = x + CELL / 2
    return (
        f'<rect class="pb {css}" x="{cx - shown / 2:g}" y="{y + CELL - 15.5:g}" '
        f'width="{shown:g}" height="14" rx="7"/>'
        f'<text class="pt {css}" x="{cx:g}" y="{y + CELL - 4.2:g}"{squeeze}>{escape(text)}</text>'
    )


def deduction_marks(d: Drawing, view: Mapping[str, Any], marks: dict[int, Mark]) -> None:
    """Each space a criminal may be on, marked with the letters of the pieces that may be
    there; the pill's darkness is how likely the likeliest of them is
    (:data:`know.LEVEL_BOUNDS`): the space's classes ``maybe l<step>``, its
    ``data-pieces``, its title's words and the pill."""
    maybe: dict[int, list[tuple[str, float]]] = {}
    for piece in deduction_of(view):
        for name, share in gw_know.weights_for(view, piece).items():
            cell = cell_of(d.board, name)
            if cell is not None:
                maybe.setdefault(cell, []).append((piece, share))
    for cell, pieces in sorted(maybe.items()):
        top = max(share for _p, share in pieces)
        level = gw_know.level_of(top)
        letters = "".join(d.look(p)["mark"] for p, _s in pieces)
        who = ", ".join(d.look(p).get("name", p) for p, _s in pieces)
        # The chance in the step's words (not the exact figure): the pill, and so the
        # page's text, changes only when a step does, which keeps a live update small.
        words = _(
            "%(pieces)s may be here (%(chance)s)",
            pieces=who,
            chance=gw_know.level_words()[level],
        )
        mark = marks.setdefault(cell, Mark())
        mark.classes += ["maybe", f"l{level}"]
        mark.attrs += f' data-pieces="{escape(" ".join(p for p, _s in pieces))}"'
        mark.words = words
        mark.inside.append(_pill(d, cell, letters, f"l{level}"))


def _disc(d: Drawing, cell: int, seat: str, css: str, title: str) -> str:
    cx, cy = d.centre(cell)
    look = d.look(seat)
    mark = look["mark"]
    size = PIECE_TEXT if len(mark) == 1 else TEXT
    return (
        f'<g class="{css}" data-piece="{escape(seat)}" data-cell="{d.board.name_of(cell)}">'
        f"<title>{escape(title)}</title>"
        f'<circle cx="{cx}" cy="{cy}" r="{CELL * 0.34}" fill="{look["fill"]}" '
        f'stroke="#000" stroke-width="2"/>'
        f'<text x="{cx}" y="{cy + size * 0.36:.1f}" text-anchor="middle" font-size="{size}" '
        f'fill="{look["ink"]}" class="piece-label">{escape(mark)}</text></g>'
    )


def pieces(d: Drawing, view: Mapping[str, Any]) -> list[str]:
    """The criminals this view places, the jailed ones in the jail, and GW's magnet."""
    parts = []
    for piece, where in criminal_positions(view).items():
        cell = cell_of(d.board, where)
        if cell is None:
            continue  # in jail or out: drawn in the jail, or told in the list
        title = _("%(piece)s on %(cell)s", piece=d.look(piece).get("name", piece), cell=where)
        parts.append(_disc(d, cell, piece, "piece criminal", title))
    parts.extend(_jailed(d, view))
    cell = cell_of(d.board, view.get("gw_position"))
    if cell is not None:
        x, y = d.origin(cell)
        look = d.look("gw")
        title = _("GW on %(cell)s", cell=d.board.name_of(cell))
        parts.append(
            f'<g class="piece gw" data-cell="{d.board.name_of(cell)}">'
            f"<title>{escape(title)}</title>"
            f'<rect x="{x + 4}" y="{y + 6}" width="{CELL - 8}" height="{CELL - 12}" rx="5" '
            f'fill="{look["fill"]}" stroke="#fff" stroke-width="2"/>'
            f'<text x="{x + CELL / 2}" y="{y + CELL / 2 + TEXT * 0.36:.1f}" text-anchor="middle" '
            f'font-size="{TEXT}" fill="{look["ink"]}" class="piece-label">GW</text></g>'
        )
    return parts


def _jailed(d: Drawing, view: Mapping[str, Any]) -> list[str]:
    """Pieces in jail (public: arrests and jail breaks are seen by all) drawn in the jail."""
    criminals = view.get("criminals")
    if not isinstance(criminals, Mapping):
        return []
    jailed = [
        p
        for p, info in criminals.items()
        if isinstance(info, Mapping)
        and not info.get("out")
        and (info.get("in_jail") or info.get("position") == "jail")
    ]
    if not jailed:
        return []
    area = sorted(d.board.jail_cells) or list(d.board.jail_exits[:1])
    xs = [d.origin(c)[0] for c in area]
    ys = [d.origin(c)[1] for c in area]
    left, top = min(xs), min(ys)
    width, height = max(xs) + CELL - left, max(ys) + CELL - top
    radius = min(CELL * 0.3, width / (2 * len(jailed) + 1))
    parts = []
    for i, piece in enumerate(jailed):
        cx = left + width * (i + 1) / (len(jailed) + 1)
        cy = top + height / 2
        look = d.look(piece)
        title = _("%(piece)s in jail", piece=look.get("name", piece))
        # The letter stays readable: a crowded jail draws its discs closer, never smaller
        # than the letter.
        r = max(radius, TEXT * 0.62)
        parts.append(
            f'<g class="piece jailed" data-piece="{escape(piece)}">'
            f"<title>{escape(title)}</title>"
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" '
            f'fill="{look["fill"]}" stroke="#fff" stroke-width="1.5"/>'
            f'<text class="piece-label" x="{cx:.1f}" y="{cy + TEXT * 0.36:.1f}" '
            f'text-anchor="middle" font-size="{TEXT}" fill="{look["ink"]}">'
            f"{escape(look['mark'])}</text></g>"
        )
    return parts


# -- what just happened, and where one may go -------------------------------------
def last_move(snapshot: Mapping[str, Any]) -> tuple[str, list[str]] | None:
    """The last move in this seat's log: who made it and the spaces it went through
    (GW's path from its start; a criminal's move from where this seat last saw it)."""
    log = [e for e in snapshot.get("log") or [] if isinstance(e, Mapping)]
    seen: dict[str, str] = {}
    found: tuple[str, list[str]] | None = None
    for event in log:
        kind = event.get("type")
        if kind == "gw_moved":
            path = [str(c) for c in event.get("path") or []]
            start = event.get("from")
            found = ("gw", [str(start), *path] if path and isinstance(start, str) else path)
        elif kind == "criminal_position":
            piece, to = str(event.get("by")), event.get("to")
            if isinstance(to, str):
                before = seen.get(piece)
                found = (piece, [before, to] if before else [to])
                seen[piece] = to
        elif kind == "criminal_moved":
            # A move this seat saw made but not where to (GW's page): nothing to draw;
            # a criminal's page reads where next, in the same batch.
            found = None
    return found


def trails(snapshot: Mapping[str, Any]) -> dict[str, list[str]]:
    """Every piece's whole trail (the spaces in order), for the end.

    Once the game is over the engine's view gives every criminal's trail to every seat
    (``trails``); GW's own comes from this seat's log, where every seat saw it."""
    found: dict[str, list[str]] = {}
    view = snapshot.get("view")
    revealed = view.get("trails") if isinstance(view, Mapping) else None
    if isinstance(revealed, Mapping):
        for piece, places in revealed.items():
            found[str(piece)] = [str(p) for p in places or []]
    for event in snapshot.get("log") or []:
        if not isinstance(event, Mapping):
            continue
        if event.get("type") == "gw_moved":
            path = [str(c) for c in event.get("path") or []]
            trail = found.setdefault("gw", [])
            if not trail and isinstance(event.get("from"), str):
                trail.append(str(event["from"]))
            trail.extend(path)
        elif (
            event.get("type") == "criminal_position"
            and isinstance(event.get("to"), str)
            and not isinstance(revealed, Mapping)
        ):
            found.setdefault(str(event.get("by")), []).append(str(event["to"]))
    return found


def _legs(cells: list[str]) -> list[list[str]]:
    """A trail cut where the piece went to jail: each leg drawn on its own."""
    legs: list[list[str]] = [[]]
    for cell in cells:
        if cell == "jail":
            legs.append([])
        else:
            legs[-1].append(cell)
    return [leg for leg in legs if len(leg) > 1]


def _route(d: Drawing, seat: str, cells: list[str], css: str, width: float) -> str:
    points = [d.centre(c) for c in (cell_of(d.board, n) for n in cells) if c is not None]
    if len(points) < 2:
        return ""
    look = d.look(seat)
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    x0, y0 = points[0]
    return (
        f'<g class="{css}" data-piece="{escape(seat)}" pointer-events="none">'
        f'<polyline points="{line}" fill="none" stroke="#fff" stroke-width="{width + 4}" '
        'stroke-linejoin="round" stroke-linecap="round" opacity=".85"/>'
        f'<polyline points="{line}" fill="none" stroke="{look["fill"]}" stroke-width="{width}" '
        'stroke-linejoin="round" stroke-linecap="round" marker-end="url(#gw-arrow)"/>'
        f'<circle cx="{x0:.1f}" cy="{y0:.1f}" r="6" fill="#fff" stroke="{look["fill"]}" '
        'stroke-width="3"/></g>'
    )


def moves_drawn(d: Drawing, snapshot: Mapping[str, Any]) -> list[str]:
    """The last move as a route (until the next move); at the end, every trail seen."""
    if snapshot.get("over"):
        return [
            _route(d, seat, leg, "trail", 4)
            for seat, cells in trails(snapshot).items()
            for leg in _legs(cells)
        ]
    last = last_move(snapshot)
    if last is None:
        return []
    seat, cells = last
    return [_route(d, seat, cells, "last-move", 5)]


def targets(d: Drawing, snapshot: Mapping[str, Any], marks: dict[int, Mark]) -> None:
    """Where this seat may move its piece now (from its prompts): each space ringed (the
    class ``target``) and labelled with the die that takes it there; a tap on it makes
    that move."""
    found: dict[str, list[str]] = {}
    for prompt in snapshot.get("prompts") or []:
        if not isinstance(prompt, Mapping) or prompt.get("kind") != "choose_die":
            continue
        for face, ends in (prompt.get("moves") or {}).items():
            cells = ends.values() if isinstance(ends, Mapping) else ends or []
            for end in cells:
                to = end.get("to") if isinstance(end, Mapping) else end
                if isinstance(to, str):
                    words = found.setdefault(to, [])
                    word = "➔" if face == "arrow" else str(face)
                    if word not in words:
                        words.append(word)
    for name, faces in sorted(found.items()):
        cell = cell_of(d.board, name)
        if cell is None:
            continue
        mark = marks.setdefault(cell, Mark())
        mark.classes.append("target")
        # The die's figure on a halo of the ring's blue (the stylesheet's .tg): a figure,
        # not a drawn pill, since a criminal's every roll brings dozens of them.
        x, y = d.origin(cell)
        mark.inside.append(
            f'<text class="tg" x="{x + CELL / 2:g}" y="{y + CELL - 4.2:g}">'
            f"{escape(' '.join(faces))}</text>"
        )


def board_svg(snapshot: Mapping[str, Any], view: Mapping[str, Any], grid: Board) -> str:
    """The whole board for one seat's drawn snapshot."""
    mirror = side_of(snapshot) == "gw"
    d = Drawing(grid, snapshot, mirror)
    width, height = d.size
    label = _("GW:s brott board")
    parts = [
        f'<svg class="board gw-board" data-side="{"gw" if mirror else "criminals"}" '
        f'viewBox="0 0 {width} {height}" role="img" font-family="sans-serif" '
        f'font-size="{TEXT}" font-weight="700" aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">',
        _defs(),
    ]
    marks: dict[int, Mark] = {}
    deduction_marks(d, view, marks)
    targets(d, snapshot, marks)
    parts += _labels(d)
    parts += _cells(d, view, marks)
    parts += moves_drawn(d, snapshot)
    parts += pieces(d, view)
    parts.append("</svg>")
    return "".join(parts)


def legend(snapshot: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """What the board's marks mean, under the board (in words, as well as drawn)."""
    items = [
        ('<span class="key key-house"></span>', _("house: nobody may stand here")),
        ('<span class="key key-jail"></span>', _("jail; dashed: a jail exit")),
        ('<span class="key key-start"></span>', _("GW's starting space")),
    ]
    if deduction_of(view):
        pieces_of = piece_order(view)
        looks = look_of(snapshot)
        first = looks.get(pieces_of[0], {}) if pieces_of else {}
        mark = escape(first.get("mark", "?"))
        steps = zip(gw_know.LEVEL_FILLS, gw_know.LEVEL_INKS, gw_know.level_words(), strict=True)
        for fill, ink, words in steps:
            items.append(
                (
                    f'<span class="key key-pill" style="background:{fill};color:{ink}">'
                    f"{mark}</span>",
                    _("a criminal may be here: %(chance)s", chance=words),
                )
            )
    if snapshot.get("over"):
        items.append(
            (
                '<span class="key key-trail"></span>',
                _("the paths the pieces took, each in its colour"),
            )
        )
    elif last_move(snapshot) is not None:
        items.append(
            ('<span class="key key-trail"></span>', _("the last move, in its player's colour"))
        )
    rows = "".join(f"<li>{key}<span>{escape(words)}</span></li>" for key, words in items)
    return f'<ul class="board-legend">{rows}</ul>'


def count_spaces(cells: int) -> str:
    return ngettext("%(num)d space", "%(num)d spaces", cells)
