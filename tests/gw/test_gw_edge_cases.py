"""Corner cases that are quicker to set up from a state than from a whole game."""

from __future__ import annotations

from dataclasses import replace

import pytest
from gwtest_support import tiny_header

from lawmaster.rules.core import IllegalAction
from lawmaster.rules.gw_brott import ENGINE, Board
from lawmaster.rules.gw_brott.geometry import geometry_of

OPENING = [
    {"act": "roll", "by": "red", "faces": ["gw", "1", "2", "3", "4"]},
    {"act": "move", "by": "red", "die": "1", "to": "G3"},
    {"act": "roll", "by": "green", "faces": ["gw", "gw", "1", "1"]},
    {"act": "move", "by": "green", "die": "1", "to": "A3"},
    {"act": "gw_roll", "face": 1},
    {"act": "gw_move", "path": ["G4"]},
]


def _opening(**options):
    state = ENGINE.new_game(tiny_header(options=options)).state
    for action in OPENING:
        state = ENGINE.apply(state, action).state
    return state


def test_a_resetter_put_out_by_the_special_move_does_not_go_on_even_when_caught_ones_continue():
    state = replace(_opening(caught_resetter="continues"), handcuffs=(2, 0), handcuffs_left=2)
    state = ENGINE.apply(state, {"act": "reset", "by": "red"}).state
    outcome = ENGINE.apply(state, {"act": "gw_move", "path": ["G3"]})
    types = [e["type"] for e in outcome.events]
    assert types[:3] == ["gw_moved", "caught", "out"]
    assert outcome.events[-1] == {"type": "turn", "seat": "green"}
    assert ENGINE.summary(outcome.state)["criminals"]["red"]["out"] is True


def test_the_last_handcuff_in_a_special_move_ends_the_game_at_once():
    state = replace(_opening(), handcuffs_left=1)
    state = ENGINE.apply(state, {"act": "reset", "by": "red"}).state
    outcome = ENGINE.apply(state, {"act": "gw_move", "path": ["G3"]})
    assert outcome.events[-1] == {"type": "won", "winner": "gw"}
    assert ENGINE.to_act(outcome.state) == []
    with pytest.raises(IllegalAction, match="the game is over: gw won"):
        ENGINE.apply(outcome.state, {"act": "roll", "by": "green", "faces": ["1"] * 5})


def test_the_informer_cannot_be_played_with_a_single_criminal_left():
    state = ENGINE.new_game(tiny_header()).state
    for action in OPENING[:4]:
        state = ENGINE.apply(state, action).state
    state = replace(state, out=(False, True), positions=(state.positions[0], -1))
    with pytest.raises(IllegalAction, match="no other criminal in the game to inform on"):
        ENGINE.apply(state, {"act": "trump", "card": "informer", "informer": "red"})
    with pytest.raises(IllegalAction, match="green is out of the game"):
        ENGINE.apply(state, {"act": "trump", "card": "informer", "informer": "green"})


def test_the_infiltrator_shows_jailed_criminals_as_jail_and_skips_those_out():
    header = tiny_header(trumps=["infiltrator", "informer", "breakthrough"])
    state = ENGINE.new_game(header).state
    for action in OPENING[:4]:
        state = ENGINE.apply(state, action).state
    state = replace(state, positions=(state.positions[0], -1))
    outcome = ENGINE.apply(state, {"act": "trump", "card": "infiltrator"})
    seen = next(e for e in outcome.events if e["type"] == "infiltrated")
    assert seen["seen"] == {"red": "G3", "green": "jail"} and seen["hidden"] == []
    out = replace(state, out=(False, True))
    seen = next(
        e
        for e in ENGINE.apply(out, {"act": "trump", "card": "infiltrator"}).events
        if e["type"] == "infiltrated"
    )
    assert seen["seen"] == {"red": "G3"}


def test_a_gw_move_with_no_open_neighbour_may_be_empty_even_when_steps_must_be_exact():
    board = Board.from_data(
        {
            "width": 3,
            "height": 3,
            "houses": ["B1", "A2"],
            "jail": {"exits": ["C3"]},
            "gw_start": "A1",
        }
    )
    state = ENGINE.new_game(tiny_header(options={"gw_steps": "exactly"})).state
    for action in OPENING[:4]:
        state = ENGINE.apply(state, action).state
    state = replace(state, board=board, geo=geometry_of(board), gw_pos=0, positions=(8, -1))
    state = ENGINE.apply(state, {"act": "gw_roll", "face": 3}).state
    with pytest.raises(IllegalAction, match="B1 is a house"):
        ENGINE.apply(state, {"act": "gw_move", "path": ["B1"]})
    outcome = ENGINE.apply(state, {"act": "gw_move", "path": []})
    assert outcome.events[0]["to"] == "A1"


def test_an_informer_naming_a_jailed_criminal_says_jail():
    state = ENGINE.new_game(tiny_header()).state
    for action in OPENING[:4]:
        state = ENGINE.apply(state, action).state
    state = replace(state, positions=(-1, state.positions[1]))
    outcome = ENGINE.apply(
        state, {"act": "trump", "card": "informer", "informer": "green", "target": "red"}
    )
    informed = next(e for e in outcome.events if e["type"] == "informed")
    assert informed["cell"] == "jail" and informed["immune"] is False
    assert ENGINE.view(outcome.state, "gw")["revealed"][-1]["place"] == "jail"


def test_the_draft_declares_exactly_the_fields_of_the_state():
    from dataclasses import fields

    from lawmaster.rules.gw_brott.state import Draft, State

    assert set(Draft.__annotations__) == {f.name for f in fields(State)}
