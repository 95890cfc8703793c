"""Views, to_act and legal_actions: what each seat is shown and asked."""

from __future__ import annotations

import json
from math import comb

import pytest
from gwtest_support import tiny_header

from lawmaster.host.games import engine_for
from lawmaster.rules.core import IllegalAction
from lawmaster.rules.gw_brott import ENGINE


def _play(*actions, header=None):
    state = ENGINE.new_game(header or tiny_header()).state
    for action in actions:
        state = ENGINE.apply(state, action).state
    return state


ROLL_RED = {"act": "roll", "by": "red", "faces": ["1", "2", "3", "4", "arrow"]}
RED_TO_G3 = {"act": "move", "by": "red", "die": "1", "to": "G3"}
ROLL_GREEN = {"act": "roll", "by": "green", "faces": ["1", "2", "3", "4", "arrow"]}
GREEN_TO_A3 = {"act": "move", "by": "green", "die": "1", "to": "A3"}


def test_the_engine_is_registered_under_its_game_name():
    assert engine_for("gw-brott") is ENGINE


def test_seats_and_who_is_to_act_through_a_round():
    state = _play()
    assert ENGINE.seats(state) == ["gw", "red", "green"]
    assert ENGINE.to_act(state) == ["red"]
    state = _play(ROLL_RED, RED_TO_G3, ROLL_GREEN, GREEN_TO_A3)
    assert ENGINE.to_act(state) == ["gw"]
    informing = ENGINE.apply(state, {"act": "trump", "card": "informer", "informer": "green"})
    assert ENGINE.to_act(informing.state) == ["green"]
    view = ENGINE.view(informing.state, "green")
    assert view["asked"] == {"act": "inform", "targets": ["red"]}
    assert view["your_turn_to_act"] is True
    assert ENGINE.view(informing.state, "red")["asked"] is None


def test_the_current_criminal_is_shown_its_dice_and_legal_moves_per_die():
    state = _play(ROLL_RED)
    asked = ENGINE.view(state, "red")["asked"]
    assert asked["act"] == "move"
    assert asked["dice"] == ["1", "2", "3", "4", "arrow"]
    assert asked["moves"]["1"] == ["A3", "G3"]
    assert sorted(asked["moves"]["2"]) == ["A2", "A4", "B3", "F3", "G2", "G4"]
    assert {"exit": "A3", "direction": "up", "to": "A1"} in asked["moves"]["arrow"]
    assert asked["may_pass"] is False and asked["may_reroll"] == 5
    assert ENGINE.view(state, "green")["asked"] is None
    assert ENGINE.view(state, "gw")["asked"] is None


def test_gw_is_asked_for_its_move_with_the_steps_it_has():
    state = _play(ROLL_RED, RED_TO_G3, ROLL_GREEN, GREEN_TO_A3)
    assert ENGINE.view(state, "gw")["asked"] == {
        "act": "gw_roll",
        "bonus": 0,
        "or_trump": ["helicopter", "informer", "breakthrough"],
    }
    state = ENGINE.apply(state, {"act": "gw_roll", "face": 4}).state
    assert ENGINE.view(state, "gw")["asked"] == {
        "act": "gw_move",
        "kind": "normal",
        "steps": 4,
        "exactly": False,
    }


def test_the_table_view_has_no_secrets_at_all():
    state = _play(ROLL_RED, RED_TO_G3, ROLL_GREEN, GREEN_TO_A3)
    table = ENGINE.view(state, "table")
    for key in ("evidence_held", "ability", "trumps_left", "revealed", "deduction", "asked"):
        assert key not in table
    assert all("position" not in c for c in table["criminals"].values())
    assert table["criminals"]["red"] == {
        "in_jail": False,
        "handcuffs": 0,
        "evidence_left": 5,
        "out": False,
    }


def test_gw_view_has_its_trumps_and_deduction_but_no_criminal_position():
    state = _play(ROLL_RED, RED_TO_G3, ROLL_GREEN, GREEN_TO_A3)
    gw = ENGINE.view(state, "gw")
    assert gw["trumps_left"] == ["helicopter", "informer", "breakthrough"]
    assert set(gw["deduction"]) == {"red", "green"}
    assert "G3" in gw["deduction"]["red"]
    assert gw["deduction"]["red"] == sorted(gw["deduction"]["red"])
    assert all("position" not in c for c in gw["criminals"].values())


def test_unknown_seats_are_refused():
    state = _play()
    with pytest.raises(IllegalAction, match="there is no seat 'blue'"):
        ENGINE.view(state, "blue")
    with pytest.raises(IllegalAction):
        ENGINE.view(state, 3)


def test_legal_actions_list_every_distinct_roll_and_the_moves():
    state = _play()
    actions = ENGINE.legal_actions(state)
    rolls = [a for a in actions if a["act"] == "roll"]
    assert len(rolls) == comb(5 + 6 - 1, 5)
    assert {"act": "reset", "by": "red"} in actions
    rolled = _play(ROLL_RED)
    moves = [a for a in ENGINE.legal_actions(rolled) if a["act"] == "move"]
    for action in moves:
        ENGINE.apply(rolled, action)
    assert {"act": "pass", "by": "red"} not in ENGINE.legal_actions(rolled)
    gw_turn = _play(ROLL_RED, RED_TO_G3, ROLL_GREEN, GREEN_TO_A3)
    assert ENGINE.legal_actions(gw_turn) is None


def test_a_refused_action_leaves_the_state_as_it_was():
    state = _play(ROLL_RED)
    before = ENGINE.summary(state)
    with pytest.raises(IllegalAction, match="red must move exactly 2 steps; A1 is 3 steps away"):
        ENGINE.apply(state, {"act": "move", "by": "red", "die": "2", "to": "A1"})
    assert ENGINE.summary(state) == before


def test_new_game_refuses_a_header_that_is_not_an_object():
    assert not ENGINE.is_over(_play())
    with pytest.raises(IllegalAction, match="the header must be a JSON object"):
        ENGINE.new_game(["not", "a", "header"])


def _scenario(name):
    from pathlib import Path

    lines = (Path(__file__).parent / "scenarios" / name).read_text().splitlines()
    rows = [json.loads(line) for line in lines if line.strip() and not line.startswith("#")]
    return rows[0], rows[1:]


def test_the_end_reveals_every_criminals_trail_to_every_seat_and_not_before():
    header, actions = _scenario("short_game_red_wins.jsonl")
    state = ENGINE.new_game(header).state
    walked: dict[str, list[str]] = {"red": ["jail"], "green": ["jail"]}
    for action in actions:
        if state.winner is not None:
            break  # the scenario's last line is an input refused after the end
        for seat in ("gw", "table"):
            view = ENGINE.view(state, seat)
            assert "trails" not in view, "a trail shown before the end"
            assert all("position" not in c for c in view["criminals"].values())
        state = ENGINE.apply(state, action).state
        if action["act"] == "move":
            walked[action["by"]].append(action["to"])
    assert state.winner == "red"
    for seat in ("gw", "table", "red", "green"):
        view = ENGINE.view(state, seat)
        assert view["trails"] == walked
        assert {p: c["position"] for p, c in view["criminals"].items()} == {
            p: trail[-1] for p, trail in walked.items()
        }
