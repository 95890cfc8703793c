"""Malformed actions are refused with a reason, and only they: the engine no longer turns
its own exceptions into refusals, so any other exception here is a bug it must show.

Each example plays a random game and, at every step, sends the actions the random player
would try with one field replaced by garbage (a wrong type, an unknown name, a nested
value of the wrong shape), or with a field dropped; and headers (inline boards and card
sets included) with garbage somewhere inside them.
"""

from __future__ import annotations

import random

import pytest
from dredd_helpers import CRIMES
from dredd_random import candidate_actions, random_header
from hypothesis import given, settings
from hypothesis import strategies as st

from lawmaster.rules.core import IllegalAction
from lawmaster.rules.core.boarddata import load_data
from lawmaster.rules.judge_dredd import ENGINE

GARBAGE = [
    None,
    True,
    -1,
    0,
    7,
    2.5,
    "",
    "nobody",
    "a",
    "resyk",
    "robo-dogs-1",
    [],
    [None],
    [1, 2],
    ["a", 3],
    [[]],
    [["a"], "b"],
    [[1]],
    {},
    {"a": 1},
    {"perp": "x"},
    {"a": [7]},
    {"a": [True]},
    {"x": [1]},
    {"p0": [1], "perp": [[1]]},
]
EXTRA_ACTS = ["decline", "next_arrest", "internal_affairs", "psi_peek", "show", "cool"]


def _mutants(action: dict, rng: random.Random) -> list[dict]:
    out = []
    for key in [k for k in action if k != "act"]:
        out.append({k: v for k, v in action.items() if k != key})
        out.append({**action, key: rng.choice(GARBAGE)})
    extra = rng.choice(["by", "to", "sector", "card", "cards", "groups", "dice", "perp", "count"])
    out.append({**action, extra: rng.choice(GARBAGE)})
    out.append({"act": rng.choice(EXTRA_ACTS), "by": rng.choice(GARBAGE), "target": 3})
    return out


def _refused_or_taken(state: dict, action: dict) -> None:
    try:
        ENGINE.apply(state, action)
    except IllegalAction as exc:
        assert isinstance(exc.reason, str) and exc.reason


@settings(max_examples=8, deadline=None)
@given(st.integers(min_value=0, max_value=10**9))
def test_dredd_malformed_actions_are_refused_and_nothing_else_breaks(seed):
    rng = random.Random(seed)
    state = ENGINE.new_game(random_header(rng)).state
    for _ in range(100):
        if state["phase"] == "over":
            break
        candidates = candidate_actions(state, rng)
        for action in candidates[:3]:
            for mutant in _mutants(action, rng):
                _refused_or_taken(state, mutant)
        for action in candidates:
            try:
                state = ENGINE.apply(state, action).state
                break
            except IllegalAction:
                continue


HEADER = {
    "game": "judge-dredd",
    "players": ["a", "b"],
    "positions": {"a": "resyk", "b": "grand-hall-of-justice"},
    "hands": {"a": ["daystick-1"]},
    "specialists": {"a": "sjs"},
    "options": {"arrest_start": "auto"},
}
SMALL_BOARD = {
    "name": "tiny",
    "sectors": [
        {"id": "c", "kind": "crime", "x": 1},
        {"id": "s1", "kind": "start", "bonus": 1},
        {"id": "s2", "kind": "start", "bonus": 2},
        {"id": "h", "kind": "hospital"},
    ],
    "borders": [["s1", "c"], ["s2", "c"], ["h", "c"]],
    "river": [["s1", "s2"]],
    "bridges": [],
}


def _mutate(value, rng: random.Random):
    """``value`` with one thing somewhere inside it dropped or replaced by garbage."""
    if isinstance(value, dict) and value and rng.random() < 0.8:
        key = rng.choice(list(value))
        out = dict(value)
        roll = rng.random()
        if roll < 0.2:
            del out[key]
        else:
            out[key] = rng.choice(GARBAGE) if roll < 0.5 else _mutate(out[key], rng)
        return out
    if isinstance(value, list) and value and rng.random() < 0.8:
        out = list(value)
        i = rng.randrange(len(out))
        out[i] = rng.choice(GARBAGE) if rng.random() < 0.5 else _mutate(out[i], rng)
        return out
    return rng.choice(GARBAGE)


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=0, max_value=10**9))
def test_dredd_malformed_headers_and_card_sets_are_refused_with_a_reason(seed):
    rng = random.Random(seed)
    header = {**HEADER, "crimes": CRIMES}
    roll = rng.random()
    if roll < 0.4:
        header["cards"] = load_data("lawmaster.rules.judge_dredd", "cards-standard")
    elif roll < 0.6:
        header = {**HEADER, "board": SMALL_BOARD}
        del header["positions"]
    for _ in range(rng.randint(1, 4)):
        header = _mutate(header, rng)
    if not isinstance(header, dict):
        return
    try:
        state = ENGINE.new_game(header).state
    except IllegalAction as exc:
        assert isinstance(exc.reason, str) and exc.reason
        return
    # Whatever was accepted plays on without a traceback.
    for _ in range(15):
        if state["phase"] == "over":
            break
        for action in candidate_actions(state, rng):
            try:
                state = ENGINE.apply(state, action).state
                break
            except IllegalAction:
                continue
        for seat in [*state["players"], "table"]:
            ENGINE.view(state, seat)


def test_dredd_an_engine_bug_is_not_passed_off_as_a_refusal(monkeypatch):
    from lawmaster.rules.judge_dredd import engine

    def broken(state, action, events):
        raise KeyError("a bug in a handler")

    monkeypatch.setitem(engine.ACTIONS, "reveal", broken)
    state = ENGINE.new_game({**HEADER, "crimes": CRIMES}).state
    with pytest.raises(KeyError):
        ENGINE.apply(state, {"act": "reveal"})


def test_dredd_a_sector_bonus_is_a_card_count_or_recycle():
    # 1.0 equals 1, but it is not a number of cards: it was taken and then gave none.
    sectors = [dict(s) for s in SMALL_BOARD["sectors"]]
    sectors[1]["bonus"] = 1.0
    with pytest.raises(IllegalAction, match="Sector 's1' has an unknown bonus 1.0"):
        ENGINE.new_game({"players": ["a", "b"], "board": {**SMALL_BOARD, "sectors": sectors}})
