"""The journal's checksums: a hash chain over each game's record and every input after it.

Each game row carries ``chk`` = SHA-256 over its id, header, settings, start time
and seat tokens; each input row carries ``chk`` = SHA-256 over the previous row's
``chk`` (the game's, for the first input) and the input's own fields. A changed
byte in any record, a record removed, reordered or renumbered, breaks the chain
at that record, and only there: the next record still chains from what the
damaged one *was*, so a good copy of the damaged record (the journal's copy)
mends the chain and the records after it are kept.

Both the journal (:mod:`lawmaster.host.journal`, when it writes) and its
start-up check (:mod:`lawmaster.host.journal_recovery`, when it reads) use these
functions, so there is one definition of a record's checksum.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass


def _hash(fields: list[object]) -> str:
    text = json.dumps(fields, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def game_check(
    game_id: int, header: str, settings: str, created: float, tokens: Mapping[str, str]
) -> str:
    """The checksum of a game's row (``header`` and ``settings`` as stored, JSON text)."""
    return _hash(["game", game_id, header, settings, repr(float(created)), sorted(tokens.items())])


@dataclass(frozen=True)
class Row:
    """One input row as stored (``body`` the JSON text, ``chk`` its checksum or ``None``)."""

    seq: int
    kind: str
    body: str
    seat: str | None
    source: str
    at: float
    chk: str | None

    def check(self, game_id: int, previous: str) -> str:
        """The checksum this row must carry when the row before it carries ``previous``."""
        return input_check(
            previous, game_id, self.seq, self.kind, self.body, self.seat, self.source, self.at
        )


def input_check(
    previous: str,
    game_id: int,
    seq: int,
    kind: str,
    body: str,
    seat: str | None,
    source: str,
    at: float,
) -> str:
    """The checksum of an input row, chained to ``previous`` (the row before it, or the game)."""
    return _hash(["input", previous, game_id, seq, kind, body, seat, source, repr(float(at))])


def chain(game_id: int, game_chk: str, candidates: list[dict[int, Row]]) -> list[Row]:
    """The longest run of inputs 1, 2, … whose checksums chain from the game's.

    ``candidates`` are the rows of the same game read from several files (the
    journal, its copy), by sequence number; at each step the first one that
    verifies is taken, so a record damaged in one file is taken from another.
    """
    rows: list[Row] = []
    previous = game_chk
    seq = 1
    while True:
        found = None
        for rows_of in candidates:
            row = rows_of.get(seq)
            if row is not None and row.chk is not None and row.check(game_id, previous) == row.chk:
                found = row
                break
        if found is None:
            return rows
        rows.append(found)
        previous = found.chk or ""
        seq += 1


#: The journal's tables. ``chk`` (see above) is ``NULL`` only in a journal written
#: before checksums, until :func:`migrate` fills it in.
SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    header   TEXT NOT NULL,
    settings TEXT NOT NULL,
    created  REAL NOT NULL,
    closed   INTEGER NOT NULL DEFAULT 0,
    chk      TEXT
);
CREATE TABLE IF NOT EXISTS inputs (
    game   INTEGER NOT NULL REFERENCES games(id),
    seq    INTEGER NOT NULL,
    kind   TEXT NOT NULL CHECK (kind IN ('action', 'undo')),
    body   TEXT NOT NULL,
    seat   TEXT,
    source TEXT NOT NULL,
    at     REAL NOT NULL,
    chk    TEXT,
    PRIMARY KEY (game, seq)
);
CREATE TABLE IF NOT EXISTS tokens (
    game  INTEGER NOT NULL REFERENCES games(id),
    seat  TEXT NOT NULL,
    token TEXT NOT NULL,
    PRIMARY KEY (game, seat)
);
"""


def has_checks(db: sqlite3.Connection) -> bool:
    """Whether the journal's tables carry checksums (a journal from before them does not)."""
    games = {row[1] for row in db.execute("PRAGMA table_info(games)")}
    inputs = {row[1] for row in db.execute("PRAGMA table_info(inputs)")}
    return "chk" in games and "chk" in inputs


def migrate(db: sqlite3.Connection) -> None:
    """Give a journal from before checksums its ``chk`` columns, filled in for every record.

    The records are taken as they stand (the start-up check could not verify them);
    from now on every record is checked.
    """
    if has_checks(db):
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        for table in ("games", "inputs"):
            columns = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
            if "chk" not in columns:
                db.execute(f"ALTER TABLE {table} ADD COLUMN chk TEXT")
        games = db.execute("SELECT id, header, settings, created FROM games").fetchall()
        for game_id, header, settings, created in games:
            tokens = dict(db.execute("SELECT seat, token FROM tokens WHERE game = ?", (game_id,)))
            previous = game_check(game_id, header, settings, created, tokens)
            db.execute("UPDATE games SET chk = ? WHERE id = ?", (previous, game_id))
            rows = db.execute(
                "SELECT seq, kind, body, seat, source, at FROM inputs WHERE game = ? ORDER BY seq",
                (game_id,),
            ).fetchall()
            for seq, kind, body, seat, source, at in rows:
                previous = input_check(previous, game_id, seq, kind, body, seat, source, at)
                db.execute(
                    "UPDATE inputs SET chk = ? WHERE game = ? AND seq = ?", (previous, game_id, seq)
                )
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
