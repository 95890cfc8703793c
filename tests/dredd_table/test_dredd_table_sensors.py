"""Judge standees on the simulated board (magnets under hands, hall sensors, sensing,
tracker) read by the real referee of a real table, which tells the tracker what to
expect: moves sensed per Sector, an illegal move put back, a shared Sector asked."""

from __future__ import annotations

import pytest
from dredd_table_support import dredd_table, header, in_swedish, ok, sources

from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.sim.rig import Rig, RigBoard
from lawmaster.rules.judge_dredd.board import Board

GAME_MAP = "judge-dredd"


def test_dredd_table_sensor_map_matches_the_standard_board():
    board = Board.load("standard")
    sensors = SensorMap.load(GAME_MAP)
    assert sorted(sensors.spaces) == sorted(board.sectors)
    # Several standing spots per Sector, so several Judges can share one.
    assert min(len(sensors.spots_of(s)) for s in board.sectors) >= 4
    assert set(sensors.kinds) == {"judge"}


@pytest.fixture(scope="module")
def calibrated():
    return Rig.for_game(GAME_MAP, seed=5).calibration


def on_board(tmp_path, monkeypatch, calibrated, **head):
    rig = Rig.for_game(GAME_MAP, seed=5, calibration=calibrated)
    table = dredd_table(tmp_path, header(**head), {"board": True})
    for seat, judge in table.engine.summary(table.state)["judges"].items():
        rig.board.put(f"judge-{seat}", "judge", judge["sector"])
    rig.run(0.3)
    board = RigBoard(rig)
    table.referee.attach_board(board)

    def run(until: float) -> list:
        return board.run(table.referee, until - rig.now + 0.5)

    return rig, table, run


def test_dredd_table_standee_moves_are_read_as_moves(tmp_path, monkeypatch, calibrated):
    rig, table, run = on_board(tmp_path, monkeypatch, calibrated)
    assert table.status.state == "ok"
    run(rig.hands.lift_place("judge-a", "channel-99", rig.now))  # two Sectors away
    assert table.actions == [{"act": "move", "by": "a", "path": ["mega-mall", "channel-99"]}]
    # b's standee taken where it cannot go: flagged, nothing applied, put back, cleared.
    run(rig.hands.lift_place("judge-b", "weather-control", rig.now))
    assert len(table.actions) == 1
    assert table.status.state == "illegal"
    assert "put b's Judge back on Grand Hall of Justice" in table.status.message
    run(rig.hands.lift_place("judge-b", "grand-hall-of-justice", rig.now))
    assert table.status.state == "ok" and len(table.actions) == 1
    run(rig.hands.lift_place("judge-b", "kelp-farm", rig.now))
    assert table.actions[-1] == {"act": "move", "by": "b", "path": ["kelp-farm"]}
    assert sources(table) == ["board", "board"]
    # Everyone has moved: a standee lifted now is a problem until it is back.
    run(rig.hands.lift_place("judge-a", "mega-mall", rig.now))
    assert table.status.state == "illegal"
    assert "put a's Judge back on Channel 99" in table.status.message
    run(rig.hands.lift_place("judge-a", "channel-99", rig.now))
    assert table.status.state == "ok" and len(table.actions) == 2
    ok(table.submit("a", {"act": "end_movement"}))


def test_dredd_table_a_shared_sector_asks_whose_standee_moved(tmp_path, monkeypatch, calibrated):
    rig, table, run = on_board(
        tmp_path,
        monkeypatch,
        calibrated,
        positions={"a": "resyk", "b": "academy-of-law"},
        crimes=[
            {"sector_card": "sector-channel-99", "crime": "littering", "perp": "max-normal"},
            {"sector_card": "sector-kelp-farm", "crime": "jaywalking", "perp": "otto-sump"},
            {"sector_card": "sector-west-wall", "crime": "murder", "perp": "judge-death"},
            {"sector_card": "sector-power-tower", "crime": "vandalism", "perp": "chopper"},
            {"sector_card": "sector-weather-control", "crime": "arson", "perp": "whitey"},
            {"sector_card": "sector-spaceport", "crime": "robot-smashing", "perp": "judge-fear"},
        ],
    )
    table.referee.button("end_turn")  # a stays
    run(rig.hands.lift_place("judge-b", "resyk", rig.now))
    assert table.actions == [
        {"act": "move", "by": "a", "path": []},
        {"act": "move", "by": "b", "path": ["resyk"]},
    ]
    ok(table.submit("a", {"act": "end_movement"}))  # no arrests; the refill draws
    while table.state["round"] == 1:  # full hands draw nothing; otherwise by count
        seat = table.engine.to_act(table.state)[0]
        owed = table.state["refill"]["owed"][seat]
        ok(table.submit(seat, {"act": "draw", "by": seat, "count": owed}))
    assert table.state["phase"] == "movement"
    mover = table.engine.to_act(table.state)[0]
    other = "b" if mover == "a" else "a"
    # Both standees stand on Resyk: the sensors see one leave but not whose it was.
    run(rig.hands.lift_place(f"judge-{mover}", "devils-island", rig.now))
    moves = len(table.actions)
    assert table.status.state == "waiting"
    questions = {
        seat: [p for p in table.snapshot(seat)["prompts"] if p["kind"] == "which_reading"]
        for seat in ("a", "b")
    }
    assert questions["a"] and questions["b"]
    labels = [o["label"] for o in questions[mover][0]["options"]]
    said = {s: f"Judge {s.upper()} moved to Devil's Island." for s in ("a", "b")}
    assert sorted(labels) == sorted(said.values())
    assert sorted(in_swedish(tmp_path, labels)) == [
        "Domare A flyttade till Devil's Island.",
        "Domare B flyttade till Devil's Island.",
    ]
    # The wrong answer: that standee goes back; the question comes again.
    wrong = labels.index(said[other])
    ok(table.submit(other, {"act": "choose_reading", "index": wrong}))
    assert len(table.actions) == moves and table.status.state == "illegal"
    assert f"it is {mover}'s move" in table.status.message
    run(rig.hands.lift_place(f"judge-{mover}", "resyk", rig.now))
    assert table.status.state == "ok"
    run(rig.hands.lift_place(f"judge-{mover}", "devils-island", rig.now))
    prompt = next(p for p in table.snapshot(mover)["prompts"] if p["kind"] == "which_reading")
    right = [o["label"] for o in prompt["options"]].index(said[mover])
    ok(table.submit(mover, {"act": "choose_reading", "index": right}))
    assert table.actions[-1] == {"act": "move", "by": mover, "path": ["devils-island"]}
    assert sources(table)[-1] == "board" and table.status.state == "ok"
    assert not [p for p in table.snapshot(other)["prompts"] if p["kind"] == "which_reading"]


def test_dredd_table_a_judge_sent_to_hospital_is_moved_by_hand(tmp_path, monkeypatch, calibrated):
    rig, table, run = on_board(tmp_path, monkeypatch, calibrated)
    run(rig.hands.lift_place("judge-a", "channel-99", rig.now))
    table.referee.button("end_turn")  # b stays
    table.referee.button("end_turn")  # the movement phase ends: a fights Max Normal
    table.referee.button("end_turn")  # no cards: reveal
    ok(table.submit("a", {"act": "roll", "dice": {"a": [1], "perp": [6]}}))
    # KO'd in the round's last arrest: a is offered Robodoc before the refill, and declines.
    assert any(p["kind"] == "dredd_decline" for p in table.snapshot("a")["prompts"])
    ok(table.submit("a", {"act": "decline", "by": "a"}))
    summary = table.engine.summary(table.state)
    assert summary["phase"] == "refill"
    assert summary["judges"]["a"]["sector"] == "justice-department-hospital"
    run(rig.now + 0.5)
    # Not a wrong move: the game moved the Judge, the table moves the standee.
    assert table.status.state == "waiting", (table.status, table.referee.rules.problems)
    assert table.status.message == ("move a's Judge from Channel 99 to Justice Department Hospital")
    run(rig.hands.lift_place("judge-a", "justice-department-hospital", rig.now))
    assert table.status.state == "ok"


def test_dredd_table_judges_placed_at_setup_by_their_standees(tmp_path, monkeypatch, calibrated):
    rig = Rig.for_game(GAME_MAP, seed=5, calibration=calibrated)
    head = header()
    del head["positions"]
    table = dredd_table(tmp_path, head, {"board": True})
    for seat in ("a", "b"):
        rig.board.put(f"judge-{seat}", "judge", (0.0, -500.0))  # in the box beside the board
    rig.run(0.3)
    board = RigBoard(rig)
    table.referee.attach_board(board)

    def run(until: float) -> None:
        board.run(table.referee, until - rig.now + 0.5)

    prompt = next(p for p in table.snapshot("a")["prompts"] if p["kind"] == "dredd_place_judge")
    assert {o["action"]["sector"] for o in prompt["options"]} == set(
        Board.load("standard").starting_sectors
    )
    run(rig.hands.lift_place("judge-a", "sector-house-44", rig.now))
    run(rig.hands.lift_place("judge-b", "statue-of-judgement", rig.now))
    assert table.actions == [
        {"act": "place_judge", "by": "a", "sector": "sector-house-44"},
        {"act": "place_judge", "by": "b", "sector": "statue-of-judgement"},
    ]
    assert sources(table) == ["board", "board"] and table.status.state == "ok"
