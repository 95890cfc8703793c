"""The journal's start-up check: find damage, resume from what is whole, say what is gone.

:func:`recover` runs before the journal is opened for play. It looks at the
files themselves (a header that is not SQLite's, a file cut short or with bytes
after its end, a write-ahead log ending in a partial record), runs SQLite's
integrity check, reads the game to resume, and compares it with the journal's
mark (the last input committed) and its copy (made at every turn's end). When
anything is wrong it keeps the damaged files aside, puts the best whole
version in place, and returns a :class:`Damage` that says, in words a player
reads: which game, the last input still held, and how many inputs to replay
by hand. A whole journal returns ``None``; nothing here raises on bad files.

The report is also kept beside the journal (``<journal>.damage.json``) and
read back at every start until a new game is set up: a table restarted before
anyone read the screen still says what was lost.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import json
import os
import shutil
import sqlite3
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import games
from .journal_checks import SCHEMA, Row, chain, game_check, has_checks, migrate
from .journal_files import MARK_BYTES, copy_path, mark_path, private

_MAGIC = b"SQLite format 3\x00"
_WAL_MAGIC = (0x377F0682, 0x377F0683)
_WAL_HEADER = 32
_FRAME_HEADER = 24

def game_title(slug: object) -> str:
    """How the players call a game (the journal stores its slug)."""
    found = games.games().get(slug) if isinstance(slug, str) else None
    return found.title if found is not None else str(slug)


@dataclass(frozen=True)
class Holding:
    """What one readable journal file holds of the game to resume."""

    source: str  # "journal", "copy", or "journal+copy" (each mended the other)
    game_id: int
    game: str
    created: float
    inputs: int  # the last sequence number held
    last: str  # the last input, in words


@dataclass(frozen=True)
class Damage:
    """What the start-up check found, and what the table resumed from.

    ``lost`` is the number of inputs the journal had committed that are gone
    (``None``: unknown, the mark was unreadable too); ``holding`` is what the
    table resumed from (``None``: nothing could be read, a new game starts).
    """

    journal: str
    problems: tuple[str, ...]
    holding: Holding | None
    lost: int | None
    lost_game: bool = False
    set_aside: tuple[str, ...] = ()

    @property
    def replay_by_hand(self) -> int:
        """How many inputs the players must make again by hand (0 when none or unknown)."""
        return self.lost or 0

    def lines(self) -> list[str]:
        """The report, one plain sentence a line."""
        name = os.path.basename(self.journal)
        out = [f"The journal {name} was damaged: {'; '.join(self.problems)}."]
        held = self.holding
        if held is None:
            out.append("Nothing of the game could be read back, and there was no whole copy.")
            out.append("A new game must be set up.")
            if self.lost:
                out.append(
                    f"The game in play had {_inputs(self.lost)}: set it up again and replay"
                    " them by hand."
                )
        else:
            where = {
                "journal": "the journal itself",
                "copy": "its copy",
                "journal+copy": "the journal and its copy together (each mends the other)",
            }.get(held.source, held.source)
            started = time.strftime("%Y-%m-%d %H:%M", time.localtime(held.created))
            out.append(
                f"Game: {held.game}, started {started}. It resumes from {where}, which holds"
                f" {_inputs(held.inputs)}{', the last one ' + held.last if held.inputs else ''}."
            )
            if self.lost_game:
                out.append(
                    f"A newer game with {_inputs(self.lost or 0)} is gone: set it up again"
                    " and replay it by hand."
                )
            elif self.lost is None:
                out.append("How many inputs came after that is not known: check the board.")
            elif self.lost:
                first, last = held.inputs + 1, held.inputs + self.lost
                span = f"input {first}" if first == last else f"inputs {first} to {last}"
                out.append(
                    f"Gone: {span}. Replay {'it' if self.lost == 1 else 'them'} by hand:"
                    " make those moves again on the board and the tablets."
                )
            else:
                out.append("Nothing accepted is gone.")
        if self.set_aside:
            kept = ", ".join(os.path.basename(p) for p in self.set_aside)
            out.append(f"The damaged files were kept as {kept}.")
        return out

    @property
    def message(self) -> str:
        return " ".join(self.lines())


def _inputs(n: int) -> str:
    return f"{n} input" if n == 1 else f"{n} inputs"


# -- looking at the files ------------------------------------------------------
def file_problems(path: str) -> list[str]:
    """What is wrong with the journal file and its write-ahead log, judged by their bytes."""
    problems: list[str] = []
    size = os.path.getsize(path)
    if size:
        with open(path, "rb") as f:
            header = f.read(100)
        page = int.from_bytes(header[16:18], "big") if len(header) >= 18 else 0
        page = 65536 if page == 1 else page
        if len(header) < 100 or header[:16] != _MAGIC or page < 512 or page & (page - 1):
            problems.append("its first bytes (the header) are not those of a journal")
        else:
            counted = int.from_bytes(header[28:32], "big")
            trusted = header[92:96] == header[24:28] and counted > 0
            expected = counted * page if trusted else size - size % page
            if size < expected:
                problems.append(f"the file is cut short ({size} of its {expected} bytes are left)")
            elif size > expected:
                problems.append(f"{size - expected} bytes of unknown data follow its end")
    wal = path + "-wal"
    wal_size = os.path.getsize(wal) if os.path.exists(wal) else 0
    if wal_size:
        with open(wal, "rb") as f:
            head = f.read(_WAL_HEADER)
        magic = int.from_bytes(head[:4], "big") if len(head) == _WAL_HEADER else 0
        if magic not in _WAL_MAGIC:
            problems.append("its write-ahead log does not start as one")
        else:
            frame = _FRAME_HEADER + int.from_bytes(head[8:12], "big")
            partial = (wal_size - _WAL_HEADER) % frame
            if partial:
                problems.append(
                    f"its write-ahead log ends in a record cut short or padded ({partial} bytes)"
                )
    return problems


@dataclass(frozen=True)
class GameRow:
    """A game's row as one file holds it (``header``/``settings`` as stored JSON text)."""

    id: int
    header: str
    settings: str
    created: float
    closed: bool
    tokens: dict[str, str]
    chk: str | None

    def verified(self, checked: bool) -> bool:
        """Whether the row is what was written (always, in a journal from before checksums)."""
        if not checked:
            return True
        expected = game_check(self.id, self.header, self.settings, self.created, self.tokens)
        return self.chk == expected

    def title(self) -> str:
        try:
            header = json.loads(self.header)
        except ValueError:
            return "an unknown game"
        return game_title(header.get("game") if isinstance(header, dict) else None)


@dataclass
class Reading:
    """What one journal file (the journal, or its copy) still holds, record by record.

    ``problem`` says why the file is not whole (``None``: SQLite finds it whole);
    whatever records could still be read are kept anyway, since each carries its
    checksum and is trusted only if it verifies (:func:`~.journal_checks.chain`).
    """

    source: str
    path: str
    problem: str | None
    checked: bool
    games: dict[int, GameRow] = field(default_factory=dict)
    rows: dict[int, dict[int, Row]] = field(default_factory=dict)

    def newest(self) -> int | None:
        return max(self.games) if self.games else None

    def seen(self, game_id: int) -> int:
        """How many inputs of the game this file shows (verified or not)."""
        return len(self.rows.get(game_id) or {})


def read_file(path: str, source: str, hint: int = 0) -> Reading | str:
    """Everything still readable in one journal file, or the reason nothing is.

    ``hint`` is how many inputs there should be (the mark's count): when SQLite
    cannot read the inputs in one go, they are tried one by one up to there.
    """
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
    except sqlite3.Error as exc:
        return f"SQLite cannot open it ({exc})"
    try:
        try:
            check = db.execute("PRAGMA integrity_check").fetchall()
            problem = None if check == [("ok",)] else "SQLite's integrity check finds it broken"
            checked = has_checks(db)
        except sqlite3.Error as exc:
            return f"SQLite cannot read it ({exc})"
        reading = Reading(source, path, problem, checked)
        chk = "chk" if checked else "NULL"
        try:
            games = db.execute(
                f"SELECT id, header, settings, created, closed, {chk} FROM games"
            ).fetchall()
        except sqlite3.Error as exc:
            return f"SQLite cannot read its games ({exc})"
        for game_id, header, settings, created, closed, game_chk in games:
            try:
                tokens = {
                    str(seat): str(token)
                    for seat, token in db.execute(
                        "SELECT seat, token FROM tokens WHERE game = ?", (game_id,)
                    )
                }
                reading.games[int(game_id)] = GameRow(
                    int(game_id), str(header), str(settings), float(created), bool(closed),
                    tokens, None if game_chk is None else str(game_chk),
                )  # fmt: skip
            except (sqlite3.Error, TypeError, ValueError):
                continue  # this game's record or seat links cannot be read
        for game_id in reading.games:
            reading.rows[game_id] = _rows(db, game_id, chk, hint)
    finally:
        db.close()
    if not reading.games:
        return reading.problem or "it holds no game"
    return reading


def _rows(db: sqlite3.Connection, game_id: int, chk: str, hint: int) -> dict[int, Row]:
    query = f"SELECT seq, kind, body, seat, source, at, {chk} FROM inputs WHERE game = ?"
    try:
        raw = db.execute(query + " ORDER BY seq", (game_id,)).fetchall()
    except sqlite3.Error:
        # Part of the table cannot be read: each input on its own, as far as it goes.
        raw = []
        misses = 0
        seq = 1
        while misses < 3 or seq <= hint:
            try:
                found = db.execute(query + " AND seq = ?", (game_id, seq)).fetchone()
            except sqlite3.Error:
                found = None
            if found is None:
                misses += 1
            else:
                raw.append(found)
                misses = 0
            seq += 1
            if seq > hint + 1000:
                break
    rows: dict[int, Row] = {}
    for seq, kind, body, seat, source, at, row_chk in raw:
        try:
            row = Row(
                int(seq),
                str(kind),
                str(body),
                None if seat is None else str(seat),
                str(source),
                float(at),
                None if row_chk is None else str(row_chk),
            )
        except (TypeError, ValueError):
            continue
        rows.setdefault(row.seq, row)
    return rows


def verified_rows(
    reading: Reading, game_id: int, others: Sequence[Reading] = ()
) -> list[Row]:
    """The game's inputs as far as they verify, from ``reading`` (and ``others`` to mend it)."""
    game = reading.games[game_id]
    candidates = [reading.rows.get(game_id, {})] + [
        o.rows.get(game_id, {}) for o in others if game_id in o.games
    ]
    if not reading.checked:
        # A journal from before checksums: its records as they stand, 1, 2, … while they last.
        rows, seq = [], 1
        while seq in candidates[0]:
            rows.append(candidates[0][seq])
            seq += 1
        return rows
    assert game.chk is not None
    return chain(game_id, game.chk, candidates)


def read_holding(path: str, source: str) -> Holding | str:
    """The newest game in one journal file as far as it verifies, or why it cannot be read."""
    reading = read_file(path, source)
    if isinstance(reading, str):
        return reading
    if reading.problem is not None:
        return reading.problem
    newest = reading.newest()
    assert newest is not None
    game = reading.games[newest]
    if not game.verified(reading.checked):
        return "its record of the game does not match its checksum"
    rows = verified_rows(reading, newest)
    return _holding(source, game, rows)


def _holding(source: str, game: GameRow, rows: list[Row]) -> Holding:
    last = _describe((rows[-1].seq, rows[-1].kind, rows[-1].body, rows[-1].seat)) if rows else ""
    return Holding(source, game.id, game.title(), game.created, len(rows), last)


def _describe(row: tuple[Any, ...]) -> str:
    seq, kind, body, seat = row
    if kind == "undo":
        return f"#{seq} (an undo)"
    try:
        action = json.loads(body)
    except ValueError:
        action = {}
    who = action.get("by") or seat or "the table"
    return f"#{seq} ({who}: {action.get('act', 'an input')})"


def read_mark(path: str) -> tuple[int, int] | None:
    """(game, sequence number) of the last committed input, from the mark file."""
    found = _mark(path)
    return None if found is None else (found[0], found[1])


def _mark(path: str) -> tuple[int, int, bool] | None:
    """(game, sequence number, whether the table closed that game), from the mark file."""
    try:
        with open(path, "rb") as f:
            data = json.loads(f.read(256).decode().strip() or "null")
        return int(data["game"]), int(data["seq"]), bool(data.get("closed", False))
    except (OSError, ValueError, TypeError, KeyError, AttributeError, UnicodeDecodeError):
        return None


# -- putting things right -------------------------------------------------------
def mark_text(game_id: int, seq: int, closed: bool = False) -> bytes:
    """The mark file's content (fixed width)."""
    data: dict[str, object] = {"game": game_id, "seq": seq}
    if closed:
        data["closed"] = True
    return json.dumps(data).encode().ljust(MARK_BYTES)


def _write_mark(path: str, game_id: int, seq: int) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, mark_text(game_id, seq))
        os.fsync(fd)
    finally:
        os.close(fd)


@contextlib.contextmanager
def _writer_lock(path: str) -> Iterator[bool]:
    """Whether this process may repair the journal (no other writer holds it)."""
    fd = os.open(path + ".lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        yield False
        return
    try:
        yield True
    finally:
        os.close(fd)


def _set_aside(path: str) -> tuple[str, ...]:
    """Copy the damaged journal files beside it, named by the time (ours alone to read)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    kept = []
    for suffix in ("", "-wal"):
        source = path + suffix
        if os.path.exists(source) and os.path.getsize(source):
            target = f"{path}.damaged-{stamp}{suffix}"
            private(target)
            shutil.copyfile(source, target)
            kept.append(target)
    return tuple(kept)


def _remove(path: str) -> None:
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path + suffix)


def _rebuild(path: str, base: str | None, game: GameRow, rows: list[Row], checked: bool) -> None:
    """Make ``path`` a whole journal: ``base`` (a file SQLite finds whole, or none) with the
    game to resume put back as it verified (its record, seat links and inputs)."""
    partial = path + ".restoring"
    _remove(partial)
    private(partial)
    dst = sqlite3.connect(partial, isolation_level=None)
    try:
        if base is not None:
            src = sqlite3.connect(base, isolation_level=None)
            try:
                src.backup(dst)
            finally:
                src.close()
        # A file nobody uses until it is renamed into place: written without SQLite's own
        # syncs, then made durable once, whole (below).
        dst.execute("PRAGMA journal_mode=OFF")
        dst.execute("PRAGMA synchronous=OFF")
        dst.executescript(SCHEMA)
        if not checked:
            migrate(dst)
        dst.execute("BEGIN IMMEDIATE")
        dst.execute("DELETE FROM inputs WHERE game = ?", (game.id,))
        dst.execute("DELETE FROM tokens WHERE game = ?", (game.id,))
        dst.execute("DELETE FROM games WHERE id = ?", (game.id,))
        # Every other game is closed: the one put back is the game to resume.
        dst.execute("UPDATE games SET closed = 1 WHERE closed = 0")
        dst.execute(
            "INSERT INTO games (id, header, settings, created, closed, chk)"
            " VALUES (?, ?, ?, ?, 0, ?)",
            (game.id, game.header, game.settings, game.created, game.chk),
        )
        dst.executemany(
            "INSERT INTO tokens (game, seat, token) VALUES (?, ?, ?)",
            [(game.id, seat, token) for seat, token in game.tokens.items()],
        )
        dst.executemany(
            "INSERT INTO inputs (game, seq, kind, body, seat, source, at, chk)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(game.id, r.seq, r.kind, r.body, r.seat, r.source, r.at, r.chk) for r in rows],
        )
        dst.execute("COMMIT")
        if not checked:
            # The records put back were written before checksums: give them theirs now.
            dst.execute("UPDATE games SET chk = NULL WHERE id = ?", (game.id,))
            _fill_checks(dst, game.id)
        dst.execute("PRAGMA journal_mode=DELETE")
    finally:
        dst.close()
    os.chmod(partial, 0o600)
    fd = os.open(partial, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    _remove(path)
    os.replace(partial, path)


def _fill_checks(db: sqlite3.Connection, game_id: int) -> None:
    header, settings, created = db.execute(
        "SELECT header, settings, created FROM games WHERE id = ?", (game_id,)
    ).fetchone()
    tokens = dict(db.execute("SELECT seat, token FROM tokens WHERE game = ?", (game_id,)))
    previous = game_check(game_id, header, settings, created, tokens)
    db.execute("BEGIN IMMEDIATE")
    db.execute("UPDATE games SET chk = ? WHERE id = ?", (previous, game_id))
    for seq, kind, body, seat, source, at in db.execute(
        "SELECT seq, kind, body, seat, source, at FROM inputs WHERE game = ? ORDER BY seq",
        (game_id,),
    ).fetchall():
        previous = Row(seq, kind, body, seat, source, at, None).check(game_id, previous)
        db.execute("UPDATE inputs SET chk = ? WHERE game = ? AND seq = ?", (previous, game_id, seq))
    db.execute("COMMIT")


def report_path(path: str) -> str:
    """Where the last damage report of the journal at ``path`` is kept until a new game."""
    return path + ".damage.json"


def save_report(path: str, damage: Damage) -> None:
    """Keep ``damage`` so every start says it again until a new game is set up."""
    data = dataclasses.asdict(damage)
    partial = report_path(path) + ".partial"
    private(partial)
    with open(partial, "w", encoding="utf-8") as f:
        json.dump(data, f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(partial, report_path(path))


def load_report(path: str) -> Damage | None:
    """The damage report kept for the journal at ``path`` (``None``: none, or unreadable)."""
    try:
        with open(report_path(path), encoding="utf-8") as f:
            data = json.load(f)
        held = data.pop("holding")
        data["problems"] = tuple(data["problems"])
        data["set_aside"] = tuple(data["set_aside"])
        return Damage(**data, holding=None if held is None else Holding(**held))
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None


def clear_report(path: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(report_path(path))


@dataclass(frozen=True)
class _Plan:
    """What the start-up check resumes: a game (as it verified) and its inputs."""

    game: GameRow
    rows: list[Row]
    source: str  # "journal", "copy", or "journal+copy"
    checked: bool
    base: str | None  # the whole file the repaired journal is built on


def recover(path: str) -> Damage | None:
    """Check the journal at ``path`` before it is used; repair it if it is damaged.

    Every record is verified (:mod:`.journal_checks`), not only the last. A
    damaged record is taken from the copy when the copy holds it whole, and the
    records after it are kept; otherwise the game resumes at the last good
    record. Nothing here raises on bad files: the answer is a :class:`Damage`
    in words, or ``None`` when the journal is whole.
    """
    copy, mark_file = copy_path(path), mark_path(path)
    exists = os.path.exists(path)
    if not exists and not os.path.exists(mark_file):
        return None  # a new table
    for name in (path, path + "-wal", path + "-shm", copy, mark_file):
        # Older versions left these readable by everyone; they hold every seat's link.
        with contextlib.suppress(OSError):
            os.chmod(name, 0o600)
    mark = _mark(mark_file)
    hint = mark[1] if mark is not None else 0
    problems = file_problems(path) if exists else ["the journal file is missing"]
    main = read_file(path, "journal", hint) if exists else "the journal file is missing"
    if not problems and isinstance(main, Reading) and _whole(main, mark):
        return None
    with _writer_lock(path) as may_repair:
        set_aside = _set_aside(path) if problems and may_repair and exists else ()
        kept = read_file(copy, "copy", hint) if os.path.exists(copy) else None
        readings = [r for r in (main, kept) if isinstance(r, Reading)]
        if isinstance(main, str) and exists:
            problems.append(main)
        elif isinstance(main, Reading) and main.problem is not None:
            problems.append(main.problem)
        plan = _plan(readings, mark, problems)
        lost: int | None = None
        lost_game = False
        if plan is None:
            lost = mark[1] if mark is not None else None
        else:
            seen = max((r.seen(plan.game.id) for r in readings), default=0)
            if mark is not None and mark[0] > plan.game.id:
                lost, lost_game = mark[1], True
            elif mark is not None and mark[0] == plan.game.id:
                lost = max(0, mark[1] - len(plan.rows))
            elif mark is not None:
                lost = max(0, seen - len(plan.rows))  # the mark is older than this game
        if plan is not None and lost and not problems:
            problems.append(
                f"{_inputs(lost)} it had written are no longer in it"
                " (its write-ahead log lost them)"
            )
        if not problems:
            return None
        holding = None if plan is None else _holding(plan.source, plan.game, plan.rows)
        if may_repair:
            if not set_aside and exists:
                set_aside = _set_aside(path)
            if plan is None:
                _remove(path)
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(mark_file)
            else:
                _rebuild(path, plan.base, plan.game, plan.rows, plan.checked)
                # The mark now tells what the repaired journal holds: the loss is
                # reported once, here, not again at every start.
                _write_mark(mark_file, plan.game.id, len(plan.rows))
    damage = Damage(path, tuple(problems), holding, lost, lost_game, set_aside)
    if may_repair:
        save_report(path, damage)
    return damage


def _whole(main: Reading, mark: tuple[int, int, bool] | None) -> bool:
    """Whether the journal alone is whole: SQLite's check, every record of the game to
    resume verified, and as many inputs as the mark says were written."""
    if main.problem is not None:
        return False
    newest = main.newest()
    if newest is None:
        return False
    game = main.games[newest]
    if not game.verified(main.checked):
        return False
    rows = verified_rows(main, newest)
    if len(rows) != main.seen(newest):
        return False
    if mark is None:
        return True
    marked, seq, closed = mark
    if marked > newest:
        return False
    if marked == newest:
        # Closed by the table (the mark says so), or open as the journal says.
        return seq <= len(rows) and (closed or not game.closed)
    return True


def _plan(
    readings: list[Reading], mark: tuple[int, int, bool] | None, problems: list[str]
) -> _Plan | None:
    """The game to resume and its inputs, as far as the journal and its copy verify."""
    main = next((r for r in readings if r.source == "journal"), None)
    # Records without checksums (a journal from before them) are trusted only from a
    # file SQLite finds whole: nothing else tells a damaged one from a good one.
    usable = [r for r in readings if r.checked or r.problem is None]
    verified: dict[int, tuple[Reading, GameRow]] = {}
    for reading in usable:
        for game_id, game in reading.games.items():
            if game_id not in verified and game.verified(reading.checked):
                verified[game_id] = (reading, game)
    if main is not None:
        newest = main.newest()
        if newest is not None and not main.games[newest].verified(main.checked):
            problems.append("its record of the game does not match its checksum")
    if not verified:
        return None
    game_id = max(verified)
    reading, game = verified[game_id]
    others = [r for r in usable if r is not reading and game_id in r.games]
    if reading.checked:
        rows = verified_rows(reading, game_id, others)
    else:
        # Before checksums: the file holding the most inputs of the game (the journal on ties).
        best = max([reading, *others], key=lambda r: (r.seen(game_id), r.source == "journal"))
        rows = verified_rows(best, game_id)
    if main is not None and game_id in main.games and main.checked:
        alone = verified_rows(main, game_id) if main.games[game_id].verified(True) else []
        if len(alone) < main.seen(game_id):
            bad = len(alone) + 1
            if bad in main.rows.get(game_id, {}):
                problems.append(f"input {bad} does not match its checksum (it was changed)")
            else:
                problems.append(f"input {bad} cannot be read")
    if mark is not None and mark[0] == game_id and game.closed and not mark[2]:
        problems.append("the game was marked as finished although the table had not finished it")
    whole = sorted((r for r in usable if r.problem is None), key=lambda r: r.source != "journal")
    base = whole[0].path if whole else None
    return _Plan(game, rows, _source_of(rows, game_id, usable), reading.checked, base)


def _source_of(rows: list[Row], game_id: int, readings: list[Reading]) -> str:
    """Which file the resumed inputs come from: one of them whole, or both together."""

    def holds_all(source: str) -> bool:
        found = [r for r in readings if r.source == source]
        return bool(found) and all(found[0].rows.get(game_id, {}).get(x.seq) == x for x in rows)

    if holds_all("copy") and rows:
        return "copy"
    if holds_all("journal"):
        return "journal"
    return "journal+copy"
