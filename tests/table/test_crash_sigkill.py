"""Crash safety: SIGKILL the host at random points of a game; it resumes the same game.

A subprocess runs ``lawmaster demo`` headless (simulated players, tablet
inputs, journal on disk) and prints ``accepted SEQ`` after each journal
commit. The test kills it with SIGKILL at random moments, at least 20 times,
and checks after each kill that every acknowledged input is in the journal
and that the journal is still a prefix of the very same game; then it restarts
the process, which rebuilds the game by replay and plays on. At the end the
finished game must be exactly the game an uninterrupted run plays.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time

import pytest

from lawmaster.host.journal import Journal
from lawmaster.host.table import Table

KILLS = 20
SEED = 7


def _command(journal: str) -> list[str]:
    return [
        sys.executable,
        "-c",
        "from lawmaster.host.cli import main; main()",
        "demo",
        "--no-web",
        "--no-board",
        "--pace",
        "0",
        "--seed",
        str(SEED),
        "--journal",
        journal,
        "--exit-when-over",
        "--print-accepted",
    ]


def _finished(journal: str) -> tuple[list[str] | None, list[dict]]:
    j = Journal(journal)
    try:
        table = Table.resume(j)
        assert table is not None
        return table.export_scenario(), table.actions
    finally:
        j.close()


def _acks(output: bytes) -> list[int]:
    # The last line may be cut in half by the kill: only whole lines count.
    lines = output.decode(errors="replace").split("\n")[:-1]
    return [int(line.split()[1]) for line in lines if line.startswith("accepted ")]


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_crash_sigkill_twenty_times_loses_nothing_and_resumes_the_same_game(tmp_path):
    reference = str(tmp_path / "reference.db")
    run = subprocess.run(_command(reference), capture_output=True, timeout=60)
    assert run.returncode == 0, run.stderr.decode()
    expected, expected_actions = _finished(reference)
    assert expected is not None, "the uninterrupted game did not finish"
    total = len(_acks(run.stdout))
    assert total == len(expected_actions) >= KILLS

    rng = random.Random(SEED)
    journal = str(tmp_path / "crashing.db")
    acknowledged: set[int] = set()
    kills = 0
    while kills < KILLS:
        process = subprocess.Popen(_command(journal), stdout=subprocess.PIPE)
        # Let it acknowledge a few inputs (0: kill during start-up and replay), then kill
        # at a random moment, often in the middle of the next journal commit.
        wanted = rng.choice([0, 1, 2, 3, 4])
        seen = b""
        for _ in range(wanted):
            line = process.stdout.readline()
            if not line:
                break
            seen += line
        time.sleep(rng.uniform(0.0, 0.004))
        os.kill(process.pid, signal.SIGKILL)
        rest, _ = process.communicate(timeout=30)
        if process.returncode != -signal.SIGKILL:
            break  # the game ended before the kill landed
        kills += 1
        acknowledged |= set(_acks(seen + rest))
        record = Journal(journal)
        try:
            game = record.open_game()
            stored = set() if game is None else {e.seq for e in game.entries}
        finally:
            record.close()
        lost = acknowledged - stored
        assert not lost, f"acknowledged inputs lost after kill {kills}: {sorted(lost)}"
        if game is not None:
            _, actions = _finished(journal)
            assert actions == expected_actions[: len(actions)], "the resumed game is another game"
    assert kills >= KILLS, f"the game ended after only {kills} kills"
    finish = subprocess.run(_command(journal), capture_output=True, timeout=60)
    assert finish.returncode == 0, finish.stderr.decode()
    final, actions = _finished(journal)
    assert final == expected
    assert acknowledged <= set(range(1, len(actions) + 1))


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_crash_sigkill_on_the_simulated_board_resumes_with_the_pieces_where_the_game_has_them(
    tmp_path,
):
    """The whole stack (firmware, link, sensing, tracker) killed mid-game, three times."""
    journal = str(tmp_path / "board.db")
    command = [c for c in _command(journal) if c != "--no-board"]
    rng = random.Random(SEED + 1)
    acknowledged: set[int] = set()
    progress = []
    for _ in range(3):
        process = subprocess.Popen(command, stdout=subprocess.PIPE)
        seen = b""
        for _ in range(rng.choice([3, 5, 8])):
            line = process.stdout.readline()
            if not line:
                break
            seen += line
        time.sleep(rng.uniform(0.0, 0.05))
        os.kill(process.pid, signal.SIGKILL)
        rest, _ = process.communicate(timeout=30)
        acks = _acks(seen + rest)
        assert acks, "the resumed game made no progress on the board"
        acknowledged |= set(acks)
        record = Journal(journal)
        try:
            stored = {e.seq for e in record.open_game().entries}
            sources = {e.source for e in record.open_game().entries}
        finally:
            record.close()
        assert acknowledged <= stored
        progress.append(max(acks))
    assert progress == sorted(progress) and len(set(progress)) == 3
    assert "board" in sources
