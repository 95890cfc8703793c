"""The small parts of the hall, each alone: [mqtt], the outbox, topics, the hall's model."""

from __future__ import annotations

import re

import pytest

from lawmaster.host.config import ConfigError, MqttConfig, mqtt_from, parse
from lawmaster.host.hall.model import Hall, wins
from lawmaster.host.mqtt import Outbox
from lawmaster.host.mqtt.payloads import new_events
from lawmaster.host.mqtt.topics import decode, encode, topic
from lawmaster.host.mqtt.topics import parse as parse_topic


def test_hall_mqtt_section_reads_and_names_its_mistakes(tmp_path):
    config = parse({"mqtt": {"host": "hall.local", "table": "table-3", "tls": True}}).mqtt
    assert config == MqttConfig(host="hall.local", table="table-3", port=8883, tls=True)
    assert parse({}).mqtt is None
    secret = tmp_path / "pw"
    secret.write_text("s3cret\nignored\n")
    with_file = MqttConfig(host="h", table="t", username="u", password_file=str(secret))
    assert with_file.secret() == "s3cret"
    for section, words in [
        ({"table": "t"}, "mqtt.host must name the broker"),
        ({"host": "h", "table": "a/b"}, "mqtt.table must be"),
        ({"host": "h", "table": "t", "port": 0}, "mqtt.port must be a port"),
        ({"host": "h", "table": "t", "queue": 0}, "mqtt.queue must be at least 1"),
        ({"host": "h", "table": "t", "colour": 1}, "unknown key(s) colour in [mqtt]"),
        ({"host": "h"}, "mqtt.table must be"),
    ]:
        with pytest.raises(ConfigError, match=re.escape(words)):
            parse({"mqtt": section})


def test_hall_broker_named_on_a_command_line(tmp_path):
    assert mqtt_from("127.0.0.1:1884", "t1") == MqttConfig(host="127.0.0.1", table="t1", port=1884)
    assert mqtt_from("hall.local", table_named=False).port == 1883
    file = tmp_path / "broker.toml"
    file.write_text('[mqtt]\nhost = "b"\ntable = "from-file"\nusername = "u"\n')
    assert mqtt_from(str(file)).table == "from-file"
    assert mqtt_from(str(file), "given").table == "given"
    with pytest.raises(ConfigError, match="host:port"):
        mqtt_from("host:port")
    (tmp_path / "none.toml").write_text("[table]\n")
    with pytest.raises(ConfigError, match="no \\[mqtt\\] section"):
        mqtt_from(str(tmp_path / "none.toml"))


def test_hall_outbox_is_bounded_drops_the_oldest_and_keeps_the_newest_retained():
    box = Outbox(3)
    for n in range(5):
        box.event("e", bytes([n]))
    box.retain("s", b"old")
    box.retain("s", b"new")
    assert box.dropped == 2 and box.waiting() == 3
    taken = [box.take(0) for _ in range(5)]
    assert [m.payload for m in taken if m] == [b"\x02", b"\x03", b"\x04", b"new"]
    assert taken[3].retain and taken[3].qos == 0 and not taken[0].retain and taken[0].qos == 1
    assert box.take(0) is None
    box.retain("s", b"new")  # already sent: nothing to do
    assert box.take(0) is None
    box.resend_retained()  # a new connection: the broker may have lost it
    assert box.take(0).payload == b"new"
    box.give_back(taken[0])
    assert box.take(0) == taken[0]


def test_hall_new_events_follow_an_undo():
    a, b, c, d = ({"move": n, "type": "x"} for n in range(4))
    assert new_events([a, b], [a, b, c]) == (2, [c])
    assert new_events([a, b, c], [a, b]) == (2, [])
    assert new_events([a, b, c], [a, b, d]) == (2, [d])


def test_hall_topics_round_trip():
    assert topic("lawmaster", "t1", "state") == "lawmaster/t1/state"
    assert parse_topic("lawmaster", "lawmaster/t1/result") == ("t1", "result")
    assert parse_topic("lawmaster", "other/t1/result") is None
    assert parse_topic("lawmaster", "lawmaster/t1/x") is None
    assert decode(encode({"ord": "Brädet är blint"})) == {"ord": "Brädet är blint"}
    with pytest.raises(ValueError):
        topic("lawmaster", "t1", "secrets")


def test_hall_model_keeps_each_table_and_counts_the_evenings_wins():
    now = 1_000_000.0
    hall = Hall(clock=lambda: now)
    hall.receive("t1", "state", {"move": 1})
    hall.receive("t1", "health", {"online": True, "blind": True})
    hall.receive("t2", "health", {"online": False, "why": "lost"})
    hall.receive("t1", "events", {"type": "ignored"})
    hall.receive("t1", "result", {"game_id": 1, "winner": "red", "winner_name": "red",
                                  "ended": now - 60})  # fmt: skip
    hall.receive("t2", "result", {"game_id": 1, "winner": "draw", "ended": now - 30})
    hall.receive("t3", "result", {"game_id": 4, "winner": "gw", "winner_name": "GW",
                                  "ended": now - 13 * 3600})  # another evening  # fmt: skip
    view = hall.view()
    t1, t2 = view.tables
    assert t1.blind and t1.online and not t2.online and not t2.blind
    assert [r["table"] if "table" in r else r["game_id"] for r in view.results] == [1, 1]
    assert view.wins == [("red", 1)]
    version = view.version
    hall.receive("t1", "state", {"move": 1})  # the same again: no change
    assert hall.view().version == version
    hall.forget("t2", "health")
    assert [t.name for t in hall.view().tables] == ["t1"]
    assert wins([{"winner": "a"}, {"winner": "b", "winner_name": "Bo"}, {"winner": "a"}]) == [
        ("a", 2),
        ("Bo", 1),
    ]
