"""The card registry: which NTAG sticker (by UID) is on which card, per game, in SQLite.

A sticker's UID is bound to one card of one game, and each card has at most
one sticker: enrolling a card again (a replaced sticker) forgets the old UID,
so the old sticker no longer counts as that card. Safe to use from several
threads (the reader threads ask it whether a UID is known).
"""

from __future__ import annotations

import os
import sqlite3
import threading
from datetime import UTC, datetime
from pathlib import Path

from lawmaster.host.nfc.cards import Card, game_name

_SCHEMA = """
CREATE TABLE IF NOT EXISTS stickers (
    game TEXT NOT NULL,
    card_id TEXT NOT NULL,
    uid TEXT NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    enrolled_at TEXT NOT NULL,
    PRIMARY KEY (game, card_id),
    UNIQUE (game, uid)
);
"""


class StickerInUse(ValueError):
    """The sticker is already another card's; ``card`` is that card."""

    def __init__(self, uid: str, card: Card) -> None:
        super().__init__(f"sticker {uid} is already {card.name} ({card.id})")
        self.uid = uid
        self.card = card


def normalize_uid(uid: bytes | bytearray | str) -> str:
    """A UID as the registry keys it: upper-case hex, no separators."""
    if isinstance(uid, bytes | bytearray):
        return bytes(uid).hex().upper()
    text = uid.replace(":", "").replace(" ", "").replace("-", "").upper()
    bytes.fromhex(text)  # raises ValueError for anything that is not hex
    return text


def default_path() -> Path:
    """Where the registry lives unless told: ``$LAWMASTER_DATA`` or ``~/.local/share/lawmaster``."""
    base = os.environ.get("LAWMASTER_DATA") or Path.home() / ".local" / "share" / "lawmaster"
    return Path(base) / "cards.sqlite"


class CardRegistry:
    """Sticker UID ↔ card, per game, in the SQLite file at ``path`` (``":memory:"`` works)."""

    def __init__(self, path: str | Path) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL" if str(path) != ":memory:" else "SELECT 1")
            self._db.executescript(_SCHEMA)

    def __enter__(self) -> CardRegistry:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()

    def enroll(self, game: str, card: Card, uid: bytes | str) -> str | None:
        """Bind the sticker ``uid`` to ``card``; return the card's previous UID (now forgotten).

        Raises :class:`StickerInUse` if the sticker is another card's.
        """
        game, uid = game_name(game), normalize_uid(uid)
        now = datetime.now(UTC).isoformat(timespec="seconds")
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                other = self._db.execute(
                    "SELECT card_id, name, kind FROM stickers WHERE game = ? AND uid = ?",
                    (game, uid),
                ).fetchone()
                if other is not None and other[0] != card.id:
                    raise StickerInUse(uid, Card(*other))
                row = self._db.execute(
                    "SELECT uid FROM stickers WHERE game = ? AND card_id = ?", (game, card.id)
                ).fetchone()
                self._db.execute(
                    "INSERT OR REPLACE INTO stickers VALUES (?, ?, ?, ?, ?, ?)",
                    (game, card.id, uid, card.name, card.kind, now),
                )
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        previous = row[0] if row else None
        return previous if previous != uid else None

    def card_for(self, game: str, uid: bytes | str) -> Card | None:
        """The card whose sticker has this UID, or ``None``."""
        with self._lock:
            row = self._db.execute(
                "SELECT card_id, name, kind FROM stickers WHERE game = ? AND uid = ?",
                (game_name(game), normalize_uid(uid)),
            ).fetchone()
        return Card(*row) if row else None

    def knows(self, game: str, uid: bytes | str) -> bool:
        """Whether the UID is an enrolled sticker of ``game``."""
        return self.card_for(game, uid) is not None

    def uid_for(self, game: str, card_id: str) -> str | None:
        """The UID of a card's sticker, or ``None`` if it is not enrolled."""
        with self._lock:
            row = self._db.execute(
                "SELECT uid FROM stickers WHERE game = ? AND card_id = ?",
                (game_name(game), card_id),
            ).fetchone()
        return row[0] if row else None

    def forget(self, game: str, card_id: str) -> str | None:
        """Unbind a card's sticker; return the UID it had."""
        uid = self.uid_for(game, card_id)
        with self._lock:
            self._db.execute(
                "DELETE FROM stickers WHERE game = ? AND card_id = ?", (game_name(game), card_id)
            )
        return uid

    def enrolled(self, game: str) -> dict[str, str]:
        """Card id → sticker UID for every enrolled card of ``game``."""
        with self._lock:
            rows = self._db.execute(
                "SELECT card_id, uid FROM stickers WHERE game = ? ORDER BY card_id",
                (game_name(game),),
            ).fetchall()
        return dict(rows)
