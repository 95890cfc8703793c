"""The GW:s brott engine: the :class:`Engine` interface over the modules of this package."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar

from lawmaster.rules.core import Action, Engine, Event, IllegalAction, Outcome, visible_to

from . import criminal_turn, gw_turn
from .actions import CriminalAction, InformAction
from .deduction import Deduction
from .flow import check_fields
from .header import new_state
from .state import Draft, State
from .views import Summary, View, legal_actions, summary, to_act, view

Handler = Callable[[State, Action], tuple[Draft, list[Event]]]

_HANDLERS: dict[str, Handler] = {
    "reset": criminal_turn.reset,
    "destroy_evidence": criminal_turn.destroy_evidence,
    "roll": criminal_turn.roll,
    "move": criminal_turn.move,
    "pass": criminal_turn.pass_turn,
    "gw_roll": gw_turn.gw_roll,
    "gw_move": gw_turn.gw_move,
    "trump": gw_turn.trump,
    "inform": gw_turn.inform,
}

_GW_ACTS = frozenset({"gw_roll", "gw_move", "trump"})


def _deduce(deduction: Deduction, events: list[Event]) -> Deduction:
    """GW's deduction map after every event of ``events`` GW may see, in order."""
    for event in events:
        if visible_to(event, "gw"):
            deduction = deduction.update({k: v for k, v in event.items() if k != "visible_to"})
    return deduction


class GWEngine(Engine[State]):
    """GW:s brott: GW against 2-4 criminals, or one criminal with two pieces."""

    game: ClassVar[str] = "gw-brott"

    def new_game(self, header: Mapping[str, object]) -> Outcome[State]:
        if not isinstance(header, Mapping):
            raise IllegalAction("the header must be a JSON object")
        state, events = new_state(header)
        draft = Draft(state)
        draft.deduction = _deduce(state.deduction, events)
        return Outcome(draft.freeze(), events)

    def actor(self, action: Action) -> str | None:
        # GW's inputs carry no "by": GW is the only one who sends them.
        if isinstance(action, Mapping) and action.get("act") in _GW_ACTS:
            return "gw"
        return super().actor(action)

    def apply(self, state: State, action: Action) -> Outcome[State]:
        if not isinstance(action, Mapping):
            raise IllegalAction('an action must be a JSON object with an "act" field')
        act = check_fields(action)
        if state.winner is not None:
            raise IllegalAction(f"the game is over: {state.winner} won")
        draft, events = _HANDLERS[act](state, action)
        draft.deduction = _deduce(state.deduction, events)
        return Outcome(draft.freeze(), events)

    def view(self, state: State, seat: str) -> View:
        return view(state, seat)

    def summary(self, state: State) -> Summary:
        return summary(state)

    def seats(self, state: State) -> list[str]:
        return ["gw", *state.pieces]

    def to_act(self, state: State) -> list[str]:
        return to_act(state)

    def is_over(self, state: State) -> bool:
        return state.winner is not None

    def legal_actions(self, state: State) -> list[CriminalAction | InformAction] | None:
        return legal_actions(state)
