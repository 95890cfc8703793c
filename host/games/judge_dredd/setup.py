"""Setting up Judge Dredd: the setup page's field, and the demo's game.

The Action cards each Judge starts with are dealt at the table and read by
NFC; the demo deals them from a seeded deck instead (:func:`dredd_header`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from lawmaster.host.plugin import Setup, SetupField
from lawmaster.rules.judge_dredd.cards import CardBook

from .decks import deal_hands


def _split(text: str) -> list[str]:
    return [part.strip() for part in text.replace(";", ",").split(",") if part.strip()]


def header_from_form(form: Mapping[str, str]) -> dict[str, Any]:
    """The players, clockwise, from the setup page."""
    players = _split(form.get("players", ""))
    return {"players": players} if players else {}


def dredd_header(players: Sequence[str], seed: int = 0, **extra: Any) -> dict[str, Any]:
    """A header with every opening hand dealt (and tapped) from the simulated table's
    seeded Action deck (:func:`~.decks.deal_hands`: Alert cards are never dealt)."""
    header: dict[str, Any] = {"game": "judge-dredd", "players": list(players), **extra}
    cards = CardBook.load(header.get("cards", "standard"))
    header["hands"] = deal_hands(players, seed, header.get("specialists"), cards)
    return header


def demo_header(seed: int) -> dict[str, Any]:
    """The demo's game: three Judges on a short Hotdog Run, hands dealt from the seed."""
    return dredd_header(["dredd", "anderson", "hershey"], seed, length="hotdog-run")


SETUP = Setup(
    fields=(SetupField("players", "Players, clockwise", placeholder="anna, ben, cleo"),),
    header=header_from_form,
    demo=demo_header,
)
