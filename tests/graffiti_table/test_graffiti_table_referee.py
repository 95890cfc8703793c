"""Unamerican Graffiti through a real Table and Referee on a temporary journal:
tablet inputs, owners, prompts, digital dice, and tracker observations read as moves."""

from __future__ import annotations

from graffiti_table_support import graffiti_table, ok, sources

from lawmaster.host.tracker import Ambiguous, Anomaly, InHand, Moved, Restored


def _prompt(table, seat, kind):
    found = [p for p in table.snapshot(seat)["prompts"] if p["kind"] == kind]
    assert found, table.snapshot(seat)["prompts"]
    return found[0]


def _summary(table):
    return table.engine.summary(table.state)


# -- tablets -------------------------------------------------------------------------
def test_graffiti_table_a_turn_on_the_tablets_with_owners_and_prompts(tmp_path):
    table = graffiti_table(tmp_path)
    move = _prompt(table, "chopper", "choose_destination")
    assert table.snapshot("phantom")["prompts"] == []
    assert move["action"] == {"act": "move", "by": "chopper"}
    stay = [o for o in move["options"] if not o["path"]]
    assert stay and stay[0]["to"] == "power-tower"
    two = next(o for o in move["options"] if o["to"] == "block-4")
    assert two["hexes"] == 2 and 0 < two["arrest_chance"] < 1
    assert "%" in two["label"]
    # The opponent may not move the scrawler; the scrawler may not roll for the Judges.
    assert not table.submit("phantom", {"act": "move", "by": "chopper", "to": "block-4"})["ok"]
    ok(table.submit("chopper", {"act": "move", "by": "chopper", "path": two["path"]}))
    refused = table.submit("chopper", {"act": "roll", "by": "chopper", "faces": [1, 2]})
    assert not refused["ok"] and "phantom" in refused["error"]
    dice = _prompt(table, "phantom", "enter_dice")
    assert dice["count"] == 2 and dice["faces"] == [1, 2, 3, 4, 5, 6]
    assert table.snapshot("chopper")["prompts"] == []
    # A form sends the faces as text: they are read as numbers.
    ok(table.submit("phantom", {"act": "roll", "by": "phantom", "faces": ["2", "5"]}))
    assert table.actions[-1]["faces"] == [2, 5]
    judges = _prompt(table, "phantom", "move_judge")
    assert judges["dice"] == [2, 5]
    assert {o["judge"] for o in judges["options"]} == {2, 5}
    # judge_move without "by" is still the opponent's.
    assert not table.submit("chopper", {"act": "judge_move", "judge": 2, "path": []})["ok"]
    ok(table.submit("phantom", {"act": "judge_move", "judge": 2, "path": []}))
    ok(table.submit("phantom", {"act": "judge_move", "by": "phantom", "judge": 5, "path": []}))
    assert _summary(table)["turn"] == "phantom"
    assert _prompt(table, "phantom", "choose_destination")
    assert sources(table) == ["tablet"] * 4


def test_graffiti_table_cleaning_judge_is_offered_the_clean(tmp_path):
    table = graffiti_table(tmp_path)
    ok(table.submit("chopper", {"act": "move", "by": "chopper", "to": "block-4"}))
    ok(table.submit("phantom", {"act": "roll", "by": "phantom", "faces": [5, 5]}))
    # Judge 5 walks towards block-4 where chopper scrawled; not there in one hex.
    ok(table.submit("phantom", {"act": "judge_move", "judge": 5, "path": []}))
    ok(table.submit("phantom", {"act": "judge_move", "judge": 5, "path": []}))
    summary = _summary(table)
    assert "block-4" in summary["scrawls"]


def test_graffiti_table_digital_dice_are_rolled_by_the_referee_and_journalled(tmp_path):
    settings = {"digital_dice": True, "seed": 9}
    table = graffiti_table(tmp_path, settings)
    ok(table.submit("chopper", {"act": "move", "by": "chopper", "to": "-1,5"}))
    prompt = _prompt(table, "phantom", "enter_dice")
    assert prompt["digital"] is True and prompt["count"] == 3 and "tablet" in prompt["label"]
    result = ok(table.submit("phantom", {"act": "roll", "by": "phantom"}))
    faces = table.actions[-1]["faces"]
    assert len(faces) == 3 and all(1 <= f <= 6 for f in faces)
    assert result["events"][0]["faces"] == faces
    assert sources(table) == ["tablet", "digital-dice"]
    # The same seed, game and input number roll the same dice (a resumed game agrees).
    again = graffiti_table(tmp_path / "again", settings)
    assert again.record.id == table.record.id
    ok(again.submit("chopper", {"act": "move", "by": "chopper", "to": "-1,5"}))
    ok(again.submit("phantom", {"act": "roll", "by": "phantom"}))
    assert again.actions[-1]["faces"] == faces


def test_graffiti_table_without_digital_dice_a_roll_needs_its_faces(tmp_path):
    table = graffiti_table(tmp_path)
    ok(table.submit("chopper", {"act": "move", "by": "chopper", "to": "0,3"}))
    result = table.submit("phantom", {"act": "roll", "by": "phantom"})
    assert not result["ok"] and "faces" in result["error"]
    result = table.submit("phantom", {"act": "roll", "by": "phantom", "faces": [7]})
    assert not result["ok"] and "1 to 6" in result["error"]
    assert len(table.actions) == 1


def test_graffiti_table_reenter_prompt_after_an_arrest(tmp_path):
    table = graffiti_table(tmp_path)
    ok(table.submit("chopper", {"act": "move", "by": "chopper", "to": "0,2"}))
    ok(table.submit("phantom", {"act": "roll", "by": "phantom", "faces": [1]}))
    # Dredd's extra hex makes the arrest: sector-house-1 → 1,2 → 0,2.
    ok(table.submit("phantom", {"act": "judge_move", "judge": 1, "path": ["1,2", "0,2"]}))
    ok(table.submit("phantom", {"act": "move", "by": "phantom", "path": []}))
    landmark = _prompt(table, "chopper", "choose_landmark")
    choices = [o["at"] for o in landmark["options"]]
    assert "aggro-dome" in choices and "power-tower" not in choices
    ok(table.submit("chopper", {"act": "reenter", "by": "chopper", "at": choices[0]}))
    assert _summary(table)["scrawlers"]["chopper"]["colour"] == "chopper-2"


# -- the board ------------------------------------------------------------------------
def _board_table(tmp_path, **settings):
    return graffiti_table(tmp_path, {"board": True, **settings})


def test_graffiti_table_expectation_names_pawns_and_counters_and_the_movers(tmp_path):
    table = _board_table(tmp_path)
    rules = table.referee.rules
    first = rules.expectation(table.state)
    assert first.kinds["chopper"] == "scrawler" and first.kinds["judge-3"] == "judge"
    assert first.positions["judge-3"] == "sector-house-3"
    assert first.movers == {"chopper"}
    assert not first.captures
    ok(table.submit("chopper", {"act": "move", "by": "chopper", "to": "1,2"}))
    assert rules.expectation(table.state).movers == frozenset()
    ok(table.submit("phantom", {"act": "roll", "by": "phantom", "faces": [1, 4]}))
    # Judges 1 and 4 may move; Dredd can reach chopper, so its pawn may be lifted.
    assert rules.expectation(table.state).movers == {"judge-1", "judge-4", "chopper"}


def test_graffiti_table_pawn_lifted_and_placed_is_the_move_to_that_hex(tmp_path):
    table = _board_table(tmp_path)
    table.referee.observation(InHand("chopper", "power-tower"))
    assert table.actions == []
    table.referee.observation(Moved("chopper", "power-tower", "block-4", ("block-4",), "lifted"))
    assert table.actions == [{"act": "move", "by": "chopper", "to": "block-4"}]
    assert _summary(table)["scrawls"]["block-4"] == "chopper-1"
    assert sources(table) == ["board"]
    assert table.status.state == "ok"


def test_graffiti_table_judge_counter_moved_is_the_judge_standing_there(tmp_path):
    table = _board_table(tmp_path)
    ok(table.submit("chopper", {"act": "move", "by": "chopper", "to": "1,2"}))
    ok(table.submit("phantom", {"act": "roll", "by": "phantom", "faces": [1, 4]}))
    # The counters look alike: the one lifted from sector-house-4 is Judge 4.
    table.referee.observation(Moved("judge-4", "sector-house-4", "8,2", ("8,2",), "lifted"))
    assert table.actions[-1] == {"act": "judge_move", "by": "phantom", "judge": 4, "to": "8,2"}
    table.referee.observation(Moved("judge-1", "sector-house-1", "1,2", ("1,2",), "lifted"))
    assert table.actions[-1]["judge"] == 1
    summary = _summary(table)
    assert summary["scrawlers"]["chopper"]["arrested"] is True
    assert summary["judges"]["1"] == "1,2"
    assert sources(table)[-2:] == ["board", "board"]
    # The arrested pawn is off the board now: the tracker no longer expects it.
    assert "chopper" not in table.referee.rules.expectation(table.state).kinds


def test_graffiti_table_an_illegal_physical_move_is_flagged_until_put_back(tmp_path):
    table = _board_table(tmp_path)
    # Six hexes away: too far for a scrawler.
    table.referee.observation(Moved("chopper", "power-tower", "4,4", ("4,4",), "lifted"))
    assert table.actions == []
    status = table.snapshot("phantom")["status"]
    assert status["state"] == "illegal"
    assert "put chopper's pawn back on power-tower" in status["message"]
    assert table.referee.counts["rejected"] == 0
    table.referee.observation(Restored("chopper", "power-tower"))
    assert table.status.state == "ok"
    # Moved on instead of back: the latest place is the move.
    table.referee.observation(Moved("chopper", "power-tower", "0,4", ("0,4",), "lifted", 1))
    assert table.actions == [{"act": "move", "by": "chopper", "to": "0,4"}]
    assert table.status.state == "ok"


def test_graffiti_table_a_judge_that_was_not_rolled_is_flagged(tmp_path):
    table = _board_table(tmp_path)
    ok(table.submit("chopper", {"act": "move", "by": "chopper", "to": "0,2"}))
    ok(table.submit("phantom", {"act": "roll", "by": "phantom", "faces": [4]}))
    table.referee.observation(Moved("judge-5", "sector-house-5", "1,4", ("1,4",), "lifted"))
    assert len(table.actions) == 2
    message = table.snapshot("chopper")["status"]["message"]
    assert "Judge 5 may not move now" in message and "put Judge 5 back on sector-house-5" in message


def test_graffiti_table_a_knocked_counter_is_a_problem_until_restored(tmp_path):
    table = _board_table(tmp_path)
    table.referee.observation(Anomaly("bumped", "judge-2", "judge", "sector-house-2", "3,2"))
    assert table.status.state == "illegal"
    assert "Move judge-2 from 3,2 back to sector-house-2" in table.status.message
    table.referee.observation(Restored("judge-2", "sector-house-2"))
    assert table.status.state == "ok"


def _twice(table):
    """Chopper moves two hexes; the Phantom rolls Judge 2 twice (one hex per die)."""
    ok(table.submit("chopper", {"act": "move", "by": "chopper", "to": "0,4"}))
    ok(table.submit("phantom", {"act": "roll", "by": "phantom", "faces": [2, 2]}))


def test_graffiti_table_a_judge_rolled_twice_moved_two_hexes_asks_which_way(tmp_path):
    table = _board_table(tmp_path)
    _twice(table)
    # sector-house-2 to 2,2 is two hexes, by the gate 3,1 or by 3,2: two stories.
    table.referee.observation(Moved("judge-2", "sector-house-2", "2,2", ("2,2",), "lifted"))
    assert len(table.actions) == 2
    asked = table.snapshot("phantom")["prompts"]
    question = next(p for p in asked if p["kind"] == "which_reading")
    assert len(question["options"]) >= 2
    assert all("moved twice" in o["label"] for o in question["options"])
    assert table.snapshot("chopper")["status"]["state"] == "waiting"
    assert not table.submit("chopper", {"act": "choose_reading", "index": 0})["ok"]
    ok(table.submit("phantom", {"act": "choose_reading", "index": 1}))
    moved = [a for a in table.actions if a["act"] == "judge_move"]
    assert len(moved) == 2 and moved[-1]["to"] == "2,2"
    assert _summary(table)["judges"]["2"] == "2,2"
    assert _summary(table)["turn"] == "phantom"
    assert table.status.state == "ok"


def test_graffiti_table_a_slide_seen_through_one_hex_needs_no_question(tmp_path):
    table = _board_table(tmp_path)
    _twice(table)
    table.referee.observation(Moved("judge-2", "sector-house-2", "2,2", ("3,2", "2,2"), "slid"))
    moved = [a for a in table.actions if a["act"] == "judge_move"]
    assert [a["to"] for a in moved] == ["3,2", "2,2"]


def test_graffiti_table_two_counters_in_hand_at_once_are_asked_not_guessed(tmp_path):
    table = _board_table(tmp_path)
    ok(table.submit("chopper", {"act": "move", "by": "chopper", "to": "0,4"}))
    ok(table.submit("phantom", {"act": "roll", "by": "phantom", "faces": [1, 2]}))
    # Both rolled counters were off the board; one came down on 3,1 (the gate).
    stories = (
        Moved("judge-1", "sector-house-1", "3,1", ("3,1",), "lifted"),
        Moved("judge-2", "sector-house-2", "3,1", ("3,1",), "lifted"),
    )
    table.referee.observation(Ambiguous(stories))
    assert len(table.actions) == 2
    question = next(p for p in table.snapshot("phantom")["prompts"] if p["kind"] == "which_reading")
    labels = [o["label"] for o in question["options"]]
    assert labels == [
        "Judge 1 moved from sector-house-1 to 3,1",
        "Judge 2 moved from sector-house-2 to 3,1",
    ]
    ok(table.submit("phantom", {"act": "choose_reading", "index": 1}))
    assert table.actions[-1] == {"act": "judge_move", "by": "phantom", "judge": 2, "to": "3,1"}
    assert table.snapshot("phantom")["prompts"][0]["kind"] == "move_judge"


def test_graffiti_table_an_ambiguous_reading_with_no_legal_story_is_wrong(tmp_path):
    table = _board_table(tmp_path)
    ok(table.submit("chopper", {"act": "move", "by": "chopper", "to": "0,4"}))
    ok(table.submit("phantom", {"act": "roll", "by": "phantom", "faces": [1, 2]}))
    stories = (
        Moved("judge-1", "sector-house-1", "8,5", ("8,5",), "lifted"),
        Moved("judge-2", "sector-house-2", "8,5", ("8,5",), "lifted"),
    )
    table.referee.observation(Ambiguous(stories))
    assert len(table.actions) == 2
    assert table.status.state == "illegal"
    table.referee.observation(Restored("judge-1", "sector-house-1"))
    assert table.status.state == "ok"


def test_graffiti_table_undo_is_confirmed_by_the_other_player_and_drops_a_question(tmp_path):
    table = _board_table(tmp_path)
    _twice(table)
    table.referee.observation(Moved("judge-2", "sector-house-2", "2,2", ("2,2",), "lifted"))
    assert any(p["kind"] == "which_reading" for p in table.snapshot("phantom")["prompts"])
    asked = table.request_undo("phantom")
    assert asked == {"ok": True, "waiting_for": ["chopper"]}
    assert not table.confirm_undo("phantom")["ok"]
    ok(table.confirm_undo("chopper"))
    # The roll is taken back: the Phantom rolls again, and the question is gone.
    assert [p["kind"] for p in table.snapshot("phantom")["prompts"]] == ["enter_dice"]
    assert table.status.state == "ok"


def test_graffiti_table_the_registry_gives_every_new_table_the_rules(tmp_path):
    """The game's plugin brings its rules to every table of it, new or resumed."""
    from graffiti_table_support import header

    from lawmaster.host.games.unamerican_graffiti.referee import GraffitiRules
    from lawmaster.host.journal import Journal
    from lawmaster.host.table import Table

    journal = Journal(tmp_path / "j.sqlite")
    table = Table.start(journal, header(), {})
    assert isinstance(table.referee.rules, GraffitiRules)
    ok(table.submit("chopper", {"act": "move", "by": "chopper", "to": "0,3"}))
    # A resumed game (rebuilt by replay) gets them too.
    resumed = Table.resume(Journal(tmp_path / "j.sqlite"))
    assert isinstance(resumed.referee.rules, GraffitiRules)
    assert _prompt(resumed, "phantom", "enter_dice")["count"] == 1
