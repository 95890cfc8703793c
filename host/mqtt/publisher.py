"""A table's public game published to the broker: it listens as a table screen does.

:class:`TablePublisher` subscribes to the ``"table"`` seat of whatever game the
:class:`~lawmaster.host.table.TableHost` holds (a new game set up from a tablet
gets a new subscription), and on a thread of its own turns each snapshot into
payloads (:mod:`.payloads`) for the :class:`~.outbox.Outbox`. The referee's only
cost is the table screen's: one snapshot put in one more queue. Nothing here
calls back into the table or the referee.

* Events: the snapshot's public log entries this publisher has not published yet
  (a game found mid-way at start-up is not published again from its beginning: its
  state says where it stands).
* State and health: retained; the health also goes as the connection's last will
  (``online: false``) and as the goodbye of a clean stop.
* Result: once per finished game (an undone ending and a new one publish again).

The connection's state goes to the table's health panel (``health.broker_status``).
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from . import payloads
from .broker import Broker, BrokerStatus
from .outbox import Message, Outbox
from .topics import EVENTS, HEALTH, KINDS, RESULT, STATE, encode, topic

log = logging.getLogger(__name__)

#: The seat whose snapshots are published: the table screen's.
TABLE_SEAT = "table"
#: How often the thread looks for a new game when no snapshot comes.
_TICK_S = 0.25
#: A table quiet this long has finished what one input changes; a busy table is
#: published at least this often all the same.
_QUIET_S = 0.005
_GATHER_MAX_S = 0.05

#: ``(kind, payload)`` of everything handed to the outbox, for whoever listens (the tests).
Listener = Callable[[str, Mapping[str, Any]], None]


class TablePublisher:
    """See the module docstring; :meth:`start`, then :meth:`close` once."""

    def __init__(
        self,
        host: Any,
        config: Any,
        *,
        health: Any = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.host = host
        self.config = config
        self.health = health
        self.clock = clock
        self.outbox = Outbox(config.queue)
        self.topics = {kind: topic(config.prefix, config.table, kind) for kind in KINDS}
        self.listeners: list[Listener] = []
        will = payloads.offline(config.table, payloads.LOST)
        self.broker = Broker(
            config,
            self.outbox,
            client_id=f"lawmaster-{config.table}-{secrets.token_hex(4)}",
            will=Message(self.topics[HEALTH], encode(will), retain=True),
            on_status=self._status,
        )
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._renewed: Any = None
        self._thread = threading.Thread(target=self._run, name="mqtt-publisher", daemon=True)
        # The publisher thread's own: the game published now and what was said of it.
        self._table: Any = None
        self._subscription: Any = None
        self._facts: payloads.GameFacts | None = None
        self._log: list[Mapping[str, Any]] = []
        self._over = False

    # -- life ---------------------------------------------------------------------------
    def start(self) -> TablePublisher:
        self.host.on_new_table.append(self._new_table)
        with self._lock:
            self._renewed = self.host.table
        self._thread.start()
        self.broker.start()
        return self

    def close(self) -> None:
        """Stop publishing: where the table stands now, what the outbox still holds, then
        goodbye (``online: false``), if the broker is there."""
        self._stop.set()
        with contextlib.suppress(ValueError):
            self.host.on_new_table.remove(self._new_table)
        self._thread.join(timeout=5)
        if self._subscription is not None:
            self._subscription.close()
            # The last change may not have been published yet (a game that just ended
            # and a table that stops at once): publish where the table stands now.
            if not self._thread.is_alive():
                try:
                    self._publish(self._table.snapshot(TABLE_SEAT))
                except Exception:  # noqa: BLE001 - stopping must go on
                    log.exception("publishing the last snapshot failed")
        goodbye = payloads.offline(self.config.table, payloads.STOPPED)
        self.broker.close(Message(self.topics[HEALTH], encode(goodbye), retain=True))

    # -- what the table's side calls (any thread; cheap) --------------------------------
    def _new_table(self, table: Any) -> None:
        with self._lock:
            self._renewed = table

    def _status(self, status: BrokerStatus, changed: bool) -> None:
        report = getattr(self.health, "broker_status", None)
        if report is not None:
            report(status, push=changed)

    # -- the publisher's thread ------------------------------------------------------------
    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._step()
            except Exception:  # noqa: BLE001 - a bad snapshot must not end the publishing
                log.exception("publishing a snapshot failed")
                self._stop.wait(_TICK_S)

    def _step(self) -> None:
        with self._lock:
            renewed, self._renewed = self._renewed, None
        if renewed is not None:
            self._follow(renewed)
        if self._subscription is None:
            self._stop.wait(_TICK_S)
            return
        message = self._subscription.get(timeout=_TICK_S)
        if message is None:
            return
        # Only the newest matters: its log holds every event of the ones before it. An
        # input makes a few changes in a row (accepted, then the status): wait until the
        # table is quiet, so the referee is not met halfway and one publish says all.
        deadline = time.monotonic() + _GATHER_MAX_S
        while (newer := self._subscription.get(timeout=_QUIET_S)) is not None:
            message = newer
            if time.monotonic() > deadline:
                break
        snapshot = message.get("snapshot") if isinstance(message, Mapping) else None
        if isinstance(snapshot, Mapping):
            self._publish(snapshot)

    def _follow(self, table: Any) -> None:
        """Listen to ``table`` from now on (the host's game, or a new one set up)."""
        if table is self._table:
            return
        if self._subscription is not None:
            self._subscription.close()
        self._table = table
        self._subscription = table.subscribe(TABLE_SEAT)
        snapshot = table.snapshot(TABLE_SEAT)
        fresh = snapshot.get("move") == 0
        self._facts = payloads.GameFacts.of(table, started=self.clock() if fresh else None)
        # A game found mid-way: its events so far are not news.
        self._log = [] if fresh else list(snapshot.get("log") or [])
        self._over = False
        self._publish(snapshot)

    def _publish(self, snapshot: Mapping[str, Any]) -> None:
        facts = self._facts
        assert facts is not None
        name = self.config.table
        log_now = list(snapshot.get("log") or [])
        _, new = payloads.new_events(self._log, log_now)
        self._log = log_now
        for event in new:
            self._put(EVENTS, event, retained=False)
        now = self.clock()
        self._put(STATE, payloads.state(name, facts, snapshot, now))
        self._put(HEALTH, payloads.health(name, snapshot))
        over = bool(snapshot.get("over"))
        if over and not self._over:
            self._put(RESULT, payloads.result(name, facts, snapshot, now))
        self._over = over

    def _put(self, kind: str, payload: Mapping[str, Any], retained: bool = True) -> None:
        raw = encode(payload)
        if retained:
            self.outbox.retain(self.topics[kind], raw)
        else:
            self.outbox.event(self.topics[kind], raw)
        for listener in self.listeners:
            listener(kind, payload)
