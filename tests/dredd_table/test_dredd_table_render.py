"""The Judge Dredd map drawn on the server from one seat's view, and what each seat's
page and JSON may hold: never another seat's hand, never a face-down Perp's id."""

from __future__ import annotations

import json
import re

import pytest

from lawmaster.host.games.judge_dredd.players import DreddPlayers
from lawmaster.host.games.judge_dredd.setup import dredd_header
from lawmaster.host.journal import Journal
from lawmaster.host.table import TableHost
from lawmaster.host.web import create_app
from lawmaster.rules.judge_dredd.board import Board

SEATS = ["a", "b", "c"]


@pytest.fixture
def midgame(tmp_path, monkeypatch):
    """A three-Judge game played by the simulation into its second round's combats."""
    host = TableHost(Journal(tmp_path / "journal.sqlite"), {})
    table = host.new_game(dredd_header(SEATS, 3, length="hotdog-run"))
    players = DreddPlayers(table, 3)
    while not (table.state["round"] >= 2 and table.state["combat"]):
        decision = players.decide()
        assert table.submit(decision.seat, decision.action)["ok"]
    return host, table


def page(client, table, seat: str) -> str:
    return client.get(f"/seat/{table.token(seat)}").get_data(as_text=True)


def test_dredd_table_the_map_is_drawn_from_the_board_and_the_view(midgame):
    host, table = midgame
    client = create_app(host).test_client()
    html = page(client, table, "a")
    svg = re.search(r'<svg class="board dredd-map".*?</svg>', html, re.S).group(0)
    city = Board.load("standard")
    sectors = re.findall(r'<g class="sector sector-(\w+)" data-sector="([^"]+)"', svg)
    assert sorted(s for _, s in sectors) == sorted(city.sectors)
    kinds = dict((s, k) for k, s in sectors)
    assert kinds["justice-department-hospital"] == "hospital"
    assert sorted(s for s, k in kinds.items() if k == "start") == sorted(city.starting_sectors)
    assert svg.count('class="river"') == len(city.river)
    assert svg.count('class="bridge"') == len(city.bridges) == 3
    assert 'class="hospital-cross"' in svg and svg.count("START +") == 6
    # Every Judge's standee where the game has it; the seat's own ringed.
    view = table.snapshot("a")["view"]
    for seat, judge in view["judges"].items():
        assert f'data-judge="{seat}" data-sector="{judge["sector"]}"' in svg
    assert svg.count('stroke="#ffca28" stroke-width="3"') == 1
    # Perps: face-up by name and strength, face-down as card backs.
    up = {s: p for s, p in view["perps"].items() if p["face_up"]}
    down = [s for s, p in view["perps"].items() if not p["face_up"]]
    assert up and down
    for sector, perp in up.items():
        assert f'data-sector="{sector}" data-perp="{perp["perp"]}"' in svg
    for sector in down:
        assert f'<g class="perp perp-face-down" data-sector="{sector}">' in svg
    for sector, crimes in view["crimes"].items():
        assert f'<g class="crimes" data-sector="{sector}" data-count="{len(crimes)}">' in svg


def test_dredd_table_no_seat_sees_another_hand_or_a_face_down_perp(midgame):
    host, table = midgame
    client = create_app(host).test_client()
    truth = table.engine.summary(table.state)
    hidden_perps = [p["perp"] for p in truth["perps"].values() if not p["face_up"]]
    assert hidden_perps and all(hidden_perps)  # the engine knows them (tapped)
    face_down_cards = [c["card"] for c in truth["combat"]["cards"] if not c["face_up"]]
    for seat in SEATS:
        mine = set(truth["judges"][seat]["known_cards"])
        mine |= {c["card"] for c in truth["combat"]["cards"] if c["by"] == seat}
        others = {
            card
            for other, judge in truth["judges"].items()
            if other != seat
            for card in judge["known_cards"]
        }
        others |= {c for c in face_down_cards if c not in mine}
        others -= set(truth["action_discard"])
        html = page(client, table, seat)
        data = json.dumps(client.get(f"/seat/{table.token(seat)}.json").get_json())
        for text in (html, data):
            for card in others | set(hidden_perps):
                assert card not in text, (seat, card)
        # What the seat holds is on its own page.
        assert all(card in html for card in truth["judges"][seat]["known_cards"])
    table_page = client.get("/table").get_data(as_text=True)
    for card in set(hidden_perps) | set(face_down_cards):
        assert card not in table_page


def test_dredd_table_seat_pages_forms_move_and_roll(tmp_path, monkeypatch):
    from dredd_table_support import header

    host = TableHost(Journal(tmp_path / "journal.sqlite"), {})
    table = host.new_game(header())
    client = create_app(host).test_client()

    def post_prompt(seat: str, kind: str, **fields: str) -> None:
        html = page(client, table, seat)
        form = re.search(rf'data-kind="{kind}".*?</form>', html, re.S).group(0)
        base = re.search(r"name=\"action\" value='([^']+)'", form).group(1)
        data = {"action": base, **fields}
        response = client.post(f"/seat/{table.token(seat)}/action", data=data)
        assert response.status_code == 303, response.get_data(as_text=True)[-400:]

    # The move prompt's buttons carry whole moves, two Sectors away included.
    html = page(client, table, "a")
    # (and name the Sector they end in: a tap on it on the map chooses the same move).
    button = (
        r"value='([^']*channel-99[^']*)' data-on-board=\"channel-99\">"
        r"Channel 99 \(turns up a Perp\)<"
    )
    choice = re.search(button, html).group(1)
    post_prompt("a", "dredd_move", choice=choice)
    assert table.actions[-1] == {"act": "move", "by": "a", "path": ["mega-mall", "channel-99"]}
    table.submit("b", {"act": "move", "by": "b", "path": []})
    table.submit("a", {"act": "end_movement"})
    table.submit("a", {"act": "reveal"})
    # Each roller's page has its own dice form; the roll waits for both.
    post_prompt("a", "enter_dice", **{"i:faces": "6"})
    assert table.actions[-1] == {"act": "reveal"}
    assert table.snapshot("b")["status"]["message"] == "dice in from a's dice"
    post_prompt("b", "enter_dice", **{"i:faces": "2"})
    assert table.actions[-1] == {"act": "roll", "dice": {"a": [6], "perp": [2]}}
