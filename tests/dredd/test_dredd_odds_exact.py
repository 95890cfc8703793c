"""The combat odds against brute force on small decks: every face-down card the seat cannot see
is a different card (issue 21, point 8), so the odds must equal, to 1e-9, the share of
(ordered choice of different cards for those slots, dice roll) pairs in which the engine's own
combat resolution gives the seat's Judge that result.

The brute force is written apart from the odds code: it works out which cards the seat cannot
see and cannot place from the state, tries every ordered choice of different cards for the
face-down slots (each with the option the referee defaults to), turns the cards up with the
engine's ``reveal`` and settles every roll with the engine's own ``strengths`` and
``judge_outcomes`` (Block Mania by the engine's ``roll``), counting in exact fractions.
"""

from __future__ import annotations

import copy
import itertools
import json
from fractions import Fraction
from math import perm

import pytest
from dredd_helpers import play_all, start

from lawmaster.rules.core.boarddata import load_data
from lawmaster.rules.judge_dredd import ENGINE
from lawmaster.rules.judge_dredd.fight import default_option, judge_outcomes, strengths
from lawmaster.rules.judge_dredd.odds import exact_combat_odds

#: a's whole hand, tapped at the deal: the seat knows every card in it.
A_HAND = ["robo-dogs-1", "stumm-gas-1", "riot-foam-1", "daystick-1", "tip-off-1", "traffic-jam-1"]
#: b's hand and the deck: seven cards a cannot place (b holds six of them).
UNSEEN = [
    "fergee-1",
    "perp-backup-1",
    "lucky-break-1",
    "dazzler-1",
    "robo-dogs-2",
    "escape-1",
    "juve-ambush-1",
]


def _small_deck(extra=()) -> dict:
    """The standard cards with only thirteen (or a few more) Action cards."""
    data = copy.deepcopy(load_data("lawmaster.rules.judge_dredd", "cards-standard"))
    keep = set(A_HAND) | set(UNSEEN) | set(extra)
    data["actions"] = [a for a in data["actions"] if a["id"] in keep]
    return data


def brute_odds(state, seat: str) -> dict[str, Fraction]:
    """P(win/tie/lose) for ``seat`` by trying every card the face-down slots could hold."""
    combat = state["combat"]
    unseen = [
        i
        for i, e in enumerate(combat["cards"])
        if not (combat["revealed"] or e["face_up"] or e["by"] == seat)
    ]
    seen_ids = {e["card"] for i, e in enumerate(combat["cards"]) if i not in unseen}
    cards = state["cards"]
    placed = set(state["judges"][seat]["known"]) | set(state["action_discard"]) | seen_ids
    pool = [c for c, a in cards.actions.items() if a.type != "alert" and c not in placed]
    me = next(gi for gi, g in enumerate(combat["groups"]) if seat in g)
    tally = {"win": Fraction(0), "tie": Fraction(0), "lose": Fraction(0)}
    choices = list(itertools.permutations(pool, len(unseen)))
    assert len(choices) == perm(len(pool), len(unseen))
    for choice in choices:
        trial = copy.deepcopy(state)
        for slot, card in zip(unseen, choice, strict=True):
            entry = trial["combat"]["cards"][slot]
            gi = next(g for g, group in enumerate(combat["groups"]) if entry["for"] in group)
            controller = entry["by"] in combat["groups"][gi]
            entry["card"] = card
            entry["option"] = default_option(cards.actions[card], controller)
        revealed = ENGINE.apply(trial, {"act": "reveal"}).state
        needed = revealed["combat"]["needed"]
        keys = list(needed)
        faces = [needed[k] for k in keys]
        rolls = list(itertools.product(range(1, 7), repeat=sum(faces)))
        counts = {"win": 0, "tie": 0, "lose": 0}
        for roll in rolls:
            dice, at = {}, 0
            for key, n in zip(keys, faces, strict=True):
                dice[key] = list(roll[at : at + n])
                at += n
            counts[_result(revealed, dice, me)] += 1
        for key, n in counts.items():
            tally[key] += Fraction(n, len(choices) * len(rolls))
    return tally


def _result(revealed, dice, me: int) -> str:
    combat = revealed["combat"]
    if combat["kind"] in ("arrest", "alien"):
        totals, hot, perp = strengths(revealed, combat, dice)
        winner, _, koed = judge_outcomes(revealed, combat, totals, hot, perp)
        return "win" if winner == me else "lose" if me in koed else "tie"
    events = ENGINE.apply(revealed, {"act": "roll", "dice": dice}).events
    result = next(e for e in events if e["type"] == "combat_result")
    if combat["kind"] == "tiebreak":
        seat = combat["groups"][me][0]
        return "lose" if seat not in result["top"] else "win" if len(result["top"]) == 1 else "tie"
    koed = result["koed"]
    return "tie" if len(koed) == 2 else "lose" if me in koed else "win"


def _equal(exact: dict[str, float], brute: dict[str, Fraction]) -> None:
    assert sum(brute.values()) == 1
    for key in ("win", "tie", "lose"):
        assert abs(exact[key] - float(brute[key])) <= 1e-9, (key, exact, brute)


def _arrest(**header):
    game = start(cards=_small_deck(), hands={"a": list(A_HAND)}, **header)
    play_all(
        game,
        {"act": "move", "by": "a", "path": ["devils-island"]},
        {"act": "move", "by": "b", "path": []},
        {"act": "end_movement"},
    )
    return game


def test_dredd_odds_equal_brute_force_for_three_face_down_cards():
    # a against the Mantis Brothers (6 + robot smashing 4); b adds three face-down cards,
    # drawn from the seven a cannot place: 7 * 6 * 5 ordered choices, every roll of the dice.
    game = _arrest()
    play_all(
        game,
        {"act": "commit", "by": "a", "card": "daystick-1"},
        {"act": "commit", "by": "b", "card": "fergee-1", "for": "a"},
        {"act": "commit", "by": "b", "card": "lucky-break-1", "for": "a"},
        {"act": "commit", "by": "b", "card": "dazzler-1", "for": "a"},
    )
    _equal(exact_combat_odds(game.state, "a"), brute_odds(game.state, "a"))


@pytest.mark.parametrize("specialist", ["mechanismo", "sjs"])
def test_dredd_odds_equal_brute_force_for_a_specialist(specialist):
    # Mechanismo overheats on any 6 of his dice, Fergee's included; the SJS wins ties.
    game = _arrest(specialists={"a": specialist})
    play_all(
        game,
        {"act": "commit", "by": "b", "card": "fergee-1", "for": "a"},
        {"act": "commit", "by": "b", "card": "juve-ambush-1", "for": "a"},
    )
    _equal(exact_combat_odds(game.state, "a"), brute_odds(game.state, "a"))


def test_dredd_odds_never_count_one_card_twice():
    # When a can place every card but Perp Back-Up and Robo Dogs, b's two face-down cards
    # are exactly those two, in either order: one outcome, not the four that drawing with
    # replacement would give (two Back-Ups, two Robo Dogs, or one of each).
    game = _arrest()
    play_all(
        game,
        {"act": "commit", "by": "b", "card": "perp-backup-1", "for": "a"},
        {"act": "commit", "by": "b", "card": "robo-dogs-2", "for": "a"},
    )
    # Narrow what a cannot place to exactly those two: every other card a does not hold
    # is on the discard pile, as far as a knows (as if played and seen earlier).
    state = copy.deepcopy(game.state)
    state["action_discard"] = [c for c in UNSEEN if c not in ("perp-backup-1", "robo-dogs-2")]
    exact = exact_combat_odds(state, "a")
    brute = brute_odds(state, "a")
    _equal(exact, brute)
    # The one pair of cards: 6 + 4 - 3 + J against 10 + P, one die each.
    wins = sum(1 for j in range(1, 7) for p in range(1, 7) if 7 + j > 10 + p)
    assert brute["win"] == Fraction(wins, 36)
    assert abs(exact["win"] - wins / 36) <= 1e-9


def test_dredd_competing_arrest_odds_equal_brute_force_across_two_slot_classes():
    # a and b compete for the Mantis Brothers. From a's seat: b's card for b (a controller,
    # who would use a shield badge rather than sabotage himself) and b's card for a (main
    # effect) are two classes of slot, drawn together without replacement.
    game = start(
        cards=_small_deck(),
        hands={"a": list(A_HAND)},
        positions={"a": "resyk", "b": "academy-of-law"},
        specialists={"b": "sjs"},
    )
    play_all(
        game,
        {"act": "move", "by": "a", "path": ["devils-island"]},
        {"act": "move", "by": "b", "path": ["devils-island"]},
        {"act": "end_movement"},
        {"act": "arrest", "groups": [["a"], ["b"]]},
        {"act": "commit", "by": "a", "card": "robo-dogs-1", "for": "a"},
        {"act": "commit", "by": "b", "card": "perp-backup-1", "for": "b"},
        {"act": "commit", "by": "b", "card": "fergee-1", "for": "a"},
    )
    _equal(exact_combat_odds(game.state, "a"), brute_odds(game.state, "a"))
    # b sees both of its own cards and a's one face-down card.
    _equal(exact_combat_odds(game.state, "b"), brute_odds(game.state, "b"))


def test_dredd_block_mania_odds_equal_brute_force():
    game = start(
        cards=_small_deck(extra=["block-mania-1"]),
        hands={"a": list(A_HAND), "b": ["block-mania-1"]},
        specialists={"a": "mechanismo"},
    )
    play_all(
        game,
        {"act": "play", "by": "b", "card": "block-mania-1", "judges": ["a", "b"]},
        {"act": "commit", "by": "a", "card": "stumm-gas-1", "for": "b"},
        {"act": "commit", "by": "b", "card": "dazzler-1", "for": "a"},
        {"act": "commit", "by": "b", "card": "escape-1", "for": "b"},
    )
    _equal(exact_combat_odds(game.state, "a"), brute_odds(game.state, "a"))


def test_dredd_tiebreak_odds_equal_brute_force():
    # The final tie-break of end_tiebreak_after_ko: a (KO'd in the final round) adds a card
    # face down; b cannot see it.
    from dredd_helpers import SCENARIOS

    from lawmaster.host.games import engine_for
    from lawmaster.rules.core.replay import Game

    lines = [
        json.loads(line)
        for line in (SCENARIOS / "end_tiebreak_after_ko.jsonl").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    game, _ = Game.start(lines[0], engine_for)
    for action in lines[1:]:
        game.apply(action)
        if action.get("act") == "commit":
            break
    assert game.state["combat"]["kind"] == "tiebreak"
    _equal(exact_combat_odds(game.state, "b"), brute_odds(game.state, "b"))
    _equal(exact_combat_odds(game.state, "a"), brute_odds(game.state, "a"))
