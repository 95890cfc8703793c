"""GW's deduction map against a brute-force enumeration of every consistent history.

With one criminal the map must be *exactly* the oracle's set (tight); with two
criminals it must contain the oracle's set (sound against every history, not
just the one played) and be no larger than tracking each piece alone.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from test_gw_deduction_support import TINY_BOARDS, Oracle, random_game, true_places

from lawmaster.rules.gw_brott.board import Board
from lawmaster.rules.gw_brott.deduction import Deduction

BOARDS = {name: Board.load(data) for name, data in TINY_BOARDS.items()}


@settings(max_examples=400, deadline=None)
@given(board_name=st.sampled_from(sorted(BOARDS)), seed=st.integers(0, 2**32 - 1))
def test_one_criminal_equals_brute_force(board_name: str, seed: int) -> None:
    board = BOARDS[board_name]
    oracle = Oracle(board, ["red"])
    deduction = Deduction.start(board, ["red"])
    for event, truth in random_game(board, ["red"], random.Random(seed), criminal_moves=4):
        oracle.see(event)
        deduction = deduction.update(event)
        expected = oracle.places("red")
        assert deduction.cells("red") == expected, event
        place = true_places(board, truth, 0)
        assert place is None or place in expected


@settings(max_examples=150, deadline=None)
@given(board_name=st.sampled_from(sorted(BOARDS)), seed=st.integers(0, 2**32 - 1))
def test_two_criminals_contain_brute_force_and_beat_tracking_alone(
    board_name: str, seed: int
) -> None:
    board = BOARDS[board_name]
    pieces = ["red", "green"]
    oracle = Oracle(board, pieces)
    joint = Deduction.start(board, pieces)
    alone = Deduction.start(board, pieces, joint=False)
    for event, truth in random_game(board, pieces, random.Random(seed), criminal_moves=5):
        oracle.see(event)
        joint = joint.update(event)
        alone = alone.update(event)
        for i, piece in enumerate(pieces):
            exact = oracle.places(piece)
            place = true_places(board, truth, i)
            assert place is None or place in exact
            assert exact <= joint.cells(piece), (piece, event)
            assert joint.cells(piece) <= alone.cells(piece), (piece, event)


def test_one_criminal_example_by_hand() -> None:
    """A hand-checked line: out of jail with a 1, GW clears a cell, an arrow."""
    board = BOARDS["4x4"]  # house B2, exits A1 and D4, GW on C3
    deduction = Deduction.start(board, ["red"])
    assert deduction.cells("red") == {"jail"}
    deduction = deduction.update(
        {"type": "criminal_moved", "by": "red", "die": "1", "from_jail": True}
    )
    assert deduction.cells("red") == {"A1", "D4"}
    deduction = deduction.update(
        {"type": "gw_moved", "path": ["D3", "D4"], "from": "C3", "to": "D4", "caught": None}
    )
    assert deduction.cells("red") == {"A1"}
    deduction = deduction.update(
        {"type": "criminal_moved", "by": "red", "die": "arrow", "from_jail": False}
    )
    # From A1: right to D1 (nothing in the way), down to A4; B1 is not an end.
    assert deduction.cells("red") == {"D1", "A4"}
