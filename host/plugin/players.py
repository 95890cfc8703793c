"""Simulated players: what the demo's people decide, through the seats' own pages.

A game's :class:`Players` decide the next input of whichever seat the game
waits for, the way a person at the table would: from that seat's own snapshot
(its view and prompts, exactly what its tablet shows) through a
:class:`SeatPort`, the same public seat interface a tablet uses. What a person
then *does* physically (lifts a piece, lays a card on a reader) is in the
:class:`Intent`; the simulated table carries it out.

Every choice is drawn from a generator seeded with the players' seed, the game
and the input number, so the same seed plays the same game, and a game resumed
after a crash goes on exactly as it would have.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True)
class Intent:
    """One input a simulated person makes.

    ``action`` is the full rules action. ``said`` is what the tablet is told
    when the board supplies the rest (e.g. the die of a criminal move, whose
    destination the board shows); ``move`` is the physical move of a magnet
    ``(piece, from, to, path)`` for the simulated hands, ``None`` when the input
    is tablet-only. ``notes`` carries the rest of what the hands do: ``taps``
    (cards laid on readers, with the reader's seat), ``take_off`` (a piece
    lifted off the board first).
    """

    seat: str
    action: dict[str, Any]
    said: dict[str, Any] | None = None
    move: tuple[str, str, str, tuple[str, ...]] | None = None
    notes: dict[str, Any] = field(default_factory=dict)


class SeatPort(Protocol):
    """The public seat interface: what a tablet can read and send, for any seat."""

    def snapshot(self, seat: str) -> dict[str, Any]:
        """The seat's page: its view, prompts, log and status."""
        ...

    def submit(self, seat: str, action: Any) -> dict[str, Any]:
        """Send an input from the seat's tablet."""
        ...

    def refusal(self, seat: str, action: Mapping[str, Any]) -> str | None:
        """What the seat would read if it sent ``action`` now (``None``: it would be taken)."""
        ...

    def seats(self) -> list[str]:
        """The players' seats."""
        ...

    def to_act(self) -> list[str]:
        """The seats the game waits for now (public: every tablet shows whose turn it is)."""
        ...

    def is_over(self) -> bool: ...

    @property
    def game_key(self) -> str:
        """What makes this game and input number unique (seeds each decision)."""
        ...


class Players(Protocol):
    """A game's simulated players (see the module docstring)."""

    def decide(self) -> Intent | None:
        """The next input, or ``None`` when the game is over or waits for nobody."""
        ...


def decision_rng(seed: int, seats: SeatPort) -> random.Random:
    """The random source of one decision: seeded by the seed, the game and the input."""
    return random.Random(f"{seed}:{seats.game_key}")


def waiting_seats(seats: SeatPort, seed: int) -> tuple[list[str], random.Random] | None:
    """The seats the table waits for and the decision's random source (``None``:
    the game is over or waits for nobody, so there is nothing to decide)."""
    if seats.is_over():
        return None
    waiting = seats.to_act()
    if not waiting:
        return None
    return waiting, decision_rng(seed, seats)


def next_turn(
    seats: SeatPort, seed: int
) -> tuple[str, random.Random, dict[str, Any]] | None:
    """The first seat the table waits for, its random source and its own snapshot."""
    turn = waiting_seats(seats, seed)
    if turn is None:
        return None
    waiting, rng = turn
    return waiting[0], rng, seats.snapshot(waiting[0])
