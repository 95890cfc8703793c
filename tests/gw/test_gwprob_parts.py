"""The parts of GW's probability map one at a time: the cut, the floor, GW's view.

* The first cut (``_resample``) keeps every (piece, place) pair and, averaged
  over its random offset, every row's weight; a particle move
  (``_resample_move``) draws every child of every row in proportion to its
  weight, and nothing else.
* After a cut every place GW's set map allows has a positive probability (the
  floor), and none that it rules out.
* GW's view carries the probabilities beside the deduction lists, only GW's
  view does, and the tablet's shading reads them.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
from test_gw_deduction_engine import random_game

from lawmaster.host.games.gw_brott.know import weights_for
from lawmaster.rules.gw_brott import ENGINE
from lawmaster.rules.gw_brott.deduction import start_belief
from lawmaster.rules.gw_brott.probability import FLOOR, Belief, _resample, _resample_move

CODES = 40


def random_rows(rng: np.random.Generator, rows: int, pieces: int) -> np.ndarray:
    """Rows of distinct cells (no two pieces on one cell), as place codes."""
    return np.array(
        [rng.choice(CODES, size=pieces, replace=False) for _ in range(rows)], dtype=np.int16
    )


def random_move(
    seed: int, rows: int = 150, pieces: int = 3, width: int = 7
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """Parent rows, their weights, and for piece 1 candidate ends with a legal mask."""
    rng = np.random.default_rng(seed)
    places = random_rows(rng, rows, pieces)
    weights = rng.random(rows) ** 3  # uneven, so some rows are heavy
    weights /= weights.sum()
    ends = np.array(
        [rng.choice(CODES, size=width, replace=False) for _ in range(rows)], dtype=np.int16
    )
    legal = rng.random((rows, width)) < 0.6
    legal[::17] = False  # some rows have no legal end at all
    return places, weights, ends, legal, 1


def children(
    places: np.ndarray, weights: np.ndarray, ends: np.ndarray, legal: np.ndarray, mover: int
) -> tuple[np.ndarray, np.ndarray]:
    """Every child of every row, in row order then end order, each w / ends."""
    rows, cols = np.nonzero(legal)
    grown = places[rows].copy()
    grown[:, mover] = ends[rows, cols]
    return grown, weights[rows] / legal.sum(axis=1)[rows]


def as_sorted(places: np.ndarray, weights: np.ndarray) -> list[tuple[tuple[int, ...], float]]:
    return sorted(zip(map(tuple, places.tolist()), weights.tolist(), strict=True))


def test_a_cut_keeps_every_piece_place_pair_and_about_the_budget() -> None:
    for seed in range(20):
        grown, weights = children(*random_move(seed))
        keep, new = _resample(grown, weights, 60, offset=(seed + 0.5) / 20)
        assert len(set(keep.tolist())) == len(keep)  # nothing twice
        for j in range(grown.shape[1]):
            assert set(grown[keep, j].tolist()) == set(grown[:, j].tolist())
        pairs = {(j, p) for j in range(grown.shape[1]) for p in grown[:, j].tolist()}
        assert len(keep) <= max(60, len(pairs) + 60 // 4) + 1
        assert math.isclose(new.sum(), weights.sum(), rel_tol=0.2)


def test_a_cut_keeps_each_weight_on_average_over_its_offset() -> None:
    for seed in (3, 4):
        grown, weights = children(*random_move(seed))
        steps = 2000
        mean = np.zeros(len(weights))
        drawn = 0.0
        for k in range(steps):
            keep, new = _resample(grown, weights, 50, offset=(k + 0.5) / steps)
            mean[keep] += new / steps
            # The drawn rows weigh the threshold c (the others keep their own).
            drawn = max(drawn, float(new[new != weights[keep]].max(initial=0)))
        assert drawn > 0
        # Systematic resampling is unbiased over a uniform offset: on a grid of
        # offsets, a row of weight w < c is drawn floor or ceil of w / c of the
        # time, so each average is off by c / steps at most.
        assert np.abs(mean - weights).max() <= drawn / steps * 1.001
        assert mean.sum() == np.float64(mean.sum())  # finite
        assert abs(mean.sum() - weights.sum()) < 1e-3 * weights.sum()


def test_a_particle_move_draws_each_child_in_proportion_to_its_weight() -> None:
    places, weights, ends, legal, mover = random_move(11, rows=40, width=5)
    grown, shares = children(places, weights, ends, legal, mover)
    mass: dict[tuple[int, ...], float] = {}
    for row, share in zip(map(tuple, grown.tolist()), shares.tolist(), strict=True):
        mass[row] = mass.get(row, 0.0) + share / shares.sum()
    drawn: dict[tuple[int, ...], int] = {}
    draws, count = 600, 100
    for seed in range(draws):
        new, new_weights = _resample_move(
            places, weights, ends, legal, mover, count, np.random.default_rng(seed)
        )
        assert len(new) == count and np.allclose(new_weights, 1 / count)
        for row in map(tuple, new.tolist()):
            # Every row is a legal child of some row (nothing invented).
            assert row in mass, row
            drawn[row] = drawn.get(row, 0) + 1
    total = draws * count
    for row, share in mass.items():
        # Systematic over rows (at most one draw off the share per draw), then
        # an even pick among the row's ends: well within five standard errors.
        spread = math.sqrt(total * share * (1 - share)) + draws
        assert abs(drawn.get(row, 0) - total * share) <= 5 * spread, (row, share)
    near = sum(abs(drawn.get(r, 0) / total - share) for r, share in mass.items())
    assert near < 0.05  # total variation between what was drawn and the weights


def test_a_particle_move_from_rows_without_a_legal_end_is_empty() -> None:
    places, weights, ends, legal, mover = random_move(2)
    none = np.zeros_like(legal)
    new, new_weights = _resample_move(
        places, weights, ends, none, mover, 50, np.random.default_rng(0)
    )
    assert len(new) == 0 and len(new_weights) == 0


def cut_belief(seed: int) -> Belief:
    """A belief the default budget has cut: a standard-board game, four criminals."""
    belief = None
    for header, board, _, events in random_game(seed, "standard", 4, False, actions=40):
        if belief is None:
            belief = start_belief(board, header["criminals"], seed=seed)
        for event in events:
            belief = belief.update(event)
    assert belief is not None and not belief.complete
    return belief


def test_after_a_cut_every_place_of_the_set_map_has_a_floor_and_nothing_else_weight() -> None:
    floored = 0
    for seed in range(1, 4):
        belief = cut_belief(seed)
        for i, piece in enumerate(belief.pieces):
            shown = belief.probabilities(piece)
            assert set(shown) == belief.sound.cells(piece)
            held = set(np.unique(belief.places[:, i]).tolist())
            count = int(belief._allowed(i).sum())
            for place, share in shown.items():
                code = belief.board.size if place == "jail" else belief.board.cell(place)
                if code not in held:
                    assert share == FLOOR / count
                    floored += 1
        # Take every row away: the set map's places share evenly.
        empty = belief._with_rows(belief.places[:0], belief.weights[:0])
        for piece in belief.pieces:
            shown = empty.probabilities(piece)
            assert set(shown) == belief.sound.cells(piece)
            assert max(shown.values(), default=0) - min(shown.values(), default=0) < 1e-15
    assert floored > 0  # the floor was needed somewhere, so it was checked


def test_gw_view_carries_the_probabilities_beside_the_deduction_lists() -> None:
    checked = 0
    for _, _, state, _ in random_game(5, "standard", 3, False, actions=60):
        gw = ENGINE.view(state, "gw")
        places, shares = gw["deduction"], gw["deduction_probability"]
        assert set(shares) == set(places) == set(state.pieces)
        for piece in state.pieces:
            assert len(shares[piece]) == len(places[piece])
            exact = state.deduction.probabilities(piece)
            for place, share in zip(places[piece], shares[piece], strict=True):
                assert (share > 0) == (exact.get(place, 0) > 0), (piece, place)
                # Four decimals; a positive share at least 0.0001.
                assert abs(share - float(exact.get(place, 0))) <= 1e-4 + 1e-12
            if shares[piece]:
                assert abs(sum(shares[piece]) - 1) <= 1e-4 * len(shares[piece])
        for seat in ("table", *state.pieces):
            assert "deduction_probability" not in ENGINE.view(state, seat), seat
        checked += 1
    assert checked > 30


def test_the_shading_reads_the_probabilities_from_the_view() -> None:
    view = {
        "deduction": {"red": ["A1", "B2", "C3", "jail"], "green": ["D4"]},
        "deduction_probability": {"red": [0.7, 0.0, 0.1, 0.2], "green": [1.0]},
    }
    assert weights_for(view, "red") == {"A1": 0.7, "C3": 0.1}
    assert weights_for(view, "green") == {"D4": 1.0}
    # A view without them (or with a list that does not match): even shares.
    assert weights_for({"deduction": view["deduction"]}, "red") == {
        "A1": 1 / 3,
        "B2": 1 / 3,
        "C3": 1 / 3,
    }
    broken = {**view, "deduction_probability": {"red": [1.0]}}
    assert weights_for(broken, "red") == {"A1": 1 / 3, "B2": 1 / 3, "C3": 1 / 3}
    assert weights_for(view, "blue") == {}


def test_a_rebuilt_map_keeps_its_rows_inside_the_set_map() -> None:
    # Tiny budgets rebuild all the time; every row stays inside the set map.
    rebuilt = 0
    for seed in range(6):
        belief = None
        for header, board, _, events in random_game(seed, "small", 4, False, actions=30):
            if belief is None:
                belief = replace(start_belief(board, header["criminals"]), limit=16, particles=8)
            for event in events:
                belief = belief.update(event)
                for i in range(len(belief.pieces)):
                    assert belief._allowed(i)[belief.places[:, i]].all()
        assert belief is not None
        rebuilt += belief.rebuilds
    assert rebuilt > 0


def test_a_row_outside_the_set_map_never_survives_an_update() -> None:
    # Rows only come from moves and rebuilds, which keep them inside the set
    # map; this checks the safety net itself with a row put there by hand.
    belief: Belief | None = None
    tried = 0
    for header, board, _, events in random_game(2, "standard", 4, False, actions=80):
        if belief is None:
            belief = start_belief(board, header["criminals"], seed=2)
        for event in events:
            on_board = [
                j for j in range(len(belief.pieces)) if (belief.places[:, j] < board.size).all()
            ]
            if event["type"] == "criminal_moved" and not belief.complete and len(on_board) > 1:
                mover = belief.pieces.index(event["by"])
                other = next(j for j in on_board if j != mover)
                outside = next(
                    c
                    for c in board.open_cells
                    if not belief._allowed(other)[c] and c not in belief.places[0].tolist()
                )
                row = belief.places[:1].copy()
                row[0, other] = outside
                planted = belief._with_rows(
                    np.concatenate((belief.places, row)),
                    np.concatenate((belief.weights, [0.5])),
                )
                after = planted.update(event)
                assert outside not in after.places[:, other].tolist()
                assert board.name_of(outside) not in after.probabilities(belief.pieces[other])
                tried += 1
            belief = belief.update(event)
    assert tried >= 3
