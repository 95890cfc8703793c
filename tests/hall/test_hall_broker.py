"""A table and the hall on brokers that ask for a login or speak TLS (a test CA made now).

Each broker is Debian's Mosquitto with a config of its own: one with a password
file (``mosquitto_passwd``), one with TLS from a CA ``openssl`` makes for the test.
A table with the right login publishes and the hall reads it; a table whose login
is refused, or that does not trust the broker's certificate, says so on its health
panel and referees on as if there were no broker.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hall_support import Mosquitto, Subscriber, Tls, wait_until

from lawmaster.host.config import MqttConfig
from lawmaster.host.hall import Hall, Listener
from lawmaster.host.journal import Journal
from lawmaster.host.runtime import Runtime
from lawmaster.host.stack import publish
from lawmaster.host.table import TABLE_SEAT, TableHost

HEADER = {"game": "unamerican-graffiti", "dredd_roll": 3}


@pytest.fixture(scope="module")
def login_broker(tmp_path_factory):
    broker = Mosquitto(
        tmp_path_factory.mktemp("login"), users={"table-1": "right horse", "hall": "staple"}
    ).start()
    yield broker
    broker.stop()


@pytest.fixture(scope="module")
def tls_broker(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tls")
    broker = Mosquitto(folder, tls=Tls.make(folder / "ca")).start()
    yield broker
    broker.stop()


def _runtime(folder: Path) -> Runtime:
    host = TableHost(Journal(folder / "journal.db"), {"board": False})
    host.new_game(HEADER)
    return Runtime(host)


def _broker_row(runtime: Runtime) -> list | None:
    """The health panel's broker row, as the table screen's snapshot carries it."""
    panel = runtime.table.snapshot(TABLE_SEAT)["health"]["panel"]
    return next((row for row in panel if row[0] == "Broker"), None)


def _play_one(runtime: Runtime) -> int:
    """One legal input from the tablets; the number of inputs accepted so far."""
    table = runtime.table
    action = table.engine.legal_actions(table.state)[0]
    assert table.submit(table.to_act()[0], action)["ok"]
    return len(table.actions)


def test_hall_broker_login_right_publishes_and_the_hall_reads_it(login_broker, tmp_path):
    password = tmp_path / "hall-password"
    password.write_text("staple\n")
    hall = Hall()
    listener = Listener(
        hall,
        MqttConfig(host="127.0.0.1", port=login_broker.port, username="hall",
                   password_file=str(password)),
    ).start()  # fmt: skip
    runtime = _runtime(tmp_path)
    config = MqttConfig(
        host="127.0.0.1",
        port=login_broker.port,
        table="table-1",
        username="table-1",
        password="right horse",
    )
    try:
        assert publish(runtime, config) is not None
        moves = _play_one(runtime)
        wait_until(lambda: _broker_row(runtime) and "connected to" in _broker_row(runtime)[1])
        assert _broker_row(runtime)[2] is False  # no trouble
        seen = wait_until(
            lambda: [t for t in hall.view().tables if (t.state or {}).get("move") == moves]
        )
        assert seen[0].name == "table-1" and seen[0].online
        assert hall.view().connection == "connected"
    finally:
        runtime.close()
        listener.close()
    # The goodbye of a clean stop reached the hall.
    wait_until(lambda: not hall.view().tables[0].online)
    assert hall.view().tables[0].health["why"] == "stopped"


def test_hall_broker_login_refused_is_said_and_the_referee_plays_on(login_broker, tmp_path):
    runtime = _runtime(tmp_path)
    config = MqttConfig(
        host="127.0.0.1", port=login_broker.port, table="refused",
        username="table-1", password="wrong horse",
    )  # fmt: skip
    watcher = Subscriber(login_broker, username="hall", password="staple")
    try:
        publish(runtime, config)
        row = wait_until(lambda: (r := _broker_row(runtime)) and "refused" in r[1] and r)
        assert row[2] is True  # trouble, said in words
        assert "127.0.0.1" in row[1]
        # The referee takes inputs as ever; nothing reaches the broker.
        for _ in range(5):
            moves = _play_one(runtime)
        assert moves == 5 and len(runtime.table.journal.game(1).entries) == 5
        assert "refused" in _broker_row(runtime)[1]
        assert not [m for m in watcher.messages if m[0].startswith("lawmaster/refused/")]
    finally:
        runtime.close()
        watcher.close()


def test_hall_broker_tls_with_the_test_ca(tls_broker, tmp_path):
    assert tls_broker.tls is not None
    hall = Hall()
    listener = Listener(
        hall,
        MqttConfig(host="127.0.0.1", port=tls_broker.port, tls=True,
                   ca_file=str(tls_broker.tls.ca)),
    ).start()  # fmt: skip
    runtime = _runtime(tmp_path)
    config = MqttConfig(
        host="127.0.0.1", port=tls_broker.port, table="tls-table", tls=True,
        ca_file=str(tls_broker.tls.ca),
    )  # fmt: skip
    try:
        publish(runtime, config)
        moves = _play_one(runtime)
        wait_until(lambda: [t for t in hall.view().tables if (t.state or {}).get("move") == moves])
        assert "(TLS)" in _broker_row(runtime)[1]
    finally:
        runtime.close()
        listener.close()


def test_hall_broker_tls_not_trusted_is_said_not_fatal(tls_broker, tmp_path):
    # The system's CAs do not know the test CA: the handshake fails, and is retried.
    runtime = _runtime(tmp_path)
    config = MqttConfig(host="127.0.0.1", port=tls_broker.port, table="untrusting", tls=True)
    try:
        publish(runtime, config)
        row = wait_until(lambda: (r := _broker_row(runtime)) and "not trusted" in r[1] and r)
        assert "not connected yet" in row[1]
        assert row[2] is True
        assert _play_one(runtime) == 1
    finally:
        runtime.close()
