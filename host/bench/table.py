"""Bench group ``table``: how fast the table takes an input and shows it.

* ``journal_append_p99_ms``: one accepted input stored durably (SQLite WAL,
  ``synchronous=FULL``, a file on disk) — the wait before any verdict shows.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from lawmaster.host.bench import percentile
from lawmaster.host.journal import ACTION, Journal

APPENDS = 400


def journal_append_ms(appends: int = APPENDS) -> list[float]:
    """Milliseconds per durable append, on a journal file in a fresh temporary folder."""
    with tempfile.TemporaryDirectory(prefix="lawmaster-bench-") as folder:
        journal = Journal(Path(folder) / "journal.db")
        game = journal.start_game({"game": "gw-brott"}, {}, {"gw": "t"})
        action = {"act": "move", "by": "red", "die": "3", "to": "C7"}
        times = []
        for _ in range(appends):
            start = time.perf_counter()
            journal.append(game.id, ACTION, action, seat="red", source="board")
            times.append((time.perf_counter() - start) * 1000)
        journal.close()
    return times


def run() -> dict[str, float]:
    """The table group's figures."""
    return {"journal_append_p99_ms": round(percentile(journal_append_ms(), 99), 3)}
