"""GW:s brott's seat pages: the board (:mod:`.board_svg`), what a seat knows, its
inputs, the action bar's words and the log.

Everything is drawn from one seat's drawn snapshot: its view, prompts and log, and
the table's public look (each seat's colour and mark).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from markupsafe import Markup

from lawmaster.host.ui import SeatUI, generic
from lawmaster.host.ui.lists import sentence_list
from lawmaster.host.ui.look import PALETTE, SPARE, chip, look_of
from lawmaster.rules.gw_brott.board import Board
from lawmaster.rules.gw_brott.cards import criminal_faces, gw_faces

from . import bar_words, board_svg
from . import know as gw_know
from .board_svg import (
    EVIDENCE_FILL,
    SIDES,
    criminal_positions,
    deduction_of,
    piece_order,
    side_of,
)
from .boards import board_of


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


def _pieces_told(snapshot: Mapping[str, Any], view: Mapping[str, Any], seat: str) -> Markup:
    known = criminal_positions(view)
    maybe = deduction_of(view)
    found = view.get("criminals")
    criminals: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
    looks = look_of(snapshot)
    rows = []
    gw = view.get("gw_position")
    if isinstance(gw, str):
        rows.append(
            Markup('<li data-piece="gw">{}<span>{}</span></li>').format(
                Markup(chip(looks.get("gw"))), _("GW is on %(cell)s.", cell=gw)
            )
        )
    for piece in piece_order(view):
        info = criminals.get(piece)
        where = gw_know.where_words(piece, info, known, maybe)
        name = gw_know.who_is(piece)
        if piece == seat:
            name = _("%(piece)s (you)", piece=name)
        rows.append(
            Markup('<li data-piece="{}">{}<span><strong>{}</strong> {} {}</span></li>').format(
                piece,
                Markup(chip(looks.get(piece))),
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


def _suspects(snapshot: Mapping[str, Any], view: Mapping[str, Any], grid: Board) -> Markup:
    """GW's deduction: one large map per criminal with coordinates, its spaces on a tap."""
    cards = []
    maybe = deduction_of(view)
    looks = look_of(snapshot)
    mirror = side_of(snapshot) == "gw"
    gw_at = view.get("gw_position")
    for piece in piece_order(view):
        badge = Markup(chip(looks.get(piece)))
        name = gw_know.who_is(piece)
        weights = gw_know.weights_for(view, piece)
        jail = "jail" in maybe.get(piece, [])
        if not weights:
            if jail or piece in maybe:
                where = _("%(piece)s is in jail.", piece=name)
            else:
                where = _("%(piece)s is out of the game.", piece=name)
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
                '<li class="gw-suspect" data-piece="{}"><h4>{} {}</h4>{}'
                '<details class="gw-cells" data-key="gw-cells-{}"><summary>{}</summary>'
                "<p>{}</p></details></li>"
            ).format(
                piece,
                badge,
                name,
                gw_know.mini_map(
                    grid, name, weights, mirror, gw_at if isinstance(gw_at, str) else None
                ),
                piece,
                _("Where may %(piece)s be? %(count)s", piece=name, count=count),
                listed,
            )
        )
    return Markup('<h3>{}</h3><p class="hint">{}</p><ul class="gw-suspects">{}</ul>').format(
        _("Your deduction"),
        _(
            "One map per criminal: the darker a space, the likelier the criminal is there"
            " (the board's key says how likely). Tap a question to list the spaces."
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
                    who=_who(item.get("by")),
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
                    piece=_who(piece),
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
                    piece=_who(piece),
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
            piece=_who(caught),
        )
    if caught:
        return _("%(move)s and catches %(piece)s.", move=text, piece=_who(caught))
    if blocked:
        return _("%(move)s, is blocked and goes back to the start.", move=text)
    return _("%(move)s.", move=text)


def _informed(e: Mapping[str, Any]) -> str:
    if e.get("immune"):
        return _(
            "%(informer)s informs on %(target)s, who is immune to the Informer.",
            informer=_who(e.get("informer")),
            target=_who(e.get("target")),
        )
    return _(
        "%(informer)s informs on %(target)s: %(target)s is on %(cell)s.",
        informer=_who(e.get("informer")),
        target=_who(e.get("target")),
        cell=e.get("cell"),
    )


def _infiltrated(e: Mapping[str, Any]) -> str:
    seen = e.get("seen") or {}
    hidden = e.get("hidden") or []
    parts = (
        [_("%(piece)s on %(cell)s", piece=_who(p), cell=c) for p, c in seen.items()]
        if isinstance(seen, Mapping)
        else []
    )
    found = ", ".join(parts) or _("nobody seen")
    if hidden:
        return _(
            "GW looks at the criminals' side: %(seen)s; immune: %(immune)s.",
            seen=found,
            immune=", ".join(_who(h) for h in hidden),
        )
    return _("GW looks at the criminals' side: %(seen)s.", seen=found)


def _moved_with(e: Mapping[str, Any]) -> str:
    die = gw_know.face_word(e.get("die"))
    if e.get("from_jail"):
        return _("%(who)s moves with die %(die)s out of jail.", who=_who(e.get("by")), die=die)
    return _("%(who)s moves with die %(die)s.", who=_who(e.get("by")), die=die)


def _passed(e: Mapping[str, Any]) -> str:
    if e.get("reason") == "no legal move":
        return _("%(who)s has no legal move and passes.", who=_who(e.get("by")))
    reason = e.get("reason")
    if reason == "no die left: all five dice show GW":
        reason = _("no die left: all five dice show GW")
    return _("%(who)s passes (%(reason)s).", who=_who(e.get("by")), reason=reason)


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
        piece=_who(e.get("piece")),
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
        criminals=", ".join(_who(c) for c in e.get("criminals", [])),
        cell=e.get("gw_position"),
    ),
    "dealt": lambda e: _(
        "%(piece)s is dealt the %(cards)s.",
        piece=_who(e.get("piece")),
        cards=_cards(e.get("evidence")),
    ),
    "trumps_dealt": lambda e: _("GW holds the trumps %(cards)s.", cards=_cards(e.get("cards"))),
    "turn": lambda e: _("It is %(who)s's turn.", who=_who(e.get("seat"))),
    "reset": lambda e: ngettext(
        "%(who)s resets the dice; GW makes a special move of %(num)d step.",
        "%(who)s resets the dice; GW makes a special move of %(num)d steps.",
        int(e.get("gw_steps") or 0),
        who=_who(e.get("by")),
    ),
    "evidence_destroyed": lambda e: _(
        "%(who)s hands in the %(card)s from %(cell)s.",
        who=_who(e.get("by")),
        card=gw_know.card_name(e.get("card")),
        cell=e.get("cell"),
    ),
    "rolled": lambda e: _(
        "%(who)s rolls %(faces)s.", who=_who(e.get("by")), faces=_faces(e.get("faces"))
    ),
    "criminal_moved": _moved_with,
    "criminal_position": lambda e: _(
        "%(who)s is now on %(cell)s.", who=_who(e.get("by")), cell=e.get("to")
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
        "%(piece)s is out of the game; its evidence goes to GW.", piece=_who(e.get("piece"))
    ),
    "won": lambda e: _("%(winner)s wins!", winner=_who(e.get("winner"))),
}


class GwBrottUI(SeatUI):
    """GW:s brott's seat pages: the grid from either side, deduction maps, cards."""

    sides = {"criminals": _l("the criminals' side"), "gw": _l("GW's side")}
    covered = COVERED_PROMPTS
    bar_words = bar_words

    def board(self, snapshot: Mapping[str, Any]) -> Markup:
        """The board with what this seat may see, and its key (not a GW view: the
        generic drawing)."""
        view = snapshot.get("view")
        grid = board_of(view) if isinstance(view, Mapping) else None
        if not isinstance(view, Mapping) or grid is None:
            return super().board(snapshot)
        return Markup(board_svg.board_svg(snapshot, view, grid) + board_svg.legend(snapshot, view))

    def extras(self, snapshot: Mapping[str, Any]) -> Markup:
        """What this seat knows, in sentences and pictures: what it may do, cards, pieces."""
        view = snapshot.get("view")
        if not isinstance(view, Mapping):
            return Markup("")
        grid = board_of(view)
        seat = str(view.get("seat") or snapshot.get("seat") or "")
        sections = [_now(view), _own_cards(view, grid), _pieces_told(snapshot, view, seat)]
        if seat == "gw" and grid is not None:
            sections.append(_suspects(snapshot, view, grid))
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
            who=_who,
        )

    # -- names, colours and marks ---------------------------------------------------
    def seat_name(self, seat: str) -> str:
        """GW's seat is "GW"; a criminal is its piece's colour in words ("Red"/"Röd")."""
        return _who(seat)

    def seats_of(self, snapshot: Mapping[str, Any]) -> list[str]:
        view = snapshot.get("view")
        return ["gw", *piece_order(view)] if isinstance(view, Mapping) else ["gw"]

    def colour_slots(self) -> list[tuple[str, str, str]]:
        """GW's colour only: a criminal is the colour of its piece."""
        return [("gw", "GW", "navy")]

    def seat_colours(self, seats: Sequence[str], chosen: Mapping[str, Any]) -> dict[str, str]:
        found = {}
        spare = iter(k for k in SPARE if k not in seats)
        for seat in seats:
            if seat == "gw":
                # GW's own colour, unless a criminal's piece is that colour.
                wanted = str(chosen.get("gw") or "navy")
                found[seat] = "navy" if wanted in seats else wanted
            elif seat in PALETTE:
                found[seat] = seat
            else:
                found[seat] = next(spare, "black")
        return found

    def mark(self, seat: str) -> str:
        return "GW" if seat == "gw" else _who(seat)[:1].upper()

    def shape(self, seat: str) -> str:
        return "square" if seat == "gw" else "circle"

    # -- the action bar and the end ---------------------------------------------------
    def actor(self, event: Mapping[str, Any]) -> str | None:
        kind = event.get("type")
        if kind in ("gw_rolled", "gw_moved", "caught", "trump_played", "infiltrated"):
            return "gw"
        for key in ("by", "informer", "piece", "seat", "winner"):
            if isinstance(event.get(key), str):
                return str(event[key])
        return None

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
