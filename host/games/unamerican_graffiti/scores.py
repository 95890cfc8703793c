"""Each scrawler's score as Unamerican Graffiti's public view shows it (for the hall screen).

The winner is the player with the best single colour, so a player's score is the
prestige of its best colour: a colour's final score once it has one (an arrest
doubles what is left), else its prestige now. The game hides nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lawmaster.host.plugin import Score


def scores(view: Mapping[str, Any]) -> dict[str, Score]:
    """Seat → score from the public view (``{}`` for a view of another shape)."""
    scrawlers = view.get("scrawlers")
    colours = view.get("colours")
    if not isinstance(scrawlers, Mapping) or not isinstance(colours, Mapping):
        return {}
    best = dict.fromkeys(scrawlers, 0)
    for colour in colours.values():
        player = colour.get("player")
        if player in best:
            final = colour.get("final")
            value = int(final if final is not None else colour.get("prestige", 0))
            best[player] = max(best[player], value)
    return {seat: Score(value, "prestige") for seat, value in best.items()}
