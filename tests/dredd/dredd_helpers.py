"""Helpers for the Judge Dredd tests: scenario files with expectations written inside.

A scenario file is a replay file (SCENARIOS.md) whose ``#>`` comment lines state
what must happen; replay ignores every ``#`` line, so the file stays a valid
scenario for ``lawmaster replay``. Directives apply to the line just before them:

- ``#> ok`` / ``#> error <text the reason must contain>``
- ``#> event {json}``: one of that line's events has these fields (``visible_to`` too)
- ``#> no-event {json}``: none of that line's events has these fields
Directives checked after the last line:
- ``#> summary {"dotted.path": value, ...}`` on the referee's summary
- ``#> view SEAT {"dotted.path": value, ...}`` on that seat's view
- ``#> view-lacks SEAT text``: that seat's view JSON does not contain ``text``
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from lawmaster.host.games import engine_for
from lawmaster.rules.core.replay import replay

HERE = Path(__file__).parent
SCENARIOS = HERE / "scenarios"


def dig(data: Any, path: str) -> Any:
    """``data["a"]["b"][0]`` for the path ``"a.b.0"``."""
    for part in path.split("."):
        if isinstance(data, list):
            data = data[int(part)]
        else:
            assert isinstance(data, dict) and part in data, f"no {part!r} on the way to {path}"
            data = data[part]
    return data


def _has(event: dict[str, Any], wanted: dict[str, Any]) -> bool:
    return all(event.get(k) == v for k, v in wanted.items())


def check_scenario(path: Path) -> list[dict[str, Any]]:
    """Replay ``path`` and assert every directive in it; returns the replay output."""
    raw = path.read_text(encoding="utf-8").splitlines()
    results = list(replay(raw, engines=engine_for))
    index = -1
    finals: list[tuple[str, str]] = []
    for lineno, line in enumerate(raw, 1):
        text = line.strip()
        where = f"{path.name}:{lineno}"
        if not text:
            continue
        if not text.startswith("#"):
            index += 1
            continue
        if not text.startswith("#>"):
            continue
        kind, _, rest = text[2:].strip().partition(" ")
        if kind in ("summary", "view", "view-lacks"):
            finals.append((kind + " " + rest, where))
            continue
        got = results[index]
        if kind == "ok":
            assert got.get("ok") is True, f"{where}: expected ok, got {got}"
        elif kind == "error":
            assert got.get("ok") is False, f"{where}: expected an error, got {got}"
            assert rest.lower() in got["error"].lower(), f"{where}: {got['error']!r}"
        elif kind in ("event", "no-event"):
            assert got.get("ok") is True, f"{where}: line was rejected: {got}"
            wanted = json.loads(rest)
            found = any(_has(e, wanted) for e in got["events"])
            if kind == "event":
                assert found, f"{where}: no event {wanted} in {got['events']}"
            else:
                assert not found, f"{where}: unexpected event {wanted}"
        else:
            raise AssertionError(f"{where}: unknown directive {kind!r}")
    summary = results[-1]["summary"]
    for directive, where in finals:
        kind, _, rest = directive.partition(" ")
        if kind == "summary":
            for key, value in json.loads(rest).items():
                assert dig(summary, key) == value, f"{where}: {key} = {dig(summary, key)!r}"
        elif kind == "view":
            seat, _, body = rest.partition(" ")
            seen = list(replay(raw, seat=seat, engines=engine_for))[-1]["view"]
            for key, value in json.loads(body).items():
                assert dig(seen, key) == value, f"{where}: {seat} {key} = {dig(seen, key)!r}"
        else:
            seat, _, text = rest.partition(" ")
            seen = json.dumps(list(replay(raw, seat=seat, engines=engine_for))[-1]["view"])
            assert text not in seen, f"{where}: {seat}'s view contains {text!r}"
    return results


def scenario_files() -> list[Path]:
    return sorted(SCENARIOS.glob("*.jsonl"))


CRIMES = [
    {
        "sector_card": "sector-devils-island",
        "crime": "robot-smashing",
        "perp": "the-mantis-brothers",
    },
    {"sector_card": "sector-channel-99", "crime": "littering", "perp": "max-normal"},
    {"sector_card": "sector-kelp-farm", "crime": "jaywalking", "perp": "otto-sump"},
    {"sector_card": "sector-west-wall", "crime": "murder", "perp": "judge-death"},
    {"sector_card": "sector-power-tower", "crime": "vandalism", "perp": "chopper"},
    {"sector_card": "sector-weather-control", "crime": "arson", "perp": "whitey"},
]


def start(**header: Any):
    """A game on the standard board with the six usual crimes, ready for round 1."""
    from lawmaster.rules.core.replay import Game

    full = {
        "game": "judge-dredd",
        "players": ["a", "b"],
        "positions": {"a": "resyk", "b": "grand-hall-of-justice"},
        "crimes": CRIMES,
        **header,
    }
    game, _ = Game.start(full, engine_for)
    return game


def play_all(game, *actions: dict[str, Any]) -> list[dict[str, Any]]:
    """Apply actions in order; returns all their events (raises on the first refusal)."""
    events = []
    for action in actions:
        events.extend(game.apply(action))
    return events
