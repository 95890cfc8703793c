"""``lawmaster replay`` on the shipped GW:s brott examples, through the real CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from gwtest_support import check_scenario

from lawmaster.host.cli import main

EXAMPLES = sorted((Path(__file__).parents[2] / "examples" / "gw-brott").glob("*.jsonl"))


def test_the_examples_include_a_whole_game():
    assert any(p.name == "short-game.jsonl" for p in EXAMPLES)


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_replays_through_the_cli_to_its_expected_end(path: Path):
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert lines[0]["ok"] is True
    expected = check_scenario(path)
    assert lines == expected
    assert lines[-1]["summary"]["winner"] is not None or path.stem == "trumps"


def _last_view(path: Path, seat: str) -> dict:
    output = CliRunner().invoke(main, ["replay", "--seat", seat, str(path)]).output
    return json.loads(output.splitlines()[-1])["view"]


def test_replay_seat_prints_that_seats_view_and_nothing_secret(tmp_path: Path):
    path = next(p for p in EXAMPLES if p.name == "short-game.jsonl")
    # The game cut before red's winning card: still in play, so still secret.
    lines = path.read_text().splitlines()
    last = max(
        i for i, line in enumerate(lines) if line.startswith("{") and '"card": "white-1"' in line
    )
    playing = tmp_path / "playing.jsonl"
    playing.write_text("\n".join(lines[:last]) + "\n")
    gw, red = _last_view(playing, "gw"), _last_view(playing, "red")
    assert gw["seat"] == "gw" and "deduction" in gw and gw["winner"] is None
    assert "position" not in gw["criminals"]["green"] and "trails" not in gw
    assert red["criminals"]["green"]["position"] == "E3"
    assert "white-2" not in json.dumps({k: v for k, v in red.items() if k != "board"})
    # Once red has won, the end shows GW where the criminals went; hands stay hands.
    gw, red = _last_view(path, "gw"), _last_view(path, "red")
    assert gw["criminals"]["green"]["position"] == "E3"
    assert gw["trails"]["green"][-1] == "E3"
    assert "white-2" not in json.dumps({k: v for k, v in red.items() if k != "board"})


def test_replay_of_an_unknown_seat_is_refused_with_a_reason():
    path = next(p for p in EXAMPLES if p.name == "short-game.jsonl")
    result = CliRunner().invoke(main, ["replay", "--seat", "purple", str(path)])
    assert result.exit_code == 2
    assert "there is no seat 'purple'; the seats are gw, red, green, table" in result.output
    assert "Traceback" not in result.output
