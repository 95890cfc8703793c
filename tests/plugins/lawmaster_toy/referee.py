"""The referee's reading of the race: a piece lifted and put down is a move.

Red's piece carries a magnet north pole down and blue's south pole down (see
``maps/toy-standard.json``), so one sensor under each cell tells them apart.
The piece whose turn it is may move; the tracker reports where it came to rest,
and that is the move. A move the rules refuse leaves a piece to put back, which
the status says until it stands where the game has it (or makes a legal move).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lawmaster.host.plugin import (
    Action,
    Decision,
    GameRules,
    Play,
    Prompt,
    RulesContext,
    Status,
    prompt,
)
from lawmaster.host.tracker import Expectation

from .engine import PLAYERS, State


class RaceRules(GameRules):
    """Board readings, the put-back notes, and the prompt of the player to move."""

    def __init__(self, context: RulesContext) -> None:
        super().__init__(context)
        #: What must be put right on the board, by piece: why, then what to do.
        self.problems: dict[str, str] = {}

    # -- the tablets -------------------------------------------------------------
    def prompts(self, seat: str, state: Any, view: Mapping[str, Any]) -> list[Prompt]:
        if seat not in PLAYERS or view.get("to_act") != [seat]:
            return []
        here = (view.get("positions") or {}).get(seat)
        options = [
            {"to": move["to"], "label": f"Move to {move['to']}"}
            for move in view.get("legal_moves") or []
        ]
        where = "lift your piece and put it down on the board, or choose here"
        return [
            prompt(
                "choose_cell",
                {"act": "move", "by": seat},
                options=options,
                message=f"Your turn: move your piece from {here} one cell on ({where})"
                if self.context.board_on
                else f"Your turn: move your piece from {here} one cell on",
            )
        ]

    # -- the board ---------------------------------------------------------------
    def expectation(self, state: State) -> Expectation | None:
        if not self.context.board_on:
            return None
        movers = frozenset() if state.winner is not None else frozenset({state.turn})
        return Expectation(
            kinds={p: p for p in PLAYERS},
            positions=dict(state.positions),
            movers=movers,
            turn=state.turn,
        )

    def observe(self, observation: Any, state: State, now: float) -> Decision:
        kind = getattr(observation, "TYPE", "")
        if kind == "moved":
            action = {"act": "move", "by": observation.piece, "to": observation.to}
            return Play.one(action, observation.piece, about=observation)
        if kind == "anomaly":
            self.problems[observation.piece or f"?{observation.found}"] = observation.text
        elif kind == "restored":
            self.problems.pop(observation.piece or f"?{observation.at}", None)
        return None

    def refused(self, play: Play, action: Action, reason: str, state: State) -> Status | None:
        piece = str(action.get("by"))
        self.problems[piece] = f"{reason}: put {piece}'s piece back on {state.where(piece)}"
        return None

    def board_status(self, state: Any) -> Status | None:
        if self.problems:
            return Status("illegal", "; ".join(self.problems.values()))
        return None

    def accepted(self, accepted: Any, state: Any) -> None:
        self.problems.clear()

    def undone(self, state: Any) -> None:
        self.problems.clear()
