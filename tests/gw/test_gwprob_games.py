"""GW's probability map over 2,000 random legal games through the real engine.

Every action of a random game goes through ``ENGINE.apply`` (criminals' rolls,
rerolls, resets, evidence, moves and passes; GW's paths, catches and all four
trumps, immunities, the rule options); GW's events are fed to a probability
map, and after every action, for every piece:

* its probabilities sum to 1 (exactly with fractions, within 1e-9 with floats)
  and are all positive;
* its true place has a positive probability;
* every place with a probability is in GW's set map (``cells``, sound); once
  the map has been cut, they are exactly the set map's places (the floor).

The games mix the small board (two to four criminals, the two-player game),
the standard board with four criminals (the default budget: exact counting,
then the particle filter), tiny budgets that cut and rebuild the map all the
time, and exact fractions. Each kind must really happen (counted at the end),
or the test would say little.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from typing import Any

from test_gw_deduction_engine import random_game

from lawmaster.rules.gw_brott.deduction import start_belief
from lawmaster.rules.gw_brott.probability import Belief
from lawmaster.rules.gw_brott.state import JAIL

GAMES = 2000

#: (board, criminals, two-player, actions, budget) by seed modulo 20. Budgets:
#: "default" (``Belief`` as the engine makes it), "tiny" (cut past 24 joint
#: positions to 12 rows: floors and rebuilds all the time), "exact" (fractions,
#: every joint position). The standard board is the slow one, so its games
#: are fewer and short.
PLAN: list[tuple[str, int, bool, int, str]] = [
    *[("small", 2, False, 10, "default")] * 4,
    *[("small", 3, False, 10, "default")] * 2,
    *[("small", 4, False, 8, "default")] * 1,
    *[("small", 2, True, 10, "default")] * 2,
    *[("small", 3, False, 12, "tiny")] * 2,
    *[("small", 4, False, 12, "tiny")] * 2,
    *[("small", 2, True, 14, "tiny")] * 1,
    *[("small", 2, False, 8, "exact")] * 2,
    *[("small", 2, True, 8, "exact")] * 1,
    *[("standard", 4, False, 12, "default")] * 2,
    *[("standard", 4, False, 12, "tiny")] * 1,
]
assert len(PLAN) == 20

BUDGETS: dict[str, dict[str, Any]] = {
    "default": {},
    "tiny": {"limit": 24, "particles": 12},
    "exact": {"exact": True},
}


def check(belief: Belief, state: Any) -> None:
    """The invariants of one map against the true state, for every piece."""
    board = state.board
    for i, piece in enumerate(state.pieces):
        shown = belief.probabilities(piece)
        if state.out[i]:
            assert shown == {}, piece
            continue
        total = sum(shown.values())
        if belief.exact:
            assert all(isinstance(p, Fraction) for p in shown.values())
            assert total == 1, (piece, total)
        else:
            assert math.isclose(total, 1.0, rel_tol=0, abs_tol=1e-9), (piece, total)
        assert all(p > 0 for p in shown.values()), (piece, shown)
        possible = belief.sound.cells(piece)
        assert set(shown) <= possible, (piece, sorted(set(shown) - possible))
        if not belief.complete:
            assert set(shown) == possible, (piece, sorted(possible - set(shown)))
        pos = state.positions[i]
        truth = "jail" if pos == JAIL else board.name_of(pos)
        assert shown.get(truth, 0) > 0, (piece, truth, shown)


def play_and_check(seed: int) -> Belief | None:
    """One game of the plan, checked after every action; the last map."""
    board_name, count, two_player, actions, budget = PLAN[seed % len(PLAN)]
    belief: Belief | None = None
    for header, board, state, events in random_game(seed, board_name, count, two_player, actions):
        if belief is None:
            belief = start_belief(board, header["criminals"], seed=seed, **BUDGETS[budget])
        for event in events:
            belief = belief.update(event)
        check(belief, state)
    return belief


def test_true_place_positive_sums_one_support_inside_the_set_map_in_2000_games() -> None:
    seen: Counter[str] = Counter()
    for seed in range(GAMES):
        board_name, _, _, _, budget = PLAN[seed % len(PLAN)]
        belief = play_and_check(seed)
        assert belief is not None
        seen["games"] += 1
        seen["cut"] += not belief.complete
        seen["rebuilt"] += belief.rebuilds > 0
        seen["exact"] += budget == "exact"
        seen["exact complete"] += budget == "exact" and belief.complete
        seen["standard cut"] += board_name == "standard" and not belief.complete
    assert seen["games"] == GAMES
    # Each regime happened often enough to mean something.
    assert seen["cut"] >= 400, seen
    assert seen["rebuilt"] >= 100, seen
    assert seen["exact complete"] == seen["exact"] >= 200, seen
    assert seen["standard cut"] >= 200, seen


def test_the_engine_map_is_the_same_as_a_belief_fed_the_events() -> None:
    # The engine's own map (linked event by event, worked out on demand) equals
    # a belief fed GW's events directly, asked at every action or only at the end.
    for seed in range(4):
        belief: Belief | None = None
        for header, board, state, events in random_game(seed, "small", 3, False, actions=40):
            if belief is None:
                belief = start_belief(board, header["criminals"])
            for event in events:
                belief = belief.update(event)
            if seed % 2:
                for piece in state.pieces:
                    assert state.deduction.probabilities(piece) == belief.probabilities(piece)
        assert belief is not None
        for piece in state.pieces:
            assert state.deduction.probabilities(piece) == belief.probabilities(piece)


def test_the_map_is_a_function_of_the_events_and_the_seed() -> None:
    first = second = other = None
    for header, board, _, events in random_game(3, "standard", 4, False, actions=60):
        if first is None or second is None or other is None:
            first = start_belief(board, header["criminals"], seed=7)
            second = start_belief(board, header["criminals"], seed=7)
            other = start_belief(board, header["criminals"], seed=8)
        for event in events:
            first, second, other = first.update(event), second.update(event), other.update(event)
        assert (first.places == second.places).all()
        assert (first.weights == second.weights).all()
    assert first is not None and other is not None and not first.complete
    # Another seed draws other rows (so the seed is what fixes them).
    assert first.places.shape != other.places.shape or (first.places != other.places).any()


def measure(games: int = 3, actions: int = 300, limit: int = 2000, particles: int = 1000) -> None:
    """Print how the particle map does on the standard board with four criminals.

    Every piece after every action: the true place's mean probability, how often
    it had probability 0 (never, by construction), and update times.
    Run: ``python tests/gw/test_gwprob_games.py [games actions limit particles]``.
    """
    import time

    times: list[float] = []
    found: list[float] = []
    rebuilds = 0
    for seed in range(games):
        belief: Belief | None = None
        for header, board, state, events in random_game(seed, "standard", 4, False, actions):
            if belief is None:
                belief = start_belief(
                    board, header["criminals"], seed=seed, limit=limit, particles=particles
                )
            for event in events:
                start = time.perf_counter()
                belief = belief.update(event)
                times.append(time.perf_counter() - start)
            for i, piece in enumerate(state.pieces):
                if not state.out[i]:
                    pos = state.positions[i]
                    where = "jail" if pos == JAIL else board.name_of(pos)
                    found.append(float(belief.probabilities(piece).get(where, 0.0)))
        rebuilds += belief.rebuilds if belief is not None else 0
    times.sort()
    p99 = times[int(0.99 * (len(times) - 1))] * 1e3
    lost = sum(p == 0 for p in found)
    print(f"{len(times)} updates, p99 {p99:.2f} ms; true place mean {sum(found) / len(found):.3f}")
    print(f"true place at 0 in {lost}/{len(found)}; {rebuilds} rebuilds")


def accuracy(games: int = 10, criminals: int = 3, actions: int = 60, particles: int = 1000) -> None:
    """Print how far the particle map is from the exact count, on the small board.

    After every action of random games, every piece on a map the particle
    filter has cut: the total variation distance between its probabilities and
    those of an exact count (floats, every joint position; a game stops once
    that count passes 500,000 joint positions), and each map's mean probability
    on the true place. Run:
    ``python tests/gw/test_gwprob_games.py accuracy [games criminals actions particles]``.
    """
    distances: list[float] = []
    exact_true: list[float] = []
    particle_true: list[float] = []
    for seed in range(games):
        exact = approx = None
        for header, board, state, events in random_game(seed, "small", criminals, False, actions):
            if exact is None or approx is None:
                exact = start_belief(board, header["criminals"], limit=10**9, seed=seed)
                approx = start_belief(
                    board, header["criminals"], limit=2 * particles, particles=particles, seed=seed
                )
            for event in events:
                exact, approx = exact.update(event), approx.update(event)
            if len(exact.weights) > 500_000:
                break
            if approx.complete:
                continue
            for i, piece in enumerate(state.pieces):
                want, got = exact.probabilities(piece), approx.probabilities(piece)
                if state.out[i] or len(want) < 2:
                    continue
                places = set(want) | set(got)
                distances.append(sum(abs(want.get(k, 0) - got.get(k, 0)) for k in places) / 2)
                pos = state.positions[i]
                where = "jail" if pos == JAIL else board.name_of(pos)
                exact_true.append(float(want.get(where, 0)))
                particle_true.append(float(got.get(where, 0)))
    mean = sum(distances) / len(distances)
    print(f"{len(distances)} pieces on cut maps: mean total variation {mean:.3f}")
    print(f"true place: exact {sum(exact_true) / len(exact_true):.3f}, ", end="")
    print(f"particles {sum(particle_true) / len(particle_true):.3f}")


if __name__ == "__main__":
    import sys

    if sys.argv[1:2] == ["accuracy"]:
        accuracy(*(int(a) for a in sys.argv[2:]))
    else:
        measure(*(int(a) for a in sys.argv[1:]))
