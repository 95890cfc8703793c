"""The journal: every accepted input, durable before its verdict is shown.

One SQLite file per table (WAL, ``synchronous=FULL``). A game is its scenario
header plus an append-only list of inputs: each accepted action, and each
confirmed undo (which takes back the action before it). Replaying the header
and the inputs rebuilds the game exactly, so a power cut at any moment resumes
the same game. Seat tokens are stored with the game so the tablets' links keep
working after a restart.

Two small files beside it bound what damage to the journal can cost:

* ``<journal>.copy`` — a whole copy made with SQLite's backup API at the end of
  every turn (the referee calls :meth:`Journal.backup`) and every
  ``BACKUP_EVERY`` inputs, so a journal that cannot be read loses at most the
  inputs since the last copy;
* ``<journal>.mark`` — the game and sequence number of the last input
  committed, rewritten (and fsynced) after every commit, so an input that
  vanished (a write-ahead log cut short) is noticed and counted instead of the
  game silently resuming earlier.

Both are written by a side thread right after the commit they follow, so
their fsyncs never delay a verdict; :meth:`Journal.flush` waits for them.

Opening a journal checks it first (:mod:`lawmaster.host.journal_recovery`):
:attr:`Journal.damage` then says in words what was wrong, what the table
resumed from and how many inputs must be replayed by hand, or is ``None``.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .journal_files import MARK_BYTES, copy_path, mark_path
from .journal_recovery import clear_report, load_report, recover

log = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    header   TEXT NOT NULL,
    settings TEXT NOT NULL,
    created  REAL NOT NULL,
    closed   INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS inputs (
    game   INTEGER NOT NULL REFERENCES games(id),
    seq    INTEGER NOT NULL,
    kind   TEXT NOT NULL CHECK (kind IN ('action', 'undo')),
    body   TEXT NOT NULL,
    seat   TEXT,
    source TEXT NOT NULL,
    at     REAL NOT NULL,
    PRIMARY KEY (game, seq)
);
CREATE TABLE IF NOT EXISTS tokens (
    game  INTEGER NOT NULL REFERENCES games(id),
    seat  TEXT NOT NULL,
    token TEXT NOT NULL,
    PRIMARY KEY (game, seat)
);
"""

ACTION = "action"
UNDO = "undo"
#: A copy is made at least this often (in inputs), whatever the turns do.
BACKUP_EVERY = 10
#: Seconds the side thread gathers requests before writing the mark and the copy.
GATHER_S = 0.05


@dataclass(frozen=True)
class Entry:
    """One journalled input: an accepted action, or an undo of the action before it."""

    seq: int
    kind: str
    body: dict[str, Any]
    seat: str | None
    source: str


@dataclass
class GameRecord:
    """A game as the journal holds it."""

    id: int
    header: dict[str, Any]
    settings: dict[str, Any]
    tokens: dict[str, str]
    entries: list[Entry] = field(default_factory=list)

    @property
    def last_seq(self) -> int:
        return self.entries[-1].seq if self.entries else 0

    def actions(self) -> list[dict[str, Any]]:
        """The actions in force: every accepted action minus those undone."""
        stack: list[dict[str, Any]] = []
        for entry in self.entries:
            if entry.kind == ACTION:
                stack.append(entry.body)
            elif stack:
                stack.pop()
        return stack


class JournalInUse(RuntimeError):
    """Another process is writing this journal (two hosts would interleave two games)."""


class Journal:
    """The SQLite journal of one table. Safe to share between threads.

    Any number of processes may read it; the first to write claims it (an
    exclusive ``flock`` on ``<path>.lock``, released by the kernel even when the
    process is killed), and any other process that tries to write is refused.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self.copy_path = copy_path(self.path)
        self.mark_path = mark_path(self.path)
        self._claim: int | None = None
        self._mark: int | None = None
        # The mark and the copy are written by a side thread after each commit, so
        # their fsyncs never delay a verdict (see _side_run).
        self._side_cond = threading.Condition()
        self._side_thread: threading.Thread | None = None
        self._want_mark: tuple[int, int] | None = None
        self._want_copy = False
        self._asked = self._done = 0
        self._closing = self._hurry = False
        #: Copies that could not be made (logged; the journal itself still holds everything).
        self.backup_errors = 0
        #: What the start-up check found, now or at an earlier start of the same game
        #: (``None``: the journal was whole).
        self.damage = recover(self.path) or load_report(self.path)
        # One connection guarded by a lock: writes are serialised anyway, and a
        # single connection keeps every commit's fsync in one place.
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(_SCHEMA)

    def close(self) -> None:
        with self._side_cond:
            self._closing = True
            self._side_cond.notify_all()
            thread = self._side_thread
        if thread is not None:
            thread.join(timeout=30)  # the last mark and copy go out first
        with self._lock:
            self._db.close()
            if self._mark is not None:
                os.close(self._mark)
                self._mark = None
            if self._claim is not None:
                os.close(self._claim)
                self._claim = None

    def claim(self) -> None:
        """Become this journal's only writer, or raise :class:`JournalInUse`."""
        if self._claim is not None:
            return
        fd = os.open(self.path + ".lock", os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise JournalInUse(
                f"another Lawmaster process is running the table in {self.path}"
            ) from None
        self._claim = fd
        self._mark = os.open(self.mark_path, os.O_RDWR | os.O_CREAT, 0o644)

    def backup(self) -> None:
        """Ask for a copy of the whole journal (a turn or round ended).

        The copy is made on the journal's side thread, off the path of the
        verdict, with SQLite's backup API; :meth:`flush` waits for it.
        """
        self.claim()
        self._side(backup=True)

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until the mark and the copies asked for so far are on disk."""
        with self._side_cond:
            target = self._asked
            self._hurry = True
            self._side_cond.notify_all()
            return self._side_cond.wait_for(lambda: self._done >= target, timeout)

    def _side(self, *, mark: tuple[int, int] | None = None, backup: bool = False) -> None:
        with self._side_cond:
            if mark is not None:
                self._want_mark = mark
            self._want_copy = self._want_copy or backup
            self._asked += 1
            self._side_cond.notify_all()
            if self._side_thread is None:
                self._side_thread = threading.Thread(
                    target=self._side_run, name="journal-copy", daemon=True
                )
                self._side_thread.start()

    def _side_run(self) -> None:
        """The mark and the copy, written after the commits they follow (latest wins)."""
        while True:
            with self._side_cond:
                self._side_cond.wait_for(
                    lambda: self._want_mark is not None or self._want_copy or self._closing
                )
                # A burst of inputs (a capture and its jailing) costs one mark, not one
                # each: their fsyncs would otherwise contend with the commits' own.
                self._side_cond.wait_for(lambda: self._closing or self._hurry, GATHER_S)
                self._hurry = False
                mark, copy = self._want_mark, self._want_copy
                self._want_mark, self._want_copy = None, False
                asked = self._asked
                if mark is None and not copy and self._closing:
                    return
            try:
                if mark is not None:
                    self._write_mark(*mark)
                if copy:
                    self._copy()
            finally:
                with self._side_cond:
                    self._done = asked
                    self._side_cond.notify_all()

    def _copy(self) -> None:
        """Copy the whole journal to :attr:`copy_path`, durably.

        The copy is written beside the old one and renamed over it, so a crash
        in the middle leaves the previous copy whole. A copy that cannot be made
        is logged and counted (:attr:`backup_errors`), never raised: the input
        it follows is already safe in the journal itself.
        """
        partial = self.copy_path + ".partial"
        try:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(partial)
            target = sqlite3.connect(partial, isolation_level=None)
            try:
                with self._lock:
                    self._db.backup(target)
                # One self-contained file: a copy must not need a write-ahead log of its own.
                target.execute("PRAGMA journal_mode=DELETE")
            finally:
                target.close()
            _fsync(partial)
            os.replace(partial, self.copy_path)
            _fsync(os.path.dirname(os.path.abspath(self.copy_path)))
        except (sqlite3.Error, OSError):
            self.backup_errors += 1
            log.exception("the journal's copy %s could not be made", self.copy_path)

    def _marked(self, game_id: int, seq: int) -> None:
        """Note the last committed input in the mark file (after its commit)."""
        if self._mark is not None:
            self._side(mark=(game_id, seq))

    def _write_mark(self, game_id: int, seq: int) -> None:
        if self._mark is None:
            return
        text = json.dumps({"game": game_id, "seq": seq}).encode()
        os.pwrite(self._mark, text.ljust(MARK_BYTES), 0)
        os.fsync(self._mark)

    # -- writing ---------------------------------------------------------------
    def start_game(
        self, header: Mapping[str, Any], settings: Mapping[str, Any], tokens: Mapping[str, str]
    ) -> GameRecord:
        """Close any open game and start a new one, durably, with its seat tokens."""
        self.claim()
        with self._lock, self._transaction():
            self._db.execute("UPDATE games SET closed = 1 WHERE closed = 0")
            cursor = self._db.execute(
                "INSERT INTO games (header, settings, created) VALUES (?, ?, ?)",
                (_dump(header), _dump(settings), time.time()),
            )
            game_id = int(cursor.lastrowid or 0)
            self._db.executemany(
                "INSERT INTO tokens (game, seat, token) VALUES (?, ?, ?)",
                [(game_id, seat, token) for seat, token in tokens.items()],
            )
        self._marked(game_id, 0)
        self.backup()
        clear_report(self.path)  # a new game: the old one's damage is no longer this table's news
        self.damage = None
        return GameRecord(game_id, dict(header), dict(settings), dict(tokens))

    def append(
        self,
        game_id: int,
        kind: str,
        body: Mapping[str, Any],
        *,
        seat: str | None = None,
        source: str = "tablet",
    ) -> int:
        """Store one input and commit it; returns its sequence number (from 1).

        When this returns, the input is on disk (WAL + ``synchronous=FULL``).
        """
        if kind not in (ACTION, UNDO):
            raise ValueError(f"unknown journal entry kind {kind!r}")
        self.claim()
        with self._lock, self._transaction():
            row = self._db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM inputs WHERE game = ?", (game_id,)
            ).fetchone()
            seq = int(row[0]) + 1
            self._db.execute(
                "INSERT INTO inputs (game, seq, kind, body, seat, source, at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, seq, kind, _dump(body), seat, source, time.time()),
            )
        self._marked(game_id, seq)
        if seq % BACKUP_EVERY == 0:
            self.backup()
        return seq

    def close_game(self, game_id: int) -> None:
        """Mark a game closed: it is no longer the one resumed on start."""
        with self._lock, self._transaction():
            self._db.execute("UPDATE games SET closed = 1 WHERE id = ?", (game_id,))

    # -- reading ---------------------------------------------------------------
    def open_game(self) -> GameRecord | None:
        """The game to resume on start (the newest one not closed), or ``None``."""
        with self._lock:
            row = self._db.execute(
                "SELECT id FROM games WHERE closed = 0 ORDER BY id DESC LIMIT 1"
            ).fetchone()
        return None if row is None else self.game(int(row[0]))

    def game(self, game_id: int) -> GameRecord:
        """Everything stored about one game."""
        with self._lock:
            row = self._db.execute(
                "SELECT header, settings FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            if row is None:
                raise KeyError(f"no game {game_id} in the journal")
            tokens = dict(
                self._db.execute("SELECT seat, token FROM tokens WHERE game = ?", (game_id,))
            )
            rows = self._db.execute(
                "SELECT seq, kind, body, seat, source FROM inputs WHERE game = ? ORDER BY seq",
                (game_id,),
            ).fetchall()
        entries = [Entry(int(s), k, json.loads(b), seat, src) for s, k, b, seat, src in rows]
        return GameRecord(game_id, json.loads(row[0]), json.loads(row[1]), tokens, entries)

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)


class _Transaction:
    """``BEGIN IMMEDIATE`` … ``COMMIT`` (or ``ROLLBACK`` on error) on an autocommit connection."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, value: object, tb: object) -> None:
        self._db.execute("COMMIT" if kind is None else "ROLLBACK")


def _fsync(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _dump(value: Mapping[str, Any]) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
