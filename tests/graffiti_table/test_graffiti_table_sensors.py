"""Graffiti on the simulated board: magnets under hands, hall sensors, sensing, tracker,
and the real referee of a real table, which tells the tracker what to expect.

Also checks the shipped sensor map against the engine's standard board.
"""

from __future__ import annotations

import math

import pytest
from graffiti_table_support import graffiti_table, ok, sources

from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.sim.rig import Rig, RigBoard
from lawmaster.rules.unamerican_graffiti import Board

GAME_MAP = "unamerican-graffiti"


def test_graffiti_table_sensor_map_matches_the_standard_board():
    board = Board.load("standard")
    sensors = SensorMap.load(GAME_MAP)
    assert len(board.hexes) == 77
    assert sorted(sensors.spaces) == sorted(board.hexes)
    assert len(sensors.spots) == len(board.hexes)  # one sensor per hex
    # Neighbouring hexes sit one pitch apart and no two others are closer.
    for a in board.hexes:
        for b in board.hexes:
            if a < b:
                gap = math.dist(sensors.centre(a), sensors.centre(b))
                if b in board.neighbours[a]:
                    assert gap == pytest.approx(sensors.pitch_mm, abs=0.5)
                else:
                    assert gap > sensors.pitch_mm + 1
    # Pawns and counters are told apart by polarity alone.
    assert {k.polarity for k in sensors.kinds.values()} == {"north", "south"}
    assert set(sensors.kinds) == {"scrawler", "judge"}


@pytest.fixture(scope="module")
def calibrated():
    return Rig.for_game(GAME_MAP, seed=5).calibration


@pytest.fixture
def setup(tmp_path, calibrated):
    rig = Rig.for_game(GAME_MAP, seed=5, calibration=calibrated)
    table = graffiti_table(tmp_path, {"board": True})
    summary = table.engine.summary(table.state)
    for player, pawn in summary["scrawlers"].items():
        rig.board.put(player, "scrawler", pawn["position"])
    for number, where in summary["judges"].items():
        rig.board.put(f"judge-{number}", "judge", where)
    rig.run(0.3)
    board = RigBoard(rig)
    table.referee.attach_board(board)

    def run(until: float) -> list:
        return board.run(table.referee, until - rig.now + 0.4)

    return rig, table, run


def test_graffiti_table_sensed_pawn_and_judge_moves_are_refereed(setup):
    rig, table, run = setup
    assert table.status.state == "ok"
    run(rig.hands.lift_place("chopper", "block-4", rig.now))
    assert table.actions == [{"act": "move", "by": "chopper", "to": "block-4"}]
    ok(table.submit("phantom", {"act": "roll", "by": "phantom", "faces": [3, 6]}))
    run(rig.hands.lift_place("judge-6", "4,5", rig.now))
    assert table.actions[-1] == {"act": "judge_move", "by": "phantom", "judge": 6, "to": "4,5"}
    run(rig.hands.slide("judge-3", ["7,2"], rig.now))
    assert table.actions[-1]["judge"] == 3 and table.actions[-1]["to"] == "7,2"
    assert table.engine.summary(table.state)["turn"] == "phantom"
    assert sources(table) == ["board", "tablet", "board", "board"]
    assert table.status.state == "ok"


def test_graffiti_table_sensed_illegal_move_is_flagged_and_cleared_when_put_back(setup):
    rig, table, run = setup
    run(rig.hands.lift_place("chopper", "4,4", rig.now))
    assert table.actions == []
    assert table.status.state == "illegal"
    assert "power-tower" in table.status.message
    run(rig.hands.lift_place("chopper", "power-tower", rig.now))
    assert table.status.state == "ok"
    run(rig.hands.lift_place("chopper", "0,4", rig.now))
    assert table.actions == [{"act": "move", "by": "chopper", "to": "0,4"}]


def test_graffiti_table_a_counter_moved_out_of_turn_must_go_back(setup):
    rig, table, run = setup
    run(rig.hands.lift_place("judge-2", "3,2", rig.now))
    assert table.actions == []
    assert table.status.state == "illegal"
    assert "sector-house-2" in table.status.message
    run(rig.hands.lift_place("judge-2", "sector-house-2", rig.now))
    assert table.status.state == "ok"


@pytest.mark.parametrize("pause", [0.1, 1.5])
def test_graffiti_table_sensed_arrest_pawn_off_then_judge_on(setup, pause):
    rig, table, run = setup
    run(rig.hands.lift_place("chopper", "1,2", rig.now))
    ok(table.submit("phantom", {"act": "roll", "by": "phantom", "faces": [1, 4]}))
    # Take the pawn off (it stays in the hand), then put Dredd on its hex.
    off = rig.hands.lift("chopper", rig.now)
    run(rig.hands.lift_place("judge-1", "1,2", off + pause))
    assert table.actions[-1] == {"act": "judge_move", "by": "phantom", "judge": 1, "to": "1,2"}
    assert table.engine.summary(table.state)["scrawlers"]["chopper"]["arrested"] is True
    assert table.status.state == "ok"
    run(rig.hands.lift_place("judge-4", "8,2", rig.now))
    assert table.actions[-1]["judge"] == 4
    assert table.status.state == "ok"


def test_graffiti_table_a_move_typed_on_the_tablet_asks_for_the_pawn_to_follow(setup):
    rig, table, run = setup
    ok(table.submit("chopper", {"act": "move", "by": "chopper", "to": "0,4"}))
    run(rig.now + 0.5)
    # The board still shows the pawn on power-tower: the table is told to move it.
    assert table.status.state == "illegal"
    assert "0,4" in table.status.message and "power-tower" in table.status.message
    run(rig.hands.lift_place("chopper", "0,4", rig.now))
    assert table.status.state == "ok"
    assert len(table.actions) == 1


def test_graffiti_table_a_pawn_lifted_for_an_arrest_that_does_not_come_goes_back(setup):
    rig, table, run = setup
    run(rig.hands.lift_place("chopper", "1,2", rig.now))
    ok(table.submit("phantom", {"act": "roll", "by": "phantom", "faces": [1, 4]}))
    run(rig.hands.lift_place("chopper", "1,2", rig.now))  # off, and back on its hex
    assert len(table.actions) == 2 and table.status.state == "ok"
    # Off again, and Judge 1 goes elsewhere: the pawn must come back.
    off = rig.hands.lift("chopper", rig.now)
    run(rig.hands.lift_place("judge-1", "2,2", off + 0.1))
    assert table.actions[-1]["to"] == "2,2"
    run(rig.hands.lift_place("judge-4", "8,2", rig.now))
    assert table.engine.summary(table.state)["turn"] == "phantom"
    run(rig.now + 0.2)  # the tracker reports the missing pawn a moment later
    assert table.status.state == "illegal" and "Put chopper back on 1,2" in table.status.message
    run(rig.hands.place("chopper", "1,2", rig.now))
    assert table.status.state == "ok"
