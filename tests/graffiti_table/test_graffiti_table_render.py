"""The Graffiti drawing: the hex map as SVG from a seat's snapshot, scrawls in pen colours,
Judges and pawns, the threat only on the mover's seat, extras, log lines, and the seat
page's forms through the real Flask app (the render registry is patched in the test)."""

from __future__ import annotations

import re

import pytest
from graffiti_table_support import GAME, header, install, ok, sources

from lawmaster.host.games.unamerican_graffiti import know as graffiti_know
from lawmaster.host.games.unamerican_graffiti import pages as graffiti
from lawmaster.host.games.unamerican_graffiti.players import GraffitiPlayers
from lawmaster.host.journal import Journal
from lawmaster.host.table import TableHost
from lawmaster.host.web import create_app, render


@pytest.fixture
def registered(monkeypatch):
    """The render registry knowing Graffiti, as the one-line registration will make it."""


@pytest.fixture
def host(tmp_path, registered):
    host = TableHost(Journal(tmp_path / "journal.sqlite"), {})
    install(host.new_game(header()))
    return host


@pytest.fixture
def app(host):
    return create_app(host)


UI = graffiti.GraffitiUI()


def _svg(table, seat):
    drawn = str(UI.board(table.snapshot(seat)))
    assert "graffiti-board" in drawn
    return drawn


def _count(svg, pattern):
    return len(re.findall(pattern, svg))


def test_graffiti_table_render_the_map_every_hex_and_kind(host):
    svg = _svg(host.table, "table")
    assert svg.startswith("<svg") and 'class="board graffiti-board"' in svg
    assert _count(svg, r'<g class="hex ') == 77
    for kind, count in (
        ("landmark", 6),
        ("sector-house", 6),
        ("statue", 1),
        ("city-block", 14),
    ):
        assert _count(svg, rf'<g class="hex {kind}"') == count, kind
    assert _count(svg, r'class="hex street gate"') == 3
    fills = set(
        re.findall(r'<g class="hex (\S+)[^>]*><title>[^<]*</title><polygon[^>]*fill="(#\w+)"', svg)
    )
    assert len({fill for _, fill in fills}) == 5  # each kind its own colour
    assert "Power Tower" in svg and "Statue of" in svg and "prestige 9" in svg
    assert 'data-cell="power-tower"' in svg and 'data-cell="3,1"' in svg


def test_graffiti_table_render_pieces_and_scrawls_in_pen_colours(host):
    table = host.table
    svg = _svg(table, "table")
    assert _count(svg, r'<g class="piece judge') == 6
    assert re.search(
        r'<g class="piece judge dredd[^"]*" data-judge="1" data-cell="sector-house-1"', svg
    )
    assert _count(svg, r'<g class="piece pawn') == 2
    chopper = re.search(r'class="scrawl" data-cell="power-tower" data-colour="chopper-1"[^>]*', svg)
    phantom = re.search(
        r'class="scrawl" data-cell="palais-de-boing" data-colour="phantom-1"[^>]*', svg
    )
    assert chopper and phantom
    assert 'stroke="#d32f2f"' in chopper.group(0) and 'stroke="#1565c0"' in phantom.group(0)
    assert graffiti.pen("chopper-2") not in (graffiti.pen("chopper-1"), graffiti.pen("phantom-1"))
    ok(table.submit("chopper", {"act": "move", "by": "chopper", "to": "block-4"}))
    svg = _svg(table, "phantom")
    assert re.search(r'data-cell="block-4" data-colour="chopper-1"[^>]*stroke="#d32f2f"', svg)


def test_graffiti_table_render_threat_only_on_the_movers_seat(host, app):
    table = host.table
    threat = table.snapshot("chopper")["view"]["threat"]
    svg = _svg(table, "chopper")
    # Each hex the mover could end on is shaded by its step and shows its figure on a tap.
    shaded = re.findall(
        r'<g class="hex [^"]*\bthreat (t\d|ts)" data-cell="([^"]+)"[^>]*tabindex="0">'
        r'.*?<text class="threat-pct"[^>]*>(\d+)%</text>',
        svg,
    )
    assert {cell for _step, cell, _shown in shaded} == set(threat)
    for step, cell, shown in shaded:
        expected = threat[cell]["arrest_chance"]
        level = graffiti.threat_level(expected)
        assert step == ("ts" if level is None else f"t{level}")
        assert int(shown) == round(100 * expected)
    # In words, the choice that moves there gives the exact share of the opponent's rolls.
    page = app.test_client().get(f"/seat/{table.token('chopper')}").get_data(as_text=True)
    for cell, info in threat.items():
        expected = info["arrest_chance"]
        found = re.search(rf'id="go-{re.escape(cell)}"[^>]*>([^<]*)</button>', page)
        assert found, cell
        words = found.group(1)
        if expected > 0:
            total = 6 ** info["hexes"]
            hits = round(expected * total)
            assert f"{100 * expected:.0f}% chance of arrest ({hits} of {total} rolls" in words
            assert hits / total == pytest.approx(expected, abs=5e-5)
        else:
            assert "safe" in words
    for seat in ("phantom", "table"):
        assert not _threat_marked(_svg(table, seat))
    ok(table.submit("chopper", {"act": "move", "by": "chopper", "to": "-1,5"}))
    # While the Judges are rolled and moved, nobody is about to move a pawn.
    for seat in ("chopper", "phantom", "table"):
        assert not _threat_marked(_svg(table, seat))
    ok(table.submit("phantom", {"act": "roll", "by": "phantom", "faces": [5, 5, 6]}))
    for judge in (5, 5, 6):
        ok(table.submit("phantom", {"act": "judge_move", "judge": judge, "path": []}))
    assert _threat_marked(_svg(table, "phantom"))
    assert not _threat_marked(_svg(table, "chopper"))


def _threat_marked(svg: str) -> bool:
    return bool(re.search(r'<g class="hex [^"]*\bthreat\b', svg)) or "threat-pct" in svg


def test_graffiti_table_render_a_played_game_cleaning_arrests_and_log(host):
    table = host.table
    players = GraffitiPlayers(table, seed=2)
    seen_cleaning = False
    while not table.is_over():
        decision = players.decide()
        ok(table.submit(decision.seat, decision.action))
        view = table.snapshot("table")["view"]
        if view["cleaning"] and not seen_cleaning:
            seen_cleaning = True
            svg = _svg(table, "table")
            for number in view["cleaning"]:
                assert re.search(
                    rf'class="piece judge[^"]* cleaning[^"]*" data-judge="{number}"', svg
                )
                assert 'class="tippex"' in svg
    assert seen_cleaning
    snapshot = table.snapshot("table")
    lines = [render.describe(GAME, e) for e in snapshot["log"]]
    kinds = {e["type"] for e in snapshot["log"]}
    assert {"arrested", "scrawled", "cleaned", "game_over", "rolled", "judge_moved"} <= kinds
    for event, line in zip(snapshot["log"], lines, strict=True):
        assert line and not line.startswith(event["type"].replace("_", " ") + ":"), line
    assert any("arrests" in line for line in lines)
    extras = str(UI.extras(snapshot))
    assert "The game is over:" in extras
    for colour, info in snapshot["view"]["colours"].items():
        assert f'data-colour="{colour}"' in extras
        assert f"<td>{info['final']}</td>" in extras
        assert graffiti_know.colour_name(colour) in extras.replace("&#39;", "'")


def test_graffiti_table_render_extras_prestige_dice_and_landmarks(host):
    table = host.table
    ok(table.submit("chopper", {"act": "move", "by": "chopper", "to": "block-4"}))
    ok(table.submit("phantom", {"act": "roll", "by": "phantom", "faces": [4, 2]}))
    extras = str(UI.extras(table.snapshot("chopper")))
    extras = extras.replace("&#39;", "'")
    assert re.search(r'data-colour="chopper-1".*?Chopper\'s red</td><td>4</td>', extras)
    assert '<span class="die">2</span><span class="die">4</span>' in extras
    assert "2 of 6: Palais De Boing, Power Tower" in extras
    # Places by name, streets after their neighbour; no hex id in the text.
    assert "Judge Dredd on" in extras and "City Block 4 (Chopper's red)" in extras


def test_graffiti_table_render_log_lines_name_players_places_and_colours(host):
    table = host.table
    ok(table.submit("chopper", {"act": "move", "by": "chopper", "to": "block-4"}))
    lines = [render.describe(GAME, e) for e in table.snapshot("table")["log"]]
    assert "Chopper moves 2 hexes to City Block 4." in lines
    assert any(line.startswith("Chopper scrawls City Block 4 in Chopper's red") for line in lines)
    grid = graffiti.board_of({})
    assert graffiti_know.place(grid, "-1,5").startswith("the street ")
    # Every hex has its own name, so a list of places is never ambiguous.
    names = [graffiti_know.place(grid, h) for h in grid.hexes]
    assert len(set(names)) == len(names)


def test_graffiti_table_render_another_boards_view_falls_back(host):
    snapshot = host.table.snapshot("table")
    snapshot["view"] = {**snapshot["view"], "judges": {"1": "nowhere-on-this-map"}}
    assert "graffiti-board" not in str(UI.board(snapshot))
    assert "generic-view" in str(render.board(snapshot))


def test_graffiti_table_seat_page_forms_and_a_dice_form_post(host, app):
    table = host.table
    client = app.test_client()
    page = client.get(f"/seat/{table.token('chopper')}").get_data(as_text=True)
    assert "graffiti-board" in page and 'data-kind="choose_destination"' in page
    assert _threat_marked(page)
    form = {"action": '{"act": "move", "by": "chopper"}', "f:to": "0,4"}
    answer = client.post(f"/seat/{table.token('chopper')}/action", data=form)
    assert answer.status_code == 303
    page = client.get(f"/seat/{table.token('phantom')}").get_data(as_text=True)
    # Two dice, each a row of faces to tap.
    assert set(re.findall(r'name="l:faces\.(\d)"', page)) == {"1", "2"}
    assert 'data-kind="enter_dice"' in page and "Roll on the tablet" not in page
    form = {"action": '{"act": "roll", "by": "phantom"}', "l:faces": ["6", "3"]}
    answer = client.post(f"/seat/{table.token('phantom')}/action", data=form)
    assert answer.status_code == 303
    assert table.actions[-1] == {"act": "roll", "by": "phantom", "faces": [6, 3]}
    assert sources(table)[-1] == "tablet"
    page = client.get(f"/seat/{table.token('phantom')}").get_data(as_text=True)
    assert 'data-kind="move_judge"' in page and 'data-judge="6"' in page
    # A Judge's button sends its path: Judge 3 stays.
    form = {
        "action": '{"act": "judge_move", "by": "phantom"}',
        "choice": '{"judge": 3, "path": []}',
    }
    assert client.post(f"/seat/{table.token('phantom')}/action", data=form).status_code == 303
    assert table.actions[-1]["judge"] == 3
    # The typed form: which Judge, and the hex tapped on the map.
    form = {"action": '{"act": "judge_move", "by": "phantom"}', "i:judge": "6", "f:to": "4,5"}
    assert client.post(f"/seat/{table.token('phantom')}/action", data=form).status_code == 303
    assert table.actions[-1] == {"act": "judge_move", "by": "phantom", "judge": 6, "to": "4,5"}
    assert table.engine.summary(table.state)["turn"] == "phantom"
    assert app.extensions["lawmaster.unexpected"] == []


def test_graffiti_table_digital_dice_roll_button_on_the_seat_page(tmp_path, registered):
    host = TableHost(Journal(tmp_path / "digital.sqlite"), {"digital_dice": True, "seed": 4})
    table = install(host.new_game(header()))
    client = create_app(host).test_client()
    ok(table.submit("chopper", {"act": "move", "by": "chopper", "to": "0,4"}))
    token = table.token("phantom")
    page = client.get(f"/seat/{token}").get_data(as_text=True)
    assert "Roll 2 on the tablet" in page
    answer = client.post(f"/seat/{token}/roll", data={"action": '{"act": "roll", "by": "phantom"}'})
    assert answer.status_code == 303
    faces = table.actions[-1]["faces"]
    assert len(faces) == 2 and all(1 <= f <= 6 for f in faces)
    assert sources(table)[-1] == "digital-dice"
