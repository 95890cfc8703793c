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
from collections.abc import Iterator
from dataclasses import dataclass

from . import games
from .journal_files import MARK_BYTES, copy_path, mark_path

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

    source: str  # "journal" or "copy"
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
        else:
            where = "the journal itself" if held.source == "journal" else "its copy"
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


def read_holding(path: str, source: str) -> Holding | str:
    """The newest open game in one journal file, or the reason it cannot be read."""
    try:
        db = sqlite3.connect(path, isolation_level=None)
    except sqlite3.Error as exc:
        return f"SQLite cannot open it ({exc})"
    try:
        check = db.execute("PRAGMA integrity_check").fetchall()
        if check != [("ok",)]:
            return "SQLite's integrity check finds it broken"
        row = db.execute(
            "SELECT id, header, created FROM games WHERE closed = 0 ORDER BY id DESC LIMIT 1"
        ).fetchone()
        if row is None:
            row = db.execute("SELECT id, header, created FROM games ORDER BY id DESC").fetchone()
        if row is None:
            return "it holds no game"
        game_id, header, created = int(row[0]), json.loads(row[1]), float(row[2])
        # Read every table through: a page lost under the seat links must show here,
        # not later as a tablet that cannot open its seat.
        db.execute("SELECT count(*), max(length(token)) FROM tokens").fetchone()
        db.execute("SELECT count(*), max(length(body)) FROM inputs").fetchone()
        last = db.execute(
            "SELECT seq, kind, body, seat FROM inputs WHERE game = ? ORDER BY seq DESC LIMIT 1",
            (game_id,),
        ).fetchone()
    except (sqlite3.Error, ValueError, TypeError) as exc:
        return f"SQLite cannot read it ({exc})"
    finally:
        db.close()
    game = game_title(header.get("game"))
    if last is None:
        return Holding(source, game_id, game, created, 0, "")
    return Holding(source, game_id, game, created, int(last[0]), _describe(last))


def _describe(row: tuple) -> str:
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
    try:
        with open(path, "rb") as f:
            data = json.loads(f.read(256).decode().strip() or "null")
        return int(data["game"]), int(data["seq"])
    except (OSError, ValueError, TypeError, KeyError, UnicodeDecodeError):
        return None


# -- putting things right -------------------------------------------------------
def _write_mark(path: str, game_id: int, seq: int) -> None:

    with open(path, "wb") as f:
        f.write(json.dumps({"game": game_id, "seq": seq}).encode().ljust(MARK_BYTES))
        f.flush()
        os.fsync(f.fileno())


@contextlib.contextmanager
def _writer_lock(path: str) -> Iterator[bool]:
    """Whether this process may repair the journal (no other writer holds it)."""
    fd = os.open(path + ".lock", os.O_RDWR | os.O_CREAT, 0o644)
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
    """Copy the damaged journal files beside it, named by the time."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    kept = []
    for suffix in ("", "-wal"):
        source = path + suffix
        if os.path.exists(source) and os.path.getsize(source):
            target = f"{path}.damaged-{stamp}{suffix}"
            shutil.copyfile(source, target)
            kept.append(target)
    return tuple(kept)


def _remove(path: str) -> None:
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path + suffix)


def _install(source: str, path: str) -> None:
    """Make ``path`` a whole, fresh copy of the readable journal ``source``."""
    partial = path + ".restoring"
    with contextlib.suppress(FileNotFoundError):
        os.unlink(partial)
    src = sqlite3.connect(source, isolation_level=None)
    dst = sqlite3.connect(partial, isolation_level=None)
    try:
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=DELETE")
    finally:
        dst.close()
        src.close()
    _remove(path)
    os.replace(partial, path)


def report_path(path: str) -> str:
    """Where the last damage report of the journal at ``path`` is kept until a new game."""
    return path + ".damage.json"


def save_report(path: str, damage: Damage) -> None:
    """Keep ``damage`` so every start says it again until a new game is set up."""
    data = dataclasses.asdict(damage)
    partial = report_path(path) + ".partial"
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
    except (OSError, ValueError, TypeError, KeyError):
        return None


def clear_report(path: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(report_path(path))


def recover(path: str) -> Damage | None:
    """Check the journal at ``path`` before it is used; repair it if it is damaged."""

    copy, mark_file = copy_path(path), mark_path(path)
    exists = os.path.exists(path)
    if not exists and not os.path.exists(mark_file):
        return None  # a new table
    problems = file_problems(path) if exists else ["the journal file is missing"]
    with _writer_lock(path) as may_repair:
        set_aside = _set_aside(path) if problems and may_repair and exists else ()
        main = read_holding(path, "journal") if exists else "missing"
        kept = read_holding(copy, "copy") if os.path.exists(copy) else None
        mark = read_mark(mark_file)
        best = _best([h for h in (main, kept) if isinstance(h, Holding)], mark)
        lost: int | None = None
        lost_game = False
        if mark is not None and best is not None:
            if best.game_id == mark[0]:
                lost = max(0, mark[1] - best.inputs)
            elif mark[0] > best.game_id:
                lost, lost_game = mark[1], True
        elif mark is not None:
            lost = mark[1]
        if isinstance(main, str) and exists:
            problems.append(main)
        if lost and not problems:
            problems.append(
                f"{_inputs(lost)} it had written are no longer in it"
                " (its write-ahead log lost them)"
            )
        if not problems:
            return None
        if may_repair:
            if not set_aside and exists:
                set_aside = _set_aside(path)
            if best is None:
                _remove(path)
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(mark_file)
            else:
                _install(copy if best.source == "copy" else path, path)
                # The mark now tells what the repaired journal holds: the loss is
                # reported once, here, not again at every start.
                _write_mark(mark_file, best.game_id, best.inputs)
    damage = Damage(path, tuple(problems), best, lost, lost_game, set_aside)
    if may_repair:
        save_report(path, damage)
    return damage


def _best(holdings: list[Holding], mark: tuple[int, int] | None) -> Holding | None:
    """The holding with the marked game, else the newest game; most inputs; the journal on ties."""
    if not holdings:
        return None

    def rank(h: Holding) -> tuple[int, int, int, int]:
        marked = int(mark is not None and h.game_id == mark[0])
        return (marked, h.game_id, h.inputs, int(h.source == "journal"))

    return max(holdings, key=rank)
