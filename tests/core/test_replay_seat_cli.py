"""``lawmaster replay`` through the real command: a seat's lines, and files that are no scenario."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from lawmaster.host.cli import main
from lawmaster.host.games import engine_for
from lawmaster.rules.core.actions import events_for
from lawmaster.rules.core.replay import NotAScenario, replay

DREDD = Path(__file__).parents[2] / "examples" / "judge-dredd" / "first-round.jsonl"


def _run(*args: str, stdin: str | None = None):
    return CliRunner().invoke(main, ["replay", *args], input=stdin)


def _lines(output: str) -> list[dict]:
    return [json.loads(text) for text in output.splitlines()]


def test_replay_cli_a_seat_reads_each_line_as_it_came_live():
    whole = _lines(_run(str(DREDD)).output)
    hershey = _lines(_run("--seat", "hershey", str(DREDD)).output)
    anderson = _lines(_run("--seat", "anderson", str(DREDD)).output)
    assert len(whole) == len(hershey) == len(anderson)
    for everything, seen in zip(whole[:-1], hershey[:-1], strict=True):
        if everything["ok"]:
            assert seen["events"] == events_for(everything["events"], "hershey")
    text = json.dumps(hershey)
    # Dredd's and Anderson's known hands, and the Perp only Anderson's Psi peek read.
    assert '"hand_known"' not in text and "judge-death" not in text
    assert "judge-death" in json.dumps(anderson) and "judge-death" in json.dumps(whole)
    committed = next(i for i, r in enumerate(whole) if "card_committed" in json.dumps(r))
    assert "fergee-1" not in json.dumps(hershey[: committed + 1])
    assert hershey[-1]["view"]["seat"] == "hershey"


def test_replay_cli_an_unknown_seat_is_an_error_naming_the_seats():
    result = _run("--seat", "judge-death", str(DREDD))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "there is no seat 'judge-death'; the seats are dredd, anderson, hershey, table" in (
        result.stderr
    )


@pytest.mark.parametrize(
    "content, says",
    [
        ("", "nothing to replay"),
        ("\n   \n# only a comment\n", "nothing to replay"),
        ("garbage that is not JSON\n{\n", "its first line does not set a game up: not valid JSON"),
        ('[1, 2]\n{"game": "judge-dredd"}\n', "its first line does not set a game up"),
        ('{"game": "chess"}\n', "unknown game 'chess'"),
        ('{"game": "judge-dredd", "players": ["solo"]}\n', "2 to 6 different seats"),
        ("[" * 5000 + "\n", "nested too deeply"),
    ],
    ids=["empty", "blank", "garbage", "not-an-object", "unknown-game", "bad-setup", "deep"],
)
def test_replay_cli_a_file_that_is_no_scenario_exits_2_with_a_sentence(tmp_path, content, says):
    path = tmp_path / "bad.jsonl"
    path.write_text(content, encoding="utf-8")
    result = _run(str(path))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("lawmaster replay: ") and says in result.stderr
    assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1


def test_replay_cli_unreadable_input_exits_2_with_a_sentence(tmp_path):
    binary = tmp_path / "photo.jpg"
    binary.write_bytes(bytes([0xFF, 0xD8, 0xFF, 0xE0, 0x8A, 0x00]))
    result = _run(str(binary))
    assert result.exit_code == 2 and "it is not UTF-8 text" in result.stderr
    missing = _run(str(tmp_path / "nowhere.jsonl"))
    assert missing.exit_code == 2 and "No such file or directory" in missing.stderr


def test_replay_cli_a_bad_line_after_the_header_is_answered_and_replay_goes_on():
    stdin = DREDD.read_text(encoding="utf-8") + "not json\n"
    result = _run("-", stdin=stdin)
    assert result.exit_code == 0
    out = _lines(result.stdout)
    assert out[-2]["ok"] is False and "not valid JSON" in out[-2]["error"]
    assert "summary" in out[-1]


def test_replay_strict_raises_before_any_line_and_lenient_keeps_its_old_answers():
    with pytest.raises(NotAScenario):
        next(replay([], strict=True, engines=engine_for))
    with pytest.raises(NotAScenario, match="there is no seat 'x'"):
        next(replay(DREDD.read_text(encoding="utf-8").splitlines(), seat="x", engines=engine_for))
    assert list(replay(["# nothing"], engines=engine_for)) == [{"summary": None}]
