"""What the NFC readers tell the referee.

A reader thread reports :class:`TagTapped`, :class:`TagRemoved` and
:class:`ReaderStatus`; :class:`~lawmaster.host.nfc.table.TableReaders` turns
taps into :class:`CardTapped`, :class:`CardRemoved` or :class:`UnknownTag` with
the card registry. ``seat`` is the seat whose reader saw it, or ``None`` for a
shared table reader. ``at`` is ``time.monotonic()`` when the reader saw it.
"""

from __future__ import annotations

from dataclasses import dataclass

from lawmaster.host.nfc.cards import Card
from lawmaster.host.nfc.tagdata import TagCardId


@dataclass(frozen=True)
class TagTapped:
    """A tag arrived on a reader (reported once, however long it lies there)."""

    reader: str
    seat: str | None
    uid: str
    at: float
    #: The card id in the tag's memory, read only when the reader was asked to.
    tag_id: TagCardId | None = None


@dataclass(frozen=True)
class TagRemoved:
    """The tag left the reader (or another tag took its place)."""

    reader: str
    seat: str | None
    uid: str
    at: float


@dataclass(frozen=True)
class ReaderStatus:
    """A reader came online or went offline (unplugged, not answering)."""

    reader: str
    seat: str | None
    online: bool
    detail: str
    at: float


@dataclass(frozen=True)
class CardTapped:
    """A known card was tapped. ``source``: ``"registry"`` (by UID) or ``"tag"`` (its memory)."""

    game: str
    card: Card
    uid: str
    reader: str
    seat: str | None
    source: str
    at: float


@dataclass(frozen=True)
class CardRemoved:
    """A tag left a reader; ``card`` is ``None`` if it was not a known card."""

    game: str
    card: Card | None
    uid: str
    reader: str
    seat: str | None
    at: float


@dataclass(frozen=True)
class UnknownTag:
    """A tag that is no card of this game; ``message`` says so for the players. Changes nothing."""

    game: str
    uid: str
    reader: str
    seat: str | None
    message: str
    at: float


ReaderEvent = TagTapped | TagRemoved | ReaderStatus
CardEvent = CardTapped | CardRemoved | UnknownTag | ReaderStatus
