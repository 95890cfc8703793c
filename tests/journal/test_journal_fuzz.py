"""200 random corruptions of a journal holding a real game: the table always starts.

Each case damages the journal of a real GW:s brott game once: one byte of the
file flipped (anywhere: SQLite's own pages, a record, free space), or one record
changed through SQLite with its structure intact (a body, a seat, a kind, a
sequence number, a record deleted, the game's header or a seat token). Then the
table starts as ``lawmaster run`` starts it (:func:`open_host`). Every start must
end in the same game resumed, or a shorter one with a report that says exactly
how many inputs to replay by hand, or a new game with a report that nothing of
the old one could be read: never an exception, never a silently shorter game.
"""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest
from journal_games import SETTINGS, Played, play

from lawmaster.host.games.gw_brott.setup import DEMO_HEADER
from lawmaster.host.runtime import open_host

CASES = 200
SEED = 20


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Played:
    return play(tmp_path_factory.mktemp("fuzz-game"), 30)


def _flip_byte(path: Path, rng: random.Random) -> str:
    data = bytearray(path.read_bytes())
    at = rng.randrange(len(data))
    data[at] ^= rng.randrange(1, 256)
    path.write_bytes(bytes(data))
    return f"byte {at} of {path.name}"


def _change_record(path: Path, rng: random.Random) -> str:
    db = sqlite3.connect(path)
    try:
        seqs = [s for (s,) in db.execute("SELECT seq FROM inputs ORDER BY seq")]
        seq = rng.choice(seqs)
        how = rng.choice(["body", "body", "seat", "kind", "seq", "delete", "header", "token"])
        if how == "body":
            (body,) = db.execute("SELECT body FROM inputs WHERE seq = ?", (seq,)).fetchone()
            at = rng.randrange(len(body))
            changed = body[:at] + rng.choice('0123456789"{}:,abcdefQ') + body[at + 1 :]
            db.execute("UPDATE inputs SET body = ? WHERE seq = ?", (changed, seq))
        elif how == "seat":
            db.execute("UPDATE inputs SET seat = ? WHERE seq = ?", (rng.choice(["gw", "red"]), seq))
        elif how == "kind":
            db.execute("UPDATE inputs SET kind = 'undo' WHERE seq = ?", (seq,))
        elif how == "seq":
            db.execute("UPDATE inputs SET seq = ? WHERE seq = ?", (max(seqs) + 5, seq))
        elif how == "delete":
            db.execute("DELETE FROM inputs WHERE seq = ?", (seq,))
        elif how == "header":
            (header,) = db.execute("SELECT header FROM games ORDER BY id DESC").fetchone()
            changed = json.loads(header)
            changed["criminals"] = ["red"]
            db.execute("UPDATE games SET header = ?", (json.dumps(changed),))
        else:
            db.execute("UPDATE tokens SET token = 'stolen' WHERE seat = 'red'")
        db.commit()
        return f"{how} of input {seq}"
    finally:
        db.close()


def test_journal_fuzz_every_start_resumes_or_says_what_was_lost(played, tmp_path):
    rng = random.Random(SEED)
    outcomes = {"untouched": 0, "mended, said": 0, "shorter, said": 0, "new game, said": 0}
    for case in range(CASES):
        folder = tmp_path / str(case)
        folder.mkdir()
        path = played.fresh(folder)
        if rng.random() < 0.25:
            Path(f"{path}.copy").unlink()  # a table whose copy is gone too
        if rng.random() < 0.5:
            copy = Path(f"{path}.copy")
            target = copy if copy.exists() and rng.random() < 0.15 else path
            what = _flip_byte(target, rng)
        else:
            what = _change_record(path, rng)
        try:
            host = open_host(str(path), SETTINGS, DEMO_HEADER)
        except Exception as exc:  # noqa: BLE001 - the failure this test exists to catch
            pytest.fail(f"case {case} ({what}): the table did not start: {exc!r}")
        try:
            damage = host.journal.damage
            table = host.table
            assert table is not None, what
            held = [(e.seq, e.kind, json.dumps(e.body, sort_keys=True))
                    for e in table.record.entries]  # fmt: skip
            if damage is None:
                assert held == list(played.entries), f"case {case} ({what}): silently changed"
                outcomes["untouched"] += 1
                continue
            said = damage.message
            assert "Traceback" not in said and said, what
            if damage.holding is None:
                assert "A new game must be set up" in said, (what, said)
                assert table.actions == [] and damage.lost == played.committed, (what, said)
                outcomes["new game, said"] += 1
                continue
            # What resumed is the game as it was, up to some input, and the rest is named.
            assert held == list(played.entries[: len(held)]), f"case {case} ({what}): changed"
            assert damage.holding.inputs == len(held), (what, said)
            assert damage.lost == played.committed - len(held), (what, said)
            if damage.lost:
                assert "by hand" in said, (what, said)
                outcomes["shorter, said"] += 1
            else:
                outcomes["mended, said"] += 1
        finally:
            host.journal.close()
    print(outcomes)
    assert sum(outcomes.values()) == CASES
    # The corruptions reached every kind of outcome, so the test exercised each path.
    assert all(outcomes.values()), outcomes
