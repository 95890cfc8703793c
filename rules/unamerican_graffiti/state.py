"""Immutable game state for Unamerican Graffiti."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypedDict, Unpack

from .board import Board

PLAYERS = ("chopper", "phantom")

#: Turn phases, in order: a returning scrawler re-enters, the scrawler moves,
#: the opponent rolls, the opponent resolves each die by moving a Judge.
PHASES = ("reenter", "move", "roll", "judges", "over")


def opponent(player: str) -> str:
    """The other player."""
    return PLAYERS[1] if player == PLAYERS[0] else PLAYERS[0]


@dataclass(frozen=True)
class Options:
    """Readings of the rulebook where two are plausible (see the rules README).

    ``gate``: ``"into"`` (default) bars a scrawler from entering the hex between
    two Sector Houses while either holds a Judge; ``"through"`` only from passing
    through it. ``game_end``: ``"out"`` (default) ends the game when both
    scrawlers are arrested with no landmark left to return on; ``"at_once"``
    ends it as soon as both stand arrested at the same time. ``self_arrest``:
    ``"refuse"`` (default) bars the player moving the Judges from arresting
    his own pawn; ``"allow"`` lets a Judge arrest any scrawler he reaches.
    """

    gate: str = "into"
    game_end: str = "out"
    self_arrest: str = "refuse"


@dataclass(frozen=True)
class Colour:
    """One scrawler's colour: a scrawler run by a player, scored on its own."""

    id: str
    player: str
    prestige: int
    arrested: bool = False
    final: int | None = None


@dataclass(frozen=True)
class Scrawler:
    """A player's pawn. ``position`` is ``None`` while arrested."""

    player: str
    colour: str
    position: str | None
    out: bool = False


class ScrawlerSummary(TypedDict):
    """A pawn in the summary."""

    position: str | None
    colour: str
    arrested: bool
    out: bool


class ColourSummary(TypedDict):
    """A colour in the summary: its prestige, and its final score once scored."""

    player: str
    prestige: int
    arrested: bool
    final: int | None


class Summary(TypedDict):
    """The whole true state, in the shape of the rules README's summary."""

    turn: str
    phase: str
    scrawlers: dict[str, ScrawlerSummary]
    judges: dict[str, str]
    cleaning: list[int]
    scrawls: dict[str, str]
    colours: dict[str, ColourSummary]
    defaced_landmarks: list[str]
    dice: list[int]
    allowance: int
    winner: str | None


class StateChanges(TypedDict, total=False):
    """The fields :meth:`State.evolve` may replace, each with its own type."""

    board: Board
    options: Options
    judges: Mapping[int, str]
    cleaning: frozenset[int]
    scrawls: Mapping[str, str]
    defaced: frozenset[str]
    colours: Mapping[str, Colour]
    scrawlers: Mapping[str, Scrawler]
    turn: str
    phase: str
    moved: int
    scrawled: str | None
    dice: tuple[int, ...]
    allowance: int
    arrested_now: tuple[str, ...]
    statue_reached: bool
    winner: str | None


@dataclass(frozen=True)
class State:
    """Everything about a game in progress; never mutated, always replaced."""

    board: Board
    options: Options
    judges: Mapping[int, str]
    cleaning: frozenset[int]
    scrawls: Mapping[str, str]
    defaced: frozenset[str]
    colours: Mapping[str, Colour]
    scrawlers: Mapping[str, Scrawler]
    turn: str
    phase: str
    moved: int = 0
    scrawled: str | None = None
    dice: tuple[int, ...] = ()
    allowance: int = 1
    arrested_now: tuple[str, ...] = ()
    statue_reached: bool = False
    winner: str | None = None

    def evolve(self, **changes: Unpack[StateChanges]) -> State:
        """A copy with ``changes``: :func:`dataclasses.replace` without its checks.

        The threat map plays out many thousands of Judge moves per view, and
        ``replace`` re-runs ``__init__`` for each; the fields are the same.
        """
        new = object.__new__(State)
        new.__dict__.update(self.__dict__, **changes)
        return new

    def judge_at(self, hex_id: str) -> int | None:
        """The number of the Judge on a hex, if any."""
        for number, where in self.judges.items():
            if where == hex_id:
                return number
        return None

    def scrawler_at(self, hex_id: str) -> str | None:
        """The player whose pawn is on a hex, if any."""
        for player, pawn in self.scrawlers.items():
            if pawn.position == hex_id:
                return player
        return None

    def is_clean_location(self, hex_id: str) -> bool:
        """A location with no scrawl on it."""
        return self.board.hexes[hex_id].is_location and hex_id not in self.scrawls

    @property
    def acting(self) -> str | None:
        """The player whose input the game waits for."""
        if self.phase == "over":
            return None
        if self.phase in ("roll", "judges"):
            return opponent(self.turn)
        return self.turn

    def to_json(self) -> Summary:
        """The whole true state, as the rules README's summary shape."""
        return {
            "turn": self.turn,
            "phase": self.phase,
            "scrawlers": {
                p: {
                    "position": s.position,
                    "colour": s.colour,
                    "arrested": s.position is None,
                    "out": s.out,
                }
                for p, s in self.scrawlers.items()
            },
            "judges": {str(n): h for n, h in sorted(self.judges.items())},
            "cleaning": sorted(self.cleaning),
            "scrawls": dict(sorted(self.scrawls.items())),
            "colours": {
                c.id: {
                    "player": c.player,
                    "prestige": c.prestige,
                    "arrested": c.arrested,
                    "final": c.final,
                }
                for c in self.colours.values()
            },
            "defaced_landmarks": sorted(self.defaced),
            "dice": list(self.dice),
            "allowance": self.allowance,
            "winner": self.winner,
        }
