"""The scenario envelope: bad lines get answers, never tracebacks."""

from __future__ import annotations

from lawmaster.host.games import engine_for
from lawmaster.rules.core.replay import replay


def test_blank_and_comment_lines_are_skipped_and_no_header_gives_empty_summary():
    out = list(replay(["", "# a comment", "   "], engines=engine_for))
    assert out == [{"summary": None}]


def test_unknown_game_is_rejected_with_a_reason():
    out = list(replay(['{"game": "chess"}'], engines=engine_for))
    assert out[0]["ok"] is False
    assert "unknown game" in out[0]["error"]


def test_invalid_json_is_rejected_and_replay_goes_on():
    out = list(replay(["{not json", '{"game": 3}'], engines=engine_for))
    assert out[0]["ok"] is False and "not valid JSON" in out[0]["error"]
    assert out[1]["ok"] is False


def test_header_must_be_an_object():
    out = list(replay(["[1, 2]"], engines=engine_for))
    assert out[0] == {"ok": False, "error": "the first line must be a JSON object naming the game"}
