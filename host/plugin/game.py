"""One game as the host knows it: everything that makes it playable at a table.

A :class:`Game` gathers what is spread over a table's layers for one game: the
rules engine, the referee's host rules for it, what its seat pages draw, how
it is set up, its simulated players, its cards and its sensor maps. The host
finds games through one registry (:mod:`lawmaster.host.games`), fed by the
``lawmaster.games`` entry point group, so a game can live in a distribution
of its own. Nothing outside a game's own folder names it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.ui import SeatUI
from lawmaster.rules.core import Engine

from .rules import GameRules, RulesContext

if TYPE_CHECKING:
    from lawmaster.host.nfc.cards import Card

    from .players import Players, SeatPort

#: How the table's NFC readers are laid out for a game: none (no cards), one
#: shared reader, or a shared one plus one per seat (each player lays its own).
Readers = Literal["none", "shared", "per-seat"]


@dataclass(frozen=True)
class SetupField:
    """One field of a game's part of the setup page."""

    name: str
    label: str
    kind: Literal["text", "checkbox", "select"] = "text"
    default: str = ""
    placeholder: str = ""
    #: For a select: (value, label) pairs.
    choices: tuple[tuple[str, str], ...] = ()
    hint: str = ""


@dataclass(frozen=True)
class Setup:
    """How a game is set up from the setup page, dealt, and set up for the demo.

    ``header(form)`` turns the page's fields into the game's part of a scenario
    header; ``deal(header, rng)`` fills in what the table deals (cards, a die
    that places a piece) when the host asks the tablet to deal; ``demo(seed)``
    is the demo's game.
    """

    fields: tuple[SetupField, ...] = ()
    header: Callable[[Mapping[str, str]], dict[str, Any]] = lambda form: {}
    deal: Callable[[Mapping[str, Any], random.Random], dict[str, Any]] | None = None
    deals: str = ""
    demo: Callable[[int], dict[str, Any]] | None = None
    hint: str = ""


#: What a :class:`Score` counts, one word from this list (a hall screen says it in its
#: own language): cards of evidence handed in, handcuffs given, Perps arrested (cards
#: on a score pile), points, prestige.
SCORE_WORDS = ("evidence", "handcuffs", "arrests", "points", "prestige")


@dataclass(frozen=True)
class Score:
    """One seat's standing as the public view shows it: ``value`` (out of ``of``) ``what``."""

    value: int
    what: str = "points"
    of: int | None = None

    def __post_init__(self) -> None:
        if self.what not in SCORE_WORDS:
            raise ValueError(f"a score counts one of {SCORE_WORDS}, not {self.what!r}")


def no_scores(view: Mapping[str, Any]) -> dict[str, Score]:
    """A game that keeps no score anyone may see."""
    return {}


@dataclass(frozen=True)
class Game:
    """Everything the host needs to referee one game (see the module docstring)."""

    #: The one name of the game: scenario headers, commands, URLs, file names.
    slug: str
    #: The game's name as players read it.
    title: str
    #: The rules engine. The host never looks into its states, only passes back
    #: those it was given, so their type is the game's own business.
    engine: Engine[Any]
    #: The referee's host rules for this game (observations, prompts, cards).
    rules: Callable[[RulesContext], GameRules] = GameRules
    #: What the seat pages draw (the base class draws any view generically).
    ui: SeatUI = field(default_factory=SeatUI)
    #: The folder of this game's page templates, served as ``<slug>/<name>``.
    templates: Path | None = None
    setup: Setup = field(default_factory=Setup)
    #: Simulated players: ``players(seats, seed)`` decides from the seats' own pages.
    players: Callable[[SeatPort, int], Players] | None = None
    #: The game's cards, for NFC stickers (``None``: the game has no cards).
    cards: Callable[[], Sequence[Card]] | None = None
    readers: Readers = "none"
    #: Sensor maps by board name (``"standard"`` first).
    sensor_maps: Mapping[str, Path] = field(default_factory=dict)
    #: Seats whose join code leaves the table screen once play starts (their
    #: page would tell whoever scans it what another seat may not know).
    private_once_started: Callable[[str], bool] = lambda seat: False
    #: Each seat's score from the table's public view (``view(state, "table")``): what a
    #: hall screen shows beside the board (see ``docs/HALL.md``). It reads the public
    #: view only, so it cannot tell a secret.
    scores: Callable[[Mapping[str, Any]], Mapping[str, Score]] = no_scores

    def new_rules(self, header: Mapping[str, Any], settings: Mapping[str, Any]) -> GameRules:
        """The host rules of one table of this game."""
        return self.rules(RulesContext(self.engine, header, settings))

    def sensor_map(self, board: str = "standard", file: str | Path | None = None) -> SensorMap:
        """The sensor map a table of this game reads: ``file`` when given (an owner's
        edited map, the configuration's ``[board] map``), else the shipped map of
        ``board``. ``ValueError`` if the file maps another game, ``LookupError`` if
        the game ships no such board."""
        if not file:
            return SensorMap.from_file(self.sensor_map_path(board))
        found = SensorMap.from_file(file)
        if found.game != self.slug:
            raise ValueError(f"{file} is a sensor map of {found.game}, not of {self.slug}")
        return found

    def sensor_map_path(self, board: str = "standard") -> Path:
        """The shipped sensor map of ``board``; ``LookupError`` if the game has none."""
        try:
            return self.sensor_maps[board]
        except KeyError:
            boards = ", ".join(self.sensor_maps) or "none"
            raise LookupError(
                f"{self.title} has no sensor map {board!r} (it has: {boards})"
            ) from None
