"""The hall's ear on the broker: every table's state, health and result, into the :class:`Hall`.

A paho client of its own (:func:`lawmaster.host.mqtt.client.make_client`: login,
TLS, reconnection with backoff) subscribes to ``<prefix>/+/state``, ``/health`` and
``/result`` on every connection, so a hall that starts late, or comes back after
the broker restarted, is brought up to date by the retained messages.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

from lawmaster.host.mqtt.client import make_client, where
from lawmaster.host.mqtt.topics import HEALTH, RESULT, STATE, decode, parse, wildcard

from .model import CONNECTED, LOST, NOT_YET, REFUSED, Hall

log = logging.getLogger(__name__)

KINDS = (STATE, HEALTH, RESULT)


class Listener:
    """See the module docstring; :meth:`start`, then :meth:`close` once."""

    def __init__(self, hall: Hall, config: Any) -> None:
        self.hall = hall
        self.config = config
        self.client = make_client(config, f"lawmaster-hall-{secrets.token_hex(4)}")
        self.client.on_connect = self._connected
        self.client.on_disconnect = self._disconnected
        self.client.on_connect_fail = self._connect_failed
        self.client.on_message = self._message
        self._ever_up = False

    def start(self) -> Listener:
        self.client.connect_async(self.config.host, self.config.port, self.config.keepalive)
        self.client.loop_start()
        return self

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    # -- paho's callbacks (its loop thread) -----------------------------------------------
    def _connected(self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            self.hall.connection(REFUSED, f"{where(self.config)}: {reason}")
            return
        self._ever_up = True
        client.subscribe([(wildcard(self.config.prefix, kind), 1) for kind in KINDS])
        self.hall.connection(CONNECTED, where(self.config))

    def _disconnected(
        self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any
    ) -> None:
        if self._ever_up:
            self.hall.connection(LOST, where(self.config))

    def _connect_failed(self, client: Any, userdata: Any) -> None:
        self.hall.connection(LOST if self._ever_up else NOT_YET, where(self.config))

    def _message(self, client: Any, userdata: Any, message: Any) -> None:
        found = parse(self.config.prefix, message.topic)
        if found is None:
            return
        table, kind = found
        if not message.payload:
            self.hall.forget(table, kind)  # a retained message cleared by hand
            return
        try:
            payload = decode(message.payload)
        except ValueError:
            log.warning("a message on %s is no JSON; ignored", message.topic)
            return
        self.hall.receive(table, kind, payload)
