"""Random legal games of Unamerican Graffiti, checked for invariants and exact replay."""

from __future__ import annotations

import json
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lawmaster.host.games import engine_for
from lawmaster.rules.core.replay import replay
from lawmaster.rules.unamerican_graffiti import ENGINE
from lawmaster.rules.unamerican_graffiti.state import PLAYERS
from lawmaster.rules.unamerican_graffiti.threat import threat_map


def check_invariants(state) -> None:
    positions = list(state.judges.values())
    assert len(set(positions)) == 6, "Judges never share a hex"
    pawns = [s.position for s in state.scrawlers.values() if s.position is not None]
    assert len(set(pawns)) == len(pawns)
    assert not set(pawns) & set(positions) or state.phase != "move"
    for colour in state.colours.values():
        assert colour.prestige >= 0
        assert colour.final is None or colour.final >= colour.prestige
    for hex_id, colour in state.scrawls.items():
        assert colour in state.colours, "a scrawl has one known colour"
        assert state.board.hex(hex_id).is_location
    assert state.defaced <= set(state.board.landmarks)
    for judge in state.cleaning:
        assert state.judges[judge] in state.scrawls or True
    if state.phase == "over":
        assert state.winner in (*PLAYERS, "draw")
        assert all(c.final is not None for c in state.colours.values())
    else:
        assert state.winner is None


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_games_keep_the_invariants_and_replay_exactly(data):
    header = {
        "game": "unamerican-graffiti",
        "dredd_roll": data.draw(st.integers(1, 6)),
        "options": {"gate": data.draw(st.sampled_from(["into", "through"]))},
    }
    state = ENGINE.new_game(header).state
    log = [header]
    for _ in range(data.draw(st.integers(20, 160))):
        if state.phase == "over":
            break
        if state.phase == "roll":
            faces = data.draw(
                st.lists(st.integers(1, 6), min_size=state.moved, max_size=state.moved)
            )
            action = {"act": "roll", "by": state.acting, "faces": faces}
        else:
            action = data.draw(st.sampled_from(ENGINE.legal_actions(state)))
        state = ENGINE.apply(state, action).state
        log.append(action)
        check_invariants(state)
        for seat in (*PLAYERS, "table"):
            view = ENGINE.view(state, seat)
            json.dumps(view)
            for threat in view.get("threat", {}).values():
                assert 0.0 <= threat["arrest_chance"] <= 1.0
    out = list(replay((json.dumps(line) for line in log), engines=engine_for))
    assert all(r["ok"] for r in out[:-1])
    assert out[-1]["summary"] == ENGINE.summary(state)


def test_threat_is_the_exact_dice_probability():
    from graffiti_boards import SMALL, with_starts

    state = ENGINE.new_game({"dredd_roll": 1, "board": with_starts(SMALL, chopper="1,2")}).state
    threat = ENGINE.view(state, "chopper")["threat"]
    # 2,2 is next to Judge 2 (S2) and Judge 5 (S5): one die, a street, one hex each.
    assert threat["2,2"] == {
        "hexes": 1,
        "judges_move": 1,
        "arrest_chance": 2 / 6,
        "arrest_odds": "1/3",
    }
    assert threat_map(state, "chopper")["2,2"].chance == Fraction(2, 6)
    # Standing still rolls no dice at all.
    assert threat["1,2"]["arrest_chance"] == 0.0
    # 0,3 is next to no Judge: Judge 1 would need L2 (a clean landmark he may not
    # cross) or two hexes, and the street move gives him one.
    assert threat["0,3"] == {"hexes": 1, "judges_move": 1, "arrest_chance": 0.0, "arrest_odds": "0"}
