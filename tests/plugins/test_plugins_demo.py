"""The race on the simulated table: ``lawmaster demo`` plays it to the end from the board.

The real command in a subprocess, with the game installed only through its
entry point: the demo calibrates the race's simulated board from its sensor
map, the simulated racers lift and put down their magnets, the firmware scans
the hall sensors, and the referee reads every move from the tracker. The
journal records where each input came from.
"""

from __future__ import annotations

import json
from pathlib import Path

from plugins_support import SLUG, lawmaster

from lawmaster.host import games
from lawmaster.host.journal import Journal
from lawmaster.rules.core.replay import replay

SEED = 3


def test_plugins_demo_referees_the_race_to_its_end_from_the_board(
    toy_env: dict[str, str], toy: Path, tmp_path: Path
):
    journal = tmp_path / "journal.db"
    done = lawmaster(
        "demo", "--game", SLUG, "--seed", str(SEED), "--pace", "0", "--port", "0",
        "--exit-when-over", "--print-accepted", "--journal", str(journal),
        env=toy_env, timeout=150,
    )  # fmt: skip
    lines = done.stdout.splitlines()
    over = [json.loads(line) for line in lines if line.startswith('{"over"')]
    assert len(over) == 1, done.stdout + done.stderr
    summary = over[0]["summary"]
    winner = summary["winner"]
    assert winner in ("red", "blue") and summary["positions"][winner].endswith("4")

    opened = Journal(journal)
    record = opened.open_game()
    opened.close()
    assert record is not None and record.header["game"] == SLUG
    assert record.header == {"game": SLUG, "first": ("red", "blue")[SEED % 2]}
    entries = record.entries
    accepted = [line for line in lines if line.startswith("accepted ")]
    assert accepted == [f"accepted {e.seq}" for e in entries] and len(entries) >= 3
    # Every move of the race came from the board: a magnet lifted and put down.
    assert {(e.kind, e.source) for e in entries} == {("action", "board")}
    assert [e.seat for e in entries] == [e.body["by"] for e in entries]

    # The journalled game is a scenario: replayed, it ends as the demo said.
    scenario = [json.dumps(record.header), *(json.dumps(e.body) for e in entries)]
    results = list(replay(scenario, engines=games.engine_for))
    assert all(r["ok"] for r in results[:-1])
    assert results[-1] == {"summary": summary}
