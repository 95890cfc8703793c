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
action.

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


def compare(seed: int, count: int, two_player: bool) -> int:
    """Check one recorded game; returns how many uncertain steps were compared."""
    header, steps = recorded_game(seed, count, two_player, actions=24)
    expected = enumerate_marginals(header, steps)
    board = Board.load(header["board"])
    deduction = Deduction.start(board, header["criminals"], exact_probabilities=True)
    uncertain = 0
    for (_, seen), marginals in zip(steps, expected, strict=False):
        for event in seen:
            deduction = deduction.update(event)
        for piece, want in zip(header["criminals"], marginals, strict=True):
            got = deduction.probabilities(piece)
            assert got == want, (seed, piece, got, want)
            assert all(isinstance(p, Fraction) for p in got.values())
            # Exact counting gives exactly the possible places; the fast map
            # is a sound superset of them.
            assert set(got) - {"jail"} <= deduction.cells(piece)
        uncertain += any(len(m) > 1 for m in marginals)
    return uncertain


@pytest.mark.parametrize(
    ("count", "two_player", "seeds"), [(2, False, 8), (3, False, 6), (2, True, 6)]
)
def test_probabilities_equal_enumeration(count: int, two_player: bool, seeds: int) -> None:
    compared = sum(compare(seed, count, two_player) for seed in range(seeds))
    # Enough steps where a piece could be on more than one place, or the
    # equality above would say little.
    assert compared >= 3 * seeds
