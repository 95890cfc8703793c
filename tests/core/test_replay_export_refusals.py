"""A seat's scenario file and a seat's refusal text, on small known games."""

from __future__ import annotations

import json
from pathlib import Path

from lawmaster.host.games import engine_for
from lawmaster.rules.core import IllegalAction
from lawmaster.rules.core.export import line, scenario_lines
from lawmaster.rules.core.refusals import REFUSED_ELSEWHERE, refusal_for
from lawmaster.rules.core.replay import Game

EXAMPLES = Path(__file__).parents[2] / "examples"


def _played(path: Path):
    lines = [t for t in path.read_text(encoding="utf-8").splitlines() if t and t[0] != "#"]
    header = json.loads(lines[0])
    game, setup = Game.start(header, engine_for)
    start = game.state
    actions, events = [], [setup]
    for text in lines[1:]:
        action = json.loads(text)
        try:
            events.append(game.apply(action))
        except IllegalAction:
            continue  # the examples show refusals too; a refused input is not in the game
        actions.append(action)
    return game.engine, header, actions, events, start


def _export(path: Path, seat: str | None) -> list[str]:
    engine, header, actions, events, start = _played(path)
    view = None if seat is None else engine.view(start, seat)
    return scenario_lines(header, actions, events, seat, view)


def test_export_the_whole_file_is_the_header_and_every_input():
    engine, header, actions, _, _ = _played(EXAMPLES / "gw-brott" / "short-game.jsonl")
    whole = _export(EXAMPLES / "gw-brott" / "short-game.jsonl", None)
    assert whole == [line(header), *(line(a) for a in actions)]


def test_export_gw_reads_no_criminal_move_nor_the_deal():
    path = EXAMPLES / "gw-brott" / "short-game.jsonl"
    _, _, actions, _, _ = _played(path)
    gw, red = _export(path, "gw"), _export(path, "red")
    header = json.loads(gw[0])
    assert "evidence" not in header and "abilities" not in header and header["trumps"]
    assert gw[1] == "# the header's abilities, board, evidence: hidden from gw"
    moves = [i for i, a in enumerate(actions) if a["act"] == "move"]
    assert moves and all(gw[2 + i] == f"# input {i + 1}: hidden from gw" for i in moves)
    # Red saw every criminal's move (the criminals share their side of the board).
    assert all(red[2 + i] == line(actions[i]) for i in moves)
    assert "trumps" not in json.loads(_export(path, "table")[0])


def test_export_a_face_down_perp_stays_out_of_every_seat_file():
    path = EXAMPLES / "judge-dredd" / "first-round.jsonl"
    for seat in ("dredd", "anderson", "hershey", "table"):
        text = "\n".join(_export(path, seat))
        assert "the-mantis-brothers" not in text and "judge-death" not in text
        assert "hands" not in json.loads(text.splitlines()[0])


def test_refusal_the_sender_reads_the_reason_everyone_else_that_it_was_refused():
    dredd = engine_for("judge-dredd")
    commit = {"act": "commit", "by": "a", "card": "fergee-1"}
    assert refusal_for(dredd, commit, "why", "a") == "why"
    assert refusal_for(dredd, commit, "why", "b") == REFUSED_ELSEWHERE
    assert refusal_for(dredd, commit, "why", "table") == REFUSED_ELSEWHERE
    assert refusal_for(dredd, commit, "why", None) == "why"
    # A whole-table input (a card placed, the cards revealed) is everyone's.
    assert refusal_for(dredd, {"act": "reveal"}, "why", "b") == "why"
    assert refusal_for(dredd, "not an action", "why", "b") == "why"
    gw = engine_for("gw-brott")
    trump = {"act": "trump", "card": "helicopter", "to": "B2"}
    assert refusal_for(gw, trump, "why", "gw") == "why"
    assert refusal_for(gw, trump, "why", "red") == REFUSED_ELSEWHERE
