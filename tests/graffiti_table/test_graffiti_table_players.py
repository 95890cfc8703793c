"""The demo's simulated Graffiti players at a real table: every input they make is taken,
games end, the same seed plays the same game, and each physical move they give the
simulated hands ends where the engine then has the piece."""

from __future__ import annotations

import pytest
from graffiti_table_support import graffiti_table, sources

from lawmaster.host.games.unamerican_graffiti.players import GraffitiPlayers
from lawmaster.host.runtime import tablet_act

LIMIT = 1500  # inputs; the seeds below end far sooner


def _play(table, seed):
    players = GraffitiPlayers(table, seed)
    decisions = []
    while len(decisions) < LIMIT:
        decision = players.decide()
        if decision is None:
            break
        tablet_act(table, decision)  # raises if the table refuses the input
        decisions.append(decision)
        for event in table.events_since(len(table.actions) - 1):
            if event["type"] == "arrested":
                # The opponent's Judges arrest the scrawler they chase, never their own.
                assert event["player"] != decision.seat
                assert decision.notes == {"take_off": event["player"]}
        summary = table.engine.summary(table.state)
        if decision.move is not None:
            piece, _, to, _ = decision.move
            if piece.startswith("judge-"):
                assert summary["judges"][piece[6:]] == to
            elif not summary["scrawlers"][piece]["arrested"]:
                assert summary["scrawlers"][piece]["position"] == to
    return decisions


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_graffiti_table_players_play_whole_games(tmp_path, seed):
    table = graffiti_table(tmp_path, dredd_roll=seed % 6 + 1)
    decisions = _play(table, seed)
    assert table.is_over(), f"not over after {len(decisions)} inputs"
    assert GraffitiPlayers(table, seed).decide() is None
    kinds = {e["type"] for e in table.events_since(0)}
    assert {"scrawled", "rolled", "judge_moved", "game_over"} <= kinds
    moves = [d.action for d in decisions if d.action["act"] == "move"]
    # They scrawl, and mostly they go somewhere rather than standing still.
    assert sum(1 for m in moves if m["path"]) > len(moves) / 2


def test_graffiti_table_players_same_seed_same_game(tmp_path):
    first = graffiti_table(tmp_path / "a", dredd_roll=4)
    second = graffiti_table(tmp_path / "b", dredd_roll=4)
    _play(first, 7)
    _play(second, 7)
    assert first.actions == second.actions


def test_graffiti_table_players_judges_arrest_when_they_can(tmp_path):
    table = graffiti_table(tmp_path)
    tablet_act(table, _decision("chopper", {"act": "move", "by": "chopper", "to": "1,2"}))
    tablet_act(table, _decision("phantom", {"act": "roll", "by": "phantom", "faces": [4, 1]}))
    decision = GraffitiPlayers(table, 0).decide()
    assert decision.action == {"act": "judge_move", "by": "phantom", "judge": 1, "path": ["1,2"]}
    assert decision.move == ("judge-1", "sector-house-1", "1,2", ())
    assert decision.notes == {"take_off": "chopper"}


def test_graffiti_table_players_scrawler_prefers_a_safe_scrawl(tmp_path):
    table = graffiti_table(tmp_path)
    view = table.engine.view(table.state, "chopper")
    decision = GraffitiPlayers(table, 0).decide()
    end = decision.action["path"][-1]
    board = table.state.board
    safe_scrawls = [
        h
        for h, info in view["threat"].items()
        if board.hex(h).is_location and h not in view["scrawls"] and info["arrest_chance"] < 0.1
    ]
    assert safe_scrawls  # block-9, next to Power Tower, is out of every Judge's reach
    assert end in safe_scrawls


def _decision(seat, action):
    from lawmaster.host.plugin import Intent as Decision

    return Decision(seat, action)


@pytest.mark.parametrize("seed", [1, 5])
def test_graffiti_table_players_whole_game_read_from_board_observations(tmp_path, seed):
    """Every pawn and Judge move reaches the referee as the tracker reports a lifted piece."""
    from lawmaster.host.tracker import Moved

    table = graffiti_table(tmp_path, {"board": True}, dredd_roll=seed)
    players = GraffitiPlayers(table, seed)
    from_board = 0
    while not table.is_over():
        decision = players.decide()
        before = len(table.actions)
        if decision.move is not None and decision.action["act"] in ("move", "judge_move"):
            piece, start, to, _ = decision.move
            table.referee.observation(Moved(piece, start, to, (to,), "lifted"))
            from_board += 1
        else:
            tablet_act(table, decision)
        assert len(table.actions) == before + 1, table.status
        assert table.status.state in ("ok", "over")
    assert from_board > 20
    assert sources(table).count("board") == from_board
