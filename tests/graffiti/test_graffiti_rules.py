"""One scenario per rule sentence of Unamerican Graffiti, replayed through the envelope."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from graffiti_boards import SMALL, with_starts

from lawmaster.host.games import engine_for
from lawmaster.rules.core.replay import replay
from lawmaster.rules.unamerican_graffiti import ENGINE

# SMALL with Chopper starting on L2 (next to the free landmark L4 and Judge 1's House).
NEAR_L4 = {**SMALL, "chopper_start": "L2"}


def run(header: dict, *actions: dict) -> tuple[list[dict], dict]:
    lines = [json.dumps({"game": "unamerican-graffiti", "dredd_roll": 1, **header})]
    lines += [json.dumps(a) for a in actions]
    out = list(replay(lines, engines=engine_for))
    return out[:-1], out[-1]["summary"]


def ok(results: list[dict]) -> None:
    bad = [r for r in results if not r["ok"]]
    assert not bad, bad


def test_setup_places_judges_swaps_dredd_and_scores_both_starts():
    results, summary = run({"board": SMALL, "dredd_roll": 4})
    ok(results)
    assert summary["judges"] == {"1": "S4", "2": "S2", "3": "S3", "4": "S1", "5": "S5", "6": "S6"}
    assert summary["scrawls"] == {"L0": "chopper-1", "L1": "phantom-1"}
    assert summary["colours"]["chopper-1"]["prestige"] == 3
    assert summary["colours"]["phantom-1"]["prestige"] == 3
    assert summary["turn"] == "chopper" and summary["phase"] == "move"


def test_dredd_roll_of_one_leaves_him_put_and_the_standard_board_starts_at_the_landmarks():
    results, summary = run({"dredd_roll": 1})
    ok(results)
    assert summary["judges"]["1"] == "sector-house-1"
    assert summary["scrawlers"]["chopper"]["position"] == "power-tower"
    assert summary["scrawlers"]["phantom"]["position"] == "palais-de-boing"


def test_a_scrawler_moves_up_to_three_hexes_not_four():
    results, _ = run(
        {"board": SMALL},
        {"act": "move", "by": "chopper", "path": ["1,0", "2,0", "3,0", "4,0"]},
        {"act": "move", "by": "chopper", "path": ["1,0", "2,0", "3,0"]},
    )
    assert results[1] == {"ok": False, "error": "a scrawler moves at most three hexes, not 4"}
    assert results[2]["ok"]


def test_not_through_judges_nor_the_other_player():
    results, _ = run(
        {"board": SMALL},
        {"act": "move", "by": "chopper", "path": ["S1"]},
    )
    assert "Judge 1 stands on S1" in results[1]["error"]
    board = with_starts(SMALL, chopper="6,0", phantom="7,0")
    results, _ = run({"board": board}, {"act": "move", "by": "chopper", "path": ["7,0"]})
    assert results[1]["error"] == "phantom stands on 7,0"


def test_not_through_the_hex_between_two_sector_houses_while_either_holds_a_judge():
    results, _ = run({"board": SMALL}, {"act": "move", "by": "chopper", "path": ["1,0", "1,1"]})
    assert "between two Sector Houses" in results[1]["error"]


def test_the_gate_opens_when_both_houses_are_empty():
    # Judge 1 leaves S1, Judge 2 leaves S2: the gate 1,1 may then be used.
    results, summary = run(
        {"board": SMALL},
        {"act": "move", "by": "chopper", "path": ["1,0", "2,0", "3,0"]},
        {"act": "roll", "by": "phantom", "faces": [1, 2, 3]},
        {"act": "judge_move", "judge": 1, "path": ["-1,2"]},
        {"act": "judge_move", "judge": 2, "path": ["1,2"]},
        {"act": "judge_move", "judge": 3, "path": []},
        {"act": "move", "by": "phantom", "path": []},
        {"act": "move", "by": "chopper", "path": ["2,0", "1,1"]},
    )
    ok(results)
    assert summary["scrawlers"]["chopper"]["position"] == "1,1"


def test_gate_option_through_lets_a_scrawler_stop_on_it_but_not_pass():
    header = {"board": SMALL, "options": {"gate": "through"}}
    results, _ = run(header, {"act": "move", "by": "chopper", "path": ["1,0", "1,1", "1,2"]})
    assert "no passing through" in results[1]["error"]
    results, summary = run(header, {"act": "move", "by": "chopper", "path": ["1,0", "1,1"]})
    ok(results)
    assert summary["scrawlers"]["chopper"]["position"] == "1,1"


def test_entering_a_clean_location_forces_a_stop_and_a_scrawl_for_its_prestige():
    board = with_starts(SMALL, chopper="4,0")
    results, _ = run({"board": board}, {"act": "move", "by": "chopper", "path": ["B1", "5,1"]})
    assert "must stop there and scrawl" in results[1]["error"]
    results, summary = run({"board": board}, {"act": "move", "by": "chopper", "path": ["B1"]})
    ok(results)
    assert summary["scrawls"]["B1"] == "chopper-1"
    assert summary["colours"]["chopper-1"]["prestige"] == 4  # 3 for the start, 1 for B1


def test_prestige_three_for_a_landmark():
    results, summary = run({"board": NEAR_L4}, {"act": "move", "by": "chopper", "path": ["L4"]})
    ok(results)
    assert summary["colours"]["chopper-1"]["prestige"] == 6
    assert "L4" in summary["defaced_landmarks"]


def test_a_scrawled_location_may_be_passed_without_scrawling_again():
    board = with_starts(SMALL, chopper="1,0", drop=["L3"])
    results, summary = run({"board": board}, {"act": "move", "by": "chopper", "path": ["L0"]})
    # L0 is clean here (Chopper did not start on it): he must scrawl it.
    ok(results)
    assert summary["colours"]["chopper-1"]["prestige"] == 6
    board = {**SMALL, "chopper_start": "L0", "phantom_start": "L1"}
    results, summary = run(
        {"board": board},
        {"act": "move", "by": "chopper", "path": ["1,0"]},
        {"act": "roll", "by": "phantom", "faces": [6]},
        {"act": "judge_move", "judge": 6, "path": []},
        {"act": "move", "by": "phantom", "path": []},
        {"act": "move", "by": "chopper", "path": ["L0", "1,0"]},
    )
    ok(results)
    assert summary["colours"]["chopper-1"]["prestige"] == 3


def test_the_statue_waits_for_all_six_landmarks():
    board = with_starts(SMALL, chopper="2,2")
    results, _ = run({"board": board}, {"act": "move", "by": "chopper", "path": ["X"]})
    assert "Statue of Judgement may not be scrawled" in results[1]["error"]


def test_the_opponent_rolls_one_die_per_hex_moved():
    results, _ = run(
        {"board": SMALL},
        {"act": "move", "by": "chopper", "path": ["1,0", "2,0"]},
        {"act": "roll", "by": "chopper", "faces": [1, 2]},
        {"act": "roll", "by": "phantom", "faces": [1]},
        {"act": "roll", "by": "phantom", "faces": [1, 7]},
        {"act": "roll", "by": "phantom", "faces": [1, 2]},
    )
    assert "phantom's input now" in results[2]["error"]
    assert results[3]["error"] == "chopper moved 2 hex(es), so roll exactly 2 dice"
    assert results[4]["error"] == "each face must be a die result from 1 to 6"
    assert results[5]["ok"]


def test_moving_no_hex_rolls_no_dice_and_passes_the_turn():
    results, summary = run({"board": SMALL}, {"act": "move", "by": "chopper", "path": []})
    ok(results)
    assert summary["turn"] == "phantom" and summary["phase"] == "move"


def test_judges_move_one_hex_after_no_scrawl_and_the_priority_after_one():
    results, _ = run(
        {"board": SMALL},
        {"act": "move", "by": "chopper", "path": ["1,0"]},
        {"act": "roll", "by": "phantom", "faces": [5]},
        {"act": "judge_move", "judge": 5, "path": ["1,3", "0,3"]},
    )
    assert results[3]["error"] == "Judge 5 may move at most 1 hex(es) now"
    results, summary = run(
        {"board": NEAR_L4},
        {"act": "move", "by": "chopper", "path": ["L4"]},
        {"act": "roll", "by": "phantom", "faces": [5]},
        {"act": "judge_move", "judge": 5, "path": ["1,3", "0,3"]},
    )
    ok(results)
    assert summary["judges"]["5"] == "0,3"


def test_a_judge_rolled_twice_moves_twice():
    results, summary = run(
        {"board": SMALL},
        {"act": "move", "by": "chopper", "path": ["1,0", "2,0"]},
        {"act": "roll", "by": "phantom", "faces": [5, 5]},
        {"act": "judge_move", "judge": 5, "path": ["1,3"]},
        {"act": "judge_move", "judge": 5, "path": ["0,3"]},
        {"act": "judge_move", "judge": 5, "path": []},
    )
    assert [r["ok"] for r in results] == [True, True, True, True, True, False]
    assert summary["judges"]["5"] == "0,3"
    assert summary["turn"] == "phantom"


def test_judges_enter_sector_houses_freely_other_locations_only_to_arrest_or_clean():
    board = with_starts({**SMALL, "phantom_start": "L5"}, chopper="7,0")
    results, _ = run(
        {"board": board},
        {"act": "move", "by": "chopper", "path": ["6,0"]},
        {"act": "roll", "by": "phantom", "faces": [3]},
        {"act": "judge_move", "judge": 3, "path": ["L3"]},
    )
    assert "only to make an arrest or clean up" in results[3]["error"]


def test_judges_never_enter_or_pass_another_judge():
    results, _ = run(
        {"board": SMALL},
        {"act": "move", "by": "chopper", "path": ["1,0"]},
        {"act": "roll", "by": "phantom", "faces": [3]},
        {"act": "judge_move", "judge": 3, "path": ["7,1", "S4"]},
    )
    assert results[3]["error"] in (
        "Judge 3 may move at most 1 hex(es) now",
        "Judge 4 stands on S4: Judges never share a hex",
    )
    results, _ = run(
        {"board": NEAR_L4},
        {"act": "move", "by": "chopper", "path": ["L4"]},
        {"act": "roll", "by": "phantom", "faces": [3]},
        {"act": "judge_move", "judge": 3, "path": ["7,1", "S4"]},
    )
    assert results[3]["error"] == "Judge 4 stands on S4: Judges never share a hex"


def test_arrest_scores_the_colour_again_except_the_scrawl_caught_doing():
    results, summary = run(
        {"board": NEAR_L4},
        {"act": "move", "by": "chopper", "path": ["L4"]},
        {"act": "roll", "by": "phantom", "faces": [1]},
        {"act": "judge_move", "judge": 1, "path": ["-1,2", "L4"]},
    )
    ok(results)
    events = results[3]["events"]
    assert {
        "type": "arrested",
        "player": "chopper",
        "colour": "chopper-1",
        "judge": 1,
        "at": "L4",
    } in events
    scored = next(e for e in events if e["type"] == "arrest_scored")
    # 3 (start) + 3 (L4) so far; again only for L2, not for L4 he was caught doing.
    assert scored == {"type": "arrest_scored", "colour": "chopper-1", "again": 3, "final": 9}
    assert summary["scrawlers"]["chopper"]["position"] is None
    assert summary["cleaning"] == [1]  # he arrived on a scrawl and must clean it


def test_a_judge_entering_a_scrawl_stops_and_cleans_it_the_next_time_his_number_comes_up():
    results, summary = run(
        {"board": NEAR_L4},
        {"act": "move", "by": "chopper", "path": ["1,2"]},
        {"act": "roll", "by": "phantom", "faces": [1]},
        {"act": "judge_move", "judge": 1, "path": ["L2", "0,3"]},
        {"act": "judge_move", "judge": 1, "path": ["L2"]},
        {"act": "move", "by": "phantom", "path": ["7,0"]},
        {"act": "roll", "by": "chopper", "faces": [1]},
        {"act": "judge_move", "judge": 1, "path": ["0,3"]},
        {"act": "judge_move", "judge": 1},
    )
    assert results[3]["error"] == "Judge 1 must stop at L2"
    assert results[7]["error"] == "Judge 1 is cleaning up L2 and spends this move on it"
    assert results[8]["ok"]
    assert "L2" not in summary["scrawls"]
    assert summary["cleaning"] == []


def test_arrest_counts_a_scrawl_a_judge_reached_but_not_one_cleaned_this_turn():
    # Judge 1 parks on L2 (Chopper's start scrawl) without cleaning: it still counts.
    results, summary = run(
        {"board": NEAR_L4},
        {"act": "move", "by": "chopper", "path": ["1,2"]},
        {"act": "roll", "by": "phantom", "faces": [1]},
        {"act": "judge_move", "judge": 1, "path": ["L2"]},
        {"act": "move", "by": "phantom", "path": []},
        {"act": "move", "by": "chopper", "path": ["2,2"]},
        {"act": "roll", "by": "phantom", "faces": [5]},
        {"act": "judge_move", "judge": 5, "path": ["2,2"]},
    )
    ok(results)
    scored = next(e for e in results[-1]["events"] if e["type"] == "arrest_scored")
    assert scored["again"] == 3 and scored["final"] == 6
    # Now with the cleaning on the same turn as the arrest: L2 no longer counts.
    results, summary = run(
        {"board": NEAR_L4},
        {"act": "move", "by": "chopper", "path": ["1,2"]},
        {"act": "roll", "by": "phantom", "faces": [1]},
        {"act": "judge_move", "judge": 1, "path": ["L2"]},
        {"act": "move", "by": "phantom", "path": []},
        {"act": "move", "by": "chopper", "path": ["2,2", "1,3"]},
        {"act": "roll", "by": "phantom", "faces": [5, 1]},
        {"act": "judge_move", "judge": 5, "path": ["1,3"]},
        {"act": "judge_move", "judge": 1},
    )
    ok(results)
    scored = next(e for e in results[-1]["events"] if e["type"] == "arrest_scored")
    assert scored["again"] == 0 and scored["final"] == 3


def test_dredd_may_move_an_extra_hex_only_to_make_an_arrest():
    moves = [
        {"act": "move", "by": "chopper", "path": ["1,2"]},
        {"act": "roll", "by": "phantom", "faces": [1]},
    ]
    results, _ = run(
        {"board": NEAR_L4}, *moves, {"act": "judge_move", "judge": 1, "path": ["1,1", "1,0"]}
    )
    assert results[3]["error"] == "Judge Dredd's extra hex is only for making an arrest"
    results, summary = run(
        {"board": NEAR_L4}, *moves, {"act": "judge_move", "judge": 1, "path": ["1,1", "1,2"]}
    )
    ok(results)
    assert summary["scrawlers"]["chopper"]["position"] is None
    results, _ = run(
        {"board": NEAR_L4, "dredd_roll": 2},  # Judge 2 now on S1, Dredd on S2
        *moves[:1],
        {"act": "roll", "by": "phantom", "faces": [2]},
        {"act": "judge_move", "judge": 2, "path": ["1,1", "1,2"]},
    )
    assert results[3]["error"] == "Judge 2 may move at most 1 hex(es) now"


def test_after_an_arrest_a_new_colour_on_a_landmark_never_defaced():
    results, summary = run(
        {"board": NEAR_L4},
        {"act": "move", "by": "chopper", "path": ["L4"]},
        {"act": "roll", "by": "phantom", "faces": [1]},
        {"act": "judge_move", "judge": 1, "path": ["-1,2", "L4"]},
        {"act": "move", "by": "phantom", "path": []},
        {"act": "move", "by": "chopper", "path": []},
        {"act": "reenter", "by": "chopper", "at": "L2"},
        {"act": "reenter", "by": "chopper", "at": "L0"},
        {"act": "move", "by": "chopper", "path": ["1,0"]},
    )
    assert "must first place a new scrawler" in results[5]["error"]
    assert "not a free landmark" in results[6]["error"]  # L2 was scrawled at the start
    assert results[7]["ok"] and results[8]["ok"]
    assert summary["colours"]["chopper-2"] == {
        "player": "chopper",
        "prestige": 3,
        "arrested": False,
        "final": None,
    }
    assert summary["colours"]["chopper-1"]["final"] == 9
    assert summary["scrawls"]["L0"] == "chopper-2"


def _state_with(**changes):
    state = ENGINE.new_game({"dredd_roll": 1, "board": SMALL}).state
    return replace(state, **changes)


def test_reaching_the_statue_ends_the_game_and_unarrested_colours_score_their_scrawls():
    board = with_starts(SMALL, chopper="2,2")
    state = ENGINE.new_game({"dredd_roll": 1, "board": board}).state
    state = replace(state, defaced=frozenset(state.board.landmarks))
    state = ENGINE.apply(state, {"act": "move", "by": "chopper", "path": ["X"]}).state
    assert state.colours["chopper-1"].prestige == 12
    state = ENGINE.apply(state, {"act": "roll", "by": "phantom", "faces": [4]}).state
    outcome = ENGINE.apply(state, {"act": "judge_move", "judge": 4, "path": []})
    assert outcome.state.phase == "over"
    finals = {c.id: c.final for c in outcome.state.colours.values()}
    # Chopper: 3 + 9 so far, plus 2,2 (3) and X (9) still on the board; Phantom: 3 + L1 (3).
    assert finals == {"chopper-1": 24, "phantom-1": 6}
    assert outcome.state.winner == "chopper"


def test_the_winner_is_the_best_single_colour_not_the_sum():
    state = _state_with()
    from lawmaster.rules.unamerican_graffiti.engine import _game_over
    from lawmaster.rules.unamerican_graffiti.state import Colour

    colours = {
        "chopper-1": Colour("chopper-1", "chopper", 10, True, 10),
        "chopper-2": Colour("chopper-2", "chopper", 10, True, 10),
        "phantom-1": Colour("phantom-1", "phantom", 12, True, 12),
    }
    over, events = _game_over(replace(state, colours=colours), [])
    assert over.winner == "phantom"
    assert events[-1]["best"] == {"chopper": 10, "phantom": 12}
    colours["phantom-1"] = Colour("phantom-1", "phantom", 10, True, 10)
    assert _game_over(replace(state, colours=colours), [])[0].winner == "draw"


def test_a_player_with_no_free_landmark_is_out_and_the_game_ends_when_both_are():
    state = ENGINE.new_game({"dredd_roll": 1, "board": NEAR_L4}).state
    every = frozenset({"L0", "L1", "L2", "L3", "L4", "L5"})
    state = replace(state, defaced=every)
    for action in (
        {"act": "move", "by": "chopper", "path": ["1,2"]},
        {"act": "roll", "by": "phantom", "faces": [1]},
        {"act": "judge_move", "judge": 1, "path": ["1,1", "1,2"]},
    ):
        state = ENGINE.apply(state, action).state
    assert state.scrawlers["chopper"].position is None
    assert state.turn == "phantom" and state.phase == "move"
    outcome = ENGINE.apply(state, {"act": "move", "by": "phantom", "path": []})
    assert {"type": "out", "player": "chopper", "reason": "no free landmark left unscrawled"} in (
        outcome.events
    )
    assert outcome.state.turn == "phantom"  # the Phantom plays on alone


@pytest.mark.parametrize(
    "line, message",
    [
        ("{", "not valid JSON"),
        ('{"act": "fly"}', "unknown action 'fly'"),
        ('{"act": "move", "by": "dredd", "path": []}', "'dredd' is not a player"),
        ('{"act": "move", "by": "chopper", "path": "north"}', "must be a list"),
        ('{"act": "move", "by": "chopper", "to": "Z9"}', "'Z9' is not a hex"),
        ('{"act": "move", "by": "chopper"}', "needs the field 'to'"),
        ('{"act": "move", "by": "phantom", "path": []}', "it is chopper's input now"),
        ('{"act": "judge_move", "judge": 1}', "chopper must move first"),
    ],
)
def test_bad_input_gets_a_reason_and_changes_nothing(line, message):
    header = json.dumps({"game": "unamerican-graffiti", "dredd_roll": 1, "board": SMALL})
    out = list(replay([header, line], engines=engine_for))
    assert out[1]["ok"] is False and message in out[1]["error"], out[1]
    _, untouched = run({"board": SMALL})
    assert out[-1]["summary"] == untouched


def test_bad_headers_are_rejected():
    for header, message in [
        ({"dredd_roll": 7}, "'dredd_roll' must be a die result"),
        ({"options": {"gate": "over"}}, "option 'gate' is"),
        ({"options": {"speed": 2}}, "unknown option 'speed'"),
        ({"board": "moon"}, "no shipped data file"),
        ({"board": {"hexes": []}}, "non-empty list"),
    ]:
        results, _ = run(header)
        assert results[0]["ok"] is False and message in results[0]["error"], results[0]


def test_views_name_the_board_so_a_tablet_can_draw_an_inline_one():
    from lawmaster.rules.unamerican_graffiti import Board

    assert ENGINE.view(ENGINE.new_game({"dredd_roll": 1}).state, "table")["board"] == "standard"
    view = ENGINE.view(ENGINE.new_game({"dredd_roll": 1, "board": SMALL}).state, "chopper")
    drawn = Board.from_data(view["board"])
    assert set(drawn.hexes) == set(Board.from_data(SMALL).hexes)
    assert drawn.gates == Board.from_data(SMALL).gates
