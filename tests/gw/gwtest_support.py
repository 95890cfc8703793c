"""Shared helpers for the GW:s brott tests: reading scenario files with expectations.

A scenario file is a replay file (SCENARIOS.md) whose comment lines may carry
expectations, which replay itself ignores:

* ``#> ok`` / ``#> error: TEXT`` — the line before was accepted / refused with TEXT in the reason
* ``#> event: {JSON}`` — one of that line's events contains these keys and values
* ``#> no-event: TYPE`` — none of that line's events has this type
* ``#= summary: {JSON}`` — the final summary contains these keys and values
* ``#= view SEAT: {JSON}`` — SEAT's final view contains these keys and values
* ``#= view SEAT lacks: TEXT`` — SEAT's final view, as JSON text, does not contain TEXT
  (leaving out the printed board and GW's deduction map, which list cells by design)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lawmaster.host.games import engine_for
from lawmaster.rules.core.replay import replay

HERE = Path(__file__).parent
SCENARIOS = HERE / "scenarios"


def contains(actual: Any, expected: Any) -> bool:
    """Whether ``actual`` has every key/value of ``expected`` (dicts recursively)."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            k in actual and contains(actual[k], v) for k, v in expected.items()
        )
    return actual == expected


@dataclass
class Expectations:
    """The expectations of one scenario file."""

    per_line: dict[int, list[tuple[str, str]]] = field(default_factory=dict)
    final: list[tuple[str, str]] = field(default_factory=list)
    line_texts: list[str] = field(default_factory=list)


def parse(lines: list[str]) -> Expectations:
    """Collect the expectations, keyed by the index of the meaningful line they follow."""
    exp = Expectations()
    index = -1
    for raw in lines:
        line = raw.strip()
        if line.startswith("#>"):
            kind, _, rest = line[2:].strip().partition(":")
            exp.per_line.setdefault(index, []).append((kind.strip(), rest.strip()))
        elif line.startswith("#="):
            kind, _, rest = line[2:].strip().partition(":")
            exp.final.append((kind.strip(), rest.strip()))
        elif line and not line.startswith("#"):
            index += 1
            exp.line_texts.append(line)
    return exp


def check_scenario(path: Path) -> list[dict[str, Any]]:
    """Replay ``path`` and assert every expectation in it; returns the outputs."""
    lines = path.read_text(encoding="utf-8").splitlines()
    exp = parse(lines)
    outputs = list(replay(lines, engines=engine_for))
    assert len(outputs) == len(exp.line_texts) + 1
    for index, checks in exp.per_line.items():
        out = outputs[index]
        where = f"{path.name}: line {exp.line_texts[index]} gave {out}"
        for kind, arg in checks:
            if kind == "ok":
                assert out.get("ok") is True, where
            elif kind == "error":
                assert out.get("ok") is False, where
                assert arg in out["error"], where
            elif kind == "event":
                wanted = json.loads(arg)
                assert out.get("ok") is True, where
                assert any(contains(e, wanted) for e in out["events"]), f"{wanted} not in {where}"
            elif kind == "no-event":
                assert all(e["type"] != arg for e in out.get("events", [])), where
            else:
                raise AssertionError(f"{path.name}: unknown expectation {kind!r}")
    for kind, arg in exp.final:
        if kind == "summary":
            summary = outputs[-1]["summary"]
            assert contains(summary, json.loads(arg)), f"{path.name}: {summary}"
        elif kind.startswith("view "):
            words = kind.split()
            seat = words[1]
            view = list(replay(lines, seat=seat, engines=engine_for))[-1]["view"]
            if len(words) == 3 and words[2] == "lacks":
                shown = {k: v for k, v in view.items() if k not in ("board", "deduction")}
                assert arg not in json.dumps(shown), f"{path.name}: {seat} view shows {arg}"
            else:
                assert contains(view, json.loads(arg)), f"{path.name}: {seat} view {view}"
        else:
            raise AssertionError(f"{path.name}: unknown final expectation {kind!r}")
    # Every line without an expectation must at least not be refused silently:
    # a refusal in a scenario is always asserted on purpose.
    for index, out in enumerate(outputs[:-1]):
        if out.get("ok") is False:
            assert any(k == "error" for k, _ in exp.per_line.get(index, [])), (
                f"{path.name}: unexpected refusal of {exp.line_texts[index]}: {out['error']}"
            )
    return outputs


# -- headers for generated games ------------------------------------------------
TINY_BOARD = {
    "width": 7,
    "height": 5,
    "houses": ["C3"],
    "jail": {"exits": ["A3", "G3"]},
    "gw_start": "G5",
    "evidence": {
        "blue-1": "A1",
        "red-1": "B1",
        "green-1": "C1",
        "yellow-1": "D1",
        "white-1": "E1",
        "blue-2": "A5",
        "red-2": "B5",
        "green-2": "C5",
        "yellow-2": "D5",
        "white-2": "E5",
    },
}
ROW_1 = ["blue-1", "red-1", "green-1", "yellow-1", "white-1"]
ROW_5 = ["blue-2", "red-2", "green-2", "yellow-2", "white-2"]


def tiny_header(**extra: Any) -> dict[str, Any]:
    """Two criminals on the tiny 7x5 board of the scenarios."""
    header: dict[str, Any] = {
        "game": "gw-brott",
        "board": TINY_BOARD,
        "criminals": ["red", "green"],
        "abilities": {"red": "helicopter", "green": "informer"},
        "evidence": {"red": ROW_1, "green": ROW_5},
        "trumps": ["helicopter", "informer", "breakthrough"],
    }
    header.update(extra)
    return header


def two_player_header(**extra: Any) -> dict[str, Any]:
    """The two-player game on the tiny board."""
    header: dict[str, Any] = {
        "game": "gw-brott",
        "board": TINY_BOARD,
        "two_player": True,
        "criminals": ["a", "b"],
        "evidence": {"a": ROW_1[:4] + ROW_5[4:], "b": ROW_5[:4] + ROW_1[4:]},
    }
    header.update(extra)
    return header


def standard_header(count: int = 4, **extra: Any) -> dict[str, Any]:
    """``count`` criminals on the standard board."""
    pieces = ["red", "green", "blue", "yellow"][:count]
    abilities = ["helicopter", "informer", "breakthrough", "infiltrator"]
    header: dict[str, Any] = {
        "game": "gw-brott",
        "board": "standard",
        "criminals": pieces,
        "abilities": dict(zip(pieces, abilities, strict=False)),
        "evidence": {
            p: [f"{c}-{i + 1}" for c in ("blue", "red", "green", "yellow", "white")]
            for i, p in enumerate(pieces)
        },
        "trumps": ["helicopter", "informer", "infiltrator"]
        if count % 2
        else ["breakthrough", "informer", "infiltrator"],
    }
    header.update(extra)
    return header
