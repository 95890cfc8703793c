"""What the table knows about its own hardware, and whether the board can be trusted.

One :class:`Health` per table collects, from whatever thread reports it:

* the scanner link's state (:class:`~lawmaster.host.link.LinkStatus`) read as
  *not connected yet*, *connected*, *lost* and *back*, with the link's counters
  (:class:`~lawmaster.host.link.LinkStats`, pulled when shown) and the scan rate;
* each NFC reader online or offline (:class:`~lawmaster.host.nfc.events.ReaderStatus`);
* flagged sensor channels, each from a source: the host's own watch during play
  (:class:`~lawmaster.host.sensing.faults.ChannelWatch`) or the scanner's
  self-test (:meth:`Health.channel_faults_reported`);
* what the journal's start-up check found;
* the MQTT broker the table publishes to, if any (:meth:`Health.broker_status`).

:meth:`Health.blind` says why the board cannot be trusted now (``None``: it can):
the scanner is not delivering scans, or a flagged channel lies under a board
space. Every flagged channel under a space counts, not only those under an
occupied one: whether a hidden criminal stands on a cell is a secret, and a
pause that happened only when one did would tell GW where. The referee pauses
while the board is blind (:mod:`lawmaster.host.referee`).

:meth:`Health.for_seat` is what a seat's page shows, in words only: a banner
for each problem that concerns that seat, and for the table screen the whole
panel. Listeners in :attr:`Health.on_change` are called after every change,
outside the lock.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .sensing.faults import ChannelFault, self_test_faults
from .ui.text import Text, joined, sentence, told, told_n

log = logging.getLogger(__name__)

TABLE_SEAT = "table"

#: Link states (``LinkStatus.state``) in which scans reach the host.
_FLOWING = "ready"


@dataclass(frozen=True)
class ReaderState:
    """One NFC reader as last reported."""

    name: str
    seat: str | None
    online: bool | None  # None: not reported yet
    detail: str = ""
    since: float = 0.0


class Health:
    """The table's hardware health (see the module docstring). Thread-safe."""

    def __init__(self, sensor_map: Any = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.map = sensor_map
        self.clock = clock
        self._lock = threading.RLock()
        self.on_change: list[Callable[[], None]] = []
        #: Whether this table reads a board at all (tablet-only tables are never blind).
        self.board = False
        self.scanner = "not connected yet"
        self.scanner_detail = ""
        self.scanner_since = clock()
        self._was_ready = False
        self.reconnects = 0
        self._stats: Callable[[], Any] | None = None
        #: Scans per second over the last whole second of scan time.
        self.scan_rate: float | None = None
        self.readers: dict[str, ReaderState] = {}
        self._faults: dict[str, dict[int, ChannelFault]] = {}
        self.journal: Any = None
        #: The broker connection (a :class:`~lawmaster.host.mqtt.BrokerStatus`), if any.
        self.broker: Any = None
        self.broker_since = clock()
        #: (piece, seat) → may that seat learn where the piece stands (see ChannelFault.piece).
        self.may_know: Callable[[str, str], bool] = lambda piece, seat: False

    # -- reports in ----------------------------------------------------------------
    def watch_link(self, stats: Callable[[], Any]) -> None:
        """The table reads a board through a link whose counters are ``stats()``."""
        with self._lock:
            self.board = True
            self._stats = stats
            # A new link (a new game's board) starts afresh: not "back" from the old one.
            self.scanner, self.scanner_detail = "not connected yet", ""
            self._was_ready = False
            self.reconnects = 0
            self.scan_rate = None
        self._changed()

    def link_status(self, status: Any) -> None:
        """A :class:`~lawmaster.host.link.LinkStatus` from the link's thread."""
        state = getattr(status, "state", str(status))
        with self._lock:
            if state == _FLOWING:
                words = "back" if self._was_ready else "connected"
                if self._was_ready:
                    self.reconnects += 1
                self._was_ready = True
            elif state == "incompatible":
                words = "answering in a protocol this table cannot read"
            elif state == "stopped":
                words = "stopped"
            else:
                words = "lost" if self._was_ready else "not connected yet"
            if words == self.scanner:
                return
            self.scanner = words
            self.scanner_detail = getattr(status, "detail", "")
            self.scanner_since = self.clock()
            if state != _FLOWING:
                self.scan_rate = None
        self._changed()

    def add_reader(self, name: str, seat: str | None) -> None:
        """A reader the table has (reported offline until it first answers)."""
        with self._lock:
            self.readers.setdefault(name, ReaderState(name, seat, None, "", self.clock()))
        self._changed()

    def reader_status(self, event: Any) -> None:
        """A :class:`~lawmaster.host.nfc.events.ReaderStatus` from a reader's thread."""
        with self._lock:
            old = self.readers.get(event.reader)
            if old is not None and old.online == event.online:
                return
            self.readers[event.reader] = ReaderState(
                event.reader, event.seat, event.online, event.detail, self.clock()
            )
        self._changed()

    def channel_faults(self, source: str, flagged: Mapping[int, ChannelFault]) -> None:
        """The channels ``source`` flags now (replacing what it flagged before)."""
        with self._lock:
            if self._faults.get(source, {}) == dict(flagged):
                return
            self._faults[source] = dict(flagged)
        self._changed()

    def channel_faults_reported(self, *, source: str, failed: Mapping[int, str]) -> None:
        """A report naming failed channels and their reasons (e.g. the scanner's self-test)."""
        self.channel_faults(source, self_test_faults(failed, self.map, self.clock()))

    def journal_damage(self, damage: Any) -> None:
        """What the journal's start-up check found (a ``journal_recovery.Damage``)."""
        with self._lock:
            self.journal = damage
        self._changed()

    def broker_status(self, status: Any, push: bool = True) -> None:
        """The broker connection's state, from the publisher's sender (not the board's
        business: the referee never pauses for it). ``push=False``: only its counts
        changed; shown with the next change, like the scan rate."""
        with self._lock:
            if self.broker is None or self.broker.state != status.state:
                self.broker_since = self.clock()
            self.broker = status
        if push:
            self._changed()

    def set_scan_rate(self, rate: float) -> None:
        """The scans counted in the last second (not pushed: shown with the next change)."""
        self.scan_rate = rate

    # -- questions -----------------------------------------------------------------
    def faults(self) -> list[ChannelFault]:
        """Every flagged channel, by channel (one entry per channel, the first source wins)."""
        with self._lock:
            merged: dict[int, ChannelFault] = {}
            for source in sorted(self._faults):
                for ch, fault in self._faults[source].items():
                    merged.setdefault(ch, fault)
        return [merged[ch] for ch in sorted(merged)]

    def blind(self, seat: str | None = None) -> str | None:
        """Why the board cannot be trusted now, in words (for ``seat``), or ``None``."""
        with self._lock:
            if not self.board:
                return None
            if self.scanner not in ("connected", "back"):
                return told("the scanner under the board is %(state)s", state=_state(self.scanner))
            under = [f for f in self.faults() if f.space is not None]
        if not under:
            return None
        words = joined("; ", dict.fromkeys(self._fault_words(f, seat) for f in under[:3]))
        if len(under) > 3:
            return told_n(
                "%(faults)s and %(num)d more",
                "%(faults)s and %(num)d more",
                len(under) - 3,
                faults=words,
            )
        return words

    def _fault_words(self, fault: ChannelFault, seat: str | None) -> str:
        named = fault.piece is None or (seat is not None and self.may_know(fault.piece, seat))
        return fault.words(name_cell=named)

    # -- what the pages show -----------------------------------------------------------
    def for_seat(self, seat: str) -> dict[str, Any]:
        """``{"banner": [sentences], "panel": [[label, words, trouble], ...]}`` (panel: table)."""
        banner: list[str] = []
        reason = self.blind(seat)
        # The table screen says it in its status line and its panel: no banner twice.
        if reason is not None and seat != TABLE_SEAT:
            banner.append(told("The board is blind: %(why)s. The referee has paused.", why=reason))
        with self._lock:
            readers = list(self.readers.values())
            journal = self.journal
        for reader in readers:
            concerned = seat == TABLE_SEAT or reader.seat is None or reader.seat == seat
            if reader.online is False and concerned:
                if reader.seat is None:
                    banner.append(
                        told(
                            "The card reader at the table is offline:"
                            " cards laid on it are not read."
                        )
                    )
                else:
                    banner.append(
                        told(
                            "The card reader of %(seat)s is offline:"
                            " cards laid on it are not read.",
                            seat=reader.seat,
                        )
                    )
        if journal is not None and journal.holding is None:
            banner.append(
                told(
                    "The journal could not be read back: the game in play is lost and a new"
                    " one was set up. Set the game up again and replay it by hand (the table"
                    " screen says what was lost)."
                )
            )
        elif journal is not None and journal.replay_by_hand:
            banner.append(
                told_n(
                    "The journal lost %(num)d input(s) and resumed from what was whole: replay"
                    " them by hand (the table screen says which).",
                    "The journal lost %(num)d input(s) and resumed from what was whole: replay"
                    " them by hand (the table screen says which).",
                    int(journal.replay_by_hand),
                )
            )
        view: dict[str, Any] = {"banner": banner}
        if seat == TABLE_SEAT:
            view["panel"] = self.panel()
        return view

    def panel(self) -> list[list[Any]]:
        """The table screen's health panel: rows of [label, words, trouble] a player reads
        at a glance (``trouble``: whether the row tells of something wrong)."""
        rows: list[list[Any]] = []
        with self._lock:
            board, scanner, detail = self.board, self.scanner, self.scanner_detail
            since, rate, stats = self.scanner_since, self.scan_rate, self._stats
            readers = sorted(self.readers.values(), key=lambda r: (r.seat or "", r.name))
            journal = self.journal
            broker, broker_for = self.broker, self.clock() - self.broker_since
        if board:
            words: str = _state(scanner)
            if scanner == "lost" and detail:
                words = told(
                    "%(state)s (%(detail)s), for %(time)s",
                    state=words,
                    detail=detail,
                    time=_ago(self.clock() - since),
                )
            elif scanner == "lost":
                words = told(
                    "%(state)s, for %(time)s", state=words, time=_ago(self.clock() - since)
                )
            elif scanner == "not connected yet" and detail:
                words = told("%(state)s (%(detail)s)", state=words, detail=detail)
            if rate is not None and scanner in ("connected", "back"):
                words = told("%(state)s, %(rate)s scans a second", state=words, rate=f"{rate:.0f}")
            rows.append([told("Scanner"), words, scanner not in ("connected", "back")])
            if stats is not None:
                rows.append([told("Scanner link"), _counters(stats()), False])
            faults = self.faults()
            if not faults:
                rows.append([told("Sensors"), told("every sensor reads normally"), False])
            for fault in faults:
                text = sentence(self._fault_words(fault, None))
                words = told("%(fault)s (%(found)s)", fault=text, found=_found(fault))
                rows.append([told("Sensor"), words, True])
        for reader in readers:
            state = {True: told("online"), False: told("offline"), None: told("starting")}[
                reader.online
            ]
            if reader.online is False and reader.detail:
                state = told(
                    "%(state)s (%(why)s)", state=state, why=_plain_reader_detail(reader.detail)
                )
            rows.append([sentence(_reader_name(reader)), state, reader.online is False])
        if journal is not None:
            rows.append([told("Journal"), " ".join(journal.lines()), True])
        if broker is not None:
            rows.append([told("Broker"), _broker_words(broker, broker_for), not broker.up])
        return rows

    # -- inside -----------------------------------------------------------------------
    def _changed(self) -> None:
        for listener in list(self.on_change):
            try:
                listener()
            except Exception:  # noqa: BLE001 - a page that fails to update must not stop a report
                log.exception("health listener failed")


def _state(words: str) -> Text:
    """The scanner's state, said by :meth:`Health.link_status`, as a translatable word."""
    return {
        "connected": told("connected"),
        "back": told("back"),
        "lost": told("lost"),
        "not connected yet": told("not connected yet"),
        "stopped": told("stopped"),
        "answering in a protocol this table cannot read": told(
            "answering in a protocol this table cannot read"
        ),
    }.get(words, Text(words))


def _broker_words(status: Any, since: float) -> Text:
    """The broker row: its state, why, and the events it did not get (see host/mqtt)."""
    state, where, detail = status.state, status.broker, status.detail
    if state == "connected":
        words = told("connected to %(broker)s", broker=where)
    elif state == "back":
        words = told("back, connected to %(broker)s again", broker=where)
    elif state == "stopped":
        words = told("stopped")
    elif state == "refused":
        words = told(
            "%(broker)s refused the login (%(why)s); trying again", broker=where, why=detail
        )
    elif state == "lost":
        words = told("lost for %(time)s (%(why)s); trying again", time=_ago(since), why=detail)
    else:
        words = told(
            "not connected yet to %(broker)s (%(why)s); trying again", broker=where, why=detail
        )
    if detail == "" and state in ("lost", "not connected yet"):
        words = (
            told("lost for %(time)s; trying again", time=_ago(since))
            if state == "lost"
            else told("not connected yet to %(broker)s; trying again", broker=where)
        )
    if status.waiting and not status.up:
        words = told_n(
            "%(state)s; %(num)d event waits for it",
            "%(state)s; %(num)d events wait for it",
            status.waiting,
            state=words,
        )
    if status.dropped:
        words = told_n(
            "%(state)s; %(num)d event was dropped while it was away (the queue was full)",
            "%(state)s; %(num)d events were dropped while it was away (the queue was full)",
            status.dropped,
            state=words,
        )
    return words


def _reader_name(reader: ReaderState) -> Text:
    if reader.seat is None:
        return told("card reader at the table")
    return told("card reader of %(seat)s", seat=reader.seat)


def _plain_reader_detail(detail: str) -> Text:
    if "cannot connect" in detail:
        return told("it cannot be reached")
    if "answer" in detail or "respond" in detail:
        return told("it does not answer")
    return told("it stopped answering")


def _found(fault: ChannelFault) -> Text:
    if fault.source == "self-test":
        return told("found by the scanner's self-test")
    if fault.source == "start-up":
        return told("found at start-up")
    return told("found during play")


def _ago(seconds: float) -> Text:
    seconds = max(0, int(seconds))
    if seconds < 60:
        return told("%(s)s s", s=seconds)
    return told("%(min)s min %(s)s s", min=seconds // 60, s=seconds % 60)


def _counters(stats: Any) -> Text:
    bad = getattr(stats, "frames_bad", 0)
    parts = [
        told("%(n)s frames received", n=getattr(stats, "frames_ok", 0)),
        told("%(n)s damaged", n=bad) if bad else told("none damaged"),
        told(
            "%(n)s lost in %(gaps)s gaps",
            n=getattr(stats, "frames_missed", 0),
            gaps=getattr(stats, "seq_gaps", 0),
        ),
        told("%(n)s failed their checksum", n=getattr(stats, "bad_crc", 0)),
        told("reconnected %(n)s times", n=getattr(stats, "reconnects", 0)),
    ]
    if hasattr(stats, "resyncs"):  # a newer link counts its resyncs apart
        parts.insert(3, told("%(n)s resyncs", n=stats.resyncs))
    return joined(", ", parts)
