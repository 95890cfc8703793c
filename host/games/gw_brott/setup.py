"""Setting up GW:s brott: the setup page's fields, dealing, and the demo's game.

A GW:s brott header needs the evidence cards dealt to each piece, each piece's
criminal card (its immunity) and GW's three trumps. At a real table they come
from the shuffled cards and are typed in (or read by NFC); when the setup page
is asked to deal, it deals here, with the operating system's randomness, by the
rulebook: one evidence card of each colour per criminal (two of each colour for
the two-player criminal), one criminal card each, three of the four trumps.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping
from typing import Any

from lawmaster.host.plugin import Setup, SetupField
from lawmaster.rules.core import IllegalAction
from lawmaster.rules.gw_brott.board import COLOURS, Board
from lawmaster.rules.gw_brott.cards import criminal_cards, trump_names

_SYSTEM = secrets.SystemRandom()

#: The demo's game: two criminals against GW, cards dealt as a table might.
DEMO_HEADER: dict[str, Any] = {
    "game": "gw-brott",
    "board": "standard",
    "criminals": ["red", "green"],
    "abilities": {"red": "helicopter", "green": "informer"},
    "evidence": {
        "red": ["blue-1", "red-1", "green-1", "yellow-1", "white-1"],
        "green": ["blue-2", "red-2", "green-2", "yellow-2", "white-2"],
    },
    "trumps": ["helicopter", "informer", "breakthrough"],
}


def _split(text: str) -> list[str]:
    return [part.strip() for part in text.replace(";", ",").split(",") if part.strip()]


def header_from_form(form: Mapping[str, str]) -> dict[str, Any]:
    """The game's part of a header from its setup fields (``shown``: they were on the page)."""
    header: dict[str, Any] = {}
    if form.get("board"):
        header["board"] = form["board"]
    if form.get("criminals"):
        header["criminals"] = _split(form["criminals"])
    if form.get("two_player"):
        header["two_player"] = True
    options: dict[str, Any] = {}
    if form.get("gw_steps"):
        options["gw_steps"] = form["gw_steps"]
    if "special_move_catches" in form or form.get("shown"):
        # An unticked box is not sent at all: the fields being shown says it was unticked.
        options["special_move_catches"] = bool(form.get("special_move_catches"))
    if options:
        header["options"] = options
    return header


def demo_header(seed: int) -> dict[str, Any]:
    """The demo's game (the same whatever the seed: the dice differ)."""
    return dict(DEMO_HEADER)


def deal_gw(header: Mapping[str, Any], rng: random.Random | None = None) -> dict[str, Any]:
    """``header`` with ``evidence``, ``abilities`` and ``trumps`` dealt where missing."""
    rng = rng or _SYSTEM
    dealt = dict(header)
    pieces = header.get("criminals")
    if not isinstance(pieces, list) or not pieces or not all(isinstance(p, str) for p in pieces):
        raise IllegalAction("name the criminal pieces before dealing")
    board = Board.load(header.get("board", "standard"))
    two_player = header.get("two_player") is True
    if "evidence" not in dealt:
        dealt["evidence"] = _evidence(board, pieces, two_player, rng)
    if not two_player:
        if "abilities" not in dealt:
            cards = rng.sample(sorted(criminal_cards()), len(pieces))
            dealt["abilities"] = dict(zip(pieces, cards, strict=True))
        if "trumps" not in dealt:
            dealt["trumps"] = rng.sample(sorted(trump_names()), 3)
    return dealt


def _evidence(
    board: Board, pieces: list[str], two_player: bool, rng: random.Random
) -> dict[str, list[str]]:
    by_colour = {c: sorted(k for k in board.evidence if board.colour_of(k) == c) for c in COLOURS}
    per_colour = 2 if two_player else len(pieces)
    for colour, cards in by_colour.items():
        if len(cards) < per_colour:
            raise IllegalAction(f"the board has too few {colour} evidence cards to deal")
        rng.shuffle(cards)
    hands: dict[str, list[str]] = {p: [] for p in pieces}
    if two_player:
        # Two of each colour for the one criminal, five with each of its two pieces.
        pool = [card for colour in COLOURS for card in by_colour[colour][:2]]
        for i, card in enumerate(pool):
            hands[pieces[i % 2]].append(card)
        return hands
    for colour in COLOURS:
        for piece, card in zip(pieces, by_colour[colour], strict=False):
            hands[piece].append(card)
    return hands


SETUP = Setup(
    fields=(
        SetupField(
            "criminals",
            "Criminal pieces, in turn order",
            default="red, green",
            placeholder="red, green, yellow",
        ),
        SetupField("board", "Board", default="standard"),
        SetupField("two_player", "Two players (one criminal with two pieces)", "checkbox"),
        SetupField(
            "gw_steps",
            "GW moves",
            "select",
            default="up_to",
            choices=(("up_to", "up to the steps rolled"), ("exactly", "exactly the steps rolled")),
        ),
        SetupField(
            "special_move_catches", "GW's special move catches criminals", "checkbox", default="1"
        ),
    ),
    header=header_from_form,
    deal=deal_gw,
    deals="the evidence cards, the criminal cards and GW's trumps",
    demo=demo_header,
)
