"""Unamerican Graffiti in words: places, colours, what a seat may do, and the threat.

Everything reads one seat's view (and the public map it names). Places are named
as the rulebook names them (Power Tower, City Block 3, the Statue of Judgement);
a plain street hex has no name in the rulebook, so it is called after the
location next to it and the side it lies on ("the street west of Aggro Dome").
A colour is named after its player and its pen ("Chopper's red").
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext

from lawmaster.rules.unamerican_graffiti import Board

#: The pen colour words, in the order of :data:`unamerican_graffiti.PENS`.
PEN_WORDS = {
    "chopper": (_l("red"), _l("orange"), _l("pink"), _l("brown")),
    "phantom": (_l("blue"), _l("purple"), _l("teal"), _l("green")),
}
PLAYER_NAMES = {"chopper": "Chopper", "phantom": "Phantom"}
#: Axial step (pointy-top) from a location to the street beside it, in words: two
#: streets beside the same location always get different names.
_DIRECTION = {
    (1, 0): _l("the street east of %(place)s"),
    (-1, 0): _l("the street west of %(place)s"),
    (0, 1): _l("the street south-east of %(place)s"),
    (0, -1): _l("the street north-west of %(place)s"),
    (1, -1): _l("the street north-east of %(place)s"),
    (-1, 1): _l("the street south-west of %(place)s"),
}
#: Larger locations first when a street is named after its neighbour.
_RANK = {"statue": 0, "sector-house": 1, "landmark": 2, "city-block": 3, "street": 9}


def player_name(player: object) -> str:
    """``"chopper"`` → ``"Chopper"``."""
    return PLAYER_NAMES.get(str(player), str(player).capitalize())


def colour_name(colour: object) -> str:
    """A scrawler colour such as ``"chopper-1"`` as words: ``"Chopper's red"``."""
    player, _sep, number = str(colour).rpartition("-")
    words = PEN_WORDS.get(player)
    if words is None or not number.isdigit():
        return str(colour)
    pen = words[(int(number) - 1) % len(words)]
    return _("%(player)s's %(pen)s", player=player_name(player), pen=str(pen))


def place(grid: Board | None, hex_id: object) -> str:
    """A hex as the players call it."""
    if grid is None or not isinstance(hex_id, str) or hex_id not in grid.hexes:
        return str(hex_id)
    h = grid.hexes[hex_id]
    if h.is_location:
        return h.name if h.kind != "statue" else _("the Statue of Judgement")
    if hex_id in grid.gates:
        first, second = (place(grid, house) for house in grid.gates[hex_id])
        return _("the street between %(first)s and %(second)s", first=first, second=second)
    near = sorted(
        (grid.hexes[n] for n in grid.neighbours.get(hex_id, ()) if grid.hexes[n].is_location),
        key=lambda n: (_RANK.get(n.kind, 9), n.name),
    )
    if not near:
        return _("a street")
    step = (h.q - near[0].q, h.r - near[0].r)
    beside = place(grid, near[0].id)
    if step in _DIRECTION:
        return str(_DIRECTION[step]) % {"place": beside}
    return _("the street by %(place)s", place=beside)


def judge_name(number: object) -> str:
    """Judge 1 is Judge Dredd (the rulebook's marked counter)."""
    return "Judge Dredd" if str(number) == "1" else _("Judge %(number)s", number=number)


def odds(chance: float, hexes: int) -> tuple[int, int] | None:
    """The exact share of the opponent's rolls that arrest: hits of 6**hexes.

    The view rounds the chance to four places; with at most three dice (216 rolls) that
    rounding is far below one roll, so the count of rolls is exact.
    """
    if hexes <= 0:
        return None
    total = 6**hexes
    hits = round(chance * total)
    if abs(hits / total - chance) > 1e-3:
        return None  # not a count of fair-dice rolls: show the percentage alone
    return hits, total


def chance_words(chance: float, hexes: int) -> str:
    """``"17% (36 of 216 rolls)"``, or ``"safe"`` for a move no roll can punish."""
    if chance <= 0:
        return _("safe: no roll lets a Judge reach you")
    share = odds(chance, hexes)
    pct = f"{100 * chance:.0f}%"
    if share is None:
        return _("%(pct)s chance of arrest", pct=pct)
    fraction = Fraction(*share)
    if fraction.denominator != share[1]:
        return _(
            "%(pct)s chance of arrest (%(hits)s of %(rolls)s rolls, %(num)s in %(den)s)",
            pct=pct,
            hits=share[0],
            rolls=share[1],
            num=fraction.numerator,
            den=fraction.denominator,
        )
    return _(
        "%(pct)s chance of arrest (%(hits)s of %(rolls)s rolls)",
        pct=pct,
        hits=share[0],
        rolls=share[1],
    )


def may_do(view: Mapping[str, Any], grid: Board | None) -> list[str]:
    """What this seat may do now and why, as sentences."""
    seat = str(view.get("seat"))
    winner = view.get("winner")
    phase = view.get("phase")
    if phase == "over" or winner:
        if winner == "draw":
            return [_("The game is over: a draw.")]
        return [_("The game is over: %(who)s wins.", who=player_name(winner))]
    acting = [str(s) for s in view.get("to_act") or []]
    turn = str(view.get("turn"))
    if seat not in acting:
        if not acting:
            return []
        who = player_name(acting[0])
        doing = {
            "move": _("%(who)s is to move their scrawler.", who=who),
            "reenter": _("%(who)s is to place a new scrawler on a free landmark.", who=who),
            "roll": _("%(who)s is to roll for the Judges.", who=who),
            "judges": _("%(who)s is to move the Judges the dice named.", who=who),
        }.get(str(phase), _("%(who)s is to play.", who=who))
        return [doing if seat == "table" else _("Wait: %(doing)s", doing=doing)]
    if phase == "move":
        lines = [
            _(
                "Your turn: move your scrawler up to three hexes. A clean location stops you"
                " and you scrawl there."
            )
        ]
        if view.get("threat"):
            lines.append(
                _(
                    "The grey shading on the map shows how likely the Judges are to arrest you"
                    " where you end (the darker, the likelier); each place's choice gives its"
                    " figure."
                )
            )
        return lines
    if phase == "reenter":
        return [
            _(
                "You were arrested: place a new scrawler, in a new colour, on a landmark"
                " nobody has defaced yet."
            )
        ]
    if phase == "roll":
        return [
            _(
                "Roll one die per hex %(who)s moved; each die names the Judge who moves.",
                who=player_name(turn),
            )
        ]
    if phase == "judges":
        dice = ", ".join(judge_name(d) for d in view.get("dice") or [])
        allowance = int(view.get("allowance") or 0)
        return [
            ngettext(
                "Move the Judges the dice named (%(dice)s), each up to %(num)d hex per die.",
                "Move the Judges the dice named (%(dice)s), each up to %(num)d hexes per die.",
                allowance,
                dice=dice,
            )
        ]
    return [_("It is your turn.")]
