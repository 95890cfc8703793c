"""The arrest chance by brute force, through the engine's own actions only.

Written apart from ``threat.py`` on purpose: every outcome of the dice is
rolled with the engine's ``roll`` action, and every order and choice of Judge
moves is tried from ``legal_actions`` with ``apply``, with no pruning beyond
remembering positions already tried.
"""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product

from lawmaster.rules.unamerican_graffiti import ENGINE


def brute_chance(state, player: str, end: str) -> tuple[Fraction, int, int]:
    """(arrest chance, dice rolled, hexes each Judge moves) for ``player`` moving to ``end``."""
    moved = ENGINE.apply(state, {"act": "move", "by": player, "to": end}).state
    if moved.phase != "roll":
        return Fraction(0), 0, 0
    roller = moved.acting
    seen: dict[str, bool] = {}
    hits = 0
    allowance = 0
    outcomes = list(product(range(1, 7), repeat=moved.moved))
    for faces in outcomes:
        outcome = ENGINE.apply(moved, {"act": "roll", "by": roller, "faces": list(faces)})
        allowance = outcome.events[-1]["hexes_per_judge"]
        hits += _can_arrest(outcome.state, player, seen)
    return Fraction(hits, len(outcomes)), moved.moved, allowance


def _can_arrest(state, player: str, seen: dict[str, bool]) -> bool:
    key = json.dumps(state.to_json(), sort_keys=True)
    if key not in seen:
        seen[key] = False
        for action in ENGINE.legal_actions(state):
            outcome = ENGINE.apply(state, action)
            caught = any(e["type"] == "arrested" and e["player"] == player for e in outcome.events)
            if caught or (
                outcome.state.phase == "judges" and _can_arrest(outcome.state, player, seen)
            ):
                seen[key] = True
                break
    return seen[key]
