"""Random games: the engine's invariants and every seat's secrecy hold after every action."""

from __future__ import annotations

import json

from dredd_random import play_random_game
from hypothesis import example, given, settings
from hypothesis import strategies as st

from lawmaster.host.games import engine_for
from lawmaster.rules.core.replay import replay
from lawmaster.rules.judge_dredd import ENGINE
from lawmaster.rules.judge_dredd.movement import reachable
from lawmaster.rules.judge_dredd.state import hand_limit

ACTION_CARDS = 55


def check_invariants(before: dict, after: dict, action: dict, events: list) -> None:
    cards = after["cards"]
    judges = after["judges"]
    in_combat = len(after["combat"]["cards"]) if after["combat"] else 0
    # Card conservation: every Action card is in the deck, a hand, the discards or in play.
    total = (
        after["action_deck"]
        + sum(j["hand"] for j in judges.values())
        + after["action_discard_count"]
        + in_combat
    )
    assert total == ACTION_CARDS, f"{total} Action cards after {action}"
    assert len(after["sector_deck"]) + len(after["sector_discard"]) == len(
        [c for c, s in cards.sector_cards.items() if s in after["board"].sectors]
    )
    on_board = [p for p in after["perps"].values() if p]
    scored_perps = [c for j in judges.values() for c in j["score"] if c in cards.perps]
    assert after["perp_deck"] + len(on_board) + len(scored_perps) == len(cards.perps)
    crimes_out = sum(len(c) for c in after["crimes"].values())
    scored_crimes = [c for j in judges.values() for c in j["score"] if c in cards.crimes]
    assert after["crime_deck"] + crimes_out + len(scored_crimes) == len(cards.crimes)
    for seat, j in judges.items():
        # Hand sizes never negative, never over the limit, known cards a part of the hand.
        assert 0 <= len(j["known"]) <= j["hand"] <= hand_limit(after, seat)
    # KO'd Judges are hospitalised: a new round starts with everyone standing.
    if any(e["type"] == "round" for e in events):
        assert not any(j["ko"] for j in judges.values())
    for e in events:
        if e["type"] == "hospitalised":
            assert judges[e["judge"]]["sector"] == after["board"].hospital
    # A move ends only where the mover's view said it could.
    if action["act"] == "move":
        assert after["judges"][action["by"]]["sector"] in reachable(before, action["by"])
    # At most one Perp per Sector, never on the Hospital.
    assert after["perps"][after["board"].hospital] is None


def check_one_combat_per_round(state: dict, events: list, fought: dict) -> None:
    for e in events:
        if e["type"] == "round":
            fought.clear()
        if e["type"] == "combat_result" and e["kind"] != "tiebreak":
            for seat in (s for g in e["groups"] for s in g):
                assert seat not in fought, f"{seat} fought twice in one round"
                fought[seat] = True


def secrets_hidden_from(state: dict, seat: str) -> set[str]:
    """Card ids ``seat`` must not find anywhere in its view."""
    hidden: set[str] = set()
    for other, j in state["judges"].items():
        if other != seat:
            hidden |= set(j["known"]) | set(j["score"])
    seen = (state["refill"] or {}).get("ia_seen")
    if seen and seen["by"] == seat:
        hidden -= set(seen["cards"])
    for p in state["perps"].values():
        if p and not p["face_up"] and p["card"]:
            psi = state["specialists"].get(seat) == "psi-judge"
            if not (psi and p["card"] in state["psi_known"]):
                hidden.add(p["card"])
    combat = state["combat"]
    if combat and not combat["revealed"]:
        hidden |= {e["card"] for e in combat["cards"] if not e["face_up"] and e["by"] != seat}
    return hidden


def check_secrecy(state: dict) -> None:
    for seat in [*state["players"], "table"]:
        text = json.dumps(ENGINE.view(state, seat))
        for card in secrets_hidden_from(state, seat):
            assert f'"{card}"' not in text, f"{seat}'s view shows {card}"


# 18425: a Perp tapped for a Sector that already holds one is refused, and the
# game goes on with the Crime placed alone (a CI run once found the player stuck).
@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10**9))
@example(seed=18425)
def test_dredd_random_games_keep_invariants_and_replay(seed):
    fought: dict[str, bool] = {}

    def check(before, after, action, events):
        check_invariants(before, after, action, events)
        check_one_combat_per_round(after, events, fought)

    header, actions, state = play_random_game(seed, max_steps=250, check=check)
    lines = [json.dumps(header)] + [json.dumps(a) for a in actions]
    out = list(replay(lines, engines=engine_for))
    assert all(r.get("ok") for r in out[:-1])
    assert out[-1]["summary"] == json.loads(json.dumps(ENGINE.summary(state)))


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=0, max_value=10**9))
@example(seed=18425)
def test_dredd_random_games_keep_every_seat_secret(seed):
    def check(before, after, action, events):
        check_secrecy(after)

    play_random_game(seed, max_steps=150, check=check)


def test_dredd_some_random_game_reaches_the_end():
    ended = [play_random_game(seed, max_steps=400)[2]["phase"] == "over" for seed in range(6)]
    assert any(ended)
