"""Rules that need a custom card set, and the engine's contract on bad input."""

from __future__ import annotations

import copy
import json

import pytest
from dredd_helpers import play_all, start
from hypothesis import given, settings
from hypothesis import strategies as st

from lawmaster.host.games import engine_for
from lawmaster.rules.core import IllegalAction
from lawmaster.rules.core.boarddata import load_data
from lawmaster.rules.core.replay import Game, replay
from lawmaster.rules.judge_dredd import ENGINE

PACKAGE = "lawmaster.rules.judge_dredd"
SMALL_BOARD = {
    "sectors": [
        {"id": "resyk", "kind": "start", "bonus": 1},
        {"id": "academy-of-law", "kind": "start", "bonus": 1},
        {"id": "devils-island", "kind": "crime"},
        {"id": "channel-99", "kind": "crime"},
        {"id": "spaceport", "kind": "crime"},
        {"id": "mega-mall", "kind": "crime"},
        {"id": "alien-zoo", "kind": "crime"},
        {"id": "kelp-farm", "kind": "crime"},
        {"id": "west-wall", "kind": "crime"},
        {"id": "justice-department-hospital", "kind": "hospital"},
    ],
    "borders": [
        ["resyk", "devils-island"],
        ["resyk", "channel-99"],
        ["academy-of-law", "channel-99"],
        ["academy-of-law", "spaceport"],
        ["spaceport", "mega-mall"],
        ["mega-mall", "alien-zoo"],
        ["alien-zoo", "kelp-farm"],
        ["kelp-farm", "west-wall"],
        ["west-wall", "justice-department-hospital"],
        ["justice-department-hospital", "devils-island"],
    ],
}
SIX = [
    {"sector_card": "sector-devils-island", "crime": "littering", "perp": "max-normal"},
    {"sector_card": "sector-channel-99", "crime": "jaywalking", "perp": "walter-the-wobot"},
    {"sector_card": "sector-spaceport", "crime": "murder", "perp": "judge-death"},
    {"sector_card": "sector-mega-mall", "crime": "terrorism", "perp": "judge-fear"},
    {"sector_card": "sector-alien-zoo", "crime": "block-war", "perp": "judge-fire"},
    {"sector_card": "sector-kelp-farm", "crime": "kidnapping", "perp": "judge-mortis"},
]


def _cards(perps: int = 28, crimes: int = 28, extra_actions=()) -> dict:
    data = copy.deepcopy(load_data(PACKAGE, "cards-standard"))
    data["perps"] = data["perps"][:perps]
    data["crimes"] = data["crimes"][:crimes]
    data["actions"].extend(extra_actions)
    return data


def _small(**header):
    full = {
        "game": "judge-dredd",
        "players": ["a", "b"],
        "board": SMALL_BOARD,
        "positions": {"a": "resyk", "b": "academy-of-law"},
        "crimes": SIX,
        **header,
    }
    game, _ = Game.start(full, engine_for)
    return game


def _round_with_arrest(game):
    """a arrests Max Normal on Devil's Island; b stays."""
    return play_all(
        game,
        {"act": "move", "by": "a", "path": ["devils-island"]},
        {"act": "move", "by": "b", "path": []},
        {"act": "end_movement"},
        {"act": "reveal"},
        {"act": "roll", "judge": [6], "perp": [1]},
    )


def test_dredd_night_shift_ends_on_the_perp_deck_not_the_sector_deck():
    perps = ["max-normal", "walter-the-wobot", "judge-death", "judge-fear", "judge-fire"]
    keep = [p for p in load_data(PACKAGE, "cards-standard")["perps"] if p["id"] in perps]
    cards = _cards()
    cards["perps"] = keep + [{"id": "judge-mortis", "name": "Judge Mortis", "strength": 9}]
    cards["perps"].append({"id": "orlok", "name": "Orlok", "strength": 8})
    game = _small(length="night-shift", cards=cards)
    _round_with_arrest(game)
    events = game.apply(
        {"act": "place_crime", "sector_card": "sector-west-wall", "crime": "arson", "perp": "orlok"}
    )
    # The Sector deck ran out: the Night Shift reshuffles it and goes on...
    assert any(e["type"] == "sector_deck_reshuffled" for e in events)
    assert len(game.state["sector_deck"]) == 7
    # ...but the Perp deck is empty now, and that ends it.
    assert {"type": "final_round_triggered", "final_round": 2} in events
    assert game.state["final_next"]


def test_dredd_night_shift_reshuffles_the_sector_deck():
    game = _small(length="night-shift")
    _round_with_arrest(game)
    events = game.apply(
        {"act": "place_crime", "sector_card": "sector-west-wall", "crime": "spugging"}
    )
    assert any(e["type"] == "sector_deck_reshuffled" for e in events)
    assert not game.state["final_next"]
    play_all(
        game,
        {"act": "move", "by": "b", "path": []},
        {
            "act": "move",
            "by": "a",
            "path": ["justice-department-hospital", "west-wall"],
            "perp": "orlok",
        },
        {"act": "end_movement"},
        {"act": "reveal"},
    )
    game.apply({"act": "roll", "judge": [6], "perp": [1]})
    assert len(game.state["sector_deck"]) == 7
    game.apply({"act": "place_crime", "sector_card": "sector-west-wall", "crime": "assault"})
    assert game.state["perps"]["west-wall"] == {"card": None, "face_up": False}
    assert not game.state["final_next"]


def test_dredd_day_shift_ends_when_the_sector_deck_runs_out():
    game = _small()
    _round_with_arrest(game)
    events = game.apply({"act": "place_crime", "sector_card": "sector-west-wall", "crime": "arson"})
    assert {"type": "final_round_triggered", "final_round": 2} in events


def test_dredd_a_second_alien_escape_moves_the_alien_up_to_two_sectors():
    twin = {
        "id": "alien-escape-2",
        "name": "Alert: Alien Escape!",
        "type": "alert",
        "effect": {"alert": "alien-escape"},
        "alt": None,
    }
    game = start(cards=_cards(extra_actions=[twin]), hands={"a": ["daystick-1"]})
    play_all(
        game,
        {"act": "move", "by": "a", "path": ["mega-mall", "channel-99"]},
        {"act": "move", "by": "b", "path": []},
        {"act": "end_movement"},
        {"act": "commit", "by": "a", "card": "daystick-1"},
        {"act": "reveal"},
        {"act": "roll", "judge": [6], "perp": [1]},
        {"act": "place_crime", "sector_card": "sector-spaceport", "crime": "bribery"},
        {"act": "play", "by": "a", "card": "alien-escape-1", "sector": "mega-mall"},
    )
    with pytest.raises(IllegalAction, match="up to two Sectors"):
        game.apply({"act": "play", "by": "a", "card": "alien-escape-2", "to": "power-tower"})
    with pytest.raises(IllegalAction, match="never into the Hospital"):
        game.apply(
            {
                "act": "play",
                "by": "a",
                "card": "alien-escape-2",
                "to": "justice-department-hospital",
            }
        )
    game.apply({"act": "play", "by": "a", "card": "alien-escape-2", "to": "kelp-farm"})
    assert game.state["alien"] == "kelp-farm"


def test_dredd_quarantined_hospital_still_takes_the_ko_d():
    game = start(hands={"a": ["daystick-1"]})
    play_all(
        game,
        {"act": "move", "by": "a", "path": ["mega-mall", "channel-99"]},
        {"act": "move", "by": "b", "path": []},
        {"act": "end_movement"},
        {"act": "commit", "by": "a", "card": "daystick-1"},
        {"act": "reveal"},
        {"act": "roll", "judge": [6], "perp": [1]},
        {"act": "place_crime", "sector_card": "sector-spaceport", "crime": "bribery"},
        {
            "act": "play",
            "by": "a",
            "card": "quarantine-1",
            "sector": "justice-department-hospital",
        },
        {"act": "draw", "by": "a", "count": 1},
        {"act": "move", "by": "b", "path": []},
        {"act": "move", "by": "a", "path": ["devils-island"]},
        {"act": "end_movement"},
        {"act": "reveal"},
        {"act": "roll", "judge": [1], "perp": [6]},
        # KO'd in the round's last arrest: the moment to play Robodoc comes first.
        {"act": "decline", "by": "a"},
    )
    assert game.state["judges"]["a"]["sector"] == "justice-department-hospital"


def test_dredd_apply_never_mutates_its_input_and_refusals_change_nothing():
    game = start()
    before = copy.deepcopy(game.state)
    ENGINE.apply(game.state, {"act": "move", "by": "a", "path": ["devils-island"]})
    assert game.state == before
    with pytest.raises(IllegalAction):
        ENGINE.apply(game.state, {"act": "move", "by": "a", "path": ["power-tower"]})
    assert game.state == before


def test_dredd_views_for_unknown_seats_are_refused_and_table_has_no_private_part():
    game = start()
    with pytest.raises(IllegalAction):
        ENGINE.view(game.state, "mallory")
    assert "you" not in ENGINE.view(game.state, "table")
    assert ENGINE.to_act(game.state) == ["a"]
    assert ENGINE.seats(game.state) == ["a", "b"]
    assert not ENGINE.is_over(game.state)


FIELD_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 30),
    st.text(max_size=12),
    st.sampled_from(["a", "b", "resyk", "devils-island", "robo-dogs-1", "sector-spaceport"]),
    st.lists(st.sampled_from(["a", "b", "resyk", "mega-mall", "channel-99", 1, None]), max_size=4),
    st.dictionaries(st.sampled_from(["a", "b", "perp", "x"]), st.lists(st.integers(0, 7))),
)
ACTS = st.sampled_from(
    [
        "place_judge", "place_crime", "move", "end_movement", "play", "accept", "arrest",
        "reveal_perp", "commit", "cool", "reveal", "roll", "perp_escape", "discard_sector",
        "recycle", "draw", "internal_affairs", "psi_peek", "show", "nonsense",
    ]
)  # fmt: skip
FIELDS = st.sampled_from(
    ["by", "path", "sector", "to", "card", "target", "groups", "dice", "judge", "perp", "count",
     "cards", "option", "for", "judges", "crime", "sector_card", "face_up"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(ACTS, st.dictionaries(FIELDS, FIELD_VALUES, max_size=5)), max_size=12))
def test_dredd_garbage_actions_get_reasons_never_tracebacks(actions):
    game = start(specialists={"a": "psi-judge", "b": "sjs"})
    state = game.state
    for act, fields in actions:
        try:
            state = ENGINE.apply(state, {"act": act, **fields}).state
        except IllegalAction as exc:
            assert isinstance(exc.reason, str) and exc.reason
        json.dumps(ENGINE.view(state, "a"))
        json.dumps(ENGINE.summary(state))


def test_dredd_replay_of_garbage_lines_never_raises():
    lines = [
        '{"game": "judge-dredd", "players": ["a", "b"], "board": {"sectors": 3}}',
        '{"game": "judge-dredd", "players": ["a", "b"], "crimes": [7]}',
        '{"game": "judge-dredd", "players": ["a", "b"], "hands": {"a": ["x"]}}',
        '{"game": "judge-dredd", "players": ["a", "b"]}',
        "[]",
        '{"act": 5}',
        '{"act": "move", "by": "a", "path": "resyk"}',
    ]
    out = list(replay(lines, engines=engine_for))
    assert [r.get("ok") for r in out[:-1]] == [False, False, False, True, False, False, False]


def test_dredd_an_empty_action_deck_is_rebuilt_from_the_discards():
    from lawmaster.rules.judge_dredd.state import draw_actions

    state = copy.deepcopy(start().state)
    state["action_deck"] = 1
    state["action_discard"] = ["daystick-1"]
    state["action_discard_count"] = 4
    state["judges"]["a"]["hand"] = 2
    events: list = []
    draw_actions(state, "a", 3, [], events)
    assert events == [{"type": "action_deck_reshuffled", "size": 4}]
    assert state["action_deck"] == 2
    assert state["action_discard"] == [] and state["action_discard_count"] == 0
    assert state["judges"]["a"]["hand"] == 5


def _plain_actions(count: int) -> dict:
    """The standard cards with only the first ``count`` non-Alert Action cards."""
    cards = _cards()
    cards["actions"] = [a for a in cards["actions"] if a["type"] != "alert"][:count]
    return cards


def _arrest_with_fergee(game):
    """a commits Fergee (known in hand) and arrests Max Normal; the card is discarded."""
    return play_all(
        game,
        {"act": "move", "by": "a", "path": ["devils-island"]},
        {"act": "move", "by": "b", "path": []},
        {"act": "end_movement"},
        {"act": "commit", "by": "a", "card": "fergee-1"},
        {"act": "reveal"},
        {"act": "roll", "judge": [6, 6], "perp": [1]},
    )


def test_dredd_the_action_deck_is_rebuilt_the_moment_it_runs_out():
    # Issue 21, point 6: "If the deck of Action cards ever runs out, shuffle up the
    # discarded cards to form a new deck." It runs out when its last card is drawn, and the
    # discards form the new deck then, as the Night Shift's Sector deck ("When the Sector
    # cards run out, shuffle up the discard pile to form a new Sector deck") and as the Day
    # Shift's "runs out" that triggers the final round: not later, when a draw comes up short.
    game = _small(cards=_plain_actions(13), hands={"a": ["fergee-1"]})
    assert game.state["action_deck"] == 1
    _arrest_with_fergee(game)
    assert game.state["action_discard"] == ["fergee-1"]
    play_all(game, {"act": "place_crime", "sector_card": "sector-west-wall", "crime": "arson"})
    assert game.state["refill"]["owed"] == {"a": 1, "b": 0}
    events = game.apply({"act": "draw", "by": "a", "count": 1})
    assert {"type": "action_deck_reshuffled", "size": 1} in events
    assert game.state["action_deck"] == 1
    assert game.state["action_discard"] == [] and game.state["action_discard_count"] == 0
    assert ENGINE.summary(game.state)["decks"]["action"] == 1


def test_dredd_a_card_discarded_onto_an_empty_action_deck_forms_the_new_deck():
    # The same sentence with nothing to shuffle when the deck ran out (every card dealt):
    # the deck stays out until a card is discarded, which then forms the new deck at once.
    game = _small(cards=_plain_actions(12), hands={"a": ["fergee-1"]})
    assert game.state["action_deck"] == 0
    events = _arrest_with_fergee(game)
    assert {"type": "action_deck_reshuffled", "size": 1} in events
    assert game.state["action_deck"] == 1 and game.state["action_discard_count"] == 0


def test_dredd_legal_moves_are_exactly_the_accepted_ones():
    game = start(
        players=["a", "b", "c"],
        positions={"a": "resyk", "b": "academy-of-law", "c": "grand-hall-of-justice"},
        specialists={"a": "chief-judge"},
    )
    legal = ENGINE.legal_actions(game.state)
    ends = {ENGINE.apply(game.state, a).state["judges"]["a"]["sector"] for a in legal}
    assert ends == set(ENGINE.view(game.state, "a")["you"]["reachable"])
    # Devil's Island (a face-down Perp) ends the move; across it nothing is reachable that
    # needs passing through it, and the Hospital is reachable via the Alien Zoo bridge.
    assert "devils-island" in ends and "justice-department-hospital" in ends
    for sector in set(game.state["board"].sectors) - ends:
        with pytest.raises(IllegalAction):
            ENGINE.apply(game.state, {"act": "move", "by": "a", "path": [sector]})
    assert "reachable" not in ENGINE.view(game.state, "b")["you"]


# -- decks running out ------------------------------------------------------------
def _only(cards: dict, kind: str, ids: list[str]) -> dict:
    cards[kind] = [c for c in cards[kind] if c["id"] in ids]
    return cards


@pytest.mark.parametrize(
    ("length", "option"),
    [
        ("day-shift", "final_round"),
        ("hotdog-run", "final_round"),
        ("night-shift", "final_round"),
        ("night-shift", "perp_alone"),
    ],
)
def test_dredd_no_crime_left_at_setup_makes_round_one_the_last(length, option):
    cards = _only(_cards(), "crimes", [c["crime"] for c in SIX])
    header = {"length": length, "options": {"crime_deck_out": option}}
    game, events = Game.start(
        {
            "game": "judge-dredd",
            "players": ["a", "b"],
            "board": SMALL_BOARD,
            "positions": {"a": "resyk", "b": "academy-of-law"},
            "crimes": SIX,
            "cards": cards,
            **header,
        },
        engine_for,
    )
    # The Sector deck still holds West Wall's card, but no new crime can ever be reported.
    assert game.state["sector_deck"] == ["sector-west-wall"]
    assert {"type": "final_round_triggered", "final_round": 1} in events
    assert game.state["final_round"]
    over = _round_with_arrest(game)
    assert any(e["type"] == "game_over" and e["winner"] == "a" for e in over)


def test_dredd_perp_alone_spends_a_sector_card_with_no_perp_left():
    cards = _only(_cards(), "perps", [c["perp"] for c in SIX])
    game = _small(cards=cards, options={"crime_deck_out": "perp_alone"})
    assert game.state["perp_deck"] == 0 and not game.state["final_next"]
    _round_with_arrest(game)
    west_wall = {"act": "place_crime", "sector_card": "sector-west-wall"}
    asked = ENGINE.view(game.state, "a")["asked"]
    assert asked[0]["act"] == "place_crime" and "place what is left" in asked[0]["why"]
    with pytest.raises(IllegalAction, match="no Perp is left"):
        game.apply({**west_wall, "crime": "arson"})
    events = game.apply(west_wall)
    assert {
        "type": "sector_card_spent",
        "sector_card": "sector-west-wall",
        "sector": "west-wall",
    } in events
    # That was the last Sector card: the Day Shift's own end.
    assert {"type": "final_round_triggered", "final_round": 2} in events
    assert game.state["perps"]["west-wall"] is None and game.state["crime_deck"] == 22


def test_dredd_a_crime_spree_with_no_perp_out_adds_nothing():
    game = start(hands={"a": ["daystick-1"]})
    play_all(
        game,
        {"act": "move", "by": "a", "path": ["mega-mall", "channel-99"]},
        {"act": "move", "by": "b", "path": []},
        {"act": "end_movement"},
        {"act": "commit", "by": "a", "card": "daystick-1"},
        {"act": "reveal"},
        {"act": "roll", "judge": [6], "perp": [1]},
        {"act": "place_crime", "sector_card": "sector-spaceport", "crime": "bribery"},
    )
    # Every Perp arrested by now (no position reaches this with the standard decks in a few
    # lines, so the board is cleared by hand).
    game.state["perps"] = {s: None for s in game.state["perps"]}
    crimes = game.state["crime_deck"]
    spree = {"act": "play", "by": "a", "card": "crime-spree-1"}
    with pytest.raises(IllegalAction, match="no Perp is out"):
        game.apply({**spree, "sector": "spaceport", "crime": "assault"})
    events = game.apply(spree)
    assert {"type": "alert", "by": "a", "card": "crime-spree-1", "no_effect": True} in events
    assert game.state["crime_deck"] == crimes
    assert game.state["refill"]["owed"]["a"] == 1  # the Alert replaced itself; a still draws


def test_dredd_a_card_set_too_small_for_the_hands_is_refused():
    cards = _cards()
    plain = [a for a in cards["actions"] if a["type"] != "alert"]
    alerts = [a for a in cards["actions"] if a["type"] == "alert"]
    cards["actions"] = plain[:11] + alerts
    with pytest.raises(IllegalAction, match="too small"):
        start(cards=cards)
    cards["actions"] = plain[:12] + alerts
    assert start(cards=cards).state["action_deck"] == 12 + len(alerts) - 12


def test_dredd_night_shift_redraw_stops_when_every_sector_card_names_a_perp():
    three = {
        "sectors": [
            s
            for s in SMALL_BOARD["sectors"]
            if s["id"] not in ("mega-mall", "alien-zoo", "kelp-farm", "west-wall")
        ],
        "borders": [
            ["resyk", "devils-island"],
            ["academy-of-law", "channel-99"],
            ["channel-99", "spaceport"],
            ["devils-island", "justice-department-hospital"],
        ],
    }
    game = _small(
        board=three, crimes=SIX[:3], length="night-shift", options={"occupied_sector": "redraw"}
    )
    # The setup's third Sector card empties the deck, which is rebuilt at once ("When the
    # Sector cards run out, shuffle up the discard pile to form a new Sector deck").
    assert game.state["round"] == 1 and len(game.state["sector_deck"]) == 3
    assert not game.state["sector_discard"]
    events = play_all(
        game,
        {"act": "move", "by": "a", "path": []},
        {"act": "move", "by": "b", "path": []},
        {"act": "end_movement"},
    )
    # Every Sector card would be redrawn for ever: no crime is asked for; round 2 begins.
    assert {"type": "round", "round": 2, "starting_player": "b", "final": False} in events
    play_all(
        game,
        {"act": "move", "by": "b", "path": []},
        {"act": "move", "by": "a", "path": ["devils-island"]},
        {"act": "end_movement"},
        {"act": "reveal"},
        {"act": "roll", "judge": [6], "perp": [1]},
    )
    spent = game.apply({"act": "place_crime", "sector_card": "sector-channel-99"})
    assert spent[0]["type"] == "sector_redrawn"
    events = game.apply(
        {"act": "place_crime", "sector_card": "sector-devils-island", "crime": "arson"}
    )
    assert any(e["type"] == "round" and e["round"] == 3 for e in events)
