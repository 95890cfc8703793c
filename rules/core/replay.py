"""Replaying a scenario file: one JSON line out for every line in.

The format is public (``docs/SCENARIOS.md`` and each game's rules README): a
header line naming the game and its setup, then one action per line. A bad line
never stops a replay; it becomes ``{"ok": false, "error": ...}`` and replay goes on.

Replayed for a seat, each line is what that seat received live: the events of
that input :func:`~lawmaster.rules.core.actions.events_for` lets through (the
very function the table's per-seat stream is built with), and a refusal as
:func:`~lawmaster.rules.core.refusals.refusal_for` tells it to that seat.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TypedDict

from .actions import Event, events_for
from .engine import Engine, EngineLookup
from .errors import IllegalAction
from .refusals import refusal_for

#: The seat of the table's public screen, which every game has.
TABLE_SEAT = "table"


class NotAScenario(Exception):
    """The input cannot be replayed at all: no header, a refused header, an unknown seat.

    Its text is a sentence for the person who ran the replay.
    """


class ReplayLine(TypedDict, total=False):
    """One line a replay yields: an input's result, or the last line (summary or view)."""

    ok: bool
    #: The events of an accepted input (``ok`` true), all or those the seat saw.
    events: list[Event]
    #: The reason an input was refused (``ok`` false), as the seat was told it.
    error: str
    #: The last line of a whole replay: the engine's summary (``None``: no game).
    summary: Mapping[str, object] | None
    #: The last line of a seat's replay: that seat's view.
    view: Mapping[str, object]


@dataclass
class Game:
    """A game in progress: its engine, current state and every accepted action.

    The replay does not know the game, so the state is only passed back to the
    engine that made it.
    """

    engine: Engine
    state: object
    header: dict[str, object]
    actions: list[dict[str, object]]

    @classmethod
    def start(cls, header: object, engines: EngineLookup) -> tuple[Game, list[Event]]:
        """Set up from a header (its engine found by ``engines``); returns the game
        and the setup events."""
        if not isinstance(header, dict):
            raise IllegalAction("the first line must be a JSON object naming the game")
        engine = engines(header.get("game"))
        outcome = engine.new_game(header)
        return cls(engine, outcome.state, dict(header), []), outcome.events

    def apply(self, action: object) -> list[Event]:
        """Apply one action; on :class:`IllegalAction` nothing changes."""
        if not isinstance(action, dict) or not isinstance(action.get("act"), str):
            raise IllegalAction('an action must be a JSON object with an "act" field')
        outcome = self.engine.apply(self.state, action)
        self.state = outcome.state
        self.actions.append(dict(action))
        return outcome.events


def _meaningful(lines: Iterable[str]) -> Iterator[str]:
    for raw in lines:
        line = raw.strip()
        if line and not line.startswith("#"):
            yield line


def _parse(line: str) -> object:
    try:
        data: object = json.loads(line)
        return data
    except json.JSONDecodeError as exc:
        raise IllegalAction(f"not valid JSON ({exc.msg} at column {exc.colno})") from None


def seats_of(game: Game) -> list[str]:
    """Every seat a replay can be read for: the players' and the table's."""
    return [*game.engine.seats(game.state), TABLE_SEAT]


def replay(
    lines: Iterable[str],
    seat: str | None = None,
    *,
    engines: EngineLookup,
    strict: bool = False,
) -> Iterator[ReplayLine]:
    """Yield one result per meaningful line, then the summary (or ``seat``'s view).

    ``engines`` finds the engine the header names (the host passes its registry
    of installed games, :func:`lawmaster.host.games.engine_for`).

    With ``seat``, every line is what that seat received live, and a seat the
    game does not have raises :class:`NotAScenario` once the header is read.
    With ``strict``, a missing or refused header raises it too; without, a
    refused header is answered like any other line and the next line is tried
    as the header.
    """
    game: Game | None = None
    for line in _meaningful(lines):
        data: object = None
        try:
            data = _parse(line)
            if game is None:
                game, events = Game.start(data, engines)
                if seat is not None and seat not in seats_of(game):
                    names = ", ".join(seats_of(game))
                    raise NotAScenario(f"there is no seat {seat!r}; the seats are {names}")
            else:
                events = game.apply(data)
        except IllegalAction as exc:
            if game is None:
                if strict:
                    raise NotAScenario(f"its first line does not set a game up: {exc}") from None
                reason = exc.reason
            else:
                reason = refusal_for(game.engine, data, exc.reason, seat)
            yield {"ok": False, "error": reason}
            continue
        except RecursionError:
            if game is None and strict:
                raise NotAScenario("its first line is nested too deeply to read") from None
            yield {"ok": False, "error": "the line is nested too deeply to read"}
            continue
        yield {"ok": True, "events": events if seat is None else events_for(events, seat)}
    if game is None:
        if strict:
            raise NotAScenario("there is nothing to replay: no line names the game")
        yield {"summary": None}
    elif seat is None:
        yield {"summary": game.engine.summary(game.state)}
    else:
        yield {"view": game.engine.view(game.state, seat)}
