"""The referee reading the (simulated) board: magnets, hall sensors, sensing, tracker.

The rig steps the physical board, the sensing layer and the tracker on a
simulated clock; every observation goes to the real referee of a real table,
which tells the tracker what to expect after each change.
"""

from __future__ import annotations

import json

import pytest

from lawmaster.host.games.gw_brott.setup import DEMO_HEADER
from lawmaster.host.journal import Journal
from lawmaster.host.sim.rig import Rig, RigBoard
from lawmaster.host.table import Table


@pytest.fixture(scope="module")
def calibrated():
    return Rig.for_game("gw-brott", seed=4).calibration


@pytest.fixture
def setup(tmp_path, calibrated):
    rig = Rig.for_game("gw-brott", seed=4, calibration=calibrated)
    rig.board.put("gw", "gw", "J12")
    rig.board.put("red", "criminal", "jail")
    rig.board.put("green", "criminal", "jail")
    rig.run(0.3)
    settings = {"board": True, "gw_pause": 0.01}
    table = Table.start(Journal(tmp_path / "j.db"), DEMO_HEADER, settings)
    board = RigBoard(rig)
    table.referee.attach_board(board)

    def run(seconds: float) -> list:
        return board.run(table.referee, seconds)

    return rig, table, run


def _roll(table: Table, seat: str) -> dict:
    result = table.submit(seat, {"act": "roll", "by": seat, "faces": ["1", "2", "3", "4", "arrow"]})
    assert result["ok"], result
    return table.snapshot(seat)["view"]["asked"]["moves"]


def test_referee_board_a_criminal_move_is_the_said_die_plus_where_the_piece_came_to_rest(setup):
    rig, table, run = setup
    moves = _roll(table, "red")
    to = moves["2"][0]
    assert table.submit("red", {"act": "move", "by": "red", "die": "2"})["pending"]
    rest = rig.hands.lift_place("red", to, rig.now)
    run(rest - rig.now + 0.3)
    assert table.actions[-1] == {"act": "move", "by": "red", "die": "2", "to": to}
    assert Journal(table.journal.path).open_game().entries[-1].source == "board"
    assert table.status.state == "ok"


def test_referee_board_the_move_first_then_the_die(setup):
    rig, table, run = setup
    moves = _roll(table, "red")
    to = moves["3"][-1]
    run(rig.hands.lift_place("red", to, rig.now) - rig.now + 0.3)
    assert table.status.state == "waiting"
    assert to in table.snapshot("red")["status"]["message"]
    assert to not in table.snapshot("gw")["status"]["message"]
    result = table.submit("red", {"act": "move", "by": "red", "die": "3"})
    assert result["ok"] and "pending" not in result
    assert table.actions[-1]["to"] == to


def test_referee_board_an_illegal_move_is_flagged_and_cleared_when_put_back(setup):
    rig, table, run = setup
    _roll(table, "red")
    table.submit("red", {"act": "move", "by": "red", "die": "1"})
    # One step from the jail reaches an exit only: A1 is far away.
    run(rig.hands.lift_place("red", "A1", rig.now) - rig.now + 0.3)
    assert len(table.actions) == 1
    status = table.snapshot("gw")["status"]
    assert status["state"] == "illegal"
    assert "A1" not in json.dumps(status)  # GW may not learn where red went
    red = table.snapshot("red")["status"]["message"]
    assert "put Red back in the jail" in red and "1" in red
    assert table.snapshot("table")["status"]["state"] == "illegal"
    run(rig.hands.lift_place("red", "jail", rig.now) - rig.now + 0.4)
    assert table.status.state == "ok"
    assert len(table.actions) == 1
    # The die is still said: a legal move now goes through.
    exit_cell = table.snapshot("red")["view"]["asked"]["moves"]["1"][0]
    run(rig.hands.lift_place("red", exit_cell, rig.now) - rig.now + 0.3)
    assert table.actions[-1] == {"act": "move", "by": "red", "die": "1", "to": exit_cell}
    assert table.status.state == "ok"


def test_referee_board_gw_path_from_the_sliding_magnet_and_a_catch_sends_to_jail(setup):
    rig, table, run = setup
    moves = _roll(table, "red")
    table.submit("red", {"act": "move", "by": "red", "die": "arrow"})
    # Red slides right out of the jail's exit F6 to J6.
    target = next(
        m["to"] for m in moves["arrow"] if m["exit"] == "F6" and m["direction"] == "right"
    )
    run(rig.hands.lift_place("red", target, rig.now) - rig.now + 0.3)
    assert table.actions[-1]["to"] == target
    _roll(table, "green")
    table.submit("green", {"act": "pass", "by": "green"})
    if table.to_act() != ["gw"]:
        green_moves = table.snapshot("green")["view"]["asked"]["moves"]
        table.submit("green", {"act": "move", "by": "green", "die": "1"})
        run(rig.hands.lift_place("green", green_moves["1"][0], rig.now) - rig.now + 0.3)
    assert table.to_act() == ["gw"]
    assert table.submit("gw", {"act": "gw_roll", "face": 6})["ok"]
    path = ["J11", "J10", "J9", "J8", "J7", "J6"]
    run(rig.hands.slide("gw", path, rig.now) - rig.now + 0.4)
    moved = table.actions[-1]
    assert moved["act"] == "gw_move" and moved["path"][-1] == "J6"
    summary = table.engine.summary(table.state)
    assert summary["criminals"]["red"]["position"] == "jail"
    assert table.status.state == "waiting" and "Red" in table.status.message
    run(rig.hands.lift_place("red", "jail", rig.now) - rig.now + 0.4)
    assert table.status.state == "ok"


def test_referee_board_two_readings_ask_the_right_seat_instead_of_guessing(setup):
    rig, table, run = setup
    moves = _roll(table, "red")
    table.submit("red", {"act": "move", "by": "red", "die": "2"})
    to = moves["2"][0]
    # Both criminals are lifted out of the jail together; one comes down on a street.
    t = rig.hands.lift("green", rig.now)
    t = rig.hands.lift("red", t)
    run(rig.hands.place("red", to, t + 0.05) - rig.now + 0.3)
    prompts = table.snapshot("red")["prompts"]
    question = [p for p in prompts if p["kind"] == "which_reading"]
    assert question, prompts
    for seat in ("gw", "green", "table"):
        assert not [p for p in table.snapshot(seat)["prompts"] if p["kind"] == "which_reading"]
    assert table.status.state in ("waiting", "illegal")  # green is off the board too
    pieces = [option["piece"] for option in question[0]["options"]]
    assert sorted(pieces) == ["green", "red"]
    answer = {"act": "choose_reading", "index": pieces.index("red")}
    assert table.submit("red", answer)["ok"]
    assert table.actions[-1] == {"act": "move", "by": "red", "die": "2", "to": to}
    # Green (to act now) puts its piece back in the jail: nothing happens until it moves.
    run(rig.hands.place("green", "jail", rig.now) - rig.now + 0.4)
    assert table.status.state == "ok"
    assert len(table.actions) == 2
    # Green (to act now) puts its piece back in the jail: nothing happens until it moves.
    run(rig.hands.place("green", "jail", rig.now) - rig.now + 0.4)
    assert table.status.state == "ok"
    assert len(table.actions) == 2


def test_referee_board_undo_waits_for_the_piece_to_go_back(setup):
    rig, table, run = setup
    moves = _roll(table, "red")
    to = moves["2"][0]
    table.submit("red", {"act": "move", "by": "red", "die": "2"})
    run(rig.hands.lift_place("red", to, rig.now) - rig.now + 0.3)
    assert len(table.actions) == 2
    assert table.request_undo("red")["ok"]
    assert table.confirm_undo("gw")["ok"]
    assert len(table.actions) == 1
    run(0.5)
    # The game has red in the jail again: the board must follow before play goes on.
    assert table.status.state == "illegal"
    assert to in table.snapshot("red")["status"]["message"]  # "take the criminal off <to>"
    assert to not in json.dumps(table.snapshot("gw")["status"])
    run(rig.hands.lift_place("red", "jail", rig.now) - rig.now + 0.5)
    assert table.status.state == "ok"
