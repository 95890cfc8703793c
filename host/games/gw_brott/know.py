"""GW:s brott: "What you know" for one seat, in sentences and small pictures.

Everything here reads one seat's view and nothing else. Cards are named from the
card data files (the reconstruction in ``rules/gw_brott/data``), pieces by their
colour word with a letter badge (so they are told apart without colour), and
GW's deduction as one small shaded map per criminal.

The deduction shading goes through :func:`weights_for`, which reads the
probability GW's view gives each listed cell (``deduction_probability``);
:func:`shade` draws any mapping of cell to weight.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext
from markupsafe import Markup, escape

from lawmaster.host.ui.look import PALETTE, colour_name
from lawmaster.rules.gw_brott.board import Board
from lawmaster.rules.gw_brott.cards import card_data, criminal_cards


def N_(text: str) -> str:
    """Marks a word of the shipped card data for the catalogue (see ``CARD_WORDS``)."""
    return text


#: The shipped cards' printed words (``rules/gw_brott/data/cards.json``), for the
#: catalogue: a card is named through ``gettext`` and a name edited to match one's own
#: copy (the data file invites it) is shown as written.
CARD_WORDS = (
    N_("Sammy the Safecracker"),
    N_("emptied the bank vault"),
    N_("Polly Pickpocket"),
    N_("stole the mayor's wallet"),
    N_("Fred the Forger"),
    N_("printed false banknotes"),
    N_("Sally the Smuggler"),
    N_("smuggled jewels through the harbour"),
    N_("Bertil the Burglar"),
    N_("broke into the villa"),
    N_("Connie the Con Artist"),
    N_("sold the town hall twice"),
    N_("Arthur the Art Thief"),
    N_("took the museum's painting"),
    N_("Kitty the Cat Burglar"),
    N_("climbed in for the diamonds"),
    N_("Blue getaway car"),
    N_("Blue fingerprint"),
    N_("Blue bank bag"),
    N_("Blue crowbar"),
    N_("Blue ski mask"),
    N_("Red lipstick letter"),
    N_("Red torn glove"),
    N_("Red paint stain"),
    N_("Red matchbox"),
    N_("Red stolen ruby"),
    N_("Green banknote"),
    N_("Green footprint"),
    N_("Green bus ticket"),
    N_("Green dollar bill"),
    N_("Green cap"),
    N_("Yellow gold watch"),
    N_("Yellow raincoat"),
    N_("Yellow taxi receipt"),
    N_("Yellow key"),
    N_("White envelope"),
    N_("White shirt button"),
    N_("White chalk mark"),
    N_("White napkin"),
    N_("Helicopter"),
    N_("GW may move to any space on the board."),
    N_("Informer"),
    N_("GW chooses an informer, who reveals the space of another criminal of its choice."),
    N_("Breakthrough"),
    N_("GW may move 8 steps."),
    N_("Infiltrator"),
    N_("GW looks at the criminals' side of the board for 3 seconds."),
)


def face_word(face: object) -> str:
    """How a die face reads in a sentence: a number as it is, the arrow and GW in words."""
    if face == "arrow":
        return _("arrow")
    if face == "gw":
        return "GW"
    return str(face)


def _printed(text: object) -> str:
    """A word of the card data in the page's language (as printed when not catalogued)."""
    text = str(text or "")
    return _(text) if text else text


@lru_cache(maxsize=1)
def _cards() -> dict[str, dict[str, Any]]:
    data = card_data()
    found = {c["id"]: c for c in data["evidence"]}
    found.update({c["id"]: c for c in data["trumps"]})
    return found


def card_name(card: object) -> str:
    """A card's printed name (evidence or trump), or the card as given if unknown."""
    info = _cards().get(str(card))
    return _printed(info["name"]) if info else str(card).replace("-", " ")


def trump_text(card: object) -> str:
    """What a trump does, in the card data's words."""
    info = _cards().get(str(card))
    return _printed(info.get("text", "")) if info else ""


def card_colour(card: object) -> str | None:
    """An evidence card's colour word."""
    info = _cards().get(str(card))
    return str(info["colour"]) if info and "colour" in info else None


def handcuffs(count: int) -> str:
    """``"1 handcuff"``, ``"2 handcuffs"``, in the page's language."""
    return ngettext("%(num)d handcuff", "%(num)d handcuffs", count)


def where_words(piece: str, info: Any, known: Mapping[str, str], maybe: Mapping) -> str:
    """Where a piece is, as far as this view says (the piece's name goes before it)."""
    if isinstance(info, Mapping) and info.get("out"):
        return _("is out of the game.")
    if piece in known:
        where = known[piece]
        return _("is in jail.") if where == "jail" else _("is on %(cell)s.", cell=where)
    if isinstance(info, Mapping) and info.get("in_jail"):
        return _("is in jail.")
    if piece in maybe:
        cells = [c for c in maybe[piece] if c != "jail"]
        if not cells:
            return _("is in jail.")
        if "jail" in maybe[piece]:
            return ngettext(
                "may be on %(num)d space or in jail.",
                "may be on %(num)d spaces or in jail.",
                len(cells),
            )
        return ngettext("may be on %(num)d space.", "may be on %(num)d spaces.", len(cells))
    return _("is hidden somewhere on the board.")


def where_sentence(piece: str, info: Any, known: Mapping[str, str], maybe: Mapping) -> str:
    """Where a piece is, as far as this view says, as a sentence."""
    return _(
        "%(piece)s %(where)s", piece=who_is(piece), where=where_words(piece, info, known, maybe)
    )


def piece_facts(info: Any) -> str:
    """Handcuffs and evidence left, as a short sentence (public facts)."""
    if not isinstance(info, Mapping):
        return ""
    parts = []
    cuffs = info.get("handcuffs")
    if isinstance(cuffs, int):
        if cuffs == 0:
            parts.append(_("No handcuffs yet."))
        else:
            parts.append(ngettext("%(num)d handcuff of 3.", "%(num)d handcuffs of 3.", cuffs))
    left = info.get("evidence_left")
    if isinstance(left, int) and not info.get("out"):
        parts.append(
            ngettext(
                "%(num)d evidence card still to hand in.",
                "%(num)d evidence cards still to hand in.",
                left,
            )
        )
    return " ".join(parts)


def dice_words(dice: Any) -> str:
    """The five criminal dice as they lie, in words."""
    if not isinstance(dice, list) or not dice:
        return ""
    shown = ", ".join(face_word(d) for d in dice if d is not None)
    blank = sum(1 for d in dice if d is None)
    if not shown:
        return _("No criminal die is rolled.")
    if blank:
        return ngettext(
            "The criminal dice show %(faces)s; %(num)d die is not rolled yet.",
            "The criminal dice show %(faces)s; %(num)d dice are not rolled yet.",
            blank,
            faces=shown,
        )
    return _("The criminal dice show %(faces)s.", faces=shown)


def may_do(view: Mapping[str, Any]) -> list[str]:
    """What this seat may do now and why, one sentence each."""
    seat = str(view.get("seat"))
    if view.get("winner"):
        return [_("The game is over: %(winner)s won.", winner=who_is(view["winner"]))]
    asked = view.get("asked")
    waiting = [str(s) for s in view.get("to_act") or []]
    if not isinstance(asked, Mapping):
        if not waiting:
            return []
        who = _(" and ").join(who_is(s) for s in waiting)
        # The table screen is nobody's: it only says whose turn it is.
        if seat == "table":
            return [_("It is %(who)s's turn.", who=who)]
        return [_("Wait: it is %(who)s's turn now.", who=who)]
    act = asked.get("act")
    lines: list[str] = []
    if act == "gw_roll":
        bonus = asked.get("bonus") or 0
        if bonus:
            lines.append(
                _(
                    "Your turn: roll your die and move that many steps plus %(bonus)s for the"
                    " criminal dice showing GW.",
                    bonus=bonus,
                )
            )
        else:
            lines.append(_("Your turn: roll your die and move that many steps."))
        trumps = asked.get("or_trump") or []
        if trumps:
            names = ", ".join(card_name(t) for t in trumps)
            lines.append(_("Instead of rolling you may play one trump: %(cards)s.", cards=names))
    elif act == "gw_move":
        steps = int(asked.get("steps") or 0)
        lines.append(gw_move_words(str(asked.get("kind") or "normal"), steps, asked.get("exactly")))
        lines.append(_("You catch the first criminal you meet."))
    elif act == "roll":
        count = asked.get("dice_to_roll") or 0
        if asked.get("must_reset"):
            lines.append(
                _(
                    "All five dice show GW: you must reset them first"
                    " (GW then makes a special move)."
                )
            )
        elif count:
            lines.append(
                ngettext(
                    "Your turn: roll the %(num)d die not showing GW.",
                    "Your turn: roll the %(num)d dice not showing GW.",
                    count,
                )
            )
        if asked.get("may_reset") and not asked.get("must_reset"):
            lines.append(
                _("You may reset the dice first; GW then moves one step per die showing GW.")
            )
        for card in asked.get("may_destroy") or []:
            lines.append(
                _(
                    "You stand on the space of your %(card)s: you may hand it in before you roll.",
                    card=card_name(card),
                )
            )
    elif act == "move":
        lines.append(_("Choose one of the dice and move your piece that far."))
        if asked.get("may_reroll"):
            lines.append(
                ngettext(
                    "Or roll the %(num)d die not showing GW again.",
                    "Or roll the %(num)d dice not showing GW again.",
                    int(asked["may_reroll"]),
                )
            )
        if asked.get("may_pass"):
            lines.append(_("No die gives you a legal move, so you may pass."))
    elif act == "inform":
        lines.append(
            _("GW made you the informer: name another criminal, whose space is then shown to GW.")
        )
    if not lines and seat in waiting:
        lines.append(_("It is your turn."))
    return lines


def who_is(seat: object) -> str:
    """A seat as players name it: GW's seat is "GW"; a criminal named by a colour word is
    that colour in the page's language ("red" → "Red", "Röd"); any other name as typed,
    with a capital."""
    if seat == "gw":
        return "GW"
    if str(seat) in PALETTE:
        return colour_name(seat)
    text = str(seat)
    return text[:1].upper() + text[1:]


def gw_move_words(kind: str, steps: int, exactly: object) -> str:
    """GW's move as asked: its kind, and exactly or up to how many steps."""
    if kind == "special":
        if exactly:
            return ngettext(
                "Make your special move: exactly %(num)d step.",
                "Make your special move: exactly %(num)d steps.",
                steps,
            )
        return ngettext(
            "Make your special move: up to %(num)d step.",
            "Make your special move: up to %(num)d steps.",
            steps,
        )
    if kind == "extra":
        if exactly:
            return ngettext(
                "Make your extra move: exactly %(num)d step.",
                "Make your extra move: exactly %(num)d steps.",
                steps,
            )
        return ngettext(
            "Make your extra move: up to %(num)d step.",
            "Make your extra move: up to %(num)d steps.",
            steps,
        )
    if exactly:
        return ngettext(
            "Make your move: exactly %(num)d step.", "Make your move: exactly %(num)d steps.", steps
        )
    return ngettext(
        "Make your move: up to %(num)d step.", "Make your move: up to %(num)d steps.", steps
    )


def ink_on(fill: str) -> str:
    """Black or white text, whichever reads better on ``fill`` ("#rrggbb"), by the
    WCAG contrast ratio (on the board's mid red only pure black passes 4.5: 4.8)."""

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    luminance = 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
    on_white = 1.05 / (luminance + 0.05)
    on_black = (luminance + 0.05) / 0.05
    return "#fff" if on_white >= on_black else "#000"


def evidence_cards(cards: list[Any], board: Board | None, fills: Mapping[str, str]) -> Markup:
    """A seat's own evidence cards drawn as small cards: colour, name and its space."""
    items = []
    for card in cards:
        colour = card_colour(card) or "white"
        cell = ""
        if board is not None and str(card) in board.evidence:
            cell = _("Space %(cell)s", cell=board.name_of(board.evidence[str(card)]))
        fill = fills.get(colour, "#f4f4f4")
        items.append(
            Markup(
                '<li class="gw-card evidence" style="background:{};color:{}">'
                '<span class="gw-card-name">{}</span><span class="gw-card-where">{}</span></li>'
            ).format(fill, ink_on(fill), card_name(card), cell)
        )
    return Markup('<ul class="gw-cards">{}</ul>').format(Markup("").join(items))


def trump_cards(cards: list[Any]) -> Markup:
    """GW's trumps in hand, each with what it does."""
    items = [
        Markup(
            '<li class="gw-card trump"><span class="gw-card-name">{}</span>'
            '<span class="gw-card-text">{}</span></li>'
        ).format(card_name(card), trump_text(card))
        for card in cards
    ]
    return Markup('<ul class="gw-cards">{}</ul>').format(Markup("").join(items))


def criminal_card(card: Any, ability: Any) -> Markup:
    """The seat's criminal card: who you are, your crime, the trump you are immune to."""
    if isinstance(card, Mapping):
        immune = card.get("immune_to") or ability
        who = Markup(_("You are %(name)s, who %(crime)s.")) % {
            "name": Markup("<strong>{}</strong>").format(_printed(card.get("name"))),
            "crime": _printed(card.get("crime")),
        }
        return Markup('<p class="gw-who">{} {}</p>').format(
            who, _("You are immune to GW's %(card)s card.", card=card_name(immune))
        )
    if isinstance(ability, str) and ability:
        info = criminal_cards().get(ability)
        immune = info["immune_to"] if info else ability
        return Markup('<p class="gw-who">{}</p>').format(
            _("You are immune to GW's %(card)s card.", card=card_name(immune))
        )
    return Markup("")


def weights_for(view: Mapping[str, Any], piece: str) -> dict[str, float]:
    """Cell → weight of ``piece`` being there, for the shading.

    GW's view lists the places a piece may be on (``deduction``) and, beside
    them in the same order, how likely each is (``deduction_probability``,
    worked out from GW's events only). The cells with a positive probability
    are shaded by it. A view without those probabilities (or with a list that
    does not match) gives every listed cell an even share.
    """
    listed = (view.get("deduction") or {}).get(piece) or []
    cells = [str(c) for c in listed]
    shares = (view.get("deduction_probability") or {}).get(piece)
    if isinstance(shares, list) and len(shares) == len(cells):
        weights = {}
        for cell, share in zip(cells, shares, strict=True):
            if cell != "jail" and isinstance(share, int | float) and share > 0:
                weights[cell] = float(share)
        return weights
    board = [c for c in cells if c != "jail"]
    return {c: 1.0 / len(board) for c in board} if board else {}


def shade(weights: Mapping[str, float]) -> dict[str, float]:
    """Cell → fill opacity: the likeliest cell darkest, every possible cell visible."""
    top = max(weights.values(), default=0.0)
    if top <= 0:
        return {}
    return {cell: round(0.25 + 0.65 * w / top, 3) for cell, w in weights.items() if w > 0}


def mini_map(
    board: Board, name: str, weights: Mapping[str, float], mirror: bool, gw_at: str | None
) -> Markup:
    """One criminal's possible spaces as a map of the whole board, with its coordinates:
    each space shaded in the board key's greyscale steps (how likely), GW's space marked."""
    top = MARGIN_MINI
    width = top + board.width * MINI + 1
    height = top + board.height * MINI + 1
    parts = [
        f'<svg class="gw-mini" viewBox="0 0 {width} {height}" font-family="sans-serif" '
        f'font-weight="700" role="img" aria-label="{escape(_l_where(name, len(weights)))}" '
        f'xmlns="http://www.w3.org/2000/svg"><g stroke="#9e9a90" stroke-width="0.6">'
    ]
    for col in range(board.width):
        x = top + (board.width - 1 - col if mirror else col) * MINI + MINI / 2
        parts.append(
            f'<text x="{x}" y="{top - 4}" text-anchor="middle" font-size="{MINI_TEXT}" '
            f'fill="#333">{chr(65 + col)}</text>'
        )
    for row in range(board.height):
        parts.append(
            f'<text x="{top - 3}" y="{top + row * MINI + MINI / 2 + MINI_TEXT * 0.36:.1f}" '
            f'text-anchor="end" font-size="{MINI_TEXT}" fill="#333">{row + 1}</text>'
        )
    houses, jail = set(board.houses), set(board.jail_cells)
    for cell in range(board.size):
        col, row = board.xy(cell)
        if mirror:
            col = board.width - 1 - col
        cell_name = board.name_of(cell)
        x, y = top + col * MINI, top + row * MINI
        share = weights.get(cell_name)
        # A space's look is its class (the stylesheet's svg.gw-mini colours): when the
        # deduction moves, a live update changes a class, not a drawing.
        css = "mh" if cell in houses else "mj" if cell in jail else "ms"
        if share is not None and share > 0:
            css = f"mini-maybe l{level_of(share)}"
        parts.append(
            f'<rect class="{css}" data-cell="{cell_name}" x="{x}" y="{y}" width="{MINI}" '
            f'height="{MINI}"/>'
        )
        if cell_name == gw_at:
            parts.append(
                f'<rect class="mini-gw" x="{x + 2}" y="{y + 2}" width="{MINI - 4}" '
                f'height="{MINI - 4}" rx="2" fill="none" stroke="#0d47a1" stroke-width="2.5"/>'
            )
    parts.append("</g></svg>")
    return Markup("".join(parts))


#: The mini-maps' cell, margin and text, in SVG units (a map is the panel's width:
#: about 1.7 px per unit at 1024x768, so the coordinates are 16 px or more).
MINI = 20
MARGIN_MINI = 16
MINI_TEXT = 10
#: How likely a piece is on a space, in four steps a greyscale screen keeps apart (the
#: board's pills and the mini-maps' spaces): each step's lower bound, fill and ink.
LEVEL_BOUNDS = (0.0, 0.05, 0.2, 0.5)
LEVEL_FILLS = ("#ffffff", "#c8c8c8", "#7a7a7a", "#262626")
LEVEL_INKS = ("#1d1d1b", "#1d1d1b", "#ffffff", "#ffffff")


def level_of(share: float) -> int:
    """The step of :data:`LEVEL_BOUNDS` a probability falls in."""
    return max(i for i, bound in enumerate(LEVEL_BOUNDS) if share >= bound)


def level_words() -> list[str]:
    """What each step means, for the board's key."""
    return [_("under 5%"), _("5 to 20%"), _("20 to 50%"), _("at least 50%")]


def _l_where(piece: str, count: int) -> str:
    return ngettext(
        "Where %(piece)s may be: %(num)d space",
        "Where %(piece)s may be: %(num)d spaces",
        count,
        piece=piece,
    )
