"""The interface every game engine offers, and looking engines up by game name."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .actions import Action, Event
from .errors import IllegalAction


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


#: Finds the engine a scenario header's ``"game"`` names, or raises :class:`IllegalAction`.
EngineLookup = Callable[[object], Engine]


def lookup(*engines: Engine) -> EngineLookup:
    """A lookup of exactly these engines by their game names.

    The host's registry of installed games (:mod:`lawmaster.host.games`) is the
    lookup a table uses; this one serves code that knows its engines already
    (a test, a benchmark).
    """
    by_name = {engine.game: engine for engine in engines}

    def find(game: object) -> Engine:
        if not isinstance(game, str) or game not in by_name:
            known = ", ".join(f'"{g}"' for g in by_name)
            raise IllegalAction(f"unknown game {game!r}; known games are {known}")
        return by_name[game]

    return find
