"""The moments issue 14 asked for, seen from the seats: each one shows in ``asked`` and is
answered through the engine's actions; and the Alien's moves under Quarantine.

The flows themselves are scenarios (``special_robodoc_after_last_arrest``,
``specialist_sjs_quiet_refill``, ``special_before_arrest_auto``,
``specialist_mechanismo_cools_first``, ``alert_quarantine_alien``,
``move_reveal_barney_robodoc``); these tests check what each seat's view says at the
moment, which a scenario can only check after its last line.
"""

from __future__ import annotations

import copy

import pytest
from dredd_helpers import play_all, start

from lawmaster.rules.core import IllegalAction
from lawmaster.rules.core.boarddata import load_data
from lawmaster.rules.judge_dredd import ENGINE

PACKAGE = "lawmaster.rules.judge_dredd"


def _asked(game, seat: str) -> list[str]:
    return [a["act"] for a in ENGINE.view(game.state, seat)["asked"]]


def _lose_last_arrest(game) -> None:
    play_all(
        game,
        {"act": "move", "by": "a", "path": ["devils-island"]},
        {"act": "move", "by": "b", "path": []},
        {"act": "end_movement"},
        {"act": "reveal"},
        {"act": "roll", "judge": [1], "perp": [6]},
    )


def test_dredd_robodoc_moment_after_the_last_arrest_is_in_the_view():
    # "The Robodoc card is used when you are KO'd for any reason."
    game = start(hands={"a": ["robodoc-1"]})
    _lose_last_arrest(game)
    view = ENGINE.view(game.state, "a")
    assert view["pending"] == {"kind": "robodoc", "seats": ["a"]}
    assert _asked(game, "a") == ["play", "decline"]
    assert _asked(game, "b") == []
    assert ENGINE.to_act(game.state) == ["a"]
    events = game.apply({"act": "play", "by": "a", "card": "robodoc-1", "to": "resyk"})
    assert [e["type"] for e in events][:2] == ["robodoc", "arrest_phase_over"]
    assert game.state["judges"]["a"]["sector"] == "resyk"


def test_dredd_the_robodoc_moment_tells_nobody_about_the_hand():
    # The referee knows a holds no Robodoc, but the table does not: a is asked all the same,
    # so being asked (public in ``pending`` and ``to_act``) reveals nothing.
    hand = ["fergee-1", "fergee-2", "riot-foam-1", "riot-foam-2", "daystick-1", "daystick-2"]
    game = start(hands={"a": hand})
    _lose_last_arrest(game)
    assert ENGINE.view(game.state, "b")["pending"] == {"kind": "robodoc", "seats": ["a"]}
    with pytest.raises(IllegalAction):
        game.apply({"act": "play", "by": "a", "card": "robodoc-1", "to": "resyk"})
    game.apply({"act": "decline", "by": "a"})
    assert game.state["judges"]["a"]["sector"] == "justice-department-hospital"


def test_dredd_no_robodoc_wait_in_the_final_round():
    # "At the end of that arrest phase the game ends": no refill, so no Hospital to avoid.
    game = start(hands={"a": ["robodoc-1"]})
    game.state["final_round"] = True
    _lose_last_arrest(game)
    assert game.state["pending"] is None
    assert game.state["phase"] == "tiebreak"  # 0 all: the end goes on at once


def test_dredd_internal_affairs_is_offered_in_every_refill():
    # "You may look at all the Action cards in one other player's hand at the start of the
    # refill phase." With draws owed it is offered beside them; it is gone once anyone draws.
    game = start(specialists={"b": "sjs"}, hands={"a": ["daystick-1"]})
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
    assert "internal_affairs" in _asked(game, "b")
    assert "decline" not in _asked(game, "b")  # others still draw: nothing waits for b
    game.apply({"act": "draw", "by": "a", "count": 1})
    assert game.state["round"] == 2
    assert "internal_affairs" not in _asked(game, "b")


def test_dredd_quiet_refill_waits_for_the_sjs_in_the_view():
    game = start(specialists={"a": "sjs"})
    play_all(
        game,
        {"act": "move", "by": "a", "path": []},
        {"act": "move", "by": "b", "path": []},
        {"act": "end_movement"},
    )
    assert game.state["phase"] == "refill"
    assert _asked(game, "a") == ["internal_affairs", "decline"]
    assert ENGINE.to_act(game.state) == ["a"]
    assert "hand_seen" not in ENGINE.view(game.state, "b")["you"]


def test_dredd_special_card_moment_before_an_auto_arrest_is_in_the_view():
    # "Special cards can be used during either the movement or arrest phase."
    game = start(
        positions={"a": "resyk", "b": "academy-of-law"},
        hands={"b": ["block-mania-1", "daystick-1"]},
    )
    play_all(
        game,
        {"act": "move", "by": "a", "path": ["devils-island"]},
        {"act": "move", "by": "b", "path": ["devils-island"]},
        {"act": "end_movement"},
    )
    # Two Judges share the Perp: the declaration is awaited, and a Special card may come first.
    assert game.state["pending"]["kind"] == "declare"
    assert "play" in _asked(game, "b")
    events = game.apply({"act": "play", "by": "b", "card": "block-mania-1", "judges": ["a", "b"]})
    types = [e["type"] for e in events]
    assert types[:3] == ["arrest_withdrawn", "card_played", "combat"]
    assert game.state["combat"]["kind"] == "block"
    assert game.state["pending"] is None


def test_dredd_no_special_card_once_an_arrest_has_a_card():
    game = start(hands={"a": ["daystick-1"], "b": ["tip-off-1"]})
    play_all(
        game,
        {"act": "move", "by": "a", "path": ["devils-island"]},
        {"act": "move", "by": "b", "path": []},
        {"act": "end_movement"},
    )
    assert "play" in _asked(game, "b")
    game.apply({"act": "commit", "by": "a", "card": "daystick-1"})
    assert "play" not in _asked(game, "b")
    with pytest.raises(IllegalAction, match="once a combat has begun"):
        game.apply(
            {
                "act": "play",
                "by": "b",
                "card": "tip-off-1",
                "sector": "devils-island",
                "to": "resyk",
            }
        )


def test_dredd_option_wait_keeps_its_own_moment():
    # With arrest_start "wait" the moment is before next_arrest; an opened arrest has begun.
    game = start(options={"arrest_start": "wait"}, hands={"b": ["tip-off-1"]})
    play_all(
        game,
        {"act": "move", "by": "a", "path": ["devils-island"]},
        {"act": "move", "by": "b", "path": []},
        {"act": "end_movement"},
        {"act": "next_arrest"},
    )
    assert "play" not in _asked(game, "b")
    with pytest.raises(IllegalAction, match="once a combat has begun"):
        game.apply(
            {
                "act": "play",
                "by": "b",
                "card": "tip-off-1",
                "sector": "devils-island",
                "to": "resyk",
            }
        )


def test_dredd_mechanismo_is_asked_to_cool_before_any_card():
    # "Before each combat you may choose to cool."
    game = start(specialists={"a": "mechanismo"}, hands={"b": ["daystick-1"]})
    play_all(
        game,
        {"act": "move", "by": "a", "path": ["devils-island"]},
        {"act": "move", "by": "b", "path": []},
        {"act": "end_movement"},
    )
    assert "cool" in _asked(game, "a")
    assert "cool" not in _asked(game, "b")
    game.apply({"act": "commit", "by": "b", "card": "daystick-1", "for": "a"})
    assert "cool" not in _asked(game, "a")


def _alien_game():
    twin = {
        "id": "alien-escape-2",
        "name": "Alert: Alien Escape!",
        "type": "alert",
        "effect": {"alert": "alien-escape"},
        "alt": None,
    }
    cards = copy.deepcopy(load_data(PACKAGE, "cards-standard"))
    cards["actions"].append(twin)
    game = start(cards=cards, hands={"a": ["daystick-1"]})
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
    return game


def test_dredd_the_alien_never_enters_or_crosses_a_quarantined_sector():
    # "Quarantine locks off an entire Sector for one round, making it impossible to enter or
    # leave"; only Bridges Closed names the Alien as exempt.
    game = _alien_game()
    play_all(
        game,
        {"act": "play", "by": "a", "card": "alien-escape-1", "sector": "mega-mall"},
        {"act": "play", "by": "a", "card": "quarantine-1", "sector": "alien-zoo"},
        {"act": "play", "by": "a", "card": "quarantine-2", "sector": "channel-99"},
    )
    move = {"act": "play", "by": "a", "card": "alien-escape-2"}
    with pytest.raises(IllegalAction, match="quarantined"):
        game.apply({**move, "to": "alien-zoo"})  # into
    with pytest.raises(IllegalAction, match="quarantined"):
        game.apply({**move, "to": "kelp-farm"})  # only through Alien Zoo or Channel 99
    game.apply({**move, "to": "west-wall"})  # through Resyk
    assert game.state["alien"] == "west-wall"


def test_dredd_the_alien_never_leaves_a_quarantined_sector():
    game = _alien_game()
    play_all(
        game,
        {"act": "play", "by": "a", "card": "alien-escape-1", "sector": "mega-mall"},
        {"act": "play", "by": "a", "card": "quarantine-1", "sector": "mega-mall"},
    )
    move = {"act": "play", "by": "a", "card": "alien-escape-2"}
    with pytest.raises(IllegalAction, match="out of a quarantined Sector"):
        game.apply({**move, "to": "devils-island"})
    events = game.apply({**move, "to": "mega-mall"})  # "up to two": it stays
    assert {"type": "alert", "by": "a", "card": "alien-escape-2", "alien": "mega-mall"} in events


def test_dredd_the_alien_ignores_closed_bridges():
    # "Bridges Closed prevents Judges and Perps (but not the Alien) from crossing the river."
    game = _alien_game()
    play_all(
        game,
        {"act": "play", "by": "a", "card": "alien-escape-1", "sector": "kelp-farm"},
        {"act": "play", "by": "a", "card": "bridges-closed-1"},
    )
    board = game.state["board"]
    across = [
        s
        for s in board.neighbours("kelp-farm", True)
        if s not in board.neighbours("kelp-farm", False)
    ]
    for to in across:
        ENGINE.apply(game.state, {"act": "play", "by": "a", "card": "alien-escape-2", "to": to})
    assert across
