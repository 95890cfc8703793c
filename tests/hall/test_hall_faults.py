"""The broker killed in the middle of a game and started again: the referee does not notice.

A table plays a seeded game on its tablets, publishing to a real Mosquitto, with a
small outbox (so the outage overflows it) and the hall listening. The broker is
killed (SIGKILL: no goodbye, its retained messages gone with it), the game goes
on, the broker is started again on the same port, the game goes on. Then:

* the journal holds exactly the inputs of the same game played with no broker at
  all (seat, source and body, in order), and every input played while the broker
  was down was journalled while it was down: none waited for it;
* the health panel said the broker was lost, then back, and how many events the
  full queue dropped;
* the hall that listened all along, and a hall started afresh after the restart,
  both show the table where it stands: the table brought the new broker's
  retained state up to date.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from hall_support import Mosquitto, wait_until

from lawmaster.host.config import MqttConfig
from lawmaster.host.hall import Hall, Listener
from lawmaster.host.journal import Journal
from lawmaster.host.runtime import Runtime, demo_header, players_for
from lawmaster.host.stack import publish
from lawmaster.host.table import TableHost

GAME, SEED = "gw-brott", 4
PHASES = (8, 12, 8)  # inputs before the kill, while down, after the restart


@pytest.fixture(scope="module")
def broker(tmp_path_factory):
    broker = Mosquitto(tmp_path_factory.mktemp("broker")).start()
    yield broker
    broker.stop()


def _runtime(folder: Path) -> Runtime:
    folder.mkdir(parents=True, exist_ok=True)
    host = TableHost(Journal(folder / "journal.db"), {"board": False, "seed": SEED})
    host.new_game(demo_header(GAME, SEED))
    return Runtime(host)


def _play(runtime: Runtime, players: Any, count: int) -> None:
    """``count`` inputs of the simulated players, on the tablets, a little apart."""
    table = runtime.table
    done = 0
    while done < count and not table.is_over():
        decision = players.decide()
        assert decision is not None, "the simulated players stopped"
        assert table.submit(decision.seat, decision.action)["ok"]
        done += 1
        time.sleep(0.02)


def _inputs(runtime: Runtime) -> list[tuple[Any, ...]]:
    entries = runtime.table.journal.game(runtime.table.record.id).entries
    return [(e.seq, e.kind, e.body, e.seat, e.source) for e in entries]


def _journalled_at(folder: Path) -> list[float]:
    """When each input was journalled (the journal's own clock, read from its file)."""
    with sqlite3.connect(folder / "journal.db") as db:
        return [row[0] for row in db.execute("SELECT at FROM inputs ORDER BY game, seq")]


def _shows(hall: Hall, table: str, move: int) -> bool:
    return any(t.name == table and (t.state or {}).get("move") == move for t in hall.view().tables)


def test_hall_broker_killed_mid_game_the_referee_plays_on(broker, tmp_path):
    # The same game with no broker at all: what the referee must accept, input for input.
    reference = _runtime(tmp_path / "reference")
    players = players_for(reference.table, SEED)
    _play(reference, players, sum(PHASES))
    expected = _inputs(reference)
    reference.close()
    reference.table.journal.close()
    assert len(expected) == sum(PHASES)

    folder = tmp_path / "published"
    runtime = _runtime(folder)
    rows: list[list[Any]] = []
    health = runtime.health

    def note() -> None:
        row = next((r for r in health.panel() if r[0] == "Broker"), None)
        if row is not None and (not rows or rows[-1] != row):
            rows.append(row)

    health.on_change.append(note)
    config = MqttConfig(host="127.0.0.1", port=broker.port, table="faulty", queue=5)
    hall = Hall()
    listener = Listener(hall, MqttConfig(host="127.0.0.1", port=broker.port)).start()
    players = players_for(runtime.table, SEED)
    try:
        publish(runtime, config)
        wait_until(lambda: rows and "connected to" in rows[-1][1])
        _play(runtime, players, PHASES[0])
        wait_until(lambda: _shows(hall, "faulty", PHASES[0]))

        broker.kill()
        killed = time.time()
        _play(runtime, players, PHASES[1])
        wait_until(lambda: any("lost" in r[1] for r in rows))
        broker.start()
        restarted = time.time()
        _play(runtime, players, PHASES[2])
        final = len(runtime.table.actions)

        # The referee took the same inputs as with no broker, and none waited for it.
        assert _inputs(runtime) == expected
        at = _journalled_at(folder)
        assert len(at) == sum(PHASES)
        down = at[PHASES[0] : PHASES[0] + PHASES[1]]
        assert all(killed <= t <= restarted for t in down), "an input waited for the broker"

        # The health panel: lost (trouble), then back with the events the queue dropped.
        wait_until(lambda: "back" in rows[-1][1])
        lost = next(r for r in rows if "lost" in r[1])
        assert lost[2] is True
        assert rows[-1][2] is False
        wait_until(lambda: "dropped" in str(health.panel()))
        assert "were dropped while it was away" in str(health.panel())
        # The hall that listened throughout catches up from the republished state.
        wait_until(lambda: _shows(hall, "faulty", final))
        # A hall started now has only the broker's retained messages to go by.
        fresh = Hall()
        late = Listener(fresh, MqttConfig(host="127.0.0.1", port=broker.port)).start()
        try:
            wait_until(lambda: _shows(fresh, "faulty", final))
            seen = fresh.view().tables[0]
            assert seen.health is not None and seen.health["online"] is True
        finally:
            late.close()
    finally:
        listener.close()
        runtime.close()
        runtime.table.journal.close()
