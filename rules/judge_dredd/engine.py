"""The Judge Dredd engine: dispatches each action to the phase that handles it."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping

from lawmaster.rules.core import Action, Engine, Event, IllegalAction, Outcome, field

from . import arrests, combat, moments, movement, play, refill, setup
from .actions import MoveAction
from .refill import after_setup
from .state import State, decks_run_out
from .views import Summary, View, summary, to_act, view

#: What handles one act: it changes the (copied) state and adds the events.
Handler = Callable[[State, Action, list[Event]], None]


def _place_judge(state: State, action: Action, events: list[Event]) -> None:
    setup.place_judge(state, action, events)
    after_setup(state, events)


def _move(state: State, action: Action, events: list[Event]) -> None:
    if state["pending"] or state["combat"]:
        raise IllegalAction("finish the card or combat in progress before moving")
    movement.move(state, action, events)


def _end_movement(state: State, action: Action, events: list[Event]) -> None:
    if state["pending"] or state["combat"]:
        raise IllegalAction("finish the card or combat in progress first")
    arrests.end_movement(state, events)


def _show(state: State, action: Action, events: list[Event]) -> None:
    setup.show_cards(state, field(action, "by", str), field(action, "cards", list), events)


def _refuse_while_busy(handler: Handler) -> Handler:
    def wrapped(state: State, action: Action, events: list[Event]) -> None:
        if state["pending"] or state["combat"]:
            raise IllegalAction("finish the card or combat in progress first")
        handler(state, action, events)

    return wrapped


ACTIONS: dict[str, Handler] = {
    "place_judge": _place_judge,
    "place_crime": refill.refill_place_crime,
    "move": _move,
    "end_movement": _end_movement,
    "play": play.play,
    "accept": play.accept,
    "arrest": arrests.declare,
    "next_arrest": arrests.go_on,
    "reveal_perp": arrests.reveal_pending_perp,
    "commit": combat.commit,
    "cool": combat.cool,
    "reveal": combat.reveal,
    "roll": combat.roll,
    "perp_escape": arrests.perp_escape,
    "discard_sector": refill.discard_sector,
    "recycle": _refuse_while_busy(refill.recycle),
    "draw": _refuse_while_busy(refill.draw),
    "internal_affairs": refill.internal_affairs,
    "psi_peek": play.psi_peek,
    "show": _show,
    "decline": moments.decline,
}


class DreddEngine(Engine[State]):
    """Judge Dredd: The Game of Crime-Fighting in Mega-City One."""

    game = "judge-dredd"

    def new_game(self, header: Mapping[str, object]) -> Outcome[State]:
        if not isinstance(header, Mapping):
            raise IllegalAction("the header must be an object")
        state, events = setup.new_game(header)
        after_setup(state, events)
        return Outcome(state, events)

    def apply(self, state: State, action: Action) -> Outcome[State]:
        if not isinstance(action, Mapping):
            raise IllegalAction('an action must be a JSON object with an "act" field')
        act = action.get("act")
        handler = ACTIONS.get(act) if isinstance(act, str) else None
        if handler is None:
            raise IllegalAction(f"unknown action {act!r}; see the Judge Dredd rules README")
        if state["phase"] == "over":
            raise IllegalAction("the game is over")
        new = copy.deepcopy(state)
        if not _is_robodoc(new, action):
            new["robodoc_window"] = []
        events: list[Event] = []
        # Handlers check every field they read and refuse with IllegalAction; anything else
        # escaping is a bug in the engine, and must fail loudly rather than pass as a refusal.
        handler(new, action, events)
        # A card discarded onto an empty deck's discard pile forms the new deck at once.
        decks_run_out(new, events)
        return Outcome(new, events)

    def view(self, state: State, seat: str) -> View:
        return view(state, seat)

    def summary(self, state: State) -> Summary:
        return summary(state)

    def seats(self, state: State) -> list[str]:
        return list(state["players"])

    def to_act(self, state: State) -> list[str]:
        return to_act(state)

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def legal_actions(self, state: State) -> list[MoveAction] | None:
        """In the movement phase, the mover's legal moves (one path per Sector); else None."""
        seat = movement.current_mover(state)
        if seat is None or state["pending"] or state["combat"]:
            return None
        return [
            {"act": "move", "by": seat, "path": path}
            for _, path in sorted(movement.reachable(state, seat).items())
        ]


def _is_robodoc(state: State, action: Action) -> bool:
    card = action.get("card")
    return (
        action.get("act") == "play"
        and isinstance(card, str)
        and card in state["cards"].actions
        and state["cards"].actions[card].kind == "robodoc"
        and action.get("option", "main") == "main"
    )


__all__ = ["DreddEngine"]
