"""The interface every game engine offers, and the registry of engines by name."""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Generic

from typing_extensions import TypeVar

from .actions import Action, Event
from .errors import IllegalAction

# Game name as the scenario header writes it → module that defines ``ENGINE``.
_ENGINES: dict[str, str] = {
    "gw-brott": "lawmaster.rules.gw_brott",
    "judge-dredd": "lawmaster.rules.judge_dredd",
    "unamerican-graffiti": "lawmaster.rules.unamerican_graffiti",
}


#: An engine's state type. A caller that does not know the game (the replay, the
#: table) holds a bare ``Engine``, that is ``Engine[object]``: it passes back the
#: states the same engine gave it and never looks inside them.
S = TypeVar("S", default=object)


@dataclass(frozen=True)
class Outcome(Generic[S]):
    """What applying one action produced: the new state and its events."""

    state: S
    events: list[Event] = field(default_factory=list)


class Engine(ABC, Generic[S]):
    """A game's rules, as pure functions over a state only the engine reads.

    Engines adjudicate, they do not simulate: nothing here rolls a die or draws
    a card. Every method must leave the state it is given untouched, so a caller
    may keep the old state (for undo, or after :class:`IllegalAction`).

    Each game narrows the return types: its view and summary are TypedDicts of
    its own, its legal actions TypedDicts of its action vocabulary.
    """

    #: The name the scenario header uses, e.g. ``"gw-brott"``.
    game: ClassVar[str]

    @abstractmethod
    def new_game(self, header: Mapping[str, object]) -> Outcome[S]:
        """Set a game up from a scenario header (``{"game": ..., ...setup}``)."""

    @abstractmethod
    def apply(self, state: S, action: Action) -> Outcome[S]:
        """Apply one action or raise :class:`IllegalAction` with a player's reason.

        Only input the rules refuse raises :class:`IllegalAction`; any other
        exception is a bug in the engine and must reach the caller as it is.
        """

    @abstractmethod
    def view(self, state: S, seat: str) -> Mapping[str, object]:
        """Everything ``seat`` may know, and nothing more, as JSON-ready data."""

    @abstractmethod
    def summary(self, state: S) -> Mapping[str, object]:
        """The whole true state, in the shape the game's rules README gives."""

    @abstractmethod
    def seats(self, state: S) -> list[str]:
        """Every seat of this game (players' seats; ``"table"`` is implied)."""

    @abstractmethod
    def to_act(self, state: S) -> list[str]:
        """The seats whose input the game is waiting for now (empty when over)."""

    def is_over(self, state: S) -> bool:
        """Whether the game has ended."""
        return self.summary(state).get("winner") is not None

    def actor(self, action: Action) -> str | None:
        """The seat that sends ``action``, or ``None`` for an input of the whole table.

        A refusal is told in full to this seat only (see
        :func:`~lawmaster.rules.core.refusals.refusal_for`). Most actions name
        it in ``"by"``; an engine whose actions do not overrides this.
        """
        by = action.get("by") if isinstance(action, Mapping) else None
        return by if isinstance(by, str) else None

    def legal_actions(self, state: S) -> Sequence[Action] | None:
        """Every legal action now, where that set is finite and small; else ``None``."""
        return None


def engine_names() -> list[str]:
    """The game names engines are registered under."""
    return list(_ENGINES)


def engine_for(game: object) -> Engine:
    """The engine for a game name, or :class:`IllegalAction` if there is none."""
    if not isinstance(game, str) or game not in _ENGINES:
        known = ", ".join(f'"{g}"' for g in _ENGINES)
        raise IllegalAction(f"unknown game {game!r}; known games are {known}")
    module = importlib.import_module(_ENGINES[game])
    engine = getattr(module, "ENGINE", None)
    if not isinstance(engine, Engine):
        raise IllegalAction(f"the game {game!r} is not available yet")
    return engine
