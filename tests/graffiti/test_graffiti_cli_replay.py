"""The shipped example game replays through the real ``lawmaster`` command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).parents[2] / "examples" / "unamerican-graffiti" / "random-full-game.jsonl"


def _lawmaster(*args: str) -> list[dict]:
    done = subprocess.run(
        [sys.executable, "-m", "lawmaster.host", *args],
        capture_output=True,
        text=True,
        check=True,
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_example_game_replays_to_a_finished_game():
    out = _lawmaster("replay", str(EXAMPLE))
    assert all(r["ok"] for r in out[:-1])
    summary = out[-1]["summary"]
    assert summary["phase"] == "over" and summary["winner"] in ("chopper", "phantom", "draw")


def test_replay_for_a_seat_prints_that_seats_view():
    out = _lawmaster("replay", "--seat", "phantom", str(EXAMPLE))
    assert out[-1]["view"]["seat"] == "phantom"
