"""Simulated racers: each reads its own seat's page and steps its piece on.

A racer takes one of the cells its prompt offers (what its tablet shows): one
further on when there is one, most of the time, else any (a sidestep out of
the other piece's way, or a step back). The hands lift the piece and put it
down on that cell; the board says the rest.
"""

from __future__ import annotations

from typing import Any

from lawmaster.host.plugin import Intent, SeatPort, next_turn

#: How often a racer takes a step forward when it can.
EAGER = 0.7


class RacePlayers:
    """Both racers of one table, deciding through the seats' own pages."""

    def __init__(self, table: SeatPort, seed: int = 0) -> None:
        #: The seats' public pages, the only thing the racers read (see ``Players``).
        self.table = table
        self.seed = seed

    def decide(self) -> Intent | None:
        turn = next_turn(self.table, self.seed)
        if turn is None:
            return None
        seat, rng, snapshot = turn
        here = str(snapshot["view"]["positions"][seat])
        offered: list[dict[str, Any]] = [
            option
            for asked in snapshot["prompts"]
            if asked.get("kind") == "choose_cell"
            for option in asked.get("options") or []
        ]
        if not offered:
            return None
        cells = sorted(str(o["to"]) for o in offered)
        forward = [c for c in cells if int(c[1:]) > int(here[1:])]
        to = rng.choice(forward) if forward and rng.random() < EAGER else rng.choice(cells)
        return Intent(seat, {"act": "move", "by": seat, "to": to}, move=(seat, here, to, ()))
