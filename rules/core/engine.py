"""The interface every game engine offers, and the registry of engines by name."""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .actions import Action, Event
from .errors import IllegalAction

# Game name as the scenario header writes it → module that defines ``ENGINE``.
_ENGINES: dict[str, str] = {
    "gw-brott": "lawmaster.rules.gw_brott",
    "judge-dredd": "lawmaster.rules.judge_dredd",
    "unamerican-graffiti": "lawmaster.rules.unamerican_graffiti",
}


@dataclass(frozen=True)
class Outcome:
    """What applying one action produced: the new state and its events."""

    state: Any
    events: list[Event] = field(default_factory=list)


class Engine(ABC):
    """A game's rules, as pure functions over an opaque state.

    Engines adjudicate, they do not simulate: nothing here rolls a die or draws
    a card. Every method must leave the state it is given untouched, so a caller
    may keep the old state (for undo, or after :class:`IllegalAction`).
    """

    #: The name the scenario header uses, e.g. ``"gw-brott"``.
    game: ClassVar[str]

    @abstractmethod
    def new_game(self, header: Mapping[str, Any]) -> Outcome:
        """Set a game up from a scenario header (``{"game": ..., ...setup}``)."""

    @abstractmethod
    def apply(self, state: Any, action: Action) -> Outcome:
        """Apply one action or raise :class:`IllegalAction` with a player's reason."""

    @abstractmethod
    def view(self, state: Any, seat: str) -> dict[str, Any]:
        """Everything ``seat`` may know, and nothing more, as JSON-ready data."""

    @abstractmethod
    def summary(self, state: Any) -> dict[str, Any]:
        """The whole true state, in the shape the game's rules README gives."""

    @abstractmethod
    def seats(self, state: Any) -> list[str]:
        """Every seat of this game (players' seats; ``"table"`` is implied)."""

    @abstractmethod
    def to_act(self, state: Any) -> list[str]:
        """The seats whose input the game is waiting for now (empty when over)."""

    def is_over(self, state: Any) -> bool:
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

    def legal_actions(self, state: Any) -> list[dict[str, Any]] | None:
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
