"""GW:s brott: the board as an SVG grid, drawn on the server from one seat's view.

What is drawn comes only from the snapshot's view: houses, jail, exits and
evidence spaces from the board topology (public), GW's magnet from
``gw_position``, criminals only where the view gives their position, and GW's
deduction map (``deduction``: piece → cells it may be on) as shaded cells.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from flask import has_request_context, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from markupsafe import Markup, escape

from lawmaster.host.ui import SeatUI, generic
from lawmaster.host.ui.lists import sentence_list
from lawmaster.rules.core import IllegalAction
from lawmaster.rules.gw_brott.board import Board
from lawmaster.rules.gw_brott.cards import criminal_faces, gw_faces

from . import know as gw_know
from .boards import board_of

CELL = 40  # user units per cell; the SVG scales to its box through viewBox
MARGIN = 22  # room for the column letters and row numbers

EVIDENCE_FILL = {
    "blue": "#3b6fd8",
    "red": "#d8443b",
    "green": "#3ba35a",
    "yellow": "#e8c53a",
    "white": "#f4f4f4",
}
# Piece ids are usually colour words; anything else takes a colour from this list.
_PIECE_FILL = {
    "red": "#c62828",
    "green": "#2e7d32",
    "blue": "#1565c0",
    "yellow": "#f9a825",
    "white": "#fafafa",
    "black": "#212121",
    "purple": "#6a1b9a",
    "orange": "#ef6c00",
}
_SPARE_FILLS = ("#8e24aa", "#00838f", "#6d4c41", "#ad1457", "#558b2f")
GW_FILL = "#0d47a1"
# Where a piece's deduction mark sits in a cell (by piece index), clear of the card number.
_CORNERS = ((0.2, 0.8), (0.5, 0.8), (0.8, 0.8), (0.8, 0.48), (0.5, 0.48))


def piece_fill(piece: str, order: list[str]) -> str:
    """The colour a criminal piece is drawn in."""
    if piece in _PIECE_FILL:
        return _PIECE_FILL[piece]
    index = order.index(piece) if piece in order else len(order)
    return _SPARE_FILLS[index % len(_SPARE_FILLS)]


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
    """The criminal pieces in the view's order, for stable colours and corners."""
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


def _cell_name(board: Board, name: str) -> int | None:
    try:
        return board.cell(name)
    except IllegalAction:
        return None


def _origin(board: Board, cell: int, mirror: bool = False) -> tuple[float, float]:
    col, row = board.xy(cell)
    if mirror:
        col = board.width - 1 - col
    return MARGIN + col * CELL, MARGIN + row * CELL


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


def _defs() -> str:
    return (
        "<defs>"
        '<pattern id="jail-bars" width="8" height="8" patternUnits="userSpaceOnUse">'
        '<rect width="8" height="8" fill="#5d4037"/>'
        '<rect x="0" width="3" height="8" fill="#3e2723"/></pattern>'
        "</defs>"
    )


def _labels(grid: Board, mirror: bool) -> list[str]:
    parts = []
    for col in range(grid.width):
        x = MARGIN + (grid.width - 1 - col if mirror else col) * CELL + CELL / 2
        parts.append(
            f'<text class="label" x="{x}" y="15" text-anchor="middle">{chr(65 + col)}</text>'
        )
    for row in range(grid.height):
        y = MARGIN + row * CELL + CELL / 2 + 5
        parts.append(
            f'<text class="label" x="{MARGIN - 4}" y="{y}" text-anchor="end">{row + 1}</text>'
        )
    return parts


def _cells(grid: Board, view: Mapping[str, Any], mirror: bool) -> list[str]:
    on_cell = {cell: card for card, cell in grid.evidence.items()}
    gone = handed_in_cards(view)
    exits = set(grid.jail_exits)
    words = {"street": _("street"), "house": _("house"), "jail": _("jail")}
    parts = []
    for cell in range(grid.size):
        x, y = _origin(grid, cell, mirror)
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
        parts.append(
            f'<g class="cell {kind}" data-cell="{name}"><title>{name}: {escape(note)}</title>'
            f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" '
            f'stroke="#9e9a90" stroke-width="1"/>'
        )
        if cell in exits:
            parts.append(
                f'<rect class="exit" x="{x + 3}" y="{y + 3}" width="{CELL - 6}" '
                f'height="{CELL - 6}" fill="none" stroke="#3e2723" stroke-width="2" '
                f'stroke-dasharray="4 3"/>'
            )
        if cell in on_cell:
            card = on_cell[cell]
            ink = "#222" if grid.colour_of(card) in ("yellow", "white") else "#fff"
            parts.append(
                f'<text class="card" x="{x + 3}" y="{y + 11}" fill="{ink}">'
                f"{escape(card.split('-', 1)[1])}</text>"
            )
            if card in gone:
                parts.append(
                    f'<path class="gone" d="M{x + 6} {y + 6}L{x + CELL - 6} {y + CELL - 6}'
                    f'M{x + CELL - 6} {y + 6}L{x + 6} {y + CELL - 6}" stroke="#222" '
                    f'stroke-width="2"/>'
                )
        if cell == grid.gw_start:
            parts.append(
                f'<text class="start" x="{x + CELL - 4}" y="{y + 11}" text-anchor="end">S</text>'
            )
        parts.append("</g>")
    return parts


def _deduction(grid: Board, view: Mapping[str, Any], order: list[str], mirror: bool) -> list[str]:
    """Each criminal's possible cells, shaded by how likely it is there.

    Only the cells the probability map gives some weight are drawn (through
    :func:`know.weights_for`, as the mini-maps are): a listed cell with no weight
    is a place the piece cannot be, so it is left unshaded.
    """
    parts = []
    for index, piece in enumerate(deduction_of(view)):
        fill = piece_fill(piece, order)
        corner_x, corner_y = _CORNERS[index % len(_CORNERS)]
        opacity = gw_know.shade(gw_know.weights_for(view, piece))
        for name, shade in opacity.items():
            cell = _cell_name(grid, name)
            if cell is None:
                continue  # "jail" and anything off this board: told in the legend instead
            x, y = _origin(grid, cell, mirror)
            # The piece's letter in its mark, so pieces differ by more than colour.
            cx, cy = round(x + corner_x * CELL, 1), round(y + corner_y * CELL, 1)
            ink = "#000" if piece in ("yellow", "white") else "#fff"
            parts.append(
                f'<g class="maybe" data-piece="{escape(piece)}" data-cell="{grid.name_of(cell)}">'
                f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" '
                f'fill-opacity="{0.25 * shade:.3f}"/>'
                f'<circle cx="{cx}" cy="{cy}" r="6" fill="{fill}" stroke="#000" '
                f'stroke-width="0.6"/><text class="maybe-label" x="{cx}" y="{cy + 3}" '
                f'text-anchor="middle" fill="{ink}">{escape(piece[:1].upper())}</text></g>'
            )
    return parts


def _pieces(grid: Board, view: Mapping[str, Any], order: list[str], mirror: bool) -> list[str]:
    parts = []
    for piece, where in criminal_positions(view).items():
        cell = _cell_name(grid, where)
        if cell is None:
            continue  # in jail or out: the legend says so
        x, y = _origin(grid, cell, mirror)
        fill = piece_fill(piece, order)
        ink = "#000" if piece in ("yellow", "white") else "#fff"
        title = _("%(piece)s on %(cell)s", piece=piece, cell=grid.name_of(cell))
        parts.append(
            f'<g class="piece criminal" data-piece="{escape(piece)}" '
            f'data-cell="{grid.name_of(cell)}">'
            f"<title>{escape(title)}</title>"
            f'<circle cx="{x + CELL / 2}" cy="{y + CELL / 2}" r="{CELL * 0.33}" fill="{fill}" '
            f'stroke="#000" stroke-width="2"/>'
            f'<text x="{x + CELL / 2}" y="{y + CELL / 2 + 5}" text-anchor="middle" '
            f'fill="{ink}" class="piece-label">{escape(piece[:1].upper())}</text></g>'
        )
    parts.extend(_jailed(grid, view, order, mirror))
    gw = view.get("gw_position")
    cell = _cell_name(grid, gw) if isinstance(gw, str) else None
    if cell is not None:
        x, y = _origin(grid, cell, mirror)
        title = _("GW on %(cell)s", cell=grid.name_of(cell))
        parts.append(
            f'<g class="piece gw" data-cell="{grid.name_of(cell)}">'
            f"<title>{escape(title)}</title>"
            f'<rect x="{x + 5}" y="{y + 5}" width="{CELL - 10}" height="{CELL - 10}" rx="6" '
            f'fill="{GW_FILL}" stroke="#fff" stroke-width="2"/>'
            f'<text x="{x + CELL / 2}" y="{y + CELL / 2 + 5}" text-anchor="middle" fill="#fff" '
            f'class="piece-label">GW</text></g>'
        )
    return parts


def _jailed(grid: Board, view: Mapping[str, Any], order: list[str], mirror: bool) -> list[str]:
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
    area = sorted(grid.jail_cells) or list(grid.jail_exits[:1])
    xs = [_origin(grid, c, mirror)[0] for c in area]
    ys = [_origin(grid, c, mirror)[1] for c in area]
    left, top = min(xs), min(ys)
    width, height = max(xs) + CELL - left, max(ys) + CELL - top
    radius = min(CELL * 0.22, width / (2 * len(jailed) + 1))
    parts = []
    for i, piece in enumerate(jailed):
        cx = left + width * (i + 1) / (len(jailed) + 1)
        cy = top + height / 2
        title = _("%(piece)s in jail", piece=piece)
        parts.append(
            f'<g class="piece jailed" data-piece="{escape(piece)}">'
            f"<title>{escape(title)}</title>"
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{radius:.1f}" '
            f'fill="{piece_fill(piece, order)}" stroke="#fff" stroke-width="1.5"/>'
            f'<text class="maybe-label" x="{cx:.1f}" y="{cy + 3:.1f}" text-anchor="middle" '
            f'fill="{"#000" if piece in ("yellow", "white") else "#fff"}">'
            f"{escape(piece[:1].upper())}</text></g>"
        )
    return parts


def _now(view: Mapping[str, Any]) -> Markup:
    lines = gw_know.may_do(view)
    round_ = view.get("round")
    head = Markup("")
    if isinstance(round_, int):
        head = Markup("<p>{}</p>").format(_("Round %(round)s.", round=round_))
    dice = gw_know.dice_words(view.get("criminal_dice"))
    return Markup('<div class="gw-now">{}{}{}</div>').format(
        head, sentence_list(lines, "gw-may"), Markup("<p>{}</p>").format(dice) if dice else ""
    )


def _own_cards(view: Mapping[str, Any], grid: Board | None) -> Markup:
    parts = [gw_know.criminal_card(view.get("criminal_card"), view.get("ability"))]
    held = view.get("evidence_held")
    if isinstance(held, list):
        if held:
            parts.append(
                Markup("<h3>{}</h3>").format(_("Your evidence cards (%(num)s)", num=len(held)))
                + gw_know.evidence_cards(held, grid, EVIDENCE_FILL)
            )
        else:
            parts.append(Markup("<p>{}</p>").format(_("You hold no evidence cards.")))
    trumps = view.get("trumps_left")
    if isinstance(trumps, list):
        cuffs = view.get("handcuffs_left")
        if isinstance(cuffs, int):
            left = ngettext(
                "You have %(num)d handcuff left.", "You have %(num)d handcuffs left.", cuffs
            )
            parts.append(Markup("<p>{}</p>").format(left))
        if trumps:
            heading = Markup("<h3>{}</h3>").format(_("Your trumps"))
            parts.append(heading + gw_know.trump_cards(trumps))
        else:
            parts.append(Markup("<p>{}</p>").format(_("You have no trumps left.")))
    return Markup("").join(parts)


def _pieces_told(view: Mapping[str, Any], order: list[str], seat: str) -> Markup:
    known = criminal_positions(view)
    maybe = deduction_of(view)
    found = view.get("criminals")
    criminals: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
    rows = []
    gw = view.get("gw_position")
    if isinstance(gw, str):
        rows.append(
            Markup('<li data-piece="gw">{}<span>{}</span></li>').format(
                gw_know.gw_badge(GW_FILL), _("GW is on %(cell)s.", cell=gw)
            )
        )
    for piece in order:
        info = criminals.get(piece)
        where = gw_know.where_words(piece, info, known, maybe)
        name = _("%(piece)s (you)", piece=piece) if piece == seat else piece
        rows.append(
            Markup('<li data-piece="{}">{}<span><strong>{}</strong> {} {}</span></li>').format(
                piece,
                gw_know.piece_badge(piece, piece_fill(piece, order)),
                name,
                where,
                gw_know.piece_facts(info),
            )
        )
    return Markup('<h3>{}</h3><ul class="legend">{}</ul>').format(
        _("The pieces"), Markup("").join(rows)
    )


def _cell_key(name: str) -> tuple[str, int]:
    return name[:1], int(name[1:]) if name[1:].isdigit() else 0


def _suspects(view: Mapping[str, Any], grid: Board, order: list[str], mirror: bool) -> Markup:
    """GW's deduction: one shaded map per criminal, and its spaces listed on a tap."""
    cards = []
    maybe = deduction_of(view)
    for piece in order:
        badge = gw_know.piece_badge(piece, piece_fill(piece, order))
        weights = gw_know.weights_for(view, piece)
        jail = "jail" in maybe.get(piece, [])
        if not weights:
            if jail or piece in maybe:
                where = _("%(piece)s is in jail.", piece=piece)
            else:
                where = _("%(piece)s is out of the game.", piece=piece)
            cards.append(
                Markup('<li class="gw-suspect" data-piece="{}">{}<p>{}</p></li>').format(
                    piece, badge, where
                )
            )
            continue
        cells = sorted(weights, key=_cell_key)
        if jail:
            listed = _("%(cells)s, or in jail.", cells=", ".join(cells))
            count = ngettext("%(num)d space or jail", "%(num)d spaces or jail", len(cells))
        else:
            listed = _("%(cells)s.", cells=", ".join(cells))
            count = ngettext("%(num)d space", "%(num)d spaces", len(cells))
        cards.append(
            Markup(
                '<li class="gw-suspect" data-piece="{}">{}{}'
                '<details class="gw-cells" data-key="gw-cells-{}"><summary>{}</summary>'
                "<p>{}</p></details></li>"
            ).format(
                piece,
                badge,
                gw_know.mini_map(grid, piece, piece_fill(piece, order), weights, mirror),
                piece,
                _("Where may %(piece)s be? %(count)s", piece=piece, count=count),
                listed,
            )
        )
    return Markup('<h3>{}</h3><p class="hint">{}</p><ul class="gw-suspects">{}</ul>').format(
        _("Your deduction"),
        _(
            "One map per criminal: the shaded spaces are where it may be."
            " Tap a question to list them."
        ),
        Markup("").join(cards),
    )


def _public_record(view: Mapping[str, Any]) -> Markup:
    lines = []
    for item in view.get("evidence_handed_in") or []:
        if isinstance(item, Mapping):
            lines.append(
                _(
                    "%(who)s handed in the %(card)s (space %(cell)s).",
                    who=item.get("by"),
                    card=gw_know.card_name(item.get("card")),
                    cell=item.get("cell"),
                )
            )
    for item in view.get("revealed") or []:
        if not isinstance(item, Mapping):
            continue
        card = gw_know.card_name(item.get("card"))
        round_, piece = item.get("round"), item.get("piece")
        if item.get("immune"):
            lines.append(
                _(
                    "Round %(round)s: %(piece)s was immune to %(card)s.",
                    round=round_,
                    piece=piece,
                    card=card,
                )
            )
        else:
            place = item.get("place")
            place = _("jail") if place == "jail" else place
            lines.append(
                _(
                    "Round %(round)s: %(card)s showed %(piece)s on %(place)s.",
                    round=round_,
                    card=card,
                    piece=piece,
                    place=place,
                )
            )
    played = view.get("trumps_played") or []
    if played:
        names = ", ".join(gw_know.card_name(t) for t in played)
        lines.append(_("Trumps played: %(cards)s.", cards=names))
    if "trumps_left" not in view:
        in_hand = view.get("trumps_in_hand")
        if isinstance(in_hand, int) and in_hand:
            lines.append(ngettext("GW holds %(num)d trump.", "GW holds %(num)d trumps.", in_hand))
        if isinstance(view.get("handcuffs_left"), int):
            lines.append(
                ngettext(
                    "GW has %(num)d handcuff left.",
                    "GW has %(num)d handcuffs left.",
                    int(view["handcuffs_left"]),
                )
            )
    if not lines:
        return Markup("")
    return Markup("<h3>{}</h3>").format(_("So far")) + sentence_list(lines, "gw-record")


#: The referee's prompt kinds drawn here; any other kind falls to the generic forms.
COVERED_PROMPTS = frozenset(
    {
        "enter_dice",
        "reset",
        "destroy_evidence",
        "choose_die",
        "move_piece",
        "pass",
        "inform",
        "trump",
        "gw_move",
    }
)


def face_names() -> dict[str, str]:
    """How the die faces read on a button."""
    return {"arrow": _("➔ arrow"), "gw": "GW"}


def direction_word(direction: object) -> str:
    """A direction a criminal's move leaves by, in the page's language."""
    return {"up": _("up"), "down": _("down"), "left": _("left"), "right": _("right")}.get(
        str(direction), str(direction)
    )


def _who(seat: object) -> str:
    return gw_know.who_is(seat)


def _faces(faces: object) -> str:
    if not isinstance(faces, list | tuple):
        return _("nothing")
    return ", ".join(gw_know.face_word(f) for f in faces)


def _cards(cards: object) -> str:
    return ", ".join(gw_know.card_name(c) for c in cards or []) if isinstance(cards, list) else ""


def _gw_moved(e: Mapping[str, Any]) -> str:
    kind = str(e.get("kind"))
    path = e.get("path") or []
    where = {"start": e.get("from"), "end": e.get("to")}
    if not path:
        text = _("GW stays on %(start)s", **where)
    elif kind == "special":
        text = _("GW makes a special move from %(start)s to %(end)s", **where)
    elif kind == "extra":
        text = _("GW makes an extra move from %(start)s to %(end)s", **where)
    else:
        text = _("GW makes a move from %(start)s to %(end)s", **where)
    caught, blocked = e.get("caught"), e.get("blocked")
    if caught and blocked:
        return _(
            "%(move)s and catches %(piece)s, is blocked and goes back to the start.",
            move=text,
            piece=caught,
        )
    if caught:
        return _("%(move)s and catches %(piece)s.", move=text, piece=caught)
    if blocked:
        return _("%(move)s, is blocked and goes back to the start.", move=text)
    return _("%(move)s.", move=text)


def _informed(e: Mapping[str, Any]) -> str:
    if e.get("immune"):
        return _(
            "%(informer)s informs on %(target)s, who is immune to the Informer.",
            informer=e.get("informer"),
            target=e.get("target"),
        )
    return _(
        "%(informer)s informs on %(target)s: %(target)s is on %(cell)s.",
        informer=e.get("informer"),
        target=e.get("target"),
        cell=e.get("cell"),
    )


def _infiltrated(e: Mapping[str, Any]) -> str:
    seen = e.get("seen") or {}
    hidden = e.get("hidden") or []
    parts = (
        [_("%(piece)s on %(cell)s", piece=p, cell=c) for p, c in seen.items()]
        if isinstance(seen, Mapping)
        else []
    )
    found = ", ".join(parts) or _("nobody seen")
    if hidden:
        return _(
            "GW looks at the criminals' side: %(seen)s; immune: %(immune)s.",
            seen=found,
            immune=", ".join(map(str, hidden)),
        )
    return _("GW looks at the criminals' side: %(seen)s.", seen=found)


def _moved_with(e: Mapping[str, Any]) -> str:
    die = gw_know.face_word(e.get("die"))
    if e.get("from_jail"):
        return _("%(who)s moves with die %(die)s out of jail.", who=e.get("by"), die=die)
    return _("%(who)s moves with die %(die)s.", who=e.get("by"), die=die)


def _passed(e: Mapping[str, Any]) -> str:
    if e.get("reason") == "no legal move":
        return _("%(who)s has no legal move and passes.", who=e.get("by"))
    reason = e.get("reason")
    if reason == "no die left: all five dice show GW":
        reason = _("no die left: all five dice show GW")
    return _("%(who)s passes (%(reason)s).", who=e.get("by"), reason=reason)


def _gw_rolled(e: Mapping[str, Any]) -> str:
    steps = int(e.get("steps") or 0)
    if e.get("bonus"):
        return ngettext(
            "GW rolls %(face)s plus %(bonus)s for the dice showing GW: %(num)d step.",
            "GW rolls %(face)s plus %(bonus)s for the dice showing GW: %(num)d steps.",
            steps,
            face=e.get("face"),
            bonus=e.get("bonus"),
        )
    return ngettext(
        "GW rolls %(face)s: %(num)d step.",
        "GW rolls %(face)s: %(num)d steps.",
        steps,
        face=e.get("face"),
    )


def _caught(e: Mapping[str, Any]) -> str:
    return _(
        "GW catches %(piece)s on %(cell)s: %(piece)s goes to jail with %(cuffs)s;"
        " GW has %(left)s left.",
        piece=e.get("piece"),
        cell=e.get("cell"),
        cuffs=gw_know.handcuffs(int(e.get("handcuffs") or 0)),
        left=gw_know.handcuffs(int(e.get("handcuffs_left") or 0)),
    )


_DESCRIBE = {
    "setup": lambda e: ngettext(
        "The game is set up: the criminals %(criminals)s start in jail, GW on %(cell)s with"
        " %(num)d handcuff.",
        "The game is set up: the criminals %(criminals)s start in jail, GW on %(cell)s with"
        " %(num)d handcuffs.",
        int(e.get("handcuffs_left") or 0),
        criminals=", ".join(map(str, e.get("criminals", []))),
        cell=e.get("gw_position"),
    ),
    "dealt": lambda e: _(
        "%(piece)s is dealt the %(cards)s.", piece=e.get("piece"), cards=_cards(e.get("evidence"))
    ),
    "trumps_dealt": lambda e: _("GW holds the trumps %(cards)s.", cards=_cards(e.get("cards"))),
    "turn": lambda e: _("It is %(who)s's turn.", who=_who(e.get("seat"))),
    "reset": lambda e: ngettext(
        "%(who)s resets the dice; GW makes a special move of %(num)d step.",
        "%(who)s resets the dice; GW makes a special move of %(num)d steps.",
        int(e.get("gw_steps") or 0),
        who=e.get("by"),
    ),
    "evidence_destroyed": lambda e: _(
        "%(who)s hands in the %(card)s from %(cell)s.",
        who=e.get("by"),
        card=gw_know.card_name(e.get("card")),
        cell=e.get("cell"),
    ),
    "rolled": lambda e: _(
        "%(who)s rolls %(faces)s.", who=e.get("by"), faces=_faces(e.get("faces"))
    ),
    "criminal_moved": _moved_with,
    "criminal_position": lambda e: _(
        "%(who)s is now on %(cell)s.", who=e.get("by"), cell=e.get("to")
    ),
    "passed": _passed,
    "dice_reset": lambda e: _("The criminal dice are reset."),
    "gw_rolled": _gw_rolled,
    "gw_moved": _gw_moved,
    "caught": _caught,
    "trump_played": lambda e: _(
        "GW plays the %(card)s trump.", card=gw_know.card_name(e.get("card"))
    ),
    "informed": _informed,
    "infiltrated": _infiltrated,
    "out": lambda e: _(
        "%(piece)s is out of the game; its evidence goes to GW.", piece=e.get("piece")
    ),
    # Kept as "gw wins!" (not "GW"): other groups' page tests match this exact line.
    "won": lambda e: _("%(winner)s wins!", winner=e.get("winner")),
}


class GwBrottUI(SeatUI):
    """GW:s brott's seat pages: the grid from either side, deduction maps, cards."""

    sides = {"criminals": _l("the criminals' side"), "gw": _l("GW's side")}
    covered = COVERED_PROMPTS

    def board(self, snapshot: Mapping[str, Any]) -> Markup:
        """The board with what this seat may see (not a GW view: the generic drawing)."""
        view = snapshot.get("view")
        grid = board_of(view) if isinstance(view, Mapping) else None
        if not isinstance(view, Mapping) or grid is None:
            return super().board(snapshot)
        order = piece_order(view)
        mirror = side_of(snapshot) == "gw"
        parts: list[str] = []
        width = MARGIN + grid.width * CELL + 2
        height = MARGIN + grid.height * CELL + 2
        label = _("GW:s brott board")
        parts.append(
            f'<svg class="board gw-board" data-side="{"gw" if mirror else "criminals"}" '
            f'viewBox="0 0 {width} {height}" role="img" '
            f'aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">'
        )
        parts.append(_defs())
        parts.extend(_labels(grid, mirror))
        parts.extend(_cells(grid, view, mirror))
        parts.extend(_deduction(grid, view, order, mirror))
        parts.extend(_pieces(grid, view, order, mirror))
        parts.append("</svg>")
        return Markup("".join(parts))

    def extras(self, snapshot: Mapping[str, Any]) -> Markup:
        """What this seat knows, in sentences and pictures: what it may do, cards, pieces."""
        view = snapshot.get("view")
        if not isinstance(view, Mapping):
            return Markup("")
        grid = board_of(view)
        order = piece_order(view)
        seat = str(view.get("seat") or snapshot.get("seat") or "")
        sections = [_now(view), _own_cards(view, grid), _pieces_told(view, order, seat)]
        if seat == "gw" and grid is not None:
            sections.append(_suspects(view, grid, order, side_of(snapshot) == "gw"))
        sections.append(_public_record(view))
        return Markup('<div class="gw-extras">{}</div>').format(Markup("").join(sections))

    def controls(self, snapshot: Mapping[str, Any], token: str, digital_dice: bool) -> Markup:
        """Forms for the referee's prompts to this seat (snapshot only: its view and prompts)."""
        return generic.prompt_controls(
            snapshot,
            "gw-brott/controls.html",
            self.covered,
            token,
            digital_dice,
            criminal_faces=criminal_faces(),
            gw_faces=gw_faces(),
            face_names=face_names(),
            card_name=gw_know.card_name,
            trump_text=gw_know.trump_text,
            gw_move_words=gw_know.gw_move_words,
            direction_word=direction_word,
        )

    def seat_name(self, seat: str) -> str:
        """GW's seat is "GW"; a criminal is its piece as the header names it."""
        return _who(seat)

    def describe(self, event: Mapping[str, Any]) -> str:
        """One log line for a GW:s brott event."""
        line = _DESCRIBE.get(str(event.get("type")))
        if line is None:
            return super().describe(event)
        try:
            return line(event)
        except (TypeError, ValueError):
            return super().describe(event)

    def side(self, snapshot: Mapping[str, Any], asked: str | None) -> str | None:
        """The side asked for, else the seat's own (GW's side for GW)."""
        return asked if asked in SIDES else side_of(snapshot)
