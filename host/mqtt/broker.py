"""One table's connection to the broker: it sends the outbox and says how it stands.

Two threads of its own, never the referee's: paho's network loop (connects, retries
with backoff, keeps the connection alive) and the sender, which hands paho the
outbox's messages while connected and nothing while not. A broker that is down,
slow or refuses the login only leaves messages in the outbox (see
:class:`~.outbox.Outbox`: bounded, the oldest events dropped and counted).

The sender also reports the connection's state, as a :class:`BrokerStatus`, to
``on_status`` (the health panel) whenever it changes, and its counts (events
waiting, dropped) quietly once a second, from its own thread; paho's callbacks only
note what happened.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from paho.mqtt.enums import MQTTErrorCode

from .client import make_client, where
from .outbox import Message, Outbox

log = logging.getLogger(__name__)

#: How often the sender looks at the connection when nothing else wakes it (rarely: a
#: thread that wakes takes its turn at the interpreter, maybe in the middle of an input).
_TICK_S = 1.0
#: The same while the broker is away: a new connection wakes the sender at once.
_AWAY_TICK_S = 5.0
#: The shortest time between two reports that differ only in their counts.
_COUNT_EVERY_S = 1.0

NOT_YET, CONNECTED, LOST, BACK, REFUSED, STOPPED = (
    "not connected yet",
    "connected",
    "lost",
    "back",
    "refused",
    "stopped",
)


@dataclass(frozen=True)
class BrokerStatus:
    """The connection as the health panel says it.

    ``state`` is one of ``not connected yet``, ``connected``, ``lost``, ``back``
    (connected again after a loss), ``refused`` (the broker turned the login down)
    and ``stopped``; ``detail`` says why in the broker's or the system's words.
    """

    state: str
    broker: str
    detail: str = ""
    #: Events pushed out of the full queue since the start.
    dropped: int = 0
    #: Events waiting for the broker now.
    waiting: int = 0
    reconnects: int = 0

    @property
    def up(self) -> bool:
        return self.state in (CONNECTED, BACK)


class Broker:
    """See the module docstring; :meth:`start`, then :meth:`close` once."""

    def __init__(
        self,
        config: Any,
        outbox: Outbox,
        *,
        client_id: str,
        will: Message | None = None,
        on_status: Callable[[BrokerStatus, bool], None] | None = None,
    ) -> None:
        self.config = config
        self.outbox = outbox
        self.on_status = on_status
        self.client = make_client(config, client_id)
        if will is not None:
            # The broker publishes it for us when we vanish without a goodbye.
            self.client.will_set(will.topic, will.payload, qos=1, retain=will.retain)
        self.client.on_connect = self._connected
        self.client.on_disconnect = self._disconnected
        self.client.on_connect_fail = self._connect_failed
        self.client.on_publish = self._published
        self._lock = threading.Lock()
        self._state = NOT_YET
        self._detail = ""
        self._ever_up = False
        self._reconnects = 0
        self._closing = threading.Event()
        self._room = threading.Event()
        self._sender = threading.Thread(target=self._send, name="mqtt-sender", daemon=True)
        self._reported: BrokerStatus | None = None
        self._reported_at = 0.0

    # -- life -------------------------------------------------------------------------
    def start(self) -> Broker:
        """Connect in the background (the first attempt too: a broker not up yet is
        retried like a lost one) and start sending."""
        self.client.connect_async(self.config.host, self.config.port, self.config.keepalive)
        self.client.loop_start()
        self._sender.start()
        return self

    def close(self, goodbye: Message | None = None, timeout: float = 2.0) -> None:
        """Stop: if connected, send what the outbox holds and then ``goodbye`` (waiting at
        most ``timeout`` for each), then disconnect cleanly (the broker then keeps the last
        will to itself)."""
        deadline = time.monotonic() + timeout
        while self.client.is_connected() and not self.outbox.empty():
            if time.monotonic() > deadline:
                break
            time.sleep(0.01)
        self._closing.set()
        self.outbox.wake()
        self._room.set()
        self._sender.join(timeout=timeout)
        if goodbye is not None and self.client.is_connected():
            info = self.client.publish(goodbye.topic, goodbye.payload, qos=1, retain=goodbye.retain)
            # Not sent in time: the last will says the same.
            with contextlib.suppress(RuntimeError, ValueError):
                info.wait_for_publish(timeout)
        self.client.disconnect()
        self.client.loop_stop()
        with self._lock:
            self._state, self._detail = STOPPED, ""
        self._report(force=True)

    # -- what the health panel reads ---------------------------------------------------
    def status(self) -> BrokerStatus:
        with self._lock:
            return BrokerStatus(
                self._state,
                where(self.config),
                self._detail,
                self.outbox.dropped,
                self.outbox.waiting(),
                self._reconnects,
            )

    # -- paho's callbacks (its loop thread: note, wake, return) -------------------------
    def _connected(self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        with self._lock:
            if reason.is_failure:
                self._state, self._detail = REFUSED, str(reason)
                return
            if self._ever_up:
                self._reconnects += 1
            self._state = BACK if self._ever_up else CONNECTED
            self._detail = ""
            self._ever_up = True
        # A broker that restarted may have lost what it retained: bring it up to date.
        self.outbox.resend_retained()
        self._room.set()

    def _disconnected(
        self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any
    ) -> None:
        with self._lock:
            if self._closing.is_set() or self._state == REFUSED:
                return  # a refused login stays said as such while it is retried
            self._state = LOST if self._ever_up else NOT_YET
            self._detail = "" if not reason.is_failure else str(reason)

    def _connect_failed(self, client: Any, userdata: Any) -> None:
        with self._lock:
            if self._closing.is_set():
                return
            self._state = LOST if self._ever_up else NOT_YET
            # paho keeps the reason to itself: say what it can be.
            self._detail = (
                "no answer, or its TLS certificate is not trusted"
                if self.config.tls
                else "no answer: is it running, and reachable from here?"
            )

    def _published(self, client: Any, userdata: Any, mid: int, reason: Any, props: Any) -> None:
        self._room.set()

    # -- the sender -------------------------------------------------------------------------
    def _send(self) -> None:
        while not self._closing.is_set():
            self._report()
            if not self.client.is_connected():
                self._room.clear()
                self._room.wait(_AWAY_TICK_S)
                continue
            message = self.outbox.take(_TICK_S)
            if message is None:
                continue
            info = self.client.publish(
                message.topic, message.payload, qos=message.qos, retain=message.retain
            )
            # QoS 1 refused for want of a connection is still kept by the client and sent
            # when it is back; anything else refused goes back into the outbox.
            kept = info.rc == MQTTErrorCode.MQTT_ERR_NO_CONN and message.qos > 0
            if info.rc != MQTTErrorCode.MQTT_ERR_SUCCESS and not kept:
                self.outbox.give_back(message)
                self._room.clear()
                self._room.wait(_TICK_S)

    def _report(self, force: bool = False) -> None:
        """Tell ``on_status`` the connection's state: ``(status, True)`` when it changed
        (the health panel redraws every page), ``(status, False)`` when only the counts did
        (kept quietly, shown with the next change: redrawing every page each time an
        event waits would cost the referee more than the broker does)."""
        if self.on_status is None:
            return
        now = time.monotonic()
        status = self.status()
        last = self._reported
        changed = force or last is None or (status.state, status.detail) != (
            last.state,
            last.detail,
        )
        if not changed:
            assert last is not None
            counts = (status.dropped, status.waiting) != (last.dropped, last.waiting)
            if not counts or now - self._reported_at < _COUNT_EVERY_S:
                return
        self._reported, self._reported_at = status, now
        try:
            self.on_status(status, changed)
        except Exception:  # noqa: BLE001 - the health panel failing must not stop the sender
            log.exception("broker status listener failed")
