"""The summed effect of face-down cards drawn without replacement, against every ordered
choice of different cards (issue 21, point 8), for both ways the sums are kept."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lawmaster.rules.judge_dredd import odds_draws
from lawmaster.rules.judge_dredd.odds_draws import summed_effects

WIDTH = 3


def brute(types, slots) -> dict[tuple[int, ...], Fraction]:
    """Every ordered choice of different cards for the slots, each equally likely."""
    pool = [i for i, (n, _) in enumerate(types) for _ in range(n)]
    classes = [c for c, n in enumerate(slots) for _ in range(n)]
    tally: Counter[tuple[int, ...]] = Counter()
    choices = 0
    for choice in itertools.permutations(range(len(pool)), len(classes)):
        total = [0] * WIDTH
        for card, c in zip(choice, classes, strict=True):
            for i, v in enumerate(types[pool[card]][1][c]):
                total[i] += v
        tally[tuple(total)] += 1
        choices += 1
    return {vec: Fraction(n, choices) for vec, n in tally.items()}


@st.composite
def problems(draw):
    classes = draw(st.integers(1, 3))
    vector = st.tuples(*[st.integers(-5, 5)] * WIDTH)
    types = draw(
        st.lists(
            st.tuples(st.integers(1, 3), st.lists(vector, min_size=classes, max_size=classes)),
            min_size=1,
            max_size=4,
        )
    )
    cards = sum(n for n, _ in types)
    slots = draw(st.lists(st.integers(0, 2), min_size=classes, max_size=classes))
    while sum(slots) > min(cards, 4):
        slots[slots.index(max(slots))] -= 1
    return types, slots


def _compare(types, slots) -> None:
    vectors, probs = summed_effects(types, slots)
    got = {tuple(int(x) for x in row): p for row, p in zip(vectors, probs, strict=True)}
    want = brute(types, slots)
    assert abs(sum(got.values()) - 1.0) <= 1e-12
    assert {vec for vec, p in got.items() if p > 0} <= set(want)
    for vec, p in want.items():
        assert abs(got.get(vec, 0.0) - float(p)) <= 1e-12, (vec, got.get(vec), p)


@pytest.mark.parametrize("backend", ["dicts", "arrays"])
@settings(max_examples=60, deadline=None)
@given(problem=problems())
def test_dredd_summed_effects_equal_every_ordered_choice(backend, problem):
    types, slots = problem
    few = odds_draws._FEW
    odds_draws._FEW = few if backend == "dicts" else -1  # -1: never few, numpy arrays
    try:
        _compare(types, slots)
    finally:
        odds_draws._FEW = few


def test_dredd_summed_effects_beyond_64_bit_codes():
    # An edited card set with huge strengths needs a code wider than numpy's 64-bit
    # integers: the sums fall back on Python's integers and stay exact.
    big = 10**6
    types = [
        (2, [(big, 1, -big), (0, 2, big)]),
        (1, [(-big, 0, 3), (big, -1, 0)]),
        (2, [(7, big, 0), (-3, 0, -big)]),
    ]
    slots = [2, 1]
    for i in range(4):
        types.append((1, [(i * big, -i, i), (-i, i * big, 2 * big)]))
    assert odds_draws._Code(types, slots).dtype is object
    _compare(types, slots)
