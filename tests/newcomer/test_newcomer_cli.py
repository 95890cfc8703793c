"""What a new user meets first: clear sentences, not tracebacks, and nothing left behind."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from lawmaster.host.bench import available_groups
from lawmaster.host.cli import main


def _lawmaster(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "lawmaster.host", *args],
        capture_output=True,
        text=True,
        timeout=240,
        env={**os.environ, **(env or {})},
    )


def test_a_busy_port_is_a_sentence() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = _lawmaster("demo", "--no-board", "--port", str(port), "--pace", "0")
    assert done.returncode != 0
    assert f"port {port} on 127.0.0.1 is already in use" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout


def test_a_port_out_of_range_is_refused() -> None:
    result = CliRunner().invoke(main, ["demo", "--port", "99999"])
    assert result.exit_code == 2
    assert "99999 is not in the range 0<=x<=65535" in result.output


def test_every_command_has_help() -> None:
    top = CliRunner().invoke(main, ["--help"])
    assert top.exit_code == 0, top.output
    names = ["bench", "calibrate", "demo", "enroll", "hardware", "replay", "run"]
    for name in names:
        assert name in top.output
        sub = CliRunner().invoke(main, [name, "--help"])
        assert sub.exit_code == 0, (name, sub.output)


def test_bench_help_lists_the_groups() -> None:
    result = CliRunner().invoke(main, ["bench", "--help"])
    assert result.exit_code == 0
    groups = available_groups()
    assert {"gw", "sensing", "table"} <= set(groups)
    assert f"Groups: {', '.join(groups)}." in result.output


def test_calibrate_takes_the_same_game_slug_as_every_command() -> None:
    result = CliRunner().invoke(main, ["calibrate", "--help"])
    assert "gw-brott" in result.output and "gw_brott" not in result.output
    wrong = CliRunner().invoke(main, ["calibrate", "--game", "gw_brott", "--simulated"])
    assert wrong.exit_code == 2


def test_the_demo_leaves_no_temporary_journal_behind(tmp_path: Path) -> None:
    done = _lawmaster(
        "demo", "--no-web", "--no-board", "--exit-when-over", "--pace", "0",
        env={"TMPDIR": str(tmp_path)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert '"over": true' in done.stdout
    assert list(tmp_path.iterdir()) == []
