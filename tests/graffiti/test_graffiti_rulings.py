"""Issue 21's three Unamerican Graffiti readings, each with the sentence that decides it.

Independent referees written from the rulebook alone disagreed with the engine here; each
test replays the case through the envelope, as a table would.
"""

from __future__ import annotations

import json
from importlib import resources

import pytest
from graffiti_boards import SMALL, with_starts

from lawmaster.host.games import engine_for
from lawmaster.rules.core import IllegalAction
from lawmaster.rules.core.replay import replay
from lawmaster.rules.unamerican_graffiti import ENGINE
from lawmaster.rules.unamerican_graffiti.board import START_SENTENCE

# SMALL with Chopper starting on L2, two hexes from the free landmark L4.
NEAR_L4 = {**SMALL, "chopper_start": "L2"}


def run(header: dict, *actions: dict) -> tuple[list[dict], dict]:
    lines = [json.dumps({"game": "unamerican-graffiti", "dredd_roll": 1, **header})]
    lines += [json.dumps(a) for a in actions]
    out = list(replay(lines, engines=engine_for))
    return out[:-1], out[-1]["summary"]


def readme() -> str:
    package = resources.files("lawmaster.rules.unamerican_graffiti")
    return " ".join(package.joinpath("README.md").read_text(encoding="utf-8").split())


# -- 1. a Judge's own starting hex ------------------------------------------------------

# Chopper scrawls the landmark L4 (one hex, one die): the Judge rolled may move 3 hexes.
SCRAWL_L4 = [
    {"act": "move", "by": "chopper", "path": ["L4"]},
    {"act": "roll", "by": "phantom", "faces": [5]},
]


@pytest.mark.parametrize("path", [["1,3", "S5"], ["1,3", "S5", "3,3"]])
def test_graffiti_a_judge_may_pass_back_through_his_own_starting_hex(path):
    # "A Judge may never enter or pass through a hex occupied by another Judge." The hex
    # he leaves is not occupied by another Judge: Judge 5 walks out of S5 and back into
    # it, or on through it, as a scrawler may walk back through his own start.
    results, summary = run(
        {"board": NEAR_L4}, *SCRAWL_L4, {"act": "judge_move", "judge": 5, "path": path}
    )
    assert results[3]["ok"], results[3]
    assert results[3]["events"][0] == {
        "type": "judge_moved",
        "judge": 5,
        "path": path,
        "to": path[-1],
    }
    assert summary["judges"]["5"] == path[-1]
    assert summary["turn"] == "phantom"


def test_graffiti_another_judges_hex_stays_closed_to_a_judge_coming_back():
    # The same walk ending on Judge 6's hex is still refused: he is another Judge.
    results, _ = run(
        {"board": NEAR_L4},
        *SCRAWL_L4,
        {"act": "judge_move", "judge": 5, "path": ["1,3", "S5", "3,3", "S6"]},
        {"act": "judge_move", "judge": 5, "path": ["3,3", "S6"]},
    )
    assert results[3]["error"] == "Judge 5 may move at most 3 hex(es) now"
    assert results[4]["error"] == "Judge 6 stands on S6: Judges never share a hex"


# -- 2. a start that is not a landmark --------------------------------------------------


@pytest.mark.parametrize(
    "start, kind", [("4,0", "street"), ("B1", "city block"), ("S3", "sector house")]
)
def test_graffiti_a_board_starting_a_pawn_off_a_landmark_is_refused(start, kind):
    # "Each player scrawls at this location (by writing on the board), scores 3 points of
    # prestige and places his pawn there." A street cannot be scrawled, and only a
    # landmark is worth 3: such a board is refused with the sentence, not played for 0 or 1.
    with pytest.raises(IllegalAction) as caught:
        ENGINE.new_game({"dredd_roll": 1, "board": {**SMALL, "chopper_start": start}})
    assert caught.value.reason == (
        f"'chopper_start' must be a landmark, not {start} (a {kind}):"
        f' "{START_SENTENCE}" A landmark is the location worth 3.'
    )
    results, _ = run({"board": {**SMALL, "phantom_start": start}})
    assert results[0]["ok"] is False and "'phantom_start' must be a landmark" in (
        results[0]["error"]
    )


@pytest.mark.parametrize("board", ["standard", SMALL, with_starts(SMALL, chopper="4,0")])
def test_graffiti_each_start_is_scrawled_for_three(board):
    results, summary = run({"board": board})
    assert results[0]["ok"]
    starts = {p: summary["scrawlers"][p]["position"] for p in ("chopper", "phantom")}
    assert summary["scrawls"] == {starts[p]: f"{p}-1" for p in starts}
    assert {c: v["prestige"] for c, v in summary["colours"].items()} == {
        "chopper-1": 3,
        "phantom-1": 3,
    }
    assert summary["defaced_landmarks"] == sorted(starts.values())


def test_graffiti_the_readme_gives_the_start_reading_with_its_sentence():
    assert START_SENTENCE in readme()


# -- 3. the re-entry scrawl in the arrest re-score --------------------------------------


def test_graffiti_the_reentry_scrawl_scores_again_when_caught_later_that_turn():
    # "If you get arrested, you score again for any scrawled locations of your colour
    # remaining on the board. This does not include the scrawl you were caught doing, nor
    # any scrawl that gets cleaned on your turn." The re-entry scrawl on L0 is placed
    # before the move; Chopper is then caught on a street, doing no scrawl: L0 counts.
    results, summary = run(
        {"board": NEAR_L4},
        {"act": "move", "by": "chopper", "path": ["L4"]},
        {"act": "roll", "by": "phantom", "faces": [1]},
        {"act": "judge_move", "judge": 1, "path": ["-1,2", "L4"]},
        {"act": "move", "by": "phantom", "path": []},
        {"act": "reenter", "by": "chopper", "at": "L0"},
        {"act": "move", "by": "chopper", "path": ["1,0", "2,0"]},
        {"act": "roll", "by": "phantom", "faces": [2, 3]},
        {"act": "judge_move", "judge": 2, "path": ["2,0"]},
        {"act": "judge_move", "judge": 3, "path": []},
    )
    assert all(r["ok"] for r in results), results
    arrested = [e for e in results[8]["events"] if e["type"] == "arrested"]
    assert arrested == [
        {"type": "arrested", "player": "chopper", "colour": "chopper-2", "judge": 2, "at": "2,0"}
    ]
    scored = [e for e in results[9]["events"] if e["type"] == "arrest_scored"]
    assert scored == [{"type": "arrest_scored", "colour": "chopper-2", "again": 3, "final": 6}]
    assert summary["colours"]["chopper-2"]["final"] == 6


def test_graffiti_the_scrawl_caught_doing_is_the_one_the_move_made():
    # The same sentence, the scrawl it does exclude: Chopper is caught on L4, the landmark
    # his move has just scrawled.
    results, _ = run(
        {"board": NEAR_L4},
        {"act": "move", "by": "chopper", "path": ["L4"]},
        {"act": "roll", "by": "phantom", "faces": [1]},
        {"act": "judge_move", "judge": 1, "path": ["-1,2", "L4"]},
    )
    scored = next(e for e in results[3]["events"] if e["type"] == "arrest_scored")
    # 3 (L2, the start) + 3 (L4); again only for L2, not for L4 he was caught doing.
    assert scored == {"type": "arrest_scored", "colour": "chopper-1", "again": 3, "final": 9}


def test_graffiti_the_readme_says_the_reentry_scrawl_counts_with_the_sentence():
    text = readme()
    assert "This does not include the scrawl you were caught doing" in text
    assert "except the scrawl made this turn by the arrested scrawler" not in text
    assert "**The scrawl placed on re-entry counts again** when the new colour is caught" in text
