"""The dashboard's scenario downloads: the table screen's and each seat's, nothing hidden."""

from __future__ import annotations

import contextlib
import json

from secrecy_games import SCENARIOS, hidden_from, told

from lawmaster.host.games import engine_for
from lawmaster.host.journal import Journal
from lawmaster.host.plugin import TABLET
from lawmaster.host.table import TABLE_SEAT, TableHost
from lawmaster.host.web import create_app
from lawmaster.rules.core import IllegalAction
from lawmaster.rules.core.replay import Game


def _finished_gw_table(tmp_path):
    # Find an ending game on the engine alone (cheap), then play it at a real table.
    scenario = next(s for s in map(SCENARIOS["gw-brott"], range(60)) if _ends(s))
    host = TableHost(Journal(tmp_path / "j.db"), {"board": False})
    table = host.new_game(scenario.header)
    for action in scenario.inputs:
        with contextlib.suppress(IllegalAction):
            table.accept(action, seat=table.engine.actor(action), source=TABLET)
    assert table.is_over()
    return host, table


def _ends(scenario) -> bool:
    game, _ = Game.start(scenario.header, engine_for)
    for action in scenario.inputs:
        with contextlib.suppress(IllegalAction):
            game.apply(action)
    return game.engine.is_over(game.state)


def test_secrecy_web_scenario_downloads_are_the_seats_own(tmp_path):
    host, table = _finished_gw_table(tmp_path)
    client = create_app(host).test_client()
    start = table.engine.new_game(table.header).state
    criminal_moves = [i for i, a in enumerate(table.actions) if a["act"] == "move"]
    assert criminal_moves
    for seat in [*table.seats(), TABLE_SEAT]:
        if seat == TABLE_SEAT:
            got = client.get("/table/scenario.jsonl")
        else:
            got = client.get(f"/seat/{table.token(seat)}/scenario.jsonl")
        assert got.status_code == 200
        assert f'filename="game-{seat}.jsonl"' in got.headers["Content-Disposition"]
        lines = got.get_data(as_text=True).splitlines()
        assert lines == table.export_scenario(seat)
        assert not told(lines[0], hidden_from(table.engine, start, seat))
        inputs = [t for t in lines[1:] if not t.startswith("# the header")]
        moves_seen = [inputs[i] for i in criminal_moves if not inputs[i].startswith("#")]
        if seat in ("gw", TABLE_SEAT):
            assert moves_seen == []
        else:
            assert [json.loads(t) for t in moves_seen] == [table.actions[i] for i in criminal_moves]
    assert client.get("/seat/not-a-token/scenario.jsonl").status_code == 403


def test_secrecy_web_scenario_download_waits_for_the_end(tmp_path):
    host = TableHost(Journal(tmp_path / "j.db"), {"board": False})
    table = host.new_game(SCENARIOS["gw-brott"](0).header)
    client = create_app(host).test_client()
    assert client.get(f"/seat/{table.token('gw')}/scenario.jsonl").status_code == 404
