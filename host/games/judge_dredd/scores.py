"""Each Judge's score as Judge Dredd's public view shows it (for the hall screen).

What a Perp on a score pile is worth stays secret until the end, but how many cards
each pile holds is public: during play a Judge's score is its arrests (cards on its
pile); once the game is over, the points the view then shows.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lawmaster.host.plugin import Score


def scores(view: Mapping[str, Any]) -> dict[str, Score]:
    """Seat → score from the public view (``{}`` for a view of another shape)."""
    judges = view.get("judges")
    if not isinstance(judges, Mapping):
        return {}
    final = view.get("scores")
    if isinstance(final, Mapping):
        return {seat: Score(int(final.get(seat, 0)), "points") for seat in judges}
    return {
        seat: Score(int(judge.get("score_pile_size", 0)), "arrests")
        for seat, judge in judges.items()
        if isinstance(judge, Mapping)
    }
