"""Replaying a scenario file: one JSON line out for every line in.

The format is public (see ``docs/SCENARIOS.md``): a header line naming the game and
its setup, then one action per line. Nothing in here may raise on bad input;
every problem becomes ``{"ok": false, "error": ...}`` and replay goes on.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from .engine import Engine, engine_for
from .errors import IllegalAction


@dataclass
class Game:
    """A game in progress: its engine, current state and every accepted action."""

    engine: Engine
    state: Any
    header: dict[str, Any]
    actions: list[dict[str, Any]]

    @classmethod
    def start(cls, header: dict[str, Any]) -> tuple[Game, list[dict[str, Any]]]:
        """Set up from a header; returns the game and the setup events."""
        if not isinstance(header, dict):
            raise IllegalAction("the first line must be a JSON object naming the game")
        engine = engine_for(header.get("game"))
        outcome = engine.new_game(header)
        return cls(engine, outcome.state, dict(header), []), outcome.events

    def apply(self, action: Any) -> list[dict[str, Any]]:
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


def _parse(line: str) -> Any:
    try:
        return json.loads(line)
    except json.JSONDecodeError as exc:
        raise IllegalAction(f"not valid JSON ({exc.msg} at column {exc.colno})") from None


def replay(lines: Iterable[str], seat: str | None = None) -> Iterator[dict[str, Any]]:
    """Yield one result per meaningful line, then the summary (or ``seat``'s view)."""
    game: Game | None = None
    for line in _meaningful(lines):
        try:
            data = _parse(line)
            if game is None:
                game, events = Game.start(data)
            else:
                events = game.apply(data)
        except IllegalAction as exc:
            yield {"ok": False, "error": exc.reason}
            continue
        except RecursionError:
            yield {"ok": False, "error": "the line is nested too deeply to read"}
            continue
        yield {"ok": True, "events": events}
    if game is None:
        yield {"summary": None}
    elif seat is None:
        yield {"summary": game.engine.summary(game.state)}
    else:
        try:
            yield {"view": game.engine.view(game.state, seat)}
        except IllegalAction as exc:
            yield {"ok": False, "error": exc.reason}
