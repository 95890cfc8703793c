"""Measure a Graffiti table: snapshot time per input and board observation → accepted input.

Run: ``python tests/graffiti_table/graffiti_table_measure.py [SEED ...]`` (prints medians,
95th percentiles and maxima in milliseconds over whole simulated games; not a test).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from graffiti_table_support import graffiti_table

from lawmaster.host.games.unamerican_graffiti.players import GraffitiPlayers
from lawmaster.host.runtime import tablet_act
from lawmaster.host.tracker import Moved


def _ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)


def measure(seed: int) -> dict[str, float]:
    """One whole game: every move read from a board observation, every roll typed."""
    table = graffiti_table(Path(tempfile.mkdtemp()), {"board": True}, dredd_roll=seed % 6 + 1)
    players = GraffitiPlayers(table, seed)
    snapshots: list[float] = []
    observations: list[float] = []
    while not table.is_over():
        seat = table.to_act()[0]
        start = time.perf_counter()
        table.snapshot(seat)
        snapshots.append(time.perf_counter() - start)
        decision = players.decide()
        if decision.move is not None and decision.action["act"] in ("move", "judge_move"):
            piece, frm, to, _ = decision.move
            start = time.perf_counter()
            table.referee.observation(Moved(piece, frm, to, (to,), "lifted"))
            observations.append(time.perf_counter() - start)
        else:
            tablet_act(table, decision)
    return {
        "inputs": len(table.actions),
        "snapshot_median_ms": _ms(snapshots, 0.5),
        "snapshot_p95_ms": _ms(snapshots, 0.95),
        "snapshot_max_ms": _ms(snapshots, 1.0),
        "observation_median_ms": _ms(observations, 0.5),
        "observation_p95_ms": _ms(observations, 0.95),
    }


if __name__ == "__main__":
    seeds = [int(s) for s in sys.argv[1:]] or [1, 2, 3]
    for seed in seeds:
        print(seed, measure(seed))
