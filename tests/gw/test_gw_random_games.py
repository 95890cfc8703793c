"""Random legal games (decisions and dice drawn by hypothesis) keep every invariant.

After every action: apply left its input alone; handcuffs and evidence are
conserved; no piece stands on a house, the jail, GW or another piece; there is a
winner exactly when the rules say; GW's and the table's views hold no criminal
position GW has not earned, and no criminal sees another's cards. At the end the
log replays to the same state and summary, and GW's deduction map is what the events GW saw
give, fed one by one to a fresh :class:`Deduction`.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any, TypeVar

from gwtest_support import standard_header, tiny_header, two_player_header
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from lawmaster.host.bench.gw import play
from lawmaster.host.games import engine_for
from lawmaster.rules.core import Outcome, events_for, visible_to
from lawmaster.rules.core.replay import Game, replay
from lawmaster.rules.gw_brott import ENGINE
from lawmaster.rules.gw_brott.deduction import Deduction
from lawmaster.rules.gw_brott.state import JAIL, State

T = TypeVar("T")

HEADERS = [
    tiny_header(),
    tiny_header(options={"gw_steps": "exactly", "caught_resetter": "continues"}),
    tiny_header(options={"special_move_catches": False}),
    two_player_header(),
    standard_header(4),
    standard_header(3),
]

CELL_TOKEN = re.compile(r'"([A-Z][0-9]{1,2})"')


class HypothesisChooser:
    """Every decision of the random player drawn by hypothesis."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data

    def pick(self, options: Sequence[T]) -> T:
        return options[self.data.draw(st.integers(0, len(options) - 1))]

    def integer(self, low: int, high: int) -> int:
        return self.data.draw(st.integers(low, high))


def _snapshot(state: State) -> str:
    return json.dumps([ENGINE.summary(state), ENGINE.view(state, "gw")], sort_keys=True)


class Referee:
    """Checks every step of a game."""

    def __init__(self, header: dict[str, Any]) -> None:
        outcome = ENGINE.new_game(header)
        self.header = header
        self.start = outcome.state
        self.cuffs = outcome.state.handcuffs_left
        self.dealt = Counter(c for cards in outcome.state.dealt for c in cards)
        self.known: set[str] = set()  # cells GW has been shown a criminal on
        self.snapshot = ""
        self.check_state(outcome.state)

    def step(self, before: State, action: dict[str, Any], outcome: Outcome) -> None:
        # The snapshot was taken when ``before`` became the current state.
        assert _snapshot(before) == self.snapshot, "apply changed its input state"
        after = outcome.state
        for event in outcome.events:
            self._check_event(event)
        self.check_state(after)

    def _check_event(self, event: dict[str, Any]) -> None:
        if visible_to(event, "table"):
            assert event["type"] not in {"criminal_position", "informed", "infiltrated", "dealt"}
        if visible_to(event, "gw"):
            assert event["type"] not in {"criminal_position", "dealt"}
            if event["type"] == "informed" and event["cell"]:
                self.known.add(event["cell"])
            if event["type"] == "infiltrated":
                self.known.update(event["seen"].values())

    def check_state(self, state: State) -> None:
        summary = ENGINE.summary(state)
        crims = summary["criminals"]
        # Handcuffs and evidence are conserved.
        given_out = sum(c["handcuffs"] for c in crims.values())
        assert summary["handcuffs_left"] + given_out == self.cuffs
        assert summary["handcuffs_left"] >= 0
        held = Counter(c for info in crims.values() for c in info["evidence_held"])
        assert held + Counter(summary["evidence_handed_in"]) == self.dealt
        # Nobody on a house, the jail, GW or another piece.
        board = state.board
        cells = [info["position"] for info in crims.values() if info["position"] != "jail"]
        assert len(cells) == len(set(cells))
        for name in cells:
            cell = board.cell(name)
            assert not board.is_blocked(cell)
            assert cell != state.gw_pos
        for info in crims.values():
            if info["out"]:
                assert info["position"] == "jail" and info["evidence_held"] == []
                assert info["handcuffs"] >= 3
        # A winner exactly when the rules say.
        winner = summary["winner"]
        if state.two_player:
            # A piece that goes out hands its cards to GW, not in: then all ten can
            # no longer be destroyed, and an empty hand is no win.
            criminals_won = not held and not any(info["out"] for info in crims.values())
            criminal = state.pieces[0]
        else:
            done = [p for p, info in crims.items() if not info["evidence_held"] and not info["out"]]
            assert len(done) <= 1
            criminals_won = bool(done)
            criminal = done[0] if done else None
        if summary["handcuffs_left"] == 0:
            assert winner == "gw" and not criminals_won
        elif criminals_won:
            assert winner == criminal
        else:
            assert winner is None
        assert (ENGINE.to_act(state) == []) == (winner is not None)
        self._check_secrecy(state)
        self.snapshot = _snapshot(state)

    def _check_secrecy(self, state: State) -> None:
        board = state.board
        gw_view = ENGINE.view(state, "gw")
        for seat, view in (("gw", gw_view), ("table", ENGINE.view(state, "table"))):
            if state.winner is not None:
                # The end reveals where every criminal went, to every seat: the trail
                # ends where the piece stands.
                for i, piece in enumerate(state.pieces):
                    where = view["criminals"][piece]["position"]
                    assert view["trails"][piece][-1] == where
                    assert where == (
                        "jail" if state.positions[i] == JAIL else board.name_of(state.positions[i])
                    )
                continue
            assert "trails" not in view
            shown = {k: v for k, v in view.items() if k not in ("board", "deduction")}
            text = json.dumps(shown)
            allowed = {board.name_of(state.gw_pos)} | (self.known if seat == "gw" else set())
            allowed |= {e["cell"] for e in view["evidence_handed_in"]}
            for pos in state.positions:
                if pos != JAIL:
                    name = board.name_of(pos)
                    if name not in allowed:
                        assert f'"{name}"' not in text, f"{seat} view shows {name}"
            assert set(CELL_TOKEN.findall(text)) <= allowed
        for i, piece in enumerate(state.pieces):
            view = ENGINE.view(state, piece)
            text = json.dumps({k: v for k, v in view.items() if k != "board"})
            mine = set(range(len(state.pieces))) if state.two_player else {i}
            for j, cards in enumerate(state.held):
                if j not in mine:
                    for card in cards:
                        assert f'"{card}"' not in text, f"{piece} sees {card}"


def _check_end(header: dict[str, Any], state: State, actions: list[dict[str, Any]], events: list):
    lines = [json.dumps(header)] + [json.dumps(a) for a in actions]
    out = list(replay(lines, engines=engine_for))
    assert all(o.get("ok") for o in out[:-1])
    assert out[-1]["summary"] == ENGINE.summary(state)
    game, _ = Game.start(header, engine_for)
    for action in actions:
        game.apply(action)
    assert game.state == state
    deduction = Deduction.start(state.board, state.pieces)
    for event in events_for(events, "gw"):
        deduction = deduction.update(event)
    view = ENGINE.view(state, "gw")
    assert view["deduction"] == {p: sorted(deduction.cells(p)) for p in state.pieces}


# Shrinking a failing game of 150 actions can take minutes; the unshrunk example
# (every draw) is printed and replays exactly, which is enough to debug it.
@settings(
    max_examples=30,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data(), which=st.integers(0, len(HEADERS) - 1))
def test_random_legal_games_keep_the_invariants(data: st.DataObject, which: int):
    header = HEADERS[which]
    referee = Referee(header)
    state, actions, events = play(header, HypothesisChooser(data), 150, referee.step)
    _check_end(header, state, actions, events)


def test_a_long_seeded_game_per_header_ends_or_goes_on_legally():
    from lawmaster.host.bench.gw import RandomChooser

    winners = set()
    for index, header in enumerate(HEADERS):
        referee = Referee(header)
        state, actions, events = play(header, RandomChooser(index), 600, referee.step)
        _check_end(header, state, actions, events)
        winners.add(state.winner)
    # The generated games reach both kinds of ending.
    assert "gw" in winners and winners - {"gw", None}
