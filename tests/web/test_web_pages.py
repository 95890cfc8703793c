"""The dashboard's pages without a browser: setup, seat forms without scripts, the board
drawing, replay of a finished game, undo, digital dice, and the progress pages."""

from __future__ import annotations

import json
import random
import re

import pytest
from web_support import gw_header, make_host, play_random, tokens

from lawmaster.host.games.gw_brott import GAME
from lawmaster.host.games.gw_brott.know import weights_for
from lawmaster.host.games.gw_brott.setup import deal_gw
from lawmaster.host.web import create_app

# A small inline board on which random two-player games end quickly (seed 3: 50 inputs).
SMALL_BOARD = {
    "name": "small",
    "width": 5,
    "height": 4,
    "houses": ["C2"],
    "jail": {"exits": ["A1", "E1"]},
    "gw_start": "E4",
    "evidence": {
        "blue-1": "B1",
        "blue-2": "D1",
        "red-1": "A2",
        "red-2": "E2",
        "green-1": "B3",
        "green-2": "D3",
        "yellow-1": "A4",
        "yellow-2": "C4",
        "white-1": "B4",
        "white-2": "D4",
    },
}


@pytest.fixture
def host(tmp_path):
    return make_host(tmp_path)


@pytest.fixture
def client(host):
    return create_app(host).test_client()


def html(response) -> str:
    return response.get_data(as_text=True)


def test_web_home_goes_to_setup_before_a_game_and_to_the_table_after(host, client):
    assert client.get("/").headers["Location"].endswith("/setup")
    assert client.get("/table").status_code == 404
    host.new_game(gw_header(1))
    assert client.get("/").headers["Location"].endswith("/table")


def test_web_setup_form_deals_and_starts_a_game(host, client):
    page = html(client.get("/setup"))
    for game in ("gw-brott", "judge-dredd", "unamerican-graffiti"):
        assert f'value="{game}"' in page
    response = client.post(
        "/setup",
        data={
            "game": "gw-brott",
            "gw-brott.criminals": "red, green, yellow",
            "gw-brott.board": "standard",
            "deal": "1",
            "gw-brott.gw_steps": "exactly",
            "gw-brott.shown": "1",
        },
    )
    assert response.status_code == 303 and response.headers["Location"].endswith("/table")
    table = host.table
    assert table.seats() == ["gw", "red", "green", "yellow"]
    assert table.header["options"] == {"gw_steps": "exactly", "special_move_catches": False}
    dealt = table.header["evidence"]
    assert all(len(cards) == 5 for cards in dealt.values())
    assert len({c for cards in dealt.values() for c in cards}) == 15
    assert len(set(table.header["abilities"].values())) == 3
    assert len(set(table.header["trumps"])) == 3


def test_web_setup_refuses_bad_setups_and_does_not_replace_a_game_unasked(host, client):
    def gw(criminals: str, **more: str) -> dict[str, str]:
        return {"game": "gw-brott", "gw-brott.criminals": criminals, "deal": "1", **more}

    bad = client.post("/setup", data=gw("red"))
    assert bad.status_code == 400 and "2, 3 or 4 criminals" in html(bad)
    assert host.table is None
    client.post("/setup", data=gw("red, green"))
    first = host.table
    again = client.post("/setup", data=gw("a, b"))
    assert again.status_code == 409 and host.table is first
    replaced = client.post("/setup", data=gw("a, b", replace="1"))
    assert replaced.status_code == 303 and host.table is not first
    answer = client.post("/setup", json={"header": {"game": "chess"}, "replace": True})
    assert answer.status_code == 400 and answer.get_json()["ok"] is False


def test_web_setup_json_with_extra_cards_given(host, client):
    header = gw_header(4, ["red", "green"])
    answer = client.post("/setup", json={"header": header})
    assert answer.get_json() == {"ok": True, "game": "gw-brott", "seats": ["gw", "red", "green"]}
    assert host.table.header["evidence"] == header["evidence"]


def test_web_table_screen_draws_the_board_and_no_secret(host, client):
    table = host.new_game(gw_header(2, ["red", "green"]))
    page = html(client.get("/table"))
    svg = re.search(r'<svg class="board gw-board".*?</svg>', page, re.S).group(0)
    assert svg.count('class="cell house"') == 22
    assert svg.count('class="cell jail"') == 2
    assert svg.count('class="exit"') == 4
    assert svg.count('class="cell evidence') == 23
    assert 'data-cell="J12"' in svg and ">GW</text>" in svg
    # Both criminals start in jail, which everyone knows.
    assert svg.count('class="piece jailed"') == 2
    assert 'class="piece criminal"' not in svg and 'class="maybe"' not in svg
    assert 'data-events="/events/table"' in page
    assert len(re.findall(r'<li class="qr-card"', page)) == len(table.seats())
    assert "qr-card" not in html(client.get("/table?qr=0"))


def test_web_seat_page_without_scripts_enters_dice_and_moves(host, client):
    table = host.new_game(gw_header(3, ["red", "green"]))
    red = tokens(table)["red"]
    page = html(client.get(f"/seat/{red}"))
    # Five dice, each a row of faces to tap (a radio group per die).
    assert set(re.findall(r'name="l:faces\.(\d)"', page)) == {"1", "2", "3", "4", "5"}
    form = re.search(r'<form[^>]*class="action-form dice-form".*?</form>', page, re.S).group(0)
    base = json.loads(re.search(r"name=\"action\" value='([^']+)'", form).group(1))
    assert base == {"act": "roll", "by": "red"}
    response = client.post(
        f"/seat/{red}/action",
        data={"action": json.dumps(base), "l:faces": ["1", "2", "3", "4", "arrow"]},
    )
    assert response.status_code == 303 and response.headers["Location"].endswith(red)
    page = html(client.get(f"/seat/{red}"))
    assert "Red rolls 1, 2, 3, 4, arrow." in page
    # Each move is a button naming its space, which a tap on that space presses too.
    button = re.search(
        r"<button name=\"choice\" data-on-board=\"(\w\d+)\" value='([^']+)'>(\w\d+)</button>",
        page,
    )
    choice = json.loads(button.group(2))
    assert choice["to"] == button.group(1) == button.group(3)
    moved = client.post(
        f"/seat/{red}/action",
        data={"action": json.dumps({"act": "move", "by": "red"}), "choice": json.dumps(choice)},
    )
    assert moved.status_code == 303
    assert table.engine.summary(table.state)["criminals"]["red"]["position"] == choice["to"]


def test_web_refused_form_shows_the_page_with_the_reason(host, client):
    table = host.new_game(gw_header(3, ["red", "green"]))
    green = tokens(table)["green"]
    response = client.post(
        f"/seat/{green}/action",
        data={"action": '{"act": "roll", "by": "green"}', "l:faces": ["1"] * 5},
    )
    assert response.status_code == 409
    page = html(response)
    assert 'class="flash flash-error"' in page and '<strong class="bar-name">Green</strong>' in page
    assert table.actions == []


def test_web_json_answers(host, client):
    table = host.new_game(gw_header(3, ["red", "green"]))
    red = tokens(table)["red"]
    ok = client.post(f"/seat/{red}/action", json={"act": "roll", "by": "red", "faces": ["gw"] * 5})
    assert ok.status_code == 200 and ok.get_json()["ok"] is True
    assert ok.get_json()["events"][0]["type"] == "rolled"
    refused = client.post(f"/seat/{red}/action", json={"act": "gw_roll", "face": 3})
    assert refused.status_code == 409 and "only gw" in refused.get_json()["error"]
    snapshot = client.get(f"/seat/{red}.json").get_json()["snapshot"]
    assert snapshot == table.snapshot("red")


def test_web_gw_page_draws_the_deduction_map(host, client):
    table = host.new_game(gw_header(8, ["red", "green"]))
    rng = random.Random(8)
    while len([e for e in table.snapshot("gw")["log"] if e["type"] == "criminal_moved"]) < 2:
        play_random(table, rng)
    view = table.snapshot("gw")["view"]
    page = html(client.get(f"/seat/{tokens(table)['gw']}"))
    for piece in view["deduction"]:
        marks = re.findall(
            rf'<g class="cell [^"]*\bmaybe\b[^"]*" data-cell="(\w+)" data-pieces="[^"]*\b{piece}\b',
            page,
        )
        assert sorted(marks) == sorted(weights_for(view, piece))
        assert marks, piece
    assert 'class="piece criminal"' not in page


def test_web_gw_big_board_leaves_a_cell_of_no_weight_unshaded_as_the_mini_map_does(host):
    # The deduction lists a place the probability map gives no weight: a place the piece
    # cannot be. Neither the big board nor the piece's mini-map shades it.
    table = host.new_game(gw_header(8, ["red", "green"]))
    rng = random.Random(8)
    while len([c for c in table.snapshot("gw")["view"]["deduction"]["red"] if c != "jail"]) < 3:
        play_random(table, rng)
    snapshot = table.snapshot("gw")
    view = snapshot["view"]
    listed = view["deduction"]["red"]
    impossible = next(c for c in listed if c != "jail")
    shares = [0.0 if c == impossible else 1.0 for c in listed]
    view = {
        **view,
        "deduction_probability": {
            **view["deduction_probability"],
            "red": [share / sum(shares) for share in shares],
        },
    }
    with create_app(host).test_request_context():
        board = str(GAME.ui.board({**snapshot, "view": view}))
        extras = str(GAME.ui.extras({**snapshot, "view": view}))
    marks = re.findall(
        r'<g class="cell [^"]*\bmaybe\b[^"]*" data-cell="(\w+)" data-pieces="[^"]*\bred\b', board
    )
    mini = re.search(r'<li class="gw-suspect" data-piece="red">.*?</svg>', extras, re.S)
    shaded = re.findall(r'class="mini-maybe l\d" data-cell="(\w+)"', mini.group(0))
    assert impossible not in marks and impossible not in shaded
    assert sorted(marks) == sorted(shaded) == sorted(weights_for(view, "red"))


def test_web_undo_is_asked_from_a_seat_and_confirmed_by_the_host(host, client):
    table = host.new_game(gw_header(3, ["red", "green"]))
    seats = tokens(table)
    roll = {"act": "roll", "by": "red", "faces": ["1"] * 5}
    client.post(f"/seat/{seats['red']}/action", json=roll)
    assert len(table.actions) == 1
    asked = client.post(f"/seat/{seats['red']}/undo", json={})
    assert asked.status_code == 200
    for seat in ("gw", "green"):
        page = html(client.get(f"/seat/{seats[seat]}"))
        assert "waiting for the host to" in page and "Confirm undo" not in page
    # No seat confirms an undo any more: the route is gone, and the host's console does it.
    assert client.post(f"/seat/{seats['gw']}/undo/confirm", json={}).status_code == 404
    assert "red asked to take back the last input" in html(client.get("/host"))
    done = client.post("/host/undo", data={})
    assert done.status_code == 303 and table.actions == []


def test_web_digital_dice_roll_on_the_tablet(tmp_path):
    host = make_host(tmp_path, {"digital_dice": True, "seed": 9})
    table = host.new_game(gw_header(3, ["red", "green"]))
    client = create_app(host).test_client()
    red = tokens(table)["red"]
    assert "Roll 5 on the tablet" in html(client.get(f"/seat/{red}"))
    rolled = client.post(f"/seat/{red}/roll", json={})
    assert rolled.status_code == 200, rolled.get_json()
    faces = table.actions[-1]["faces"]
    assert len(faces) == 5 and table.actions[-1]["by"] == "red"
    assert client.post(f"/seat/{tokens(table)['green']}/roll", json={}).status_code == 409


def test_web_digital_roll_refused_when_the_table_enters_real_dice(host, client):
    table = host.new_game(gw_header(3, ["red", "green"]))
    response = client.post(f"/seat/{tokens(table)['red']}/roll", json={})
    assert response.status_code == 409 and table.actions == []


def test_web_scenario_export_waits_for_the_end(host, client):
    host.new_game(gw_header(3, ["red", "green"]))
    assert client.get("/table/scenario.jsonl").status_code == 404


def test_web_replay_of_a_finished_game_move_by_move(host, client):
    header = {"game": "gw-brott", "criminals": ["red", "green"], "two_player": True}
    table = host.new_game(deal_gw({**header, "board": SMALL_BOARD}, random.Random(3)))
    rng = random.Random(3)
    while not table.is_over():
        play_random(table, rng)
    history = table.history("table")
    steps = len(history)
    assert steps == len(table.actions) + 1
    for step in range(steps):
        page = html(client.get(f"/table/replay?step={step}"))
        assert f'<strong id="replay-step">{step}</strong> of {steps - 1}' in page
        assert '<svg class="board gw-board"' in page
        assert page.count("<li value=") >= len(history[step]["log"])
        assert ('rel="next"' in page) == (step < steps - 1)
    last = html(client.get("/table/replay"))
    assert "GW wins!" in last and "game still in progress" not in last
    exported = client.get("/table/scenario.jsonl")
    assert exported.status_code == 200
    # The public screen's file: the inputs it saw, the rest (criminals' moves) as comments.
    text = exported.get_data(as_text=True).splitlines()
    lines = [line for line in text if not line.startswith("# the header")]
    assert json.loads(lines[0])["game"] == "gw-brott" and len(lines) == steps
    pairs = zip(table.actions, lines[1:], strict=True)
    seen = [(a, line) for a, line in pairs if not line.startswith("#")]
    assert [json.loads(line) for _, line in seen] == [a for a, _ in seen]
    assert seen and all(a["act"] != "move" for a, _ in seen)
    playing = html(client.get("/table/replay?step=2&play=1"))
    assert 'http-equiv="refresh"' in playing and "step=3" in playing


class ProgressStandIn:
    """The host's calibration/enrollment objects offer ``progress()`` (table contract);
    the sensing and NFC code do not expose one yet, so this holds the numbers."""

    def __init__(self) -> None:
        self.state = {"step": "place a magnet on B4", "done": 3, "total": 120, "message": "ok"}

    def progress(self) -> dict:
        return dict(self.state)


def test_web_progress_pages(host, client):
    assert "not available on this table" in html(
        client.get("/calibration", headers={"Accept": "text/html"})
    )
    assert client.get("/enrollment.json").status_code == 404
    host.calibration = ProgressStandIn()
    page = html(client.get("/calibration", headers={"Accept": "text/html"}))
    assert "place a magnet on B4" in page and 'max="120" value="3"' in page
    assert client.get("/calibration.json").get_json()["progress"]["done"] == 3
    host.calibration.state.update(done=120)
    assert 'http-equiv="refresh"' not in html(
        client.get("/calibration", headers={"Accept": "text/html"})
    )


DREDD_CRIMES = [
    {
        "sector_card": "sector-devils-island",
        "crime": "robot-smashing",
        "perp": "the-mantis-brothers",
    },
    {"sector_card": "sector-channel-99", "crime": "littering", "perp": "max-normal"},
    {"sector_card": "sector-kelp-farm", "crime": "jaywalking", "perp": "otto-sump"},
    {"sector_card": "sector-west-wall", "crime": "murder", "perp": "judge-death"},
    {"sector_card": "sector-power-tower", "crime": "vandalism", "perp": "chopper"},
    {"sector_card": "sector-weather-control", "crime": "arson", "perp": "whitey"},
]


def test_web_judge_dredd_pages_show_sectors_and_the_seats_own_combat_odds(host, client):
    header = {
        "game": "judge-dredd",
        "players": ["a", "b"],
        "positions": {"a": "resyk", "b": "grand-hall-of-justice"},
        "crimes": DREDD_CRIMES,
        "hands": {"a": ["fergee-1"]},
    }
    answer = client.post("/setup", json={"header": header})
    assert answer.get_json()["seats"] == ["a", "b"]
    table = host.table
    seats = tokens(table)
    # Each seat plays from the forms its page shows for what the engine asks of it.
    # (Moves are the referee's prompt; the Dredd controls draw the one-button answers.)
    for seat, kind, fields in (
        ("a", "dredd_move", {"path": ["mega-mall", "channel-99"]}),
        ("b", "dredd_move", {"path": []}),
        ("a", "jd-end_movement", None),
    ):
        page = html(client.get(f"/seat/{seats[seat]}"))
        form = re.search(rf'<div class="prompt [^"]*" data-kind="{kind}".*?</form>', page, re.S)
        base = re.search(r"name=\"action\" value='([^']+)'", form.group(0)).group(1)
        data = {"action": base}
        if fields is not None:
            assert 'name="choice"' in form.group(0)
            data["choice"] = json.dumps(fields)
        response = client.post(f"/seat/{seats[seat]}/action", data=data)
        assert response.status_code == 303, html(response)[-500:]
    odds = table.snapshot("a")["view"]["you"]["odds"]
    page = html(client.get(f"/seat/{seats['a']}"))
    assert '<svg class="board dredd-map"' in page and 'data-sector="channel-99"' in page
    assert "Channel 99" in page
    assert 'data-kind="jd-commit"' in page and 'data-kind="jd-reveal"' in page
    # A card the seat is known to hold is one tap to commit.
    commit = re.search(r'data-kind="jd-commit".*?</form>', page, re.S).group(0)
    assert 'aria-label="Add Fergee"' in commit and "fergee-1" in commit
    assert f'data-win="{odds["win"]}"' in page and 'class="odds-win">win 83%' in page
    # Odds are the fighting seat's own reading: not on the other seat's page or the table's.
    assert "Your combat odds" not in html(client.get(f"/seat/{seats['b']}"))
    assert "Your combat odds" not in html(client.get("/table"))


def test_web_graffiti_setup_and_seat_page(host, client):
    response = client.post(
        "/setup",
        data={"game": "unamerican-graffiti", "deal": "1", "judge-dredd.players": "ignored"},
    )
    assert response.status_code == 303
    table = host.table
    assert 1 <= table.header["dredd_roll"] <= 6 and "players" not in table.header
    page = html(client.get(f"/seat/{tokens(table)['chopper']}"))
    assert 'data-region="board"' in page and '<strong class="bar-name">Chopper</strong>' in page


def test_web_a_game_without_its_own_drawing_shows_its_view_as_a_list():
    from lawmaster.host.web import render

    snapshot = {"game": "no-such-game", "view": {"score": 3, "hand": ["a-1", "b-2"]}, "log": []}
    with create_app(None).app_context():
        drawn = str(render.board(snapshot))
    assert drawn == (
        '<div class="generic-view"><dl class="view"><dt>score</dt><dd>3</dd>'
        "<dt>hand</dt><dd>a-1, b-2</dd></dl></div>"
    )
    assert render.describe("no-such-game", {"type": "scored", "by": "a", "points": 2}) == (
        "scored: by a, points 2"
    )


def test_web_names_are_escaped_everywhere(host, client):
    evil = '"><img src=x onerror=alert(1)>'
    header = gw_header(6, [evil, "<b>bold</b>"])
    assert client.post("/setup", json={"header": header}).status_code == 200
    table = host.table
    rng = random.Random(6)
    for _ in range(20):
        play_random(table, rng)
    paths = ["/table", "/table/replay?step=3", *(f"/seat/{t}" for t in tokens(table).values())]
    for path in paths:
        response = client.get(path, headers={"Accept": "text/html"})
        page = html(response)
        assert "<img" not in page and "<b>bold" not in page, path
        assert "script-src 'self'" in response.headers["Content-Security-Policy"]


def test_web_gw_sees_the_board_from_its_own_side(host, client):
    table = host.new_game(gw_header(3, ["red", "green"]))
    seats = tokens(table)

    def cell_x(page: str, name: str) -> float:
        group = re.search(rf'<g class="cell [^"]*" data-cell="{name}">.*?<rect x="([\d.]+)"', page)
        return float(group.group(1))

    gw = html(client.get(f"/seat/{seats['gw']}"))
    red = html(client.get(f"/seat/{seats['red']}"))
    # GW sits behind the vertical board: left and right swap, rows stay.
    assert 'data-side="gw"' in gw and 'data-side="criminals"' in red
    assert cell_x(gw, "A1") == cell_x(red, "J1") and cell_x(gw, "J12") == cell_x(red, "A12")
    assert f"/events/{seats['gw']}?side=criminals" in html(
        client.get(f"/seat/{seats['gw']}?side=criminals")
    )
    flipped = html(client.get(f"/seat/{seats['gw']}?side=criminals"))
    assert cell_x(flipped, "A1") == cell_x(red, "A1")


def test_web_which_reading_question_is_answered_by_index(host, client):
    table = host.new_game(gw_header(3, ["red", "green"]))
    readings = [
        {"type": "moved", "piece": "red", "from": "C6", "to": "C4", "path": [], "how": "slid"},
        {"type": "moved", "piece": "red", "from": "C6", "to": "C5", "path": [], "how": "lifted"},
    ]
    # The referee asks a seat through the table's prompts (as for two board readings).
    prompt = {"kind": "which_reading", "act": "choose_reading", "options": readings}
    prompt["action"] = {"act": "choose_reading"}
    table.set_prompts({"red": [prompt]})
    page = html(client.get(f"/seat/{tokens(table)['red']}"))
    form = re.search(r'<div class="prompt prompt-which_reading".*?</form>', page, re.S).group(0)
    buttons = re.findall(r"name=\"choice\" value='([^']+)'>([^<]+)<", form)
    assert [json.loads(v) for v, _ in buttons] == [{"index": 0}, {"index": 1}]
    assert [label for _, label in buttons] == ["red moved C6 → C4", "red moved C6 → C5"]
    assert "prompt-which_reading" not in html(client.get(f"/seat/{tokens(table)['gw']}"))
