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

Every record carries a checksum chained to the one before it
(:mod:`lawmaster.host.journal_checks`). Opening a journal checks every record
first (:mod:`lawmaster.host.journal_recovery`): :attr:`Journal.damage` then says
in words what was wrong, what the table resumed from and how many inputs must
be replayed by hand, or is ``None``. The journal and every file beside it are
readable by the table's own user only (mode 0600): they hold every seat's link.
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

from .journal_checks import SCHEMA, game_check, input_check, migrate
from .journal_files import copy_path, mark_path, private
from .journal_recovery import (
    Damage,
    Holding,
    clear_report,
    game_title,
    load_report,
    mark_text,
    recover,
    save_report,
)

log = logging.getLogger(__name__)


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
        return [entry.body for entry in self.in_force()]

    def in_force(self) -> list[Entry]:
        """The entries of the actions in force (who entered each, and how), in order."""
        stack: list[Entry] = []
        for entry in self.entries:
            if entry.kind == ACTION:
                stack.append(entry)
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
        self._want_mark: tuple[int, int, bool] | None = None
        self._want_copy = False
        self._asked = self._done = 0
        self._closing = self._hurry = False
        #: Copies that could not be made (logged; the journal itself still holds everything).
        self.backup_errors = 0
        #: What the start-up check found, now or at an earlier start of the same game
        #: (``None``: the journal was whole).
        self.damage: Damage | None = recover(self.path) or load_report(self.path)
        # Made private before SQLite creates it: its log and index take its mode.
        private(self.path)
        # One connection guarded by a lock: writes are serialised anyway, and a
        # single connection keeps every commit's fsync in one place.
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)
            migrate(self._db)

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
        fd = os.open(self.path + ".lock", os.O_RDWR | os.O_CREAT, 0o600)
        os.fchmod(fd, 0o600)  # an older installation's lock file too
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise JournalInUse(
                f"another Lawmaster process is running the table in {self.path}"
            ) from None
        self._claim = fd
        self._mark = os.open(self.mark_path, os.O_RDWR | os.O_CREAT, 0o600)
        os.fchmod(self._mark, 0o600)

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

    def _side(self, *, mark: tuple[int, int, bool] | None = None, backup: bool = False) -> None:
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
            private(partial)
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

    def _marked(self, game_id: int, seq: int, closed: bool = False) -> None:
        """Note the last committed input in the mark file (after its commit)."""
        if self._mark is not None:
            self._side(mark=(game_id, seq, closed))

    def _write_mark(self, game_id: int, seq: int, closed: bool = False) -> None:
        if self._mark is None:
            return
        os.pwrite(self._mark, mark_text(game_id, seq, closed), 0)
        os.fsync(self._mark)

    # -- writing ---------------------------------------------------------------
    def start_game(
        self, header: Mapping[str, Any], settings: Mapping[str, Any], tokens: Mapping[str, str]
    ) -> GameRecord:
        """Close any open game and start a new one, durably, with its seat tokens."""
        self.claim()
        with self._lock, self._transaction():
            self._db.execute("UPDATE games SET closed = 1 WHERE closed = 0")
            stored, kept, created = _dump(header), _dump(settings), time.time()
            cursor = self._db.execute(
                "INSERT INTO games (header, settings, created) VALUES (?, ?, ?)",
                (stored, kept, created),
            )
            game_id = int(cursor.lastrowid or 0)
            self._db.executemany(
                "INSERT INTO tokens (game, seat, token) VALUES (?, ?, ?)",
                [(game_id, seat, token) for seat, token in tokens.items()],
            )
            check = game_check(game_id, stored, kept, created, tokens)
            self._db.execute("UPDATE games SET chk = ? WHERE id = ?", (check, game_id))
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
                "SELECT seq, chk FROM inputs WHERE game = ? ORDER BY seq DESC LIMIT 1", (game_id,)
            ).fetchone()
            if row is None:
                game = self._db.execute("SELECT chk FROM games WHERE id = ?", (game_id,)).fetchone()
                # No such game: the insert below fails on its reference, as it should.
                seq, previous = 1, game[0] if game is not None else None
            else:
                seq, previous = int(row[0]) + 1, row[1]
            stored, at = _dump(body), time.time()
            check = input_check(previous or "", game_id, seq, kind, stored, seat, source, at)
            self._db.execute(
                "INSERT INTO inputs (game, seq, kind, body, seat, source, at, chk)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, seq, kind, stored, seat, source, at, check),
            )
        self._marked(game_id, seq)
        if seq % BACKUP_EVERY == 0:
            self.backup()
        return seq

    def close_game(self, game_id: int) -> None:
        """Mark a game closed: it is no longer the one resumed on start."""
        self.claim()
        with self._lock, self._transaction():
            self._db.execute("UPDATE games SET closed = 1 WHERE id = ?", (game_id,))
            row = self._db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM inputs WHERE game = ?", (game_id,)
            ).fetchone()
        # The mark says the table closed it, so the start-up check does not reopen it.
        self._marked(game_id, int(row[0]), closed=True)

    def keep_damage(self, damage: Damage) -> None:
        """Keep saying ``damage`` (at every start, on the screen) until a new game is set up by
        the host: used when nothing of the old game could be read and a game was set up in its
        place."""
        self.damage = damage
        save_report(self.path, damage)

    def cut(self, game_id: int, seq: int, reason: str) -> Damage:
        """The game cannot be replayed past input ``seq``: resume at the input before it.

        Inputs ``seq`` and after are removed, and the report says which and why, in
        words, as the start-up check's does (the journal's own copy, made next,
        then holds the game as it resumes).
        """
        self.claim()
        with self._lock, self._transaction():
            later = self._db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM inputs WHERE game = ?", (game_id,)
            ).fetchone()[0]
            self._db.execute("DELETE FROM inputs WHERE game = ? AND seq >= ?", (game_id, seq))
            row = self._db.execute(
                "SELECT header, created FROM games WHERE id = ?", (game_id,)
            ).fetchone()
        header = json.loads(row[0])
        kept = self.game(game_id)
        before = self.damage
        last = kept.entries[-1] if kept.entries else None
        said = ""
        if last is not None:
            who = last.body.get("by") or last.seat or "the table"
            said = f"#{last.seq} ({who}: {last.body.get('act', 'an input')})"
        holding = Holding(
            before.holding.source if before and before.holding else "journal",
            game_id,
            game_title(header.get("game")),
            float(row[1]),
            seq - 1,
            said,
        )
        said_before = before.problems if before else ()
        problems = (*said_before, f"input {seq} cannot be replayed ({reason})")
        lost = max(int(later), (before.holding.inputs + (before.lost or 0)) if before and
                   before.holding else 0) - (seq - 1)  # fmt: skip
        damage = Damage(
            self.path, problems, holding, max(0, lost), False,
            before.set_aside if before else (),
        )  # fmt: skip
        self._marked(game_id, seq - 1)
        self.backup()
        self.keep_damage(damage)
        return damage

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
        entries = [Entry(int(s), k, _body(b), seat, src) for s, k, b, seat, src in rows]
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


def _body(text: str) -> dict[str, Any]:
    """An input's body; one that is no JSON object (a journal from before checksums, damaged)
    reads as an input no engine takes, so the table resumes before it and says so."""
    try:
        body = json.loads(text)
    except ValueError:
        body = None
    return body if isinstance(body, dict) else {"act": None, "unreadable": str(text)[:40]}


def _dump(value: Mapping[str, Any]) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
