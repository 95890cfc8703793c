"""GW's probability map over many random legal games through the real engine.

* 2,000 short games on the small board (two to four criminals, the two-player
  game, every trump, immunities, resets, rerolls, evidence, catches), the map
  counting every consistent history: after every action each piece's
  probabilities sum to 1, its true place has positive probability, and every
  place with positive probability is in GW's fast set map (which is sound, so
  the probability map never names a place that map rules out).
* Longer games on the standard board with the default particle budget: the
  same sums and the same containment, and the map is a function of the events
  and the seed alone.
"""

from __future__ import annotations

import math

from test_gw_deduction_engine import random_game

from lawmaster.rules.gw_brott.probability import Belief
from lawmaster.rules.gw_brott.smoothing import future_masks
from lawmaster.rules.gw_brott.state import JAIL

GAMES = 2000
#: Never cut: the map stays an exact count (in floats) in these short games.
UNCUT = 10**9
#: (criminals, two-player, actions) by seed modulo 20. Exact counting with four
#: criminals grows fast (tens of thousands of joint positions in ten actions),
#: so the games with more pieces are shorter and fewer.
CONFIGS = [(2, False, 10)] * 9 + [(2, True, 10)] * 5 + [(3, False, 9)] * 4 + [(4, False, 7)] * 2


def _check(belief: Belief, state: object) -> bool:
    """The invariants after one action; returns whether every true place was on the map."""
    deduction = state.deduction  # type: ignore[attr-defined]
    board = state.board  # type: ignore[attr-defined]
    found = True
    for i, piece in enumerate(state.pieces):  # type: ignore[attr-defined]
        shown = belief.probabilities(piece)
        if state.out[i]:  # type: ignore[attr-defined]
            assert shown == {}
            continue
        assert math.isclose(sum(shown.values()), 1.0, rel_tol=1e-9)
        assert all(p > 0 for p in shown.values())
        places = set(shown) - {"jail"}
        assert places <= deduction.cells(piece), (piece, shown, deduction.cells(piece))
        pos = state.positions[i]  # type: ignore[attr-defined]
        found &= shown.get("jail" if pos == JAIL else board.name_of(pos), 0.0) > 0
    return found


def test_true_place_always_has_positive_probability_in_2000_games() -> None:
    checked = 0
    for seed in range(GAMES):
        count, two_player, actions = CONFIGS[seed % len(CONFIGS)]
        belief: Belief | None = None
        for header, board, state, events in random_game(seed, "small", count, two_player, actions):
            if belief is None:
                belief = Belief.start(board, header["criminals"], limit=UNCUT, seed=seed)
            for event in events:
                belief = belief.update(event)
            assert _check(belief, state), seed
            checked += 1
        assert belief is not None and belief.complete
    assert checked > 10 * GAMES


def test_particle_map_on_the_standard_board_is_sound_and_reproducible() -> None:
    for seed in range(1):
        first = second = None
        for header, board, state, events in random_game(seed, "standard", 4, False, actions=90):
            if first is None or second is None:
                first = Belief.start(board, header["criminals"], seed=seed)
                second = Belief.start(board, header["criminals"], seed=seed)
            for event in events:
                first = first.update(event)
                second = second.update(event)
            _check(first, state)
            assert first.weights == second.weights
        assert first is not None and not first.complete, "the particle filter was never used"


def test_engine_state_gives_the_same_map() -> None:
    # The engine's own map (linked event by event, worked out on demand) equals
    # a belief fed GW's events directly, asked at every action or only at the end.
    for seed in range(4):
        belief: Belief | None = None
        for header, board, state, events in random_game(seed, "small", 3, False, actions=40):
            if belief is None:
                belief = Belief.start(board, header["criminals"])
            for event in events:
                belief = belief.update(event)
            if seed % 2:
                for piece in state.pieces:
                    assert state.deduction.probabilities(piece) == belief.probabilities(piece)
        assert belief is not None
        for piece in state.pieces:
            assert state.deduction.probabilities(piece) == belief.probabilities(piece)


def test_replay_guides_never_exclude_the_true_place() -> None:
    # The replays skip ends outside these sets; that is only harmless when the
    # true history is never outside them.
    for seed in range(3):
        log: list[dict] = []
        truths: list[tuple[int, ...]] = []
        game = list(random_game(seed, "standard", 4, False, actions=200))
        for _, _, state, events in game:
            log += events
            truths += [state.positions] * len(events)
        header, board = game[0][0], game[0][1]
        masks = future_masks(board, header["criminals"], log)
        for t, truth in enumerate(truths):
            for i, pos in enumerate(truth):
                if pos != JAIL:
                    assert masks[t][i] >> pos & 1, (seed, t, log[t], i)


def measure(games: int = 3, actions: int = 300, limit: int = 400, particles: int = 400) -> None:
    """Print how often the particle map misses the true place, and update times.

    Four criminals on the standard board; every piece after every action.
    Run: ``python tests/gw/test_gwprob_games.py [games actions limit particles]``.
    """
    import time

    times: list[float] = []
    missed = checks = replays = 0
    for seed in range(games):
        belief: Belief | None = None
        for header, board, state, events in random_game(seed, "standard", 4, False, actions):
            if belief is None:
                belief = Belief.start(
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
                    checks += 1
                    missed += belief.probabilities(piece).get(where, 0.0) == 0
        replays += belief.recoveries if belief is not None else 0
    times.sort()
    p99 = times[int(0.99 * (len(times) - 1))] * 1e3
    print(f"{len(times)} updates, p99 {p99:.1f} ms; true place missed in {missed}/{checks}")
    print(f"({100 * missed / checks:.1f} %); {replays} replays")


if __name__ == "__main__":
    import sys

    measure(*(int(a) for a in sys.argv[1:]))
