"""Combat odds: exact enumeration over the dice, from one seat's point of view."""

from __future__ import annotations

import itertools

import pytest
from dredd_helpers import play_all, start

from lawmaster.rules.core import IllegalAction
from lawmaster.rules.judge_dredd.dice import dice_sums
from lawmaster.rules.judge_dredd.odds import candidate_pool, combat_odds


def _to_combat(game, sector_path, **kw):
    play_all(
        game,
        {"act": "move", "by": "a", "path": sector_path},
        {"act": "move", "by": "b", "path": []},
        {"act": "end_movement"},
    )


def test_dredd_odds_plain_arrest_against_a_3():
    game = start()
    _to_combat(game, ["mega-mall", "channel-99"])
    odds = game.engine.view(game.state, "a")["you"]["odds"]
    assert odds == pytest.approx({"win": 30 / 36, "tie": 3 / 36, "lose": 3 / 36}, abs=1e-6)
    assert "odds" not in game.engine.view(game.state, "b")["you"]
    assert "you" not in game.engine.view(game.state, "table")


def test_dredd_odds_mechanismo_overheats_unless_cooling():
    game = start(specialists={"a": "mechanismo"})
    _to_combat(game, ["devils-island"])
    # 8 + J against 10 + P, and any 6 on J loses.
    assert combat_odds(game.state, "a") == pytest.approx(
        {"win": 3 / 36, "tie": 3 / 36, "lose": 30 / 36}, abs=1e-6
    )
    game.apply({"act": "cool", "by": "a"})
    assert combat_odds(game.state, "a") == pytest.approx(
        {"win": 1 / 36, "tie": 2 / 36, "lose": 33 / 36}, abs=1e-6
    )


def test_dredd_odds_sjs_wins_ties():
    game = start(specialists={"a": "sjs"})
    _to_combat(game, ["mega-mall", "channel-99"])
    assert combat_odds(game.state, "a") == pytest.approx(
        {"win": 33 / 36, "tie": 0.0, "lose": 3 / 36}, abs=1e-6
    )


def test_dredd_odds_count_own_and_face_up_cards_exactly():
    game = start(hands={"a": ["fergee-1"]})
    _to_combat(game, ["devils-island"])
    game.apply({"act": "commit", "by": "a", "card": "fergee-1"})
    # 6 + J1 + J2 against 10 + P.
    wins = ties = 0
    for j1, j2, p in itertools.product(range(1, 7), repeat=3):
        diff = 6 + j1 + j2 - (10 + p)
        wins += diff > 0
        ties += diff == 0
    odds = combat_odds(game.state, "a")
    assert odds["win"] == pytest.approx(wins / 216, abs=1e-6)
    assert odds["tie"] == pytest.approx(ties / 216, abs=1e-6)


def test_dredd_odds_unknown_card_matches_the_engine_over_every_candidate():
    """The model, checked against the engine itself: average the real outcome over every card
    the seat cannot rule out and every roll of the dice."""
    game = start(hands={"a": ["stumm-gas-1"]})
    _to_combat(game, ["devils-island"])
    game.apply({"act": "commit", "by": "b", "card": "juve-ambush-1", "for": "a"})
    odds = combat_odds(game.state, "a")
    assert game.engine.view(game.state, "a")["you"]["odds"] == odds
    pool = candidate_pool(game.state, "a", [])
    assert "stumm-gas-1" not in pool and "alien-escape-1" not in pool
    assert "juve-ambush-1" in pool and len(pool) == 55 - 7 - 1
    tally = {"win": 0, "tie": 0, "lose": 0}
    trials = 0
    for card in pool:
        g = start(hands={"a": ["stumm-gas-1"]})
        _to_combat(g, ["devils-island"])
        g.apply({"act": "commit", "by": "b", "card": card, "for": "a"})
        g.apply({"act": "reveal"})
        need = g.state["combat"]["needed"]
        revealed = g.state
        for faces in itertools.product(range(1, 7), repeat=need["a"] + need["perp"]):
            g.state = revealed
            events = g.apply(
                {"act": "roll", "judge": list(faces[: need["a"]]), "perp": list(faces[need["a"] :])}
            )
            result = next(e for e in events if e["type"] == "combat_result")
            weight = 6 ** (3 - len(faces))  # every candidate counts the same
            key = "win" if result["winner"] == 0 else "lose" if result["koed"] else "tie"
            tally[key] += weight
            trials += weight
    for key in tally:
        assert odds[key] == pytest.approx(tally[key] / trials, abs=1e-6)


def test_dredd_odds_competing_arrest_sum_to_one_and_change_with_cards():
    game = start(
        players=["a", "b", "c"],
        positions={"a": "resyk", "b": "academy-of-law", "c": "grand-hall-of-justice"},
    )
    play_all(
        game,
        {"act": "move", "by": "a", "path": ["devils-island"]},
        {"act": "move", "by": "b", "path": ["devils-island"]},
        {"act": "move", "by": "c", "path": []},
        {"act": "end_movement"},
        {"act": "arrest", "groups": [["a"], ["b"]]},
    )
    before = combat_odds(game.state, "a")
    assert sum(before.values()) == pytest.approx(1.0)
    game.apply({"act": "commit", "by": "a", "card": "robo-dogs-1", "for": "a"})
    after = combat_odds(game.state, "a")
    assert after["win"] > before["win"]
    # b cannot see a's face-down card: b's odds treat it as unknown.
    assert combat_odds(game.state, "b") != combat_odds(game.state, "a")


def test_dredd_dice_sums_are_distributions():
    for n in range(0, 4):
        for mech in (False, True):
            assert sum(p for _, _, p in dice_sums(n, mech)) == pytest.approx(1.0)


def test_dredd_competing_odds_match_the_engine_over_every_roll():
    """The Mantis Brothers example after the reveal: every card is known, so each seat's odds
    must equal the share of dice rolls on which the engine gives that result."""
    import json

    from dredd_helpers import SCENARIOS

    from lawmaster.host.games import engine_for
    from lawmaster.rules.core.replay import Game

    lines = [
        json.loads(line)
        for line in (SCENARIOS / "example_mantis_brothers.jsonl").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    game, _ = Game.start(lines[0], engine_for)
    for action in lines[1:]:
        try:
            game.apply(action)
        except IllegalAction:  # the file's deliberate refusals
            continue
        if action.get("act") == "reveal":
            break
    revealed = game.state
    odds = {seat: combat_odds(revealed, seat) for seat in "abcd"}
    tally = {seat: {"win": 0, "tie": 0, "lose": 0} for seat in "abcd"}
    for a, c, d, p in itertools.product(range(1, 7), repeat=4):
        game.state = revealed
        events = game.apply({"act": "roll", "dice": {"a": [a], "c": [c], "d": [d], "perp": [p]}})
        result = next(e for e in events if e["type"] == "combat_result")
        for gi, group in enumerate(result["groups"]):
            key = "win" if result["winner"] == gi else "lose" if gi in result["koed"] else "tie"
            for seat in group:
                tally[seat][key] += 1
    for seat in "abcd":
        for key in ("win", "tie", "lose"):
            assert odds[seat][key] == pytest.approx(tally[seat][key] / 6**4, abs=1e-6)


def test_dredd_block_mania_odds_match_the_engine_over_every_roll():
    game = start(specialists={"a": "mechanismo"}, hands={"b": ["block-mania-1", "daystick-1"]})
    play_all(
        game,
        {"act": "play", "by": "b", "card": "block-mania-1", "judges": ["a", "b"]},
        {"act": "commit", "by": "b", "card": "daystick-1", "for": "b"},
        {"act": "reveal"},
    )
    revealed = game.state
    odds = {seat: combat_odds(revealed, seat) for seat in "ab"}
    tally = {seat: {"win": 0, "tie": 0, "lose": 0} for seat in "ab"}
    for a, b in itertools.product(range(1, 7), repeat=2):
        game.state = revealed
        events = game.apply({"act": "roll", "dice": {"a": [a], "b": [b]}})
        koed = next(e for e in events if e["type"] == "combat_result")["koed"]
        for gi, seat in enumerate("ab"):
            key = "tie" if len(koed) == 2 else "lose" if gi in koed else "win"
            tally[seat][key] += 1
    for seat in "ab":
        for key in ("win", "tie", "lose"):
            assert odds[seat][key] == pytest.approx(tally[seat][key] / 36, abs=1e-6)
