"""The interface every game engine offers, and looking engines up by game name."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Generic

from typing_extensions import TypeVar

from .actions import Action, Event
from .errors import IllegalAction

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
