"""Every payload a table publishes is what its table screen's stream carried; never a secret.

Random games of all three games (refused inputs aimed at secrets mixed in, from
``tests/secrecy``) are played on a real :class:`Table` with a real
:class:`TablePublisher` on a real Mosquitto, while a table screen's subscription
records what its stream carried. Then, for what a plain subscriber on the broker
received:

* the ``events`` topic carried exactly the public log of the table screen, entry
  for entry, in order;
* every ``state``, ``health`` and ``result`` payload is the one built from a
  snapshot the table screen's stream carried (found by its version), whole;
* no payload on any topic names a fact hidden from the table seat at its move
  (``hidden_from``: a card, a cell of a hidden criminal, a card and who holds it); an
  event may name what its own input made known (a Perp revealed) or what was public
  until its input (the Perp an arrest puts on a score pile), so an event leaks a fact
  hidden both before and after its input. GW plays in the open: what GW's own input
  names (a helicopter's target, which may be where a criminal hides) is no leak.
"""

from __future__ import annotations

import json
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from hall_support import Mosquitto, Subscriber, wait_until
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from lawmaster.host.config import MqttConfig
from lawmaster.host.journal import Journal
from lawmaster.host.mqtt import TablePublisher
from lawmaster.host.mqtt import payloads as build
from lawmaster.host.plugin import TABLET
from lawmaster.host.table import TABLE_SEAT, TableHost
from lawmaster.rules.core import IllegalAction

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "secrecy"))
from secrecy_games import SCENARIOS, Scenario, hidden_from, told  # noqa: E402

GAMES = list(SCENARIOS)
# Few examples: each is a whole game through a real broker; a failing seed is printed.
SETTINGS = settings(
    max_examples=2,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@pytest.fixture(scope="module")
def broker(tmp_path_factory):
    broker = Mosquitto(tmp_path_factory.mktemp("broker")).start()
    yield broker
    broker.stop()


def _play(scenario: Scenario, folder: Path, broker: Mosquitto) -> dict[str, Any]:
    """The game through a table, a table screen's stream and the publisher; what each saw."""
    host = TableHost(Journal(folder / "journal.db"), {"board": False})
    table = host.new_game(scenario.header)
    name = f"t{uuid.uuid4().hex[:10]}"
    subscriber = Subscriber(broker)
    screen = table.subscribe(TABLE_SEAT)
    carried = [table.snapshot(TABLE_SEAT)]  # the table screen as first drawn
    config = MqttConfig(host="127.0.0.1", port=broker.port, table=name, keepalive=5)
    publisher = TablePublisher(host, config).start()
    engine = scenario.engine
    states = [engine.new_game(scenario.header).state]  # the state after each accepted input
    accepted: list[dict[str, Any]] = [{}]  # the input of each move (none for the setup)
    for action in scenario.inputs:
        try:
            table.accept(action, seat=engine.actor(action), source=TABLET)
        except IllegalAction:
            continue
        states.append(table.state)
        accepted.append(action)
        while (message := screen.get(timeout=0)) is not None:
            carried.append(message["snapshot"])
    final = table.snapshot(TABLE_SEAT)
    topic = f"lawmaster/{name}/"
    wait_until(lambda: (subscriber.last(topic + "state") or {}).get("version") == final["version"])
    if final["over"]:
        wait_until(lambda: subscriber.last(topic + "result"))
    publisher.close()
    subscriber.close()
    table.journal.close()
    return {
        "name": name,
        "table": table,
        "carried": carried,
        "final": final,
        "states": states,
        "accepted": accepted,
        "received": [
            (t[len(topic) :], p) for t, p, _ in subscriber.messages if t.startswith(topic)
        ],
    }


def _without_printed_board(payload: dict[str, Any]) -> dict[str, Any]:
    """The payload less the printed board of GW:s brott's view (every card's printed cell,
    the same for everyone: a card's name there says nothing of who holds it)."""
    view = payload.get("view")
    if isinstance(view, dict) and isinstance(view.get("board"), dict):
        return {**payload, "view": {k: v for k, v in view.items() if k != "board"}}
    return payload


def _events_of(payload: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    if kind == "events":
        return [payload]
    return list(payload.get("recent") or []) if kind == "state" else []


@pytest.mark.parametrize("game", GAMES)
@SETTINGS
@given(seed=st.integers(0, 10**6))
def test_hall_every_payload_is_what_the_table_screen_carried_and_no_secret(
    game: str, seed: int, broker: Mosquitto, tmp_path_factory
):
    scenario = SCENARIOS[game](seed)
    seen = _play(scenario, tmp_path_factory.mktemp("game"), broker)
    name, table, final = seen["name"], seen["table"], seen["final"]
    by_version = {s["version"]: s for s in seen["carried"]}
    facts = build.GameFacts.of(table)
    received = seen["received"]

    # Events: the table screen's whole public log, entry for entry (the game was
    # published from its setup on).
    events = [p for kind, p in received if kind == "events"]
    assert events == final["log"]
    assert len(events) > 1

    kinds = {kind for kind, _ in received}
    assert {"events", "state", "health"} <= kinds
    for kind, payload in received:
        if kind == "events":
            continue
        if kind == "health" and payload.get("online") is False:
            assert payload == build.offline(name, build.STOPPED)  # the goodbye
            continue
        if kind == "result":
            expected = build.result(name, facts, final, payload["ended"])
            expected["length"]["minutes"] = payload["length"]["minutes"]
            assert payload == expected
            continue
        if kind == "state":
            snapshot = by_version.get(payload["version"])
            assert snapshot is not None, "a state of a snapshot the screen never carried"
            assert payload == build.state(name, facts, snapshot, payload["at"])
        if kind == "health":
            assert any(payload == build.health(name, s) for s in seen["carried"])

    # No secret: each payload against what the table seat may not know at its move,
    # each event in it against its own move.
    states = seen["states"]
    for kind, payload in received:
        move = payload.get("move") if kind in ("state", "events") else final["move"]
        if move is None:
            continue  # the goodbye: no game in it
        rest = {k: v for k, v in payload.items() if k != "recent"} if kind != "events" else {}
        rest = _without_printed_board(rest)
        if rest:
            hidden = hidden_from(table.engine, states[move], TABLE_SEAT)
            leaked = told(json.dumps(rest), hidden)
            assert not leaked, (kind, move, leaked)
        for event in _events_of(payload, kind):
            at = event["move"]
            hidden = hidden_from(table.engine, states[at], TABLE_SEAT)
            if at > 0:
                hidden &= hidden_from(table.engine, states[at - 1], TABLE_SEAT)
            action = seen["accepted"][at]
            in_the_open = game == "gw-brott" and at > 0 and table.engine.actor(action) == "gw"
            leaked = told(json.dumps(event), hidden, json.dumps(action) if in_the_open else "")
            assert not leaked, (kind, event, leaked)
