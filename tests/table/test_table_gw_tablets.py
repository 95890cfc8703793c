"""The table on the real GW:s brott engine, driven from the tablets."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from lawmaster.host.cli import main
from lawmaster.host.games import engine_for
from lawmaster.host.games.gw_brott.players import Players
from lawmaster.host.games.gw_brott.setup import DEMO_HEADER
from lawmaster.host.journal import Journal
from lawmaster.host.table import Table, TableHost
from lawmaster.rules.core.replay import replay


@pytest.fixture
def table(tmp_path):
    return Table.start(Journal(tmp_path / "j.db"), DEMO_HEADER, {"board": False})


def _first_move(table: Table, seat: str = "red") -> dict:
    table.submit(seat, {"act": "roll", "by": seat, "faces": ["1", "2", "3", "4", "arrow"]})
    moves = table.snapshot(seat)["view"]["asked"]["moves"]
    action = {"act": "move", "by": seat, "die": "2", "to": moves["2"][0]}
    assert table.submit(seat, action)["ok"]
    return action


def test_table_seats_tokens_and_constant_time_lookup(table):
    assert table.seats() == ["gw", "red", "green"]
    tokens = {seat: table.token(seat) for seat in table.seats()}
    assert len(set(tokens.values())) == 3 and all(len(t) >= 32 for t in tokens.values())
    assert table.seat_for_token(tokens["red"]) == "red"
    assert table.seat_for_token("nope") is None


def test_table_a_seat_may_only_send_its_own_actions(table):
    assert (
        "only red" in table.submit("green", {"act": "roll", "by": "red", "faces": ["1"]})["error"]
    )
    assert "only gw" in table.submit("red", {"act": "gw_roll", "face": 3})["error"]
    assert not table.submit("table", {"act": "roll", "by": "red", "faces": ["1"] * 5})["ok"]
    assert not table.submit("red", "roll")["ok"]
    assert table.actions == []


def test_table_secrecy_gw_and_table_screen_never_see_a_criminal_position(table):
    gw_feed = table.subscribe("gw")
    screen = table.subscribe("table")
    action = _first_move(table)
    where = action["to"]
    for message in (*_drain(gw_feed), *_drain(screen)):
        assert where not in json.dumps(message["snapshot"]["log"])
        assert "position" not in json.dumps(message["snapshot"]["view"]["criminals"])
    for seat in ("gw", "table"):
        for snap in table.history(seat):
            assert not any(e["type"] == "criminal_position" for e in snap["log"])
    red = table.snapshot("red")
    assert red["view"]["criminals"]["red"]["position"] == where
    assert any(e["type"] == "criminal_position" for e in red["log"])


def test_table_every_input_reaches_every_subscriber_once(table):
    feeds = {seat: table.subscribe(seat) for seat in ("gw", "red", "table")}
    _first_move(table)
    for seat, feed in feeds.items():
        messages = _drain(feed)
        assert len(messages) == 2, seat
        assert all(m["type"] == "update" and m["snapshot"]["seat"] == seat for m in messages)
    feeds["gw"].close()
    table.submit("green", {"act": "roll", "by": "green", "faces": ["1"] * 5})
    assert feeds["gw"].get(timeout=0.01) is None
    assert len(_drain(feeds["red"])) == 1


def test_referee_undo_needs_the_other_side_and_survives_a_restart(tmp_path):
    path = tmp_path / "j.db"
    table = Table.start(Journal(path), DEMO_HEADER, {"board": False})
    _first_move(table)
    before = table.engine.summary(table._states[1])
    assert table.request_undo("red")["ok"]
    assert table.snapshot("gw")["undo"]["can_confirm"] is True
    assert table.snapshot("green")["undo"]["can_confirm"] is False
    assert not table.confirm_undo("red")["ok"]
    assert not table.confirm_undo("green")["ok"]  # the same side as red
    assert table.confirm_undo("gw")["ok"]
    assert len(table.actions) == 1
    assert table.engine.summary(table.state) == before
    resumed = Table.resume(Journal(path))
    assert resumed is not None and resumed.actions == table.actions
    assert resumed.engine.summary(resumed.state) == before
    assert resumed.token("red") == table.token("red")


def test_referee_an_undo_asked_before_a_new_input_lapses(table):
    table.submit("red", {"act": "roll", "by": "red", "faces": ["1", "2", "3", "4", "arrow"]})
    table.request_undo("gw")
    moves = table.snapshot("red")["view"]["asked"]["moves"]
    table.submit("red", {"act": "move", "by": "red", "die": "1", "to": moves["1"][0]})
    assert table.undo is None
    assert not table.confirm_undo("red")["ok"]
    assert len(table.actions) == 2


def test_referee_digital_dice_are_rolled_seeded_and_journalled(tmp_path):
    def play(path):
        table = Table.start(Journal(path), DEMO_HEADER, {"digital_dice": True, "seed": 5})
        result = table.submit("red", {"act": "roll", "by": "red"})
        assert result["ok"], result
        return table

    one, two = play(tmp_path / "a.db"), play(tmp_path / "b.db")
    faces = one.actions[0]["faces"]
    assert len(faces) == 5 and faces == two.actions[0]["faces"]
    stored = Journal(tmp_path / "a.db").open_game()
    assert stored.entries[0].source == "digital-dice"
    assert stored.actions() == one.actions


def test_referee_export_replays_to_the_same_summary(tmp_path):
    host = TableHost(Journal(tmp_path / "j.db"), {"board": False})
    table = host.new_game(DEMO_HEADER)
    players = Players(table, seed=11)
    assert table.export_scenario() is None
    while (decision := players.decide()) is not None:
        assert table.submit(decision.seat, decision.action)["ok"]
    lines = table.export_scenario()
    assert lines is not None and json.loads(lines[0]) == DEMO_HEADER
    results = list(replay(lines, engines=engine_for))
    assert all(r.get("ok") for r in results[:-1])
    assert results[-1]["summary"] == table.engine.summary(table.state)
    # The same file through the command line tool.
    scenario = tmp_path / "game.jsonl"
    scenario.write_text("\n".join(lines) + "\n")
    printed = CliRunner().invoke(main, ["replay", str(scenario)])
    assert printed.exit_code == 0
    last = json.loads(printed.output.splitlines()[-1])
    assert last == {"summary": table.engine.summary(table.state)}
    assert table.snapshot("table")["status"]["state"] == "over"
    assert len(table.history("gw")) == len(table.actions) + 1


def test_referee_board_mode_holds_the_said_die_until_the_board_shows_the_move(tmp_path):
    table = Table.start(Journal(tmp_path / "j.db"), DEMO_HEADER, {"board": True})
    table.submit("red", {"act": "roll", "by": "red", "faces": ["1", "2", "3", "4", "arrow"]})
    result = table.submit("red", {"act": "move", "by": "red", "die": "2"})
    assert result["ok"] and "waiting for the piece" in result["pending"]
    assert len(table.actions) == 1
    assert table.snapshot("red")["prompts"][0]["kind"] == "move_piece"
    assert not table.submit("red", {"act": "move", "by": "red", "die": "gw"})["ok"]


def _drain(feed) -> list[dict]:
    messages = []
    while (message := feed.get(timeout=0.01)) is not None:
        messages.append(message)
    return messages
