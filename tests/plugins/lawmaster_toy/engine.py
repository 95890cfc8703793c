"""The race's rules: two lanes of four cells, one piece each, one step a turn.

The board is two lanes, ``a1``-``a4`` and ``b1``-``b4``. Red starts on ``a1``
and blue on ``b1``. On its turn a player moves its piece one cell up, down, left
or right onto an empty cell (the one rule); the first piece to reach column 4
wins. Nothing is hidden, no die is rolled.

Header: ``{"game": "toy"}``, optionally ``"first": "red" | "blue"`` (red by
default). Action: ``{"act": "move", "by": "red", "to": "a2"}``. Summary:
``{"positions": {"red": "a1", "blue": "b1"}, "turn": "red", "moves": 0,
"winner": null}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from lawmaster.rules.core import (
    Action,
    Engine,
    IllegalAction,
    Outcome,
    field,
    public,
)

SLUG = "toy"
PLAYERS = ("red", "blue")
LANES = ("a", "b")
LENGTH = 4
CELLS = tuple(f"{lane}{column}" for lane in LANES for column in range(1, LENGTH + 1))
START = {"red": "a1", "blue": "b1"}


def neighbours(cell: str) -> list[str]:
    """The cells one step up, down, left or right of ``cell``."""
    lane, column = cell[0], int(cell[1:])
    near = [f"{lane}{column - 1}", f"{lane}{column + 1}"]
    near += [f"{other}{column}" for other in LANES if other != lane]
    return [c for c in near if c in CELLS]


def other(player: str) -> str:
    return PLAYERS[1] if player == PLAYERS[0] else PLAYERS[0]


@dataclass(frozen=True)
class State:
    """Where each piece stands, whose turn it is, and who won (never changed in place)."""

    positions: tuple[tuple[str, str], ...]
    turn: str
    moves: int = 0
    winner: str | None = None

    def where(self, player: str) -> str:
        return dict(self.positions)[player]

    def occupant(self, cell: str) -> str | None:
        return next((p for p, c in self.positions if c == cell), None)


class RaceEngine(Engine):
    """The referee of one race (see the module docstring)."""

    game = SLUG

    def new_game(self, header: Mapping[str, Any]) -> Outcome:
        first = header.get("first", PLAYERS[0])
        if first not in PLAYERS:
            raise IllegalAction("'first' is red or blue")
        state = State(tuple(START.items()), first)
        return Outcome(state, [public("setup", positions=dict(START), first=first)])

    def apply(self, state: State, action: Action) -> Outcome:
        act = action.get("act")
        if act != "move":
            raise IllegalAction(f"'{act}' is not an action of this game; the only one is 'move'")
        if state.winner is not None:
            raise IllegalAction(f"the game is over: {state.winner} won")
        by = field(action, "by", str)
        if by not in PLAYERS:
            raise IllegalAction(f"there is no player {by!r}; the players are red and blue")
        if by != state.turn:
            raise IllegalAction(f"it is {state.turn}'s turn, not {by}'s")
        to = field(action, "to", str)
        if to not in CELLS:
            raise IllegalAction(f"{to!r} is not a cell; the cells are a1 to a4 and b1 to b4")
        here = state.where(by)
        if to == here:
            raise IllegalAction(f"your piece is already on {to}: a move goes one cell on")
        if to not in neighbours(here):
            raise IllegalAction(f"a piece moves one cell at a time, and {to} is not next to {here}")
        if state.occupant(to) is not None:
            raise IllegalAction(f"{to} is taken by {state.occupant(to)}'s piece")
        positions = tuple((p, to if p == by else c) for p, c in state.positions)
        events = [public("moved", by=by, **{"from": here}, to=to)]
        winner = by if int(to[1:]) == LENGTH else None
        if winner is not None:
            events.append(public("won", winner=winner))
        after = replace(
            state, positions=positions, turn=other(by), moves=state.moves + 1, winner=winner
        )
        return Outcome(after, events)

    def legal_actions(self, state: State) -> list[dict[str, Any]]:
        if state.winner is not None:
            return []
        here = state.where(state.turn)
        return [
            {"act": "move", "by": state.turn, "to": to}
            for to in neighbours(here)
            if state.occupant(to) is None
        ]

    def view(self, state: State, seat: str) -> dict[str, Any]:
        # Nothing is hidden: every seat (and the table screen) sees the whole race.
        view: dict[str, Any] = {
            "seat": seat,
            "lanes": [[f"{lane}{c}" for c in range(1, LENGTH + 1)] for lane in LANES],
            "positions": dict(state.positions),
            "turn": state.turn,
            "to_act": self.to_act(state),
            "winner": state.winner,
        }
        if seat in self.to_act(state):
            view["legal_moves"] = self.legal_actions(state)
        return view

    def summary(self, state: State) -> dict[str, Any]:
        return {
            "positions": dict(state.positions),
            "turn": state.turn,
            "moves": state.moves,
            "winner": state.winner,
        }

    def seats(self, state: State) -> list[str]:
        return list(PLAYERS)

    def to_act(self, state: State) -> list[str]:
        return [] if state.winner is not None else [state.turn]


ENGINE = RaceEngine()
