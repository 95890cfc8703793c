"""A paho-mqtt client set up from an ``[mqtt]`` section: login, TLS, backoff, bounded queue.

Both ends use it: a table's :class:`~lawmaster.host.mqtt.broker.Broker` and the hall's
listener. The client reconnects by itself (paho's loop thread, ``loop_start``),
waiting 1 s, then twice as long each time up to :data:`MAX_BACKOFF_S`.
"""

from __future__ import annotations

import ssl
from typing import Any

from paho.mqtt.client import Client, MQTTv311
from paho.mqtt.enums import CallbackAPIVersion

#: Seconds before the first retry, and the longest wait between retries.
MIN_BACKOFF_S = 1
MAX_BACKOFF_S = 30
#: QoS 1 messages the client itself holds (sent, or waiting for room in flight); the
#: sender gives it no more until some are acknowledged.
CLIENT_QUEUE = 64
IN_FLIGHT = 20


def make_client(config: Any, client_id: str) -> Client:
    """A client for ``config`` (a :class:`~lawmaster.host.config.MqttConfig`); not connected.

    MQTT 3.1.1 and a clean session: what every broker speaks (Home Assistant's too).
    """
    client = Client(
        CallbackAPIVersion.VERSION2,
        client_id=client_id,
        clean_session=True,
        protocol=MQTTv311,
    )
    if config.username:
        client.username_pw_set(config.username, config.secret() or None)
    if config.tls:
        context = ssl.create_default_context(cafile=config.ca_file or None)
        if config.cert_file:
            context.load_cert_chain(config.cert_file, config.key_file or None)
        client.tls_set_context(context)
    client.reconnect_delay_set(min_delay=MIN_BACKOFF_S, max_delay=MAX_BACKOFF_S)
    client.max_queued_messages_set(CLIENT_QUEUE)
    client.max_inflight_messages_set(IN_FLIGHT)
    return client


def where(config: Any) -> str:
    """The broker as people write it: ``host:port`` (and ``TLS``)."""
    return f"{config.host}:{config.port}" + (" (TLS)" if config.tls else "")
