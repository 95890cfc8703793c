"""GW's probability map equals brute-force enumeration through the real engine.

The enumerator here shares nothing with ``probability.py``: it replays a
recorded random game through ``ENGINE.apply`` in every *world* (every joint
position the criminals could be in), and wherever the real game made a
criminal move it branches over every distinct end cell the engine's
``legal_actions`` allows for the die that was used, each with weight
``1 / number of end cells`` (the model in ``DEDUCTION.md``). A world survives an
action only when the engine accepts the action there and GW's events come out
exactly as GW saw them. The map, fed only GW's events, must give each piece
exactly the marginals of the surviving worlds, as fractions, after every
action; the default float map, for as long as it still counts every joint
position (``complete``), the same marginals up to rounding, with the same
support.

GW's helicopter and breakthrough are left out: whether they are blocked
depends on who is immune, which GW does not know and the map does not model
(the enumerator would know it from the header).
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from test_gw_deduction_engine import header_for, random_action

from lawmaster.rules.core import IllegalAction, events_for
from lawmaster.rules.gw_brott import ENGINE
from lawmaster.rules.gw_brott.board import Board
from lawmaster.rules.gw_brott.deduction import Deduction
from lawmaster.rules.gw_brott.state import JAIL

Step = tuple[dict[str, Any], list[dict[str, Any]]]


def recorded_game(seed: int, count: int, two_player: bool, actions: int) -> tuple[dict, list[Step]]:
    """A random legal game on the small board: its header and (action, GW's events) pairs."""
    rng = random.Random(seed)
    header = header_for(rng, "small", count, two_player)
    board = Board.load(header["board"])
    state = ENGINE.new_game(header).state
    exactly = header["options"]["gw_steps"] == "exactly"
    steps: list[Step] = []
    for _ in range(actions):
        if ENGINE.is_over(state):
            break
        for _ in range(50):
            action = random_action(rng, state, board, exactly)
            if action.get("card") in ("helicopter", "breakthrough"):
                action = {"act": "gw_roll", "face": rng.randint(1, 6)}
            try:
                outcome = ENGINE.apply(state, action)
                break
            except IllegalAction as exc:
                assert "special move must end on an empty space" in str(exc), exc
        else:
            break
        state = outcome.state
        steps.append((action, events_for(outcome.events, "gw")))
    return header, steps


def _ends(state: Any, action: dict[str, Any]) -> dict[int, Any]:
    """End cell -> the outcome of one legal move there, for the die ``action`` used."""
    index = state.pieces.index(action["by"])
    result: dict[int, Any] = {}
    for option in ENGINE.legal_actions(state) or []:
        if option["act"] != "move" or option["die"] != action["die"]:
            continue
        outcome = ENGINE.apply(state, option)
        result.setdefault(outcome.state.positions[index], outcome)
    return result


def enumerate_marginals(
    header: dict, steps: list[Step], cap: int = 300
) -> list[list[dict[str, Fraction]]]:
    """After every step, per piece, place name -> probability over consistent worlds.

    Stops (a shorter list) once more than ``cap`` worlds survive, to stay fast.
    """
    state = ENGINE.new_game(header).state
    board = state.board
    worlds: dict[tuple[int, ...], tuple[Any, Fraction]] = {state.positions: (state, Fraction(1))}
    result = []
    for action, seen in steps:
        grown: dict[tuple[int, ...], tuple[Any, Fraction]] = {}
        for world, weight in worlds.values():
            if action["act"] == "move":
                ends = _ends(world, action)
                branches = [(o, weight / len(ends)) for o in ends.values()]
            else:
                try:
                    branches = [(ENGINE.apply(world, action), weight)]
                except IllegalAction:
                    branches = []
            for outcome, share in branches:
                if events_for(outcome.events, "gw") != seen:
                    continue
                key = outcome.state.positions
                old = grown.get(key)
                grown[key] = (outcome.state, share + (old[1] if old else 0))
        worlds = grown
        if len(worlds) > cap:
            break
        total = sum(w for _, w in worlds.values())
        marginals = []
        for i in range(len(state.pieces)):
            where: dict[str, Fraction] = {}
            for world, weight in worlds.values():
                if world.out[i]:
                    continue
                pos = world.positions[i]
                name = "jail" if pos == JAIL else board.name_of(pos)
                where[name] = where.get(name, 0) + weight / total
            marginals.append(where)
        result.append(marginals)
    return result


def compare(seed: int, count: int, two_player: bool) -> tuple[int, int]:
    """Check one recorded game; returns how many uncertain steps were compared
    exactly, and how many of them the float map (default budget) still counted."""
    header, steps = recorded_game(seed, count, two_player, actions=24)
    expected = enumerate_marginals(header, steps)
    board = Board.load(header["board"])
    deduction = Deduction.start(board, header["criminals"], exact_probabilities=True)
    floats = Deduction.start(board, header["criminals"])
    uncertain = counted = 0
    for (_, seen), marginals in zip(steps, expected, strict=False):
        for event in seen:
            deduction = deduction.update(event)
            floats = floats.update(event)
        complete = floats.belief().complete
        for piece, want in zip(header["criminals"], marginals, strict=True):
            got = deduction.probabilities(piece)
            assert got == want, (seed, piece, got, want)
            assert all(isinstance(p, Fraction) for p in got.values())
            # Exact counting gives exactly the possible places; the fast set
            # map is a sound superset of them.
            assert set(got) - {"jail"} <= deduction.cells(piece)
            if complete:
                # The float map, while it counts every joint position, is the
                # same up to rounding, with the same support.
                near = floats.probabilities(piece)
                assert set(near) == set(want), (seed, piece, near, want)
                assert all(abs(near[k] - want[k]) < 1e-12 for k in want), (seed, piece)
        uncertain += any(len(m) > 1 for m in marginals)
        counted += complete and any(len(m) > 1 for m in marginals)
    return uncertain, counted


@pytest.mark.parametrize(
    ("count", "two_player", "seeds"), [(2, False, 8), (3, False, 6), (2, True, 6)]
)
def test_probabilities_equal_enumeration(count: int, two_player: bool, seeds: int) -> None:
    results = [compare(seed, count, two_player) for seed in range(seeds)]
    # Enough steps where a piece could be on more than one place, or the
    # equality above would say little; the float map counted most of them.
    assert sum(u for u, _ in results) >= 3 * seeds
    assert sum(c for _, c in results) >= 2 * seeds
