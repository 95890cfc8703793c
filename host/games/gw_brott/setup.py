"""Dealing the cards a setup form leaves out, for tables that deal on the tablet.

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

from lawmaster.rules.core import IllegalAction
from lawmaster.rules.gw_brott.board import COLOURS, Board
from lawmaster.rules.gw_brott.cards import criminal_cards, trump_names

_SYSTEM = secrets.SystemRandom()


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
