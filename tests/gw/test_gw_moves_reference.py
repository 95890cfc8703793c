"""The engine's criminal moves agree with a plain step-by-step reading of the rules.

Random boards (houses, jail exits), random criminals and GW, every die face: the
legal destinations from the bit-set engine must be exactly those found by trying
every walk of the die's length and every slide, one step at a time.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import product

from gwtest_support import tiny_header
from hypothesis import given, settings
from hypothesis import strategies as st

from lawmaster.rules.core import IllegalAction
from lawmaster.rules.gw_brott import ENGINE, Board
from lawmaster.rules.gw_brott.criminal_turn import legal_move_actions
from lawmaster.rules.gw_brott.geometry import geometry_of
from lawmaster.rules.gw_brott.state import JAIL, Phase

STEPS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}


def reference_moves(board: Board, positions, index: int, gw: int, faces) -> set[tuple]:
    """Every legal move, found by brute force from the rulebook's sentences."""
    w, h = board.width, board.height
    others = {p for i, p in enumerate(positions) if i != index and p != JAIL}

    def nxt(cell, d):
        x, y = cell % w + STEPS[d][0], cell // w + STEPS[d][1]
        return y * w + x if 0 <= x < w and 0 <= y < h else None

    def walkable(cell):
        return cell is not None and not board.is_blocked(cell) and cell != gw

    moves: set[tuple] = set()
    pos = positions[index]
    for face in faces:
        if face == "arrow":
            obstacles = others | {gw}
            starts = (
                [(e, e) for e in board.jail_exits if walkable(e) and e not in others]
                if pos == JAIL
                else [(None, pos)]
            )
            for exit_cell, start in starts:
                for d in STEPS:
                    here = start
                    while True:
                        step = nxt(here, d)
                        if step is None or board.is_blocked(step) or step in obstacles:
                            break
                        here = step
                    if exit_cell is not None or here != start:
                        moves.add(("arrow", exit_cell, d, here))
            continue
        n = int(face)
        if pos == JAIL:
            firsts = [e for e in board.jail_exits if walkable(e)]
            rest = n - 1
        else:
            firsts, rest = [pos], n
        for first in firsts:
            for dirs in product(STEPS, repeat=rest):
                here = first
                for d in dirs:
                    here = nxt(here, d)
                    if not walkable(here):
                        break
                else:
                    if here not in others:
                        moves.add((face, here))
    return moves


def engine_moves(state, index: int) -> set[tuple]:
    board = state.board
    found = set()
    for action in legal_move_actions(state, index):
        if action["die"] == "arrow":
            exit_cell = board.cell(action["exit"]) if "exit" in action else None
            outcome = ENGINE.apply(state, action)
            to = outcome.state.positions[index]
            found.add(("arrow", exit_cell, action["direction"], to))
        else:
            found.add((action["die"], board.cell(action["to"])))
    return found


@st.composite
def situations(draw):
    width = draw(st.integers(3, 6))
    height = draw(st.integers(3, 5))
    cells = [f"{chr(65 + x)}{y + 1}" for y in range(height) for x in range(width)]
    houses = draw(st.lists(st.sampled_from(cells), max_size=len(cells) // 3, unique=True))
    free = [c for c in cells if c not in houses]
    exits = draw(st.lists(st.sampled_from(free), min_size=1, max_size=3, unique=True))
    gw = draw(st.sampled_from(free))
    board = Board.from_data(
        {
            "width": width,
            "height": height,
            "houses": houses,
            "jail": {"exits": exits},
            "gw_start": gw,
        }
    )
    spots = [board.cell(c) for c in free if c != gw]
    placed = draw(st.lists(st.sampled_from(spots), min_size=2, max_size=3, unique=True))
    positions = [draw(st.sampled_from([p, JAIL])) for p in placed]
    faces = draw(
        st.lists(st.sampled_from(["1", "2", "3", "4", "arrow", "gw"]), min_size=5, max_size=5)
    )
    return board, positions, board.cell(gw), faces


def _state_for(board, positions, gw, faces):
    base = ENGINE.new_game(tiny_header()).state
    pieces = ("red", "green", "blue")[: len(positions)]
    n = len(pieces)
    return replace(
        base,
        board=board,
        geo=geometry_of(board),
        pieces=pieces,
        abilities=(None,) * n,
        criminal_cards=(None,) * n,
        dealt=((),) * n,
        held=((),) * n,
        positions=tuple(positions),
        handcuffs=(0,) * n,
        out=(False,) * n,
        gw_pos=gw,
        dice=tuple(faces),
        turn=0,
        phase=Phase.ROLLED,
    )


@settings(max_examples=150, deadline=None)
@given(situations())
def test_engine_moves_match_the_brute_force_reading(situation):
    board, positions, gw, faces = situation
    state = _state_for(board, positions, gw, faces)
    usable = sorted({f for f in faces if f != "gw"})
    assert engine_moves(state, 0) == reference_moves(board, positions, 0, gw, usable)


@settings(max_examples=60, deadline=None)
@given(situations())
def test_pass_is_accepted_exactly_when_there_is_no_move(situation):
    board, positions, gw, faces = situation
    state = _state_for(board, positions, gw, faces)
    usable = sorted({f for f in faces if f != "gw"})
    has_move = bool(reference_moves(board, positions, 0, gw, usable))
    try:
        ENGINE.apply(state, {"act": "pass", "by": "red"})
        passed = True
    except IllegalAction as exc:
        passed = False
        assert "can still move" in exc.reason
    assert passed == (not has_move)
