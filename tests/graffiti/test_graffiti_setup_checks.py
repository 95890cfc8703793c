"""Setup checks and the readings the rules README writes down, one rulebook sentence each."""

from __future__ import annotations

import json

import pytest
from graffiti_boards import SMALL

from lawmaster.host.games import engine_for
from lawmaster.rules.core import IllegalAction
from lawmaster.rules.core.replay import replay
from lawmaster.rules.unamerican_graffiti import ENGINE


def run(header: dict, *actions: dict) -> tuple[list[dict], dict]:
    lines = [json.dumps({"game": "unamerican-graffiti", **header})]
    lines += [json.dumps(a) for a in actions]
    out = list(replay(lines, engines=engine_for))
    return out[:-1], out[-1]["summary"]


def refused(header: dict) -> str:
    with pytest.raises(IllegalAction) as caught:
        ENGINE.new_game(header)
    return caught.value.reason


# -- inline boards and headers ---------------------------------------------------------


def test_graffiti_both_pawns_may_not_start_on_one_hex():
    # "CHOPPER starts at Power Tower (far left). PHANTOM starts at Palais De Boing
    # (far right)." Two starts, two hexes.
    board = {**SMALL, "chopper_start": "L1", "phantom_start": "L1"}
    assert refused({"dredd_roll": 1, "board": board}) == (
        "Chopper and the Phantom cannot both start on L1"
    )


@pytest.mark.parametrize("roll", [1, 3])
def test_graffiti_a_start_on_a_sector_house_is_refused_whoever_stands_there(roll):
    # "Place one of the 6 Judge counters (numbered 1 to 6) on each of the Sector
    # Houses", and each player starts on a location worth 3 ("scores 3 points of
    # prestige and places his pawn there"): a landmark, never a Judge's Sector House.
    board = {**SMALL, "chopper_start": "S3"}
    assert refused({"dredd_roll": roll, "board": board}).startswith(
        "'chopper_start' must be a landmark, not S3 (a sector house)"
    )


def test_graffiti_a_board_needs_the_rulebooks_six_landmarks():
    # "Once all six landmarks have been scrawled at least once, the race is on to
    # scrawl the Statue of Judgement."
    fewer = [h if h.get("id") != "L5" else {**h, "kind": "street"} for h in SMALL["hexes"]]
    fewer = [{k: v for k, v in h.items() if k != "id" or v != "L5"} for h in fewer]
    assert refused({"dredd_roll": 1, "board": {**SMALL, "hexes": fewer}}) == (
        "a board has 6 landmarks, not 5"
    )


def test_graffiti_the_dredd_roll_must_be_given():
    # "Place one of the 6 Judge counters ... and then roll a die. Swap Judge 1
    # (Judge Dredd) with the Judge indicated by the die": the die is an input.
    assert "needs 'dredd_roll'" in refused({"board": SMALL})
    results, _ = run({"board": SMALL})
    assert results[0]["ok"] is False and "needs 'dredd_roll'" in results[0]["error"]


# -- the Judges' starting arrangement ----------------------------------------------------


def test_graffiti_judges_start_one_per_sector_house_in_board_order_by_default():
    # The rulebook says one Judge per Sector House, not which on which.
    _, summary = run({"board": SMALL, "dredd_roll": 1})
    assert summary["judges"] == {str(n): f"S{n}" for n in range(1, 7)}


def test_graffiti_judge_start_sets_the_arrangement_before_the_dredd_swap():
    arrangement = {"1": "S6", "2": "S5", "3": "S4", "4": "S3", "5": "S2", "6": "S1"}
    _, summary = run({"board": SMALL, "dredd_roll": 2, "judge_start": arrangement})
    # "Swap Judge 1 (Judge Dredd) with the Judge indicated by the die."
    assert summary["judges"] == {"1": "S5", "2": "S6", "3": "S4", "4": "S3", "5": "S2", "6": "S1"}


@pytest.mark.parametrize(
    "arrangement, message",
    [
        ({"1": "S1"}, "maps each Judge"),
        ({"1": "S1", "2": "S1", "3": "S3", "4": "S4", "5": "S5", "6": "S6"}, "two Judges"),
        ({"1": "L3", "2": "S2", "3": "S3", "4": "S4", "5": "S5", "6": "S6"}, "a landmark"),
        ({"1": "Z9", "2": "S2", "3": "S3", "4": "S4", "5": "S5", "6": "S6"}, "not a hex"),
    ],
)
def test_graffiti_a_bad_judge_start_is_refused(arrangement, message):
    assert message in refused({"dredd_roll": 1, "board": SMALL, "judge_start": arrangement})


# -- who a Judge may arrest --------------------------------------------------------------

# Chopper steps off L0; the Phantom rolls a 4. Judge 4 on S4 stands next to the
# Phantom's own pawn on L1.
TO_L1 = [
    {"act": "move", "by": "chopper", "path": ["1,0"]},
    {"act": "roll", "by": "phantom", "faces": [4]},
    {"act": "judge_move", "by": "phantom", "judge": 4, "path": ["L1"]},
]


def test_graffiti_the_player_moving_the_judges_may_not_arrest_his_own_pawn():
    # "After your move, but before the other player's turn, your opponent rolls a
    # number of dice ... He then moves the Judges whose numbers have been rolled."
    # The Judges chase the scrawler who moved; turning them on your own pawn would
    # only lock a colour's score in, so it is refused (option self_arrest).
    results, summary = run({"board": SMALL, "dredd_roll": 1}, *TO_L1)
    assert results[3] == {
        "ok": False,
        "error": "phantom moves the Judges and may not arrest his own pawn on L1",
    }
    assert summary["scrawlers"]["phantom"]["position"] == "L1"
    state = ENGINE.new_game({"board": SMALL, "dredd_roll": 1}).state
    for action in TO_L1[:2]:
        state = ENGINE.apply(state, action).state
    assert ["L1"] not in [a["path"] for a in ENGINE.legal_actions(state)]


def test_graffiti_self_arrest_allow_reads_any_scrawler_as_fair_game():
    # "If a Judge moves into the same location as a scrawler, the scrawler is arrested."
    header = {"board": SMALL, "dredd_roll": 1, "options": {"self_arrest": "allow"}}
    results, summary = run(header, *TO_L1)
    assert all(r["ok"] for r in results)
    assert summary["scrawlers"]["phantom"]["arrested"] is True


# -- the allowance after re-entry --------------------------------------------------------


def test_graffiti_the_scrawl_placed_on_re_entry_gives_the_judges_one_hex_not_three():
    # "If you have just scrawled then the Judges indicated can move a number of
    # hexes equal to the priority value of the location you have just scrawled. If
    # you have not scrawled, the Judges can still move one hex." The re-entry
    # scrawl is placed before the move, like the scrawls at the start; only a
    # scrawl made by the move sets the Judges' hexes.
    results, _ = run(
        {"board": {**SMALL, "chopper_start": "L2"}, "dredd_roll": 1},
        {"act": "move", "by": "chopper", "path": ["L4"]},
        {"act": "roll", "by": "phantom", "faces": [1]},
        {"act": "judge_move", "judge": 1, "path": ["-1,2", "L4"]},
        {"act": "move", "by": "phantom", "path": []},
        {"act": "reenter", "by": "chopper", "at": "L0"},
        {"act": "move", "by": "chopper", "path": ["1,0"]},
        {"act": "roll", "by": "phantom", "faces": [5]},
    )
    assert all(r["ok"] for r in results), results
    assert results[2]["events"][0]["hexes_per_judge"] == 3  # L4 scrawled by the move
    assert results[7]["events"][0]["hexes_per_judge"] == 1


# -- malformed input is refused, never a crash -------------------------------------------


@pytest.mark.parametrize(
    "changes, reason",
    [
        ({"sector_house_pairs": 5}, "'sector_house_pairs' must be a list of Sector House pairs"),
        (
            {"sector_house_pairs": [[["S1"], "S2"]]},
            "each Sector House pair is a list of two hex ids",
        ),
        ({"chopper_start": ["L1"]}, "'chopper_start' must name a hex of the board"),
    ],
)
def test_graffiti_a_malformed_inline_board_is_refused(changes, reason):
    assert refused({"dredd_roll": 1, "board": {**SMALL, **changes}}) == reason


def test_graffiti_a_header_or_action_that_is_not_an_object_is_refused():
    assert refused("unamerican-graffiti") == "the header must be a JSON object"
    state = ENGINE.new_game({"dredd_roll": 1}).state
    with pytest.raises(IllegalAction, match="an action must be a JSON object"):
        ENGINE.apply(state, ["move"])
