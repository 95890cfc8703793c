"""The Judges' threat, shown on a scrawler's tablet (beyond the rulebook).

For each hex the scrawler could end its move on, the chance that the
opponent's roll lets some Judge arrest it there. The dice are fair and their
outcomes are enumerated exactly (at most 6³ = 216 of them). A Judge rolled
``k`` times gets ``k`` moves of the allowance each; a Judge that walks onto a
scrawl must spend its next move cleaning. The model moves each Judge alone,
with the other Judges where they stand now, which is what the opponent can do
with any one of them; it does not combine two Judges' moves clearing a way for
each other, so the figure can be a little low in crowded corners.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from itertools import product
from typing import Any

from . import movement
from .state import State


def _reach(state: State, judge: int, allowance: int, moves: int, target: str) -> bool:
    """Whether ``judge`` can end on ``target`` within ``moves`` moves of ``allowance``."""
    frontier = {(state.judges[judge], judge in state.cleaning)}
    for _ in range(moves):
        nxt = set()
        for where, cleaning in frontier:
            if cleaning:
                nxt.add((where, False))
                continue
            moved = replace(state, judges={**state.judges, judge: where})
            for end in movement.judge_moves(moved, judge, allowance):
                if end == target:
                    return True
                nxt.add((end, end in state.scrawls))
        frontier = nxt
    return False


@lru_cache(maxsize=8)
def _outcomes(dice: int) -> tuple[tuple[int, ...], ...]:
    return tuple(product(range(1, 7), repeat=dice))


def arrest_chance(state: State, player: str, end: str, hexes: int, allowance: int) -> float:
    """Probability that ``player``, ending on ``end`` after ``hexes`` hexes, is arrested."""
    if hexes == 0:
        return 0.0
    moved = replace(
        state, scrawlers={**state.scrawlers, player: replace(state.scrawlers[player], position=end)}
    )
    can: dict[tuple[int, int], bool] = {}
    hits = 0
    outcomes = _outcomes(hexes)
    for outcome in outcomes:
        for judge in set(outcome):
            key = (judge, outcome.count(judge))
            if key not in can:
                can[key] = _reach(moved, judge, allowance, key[1], end)
            if can[key]:
                hits += 1
                break
    return hits / len(outcomes)


def threat_for(state: State, player: str) -> dict[str, Any]:
    """Per reachable end hex of ``player``: hexes moved and the arrest chance."""
    pawn = state.scrawlers[player]
    if pawn.position is None:
        return {}
    result = {}
    for end, path in movement.scrawler_moves(state, player).items():
        allowance = state.board.hex(end).prestige if path and state.is_clean_location(end) else 1
        result[end] = {
            "hexes": len(path),
            "judges_move": allowance,
            "arrest_chance": round(arrest_chance(state, player, end, len(path), allowance), 4),
        }
    return result
