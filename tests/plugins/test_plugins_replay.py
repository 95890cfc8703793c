"""The race refereed by ``lawmaster replay``: a scenario file read by the real command.

The file (``lawmaster_toy/scenarios/race.jsonl``) has legal moves, inputs the
rules refuse with a player's reason, and red's win. Replayed for a seat, every
line is what that seat received: the events (a race hides nothing), the reason
of its own refused inputs, and only that another seat's input was refused.
"""

from __future__ import annotations

import json

import pytest
from plugins_support import RACE, lawmaster

from lawmaster.rules.core.refusals import REFUSED_ELSEWHERE

#: The refused inputs of the file: who sent each, and why it was refused.
REFUSED = [
    ("red", "a piece moves one cell at a time, and a4 is not next to a2"),
    ("blue", "it is red's turn, not blue's"),
    ("red", "b2 is taken by blue's piece"),
    ("blue", "the game is over: red won"),
]
END = {"red": "a4", "blue": "b3"}


def _replay(env: dict[str, str], *args: str) -> list[dict]:
    done = lawmaster("replay", *args, str(RACE), env=env)
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.fixture(scope="module")
def whole(toy_env: dict[str, str]) -> list[dict]:
    """The referee's replay of the race (no seat)."""
    return _replay(toy_env)


def test_plugins_replay_refuses_with_reasons_and_ends_with_the_winner(whole: list[dict]):
    out = whole
    assert out[0] == {
        "ok": True,
        "events": [{"type": "setup", "positions": {"red": "a1", "blue": "b1"}, "first": "red"}],
    }
    verdicts = [line["ok"] for line in out[1:-1]]
    assert verdicts == [True, True, False, False, False, True, True, True, False]
    assert [line["error"] for line in out[1:-1] if not line["ok"]] == [r for _, r in REFUSED]
    assert out[-3]["events"] == [
        {"type": "moved", "by": "red", "from": "a3", "to": "a4"},
        {"type": "won", "winner": "red"},
    ]
    assert out[-1] == {"summary": {"positions": END, "turn": "blue", "moves": 5, "winner": "red"}}


def test_plugins_replay_for_a_seat_tells_it_its_own_reasons(
    toy_env: dict[str, str], whole: list[dict]
):
    for seat in ("red", "blue", "table"):
        out = _replay(toy_env, "--seat", seat)
        assert len(out) == len(whole)
        assert [line.get("events") for line in out[:-1]] == [
            line.get("events") for line in whole[:-1]
        ]
        told = [line["error"] for line in out[1:-1] if not line["ok"]]
        assert told == [reason if by == seat else REFUSED_ELSEWHERE for by, reason in REFUSED]
        view = out[-1]["view"]
        assert view["seat"] == seat and view["winner"] == "red" and view["positions"] == END


def test_plugins_replay_refuses_a_seat_the_game_does_not_have(toy_env: dict[str, str]):
    done = lawmaster("replay", "--seat", "green", str(RACE), env=toy_env, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert "there is no seat 'green'; the seats are red, blue, table" in done.stderr
