"""``lawmaster replay``: feed a scenario file to its engine, one JSON line per line."""

from __future__ import annotations

import json
import sys

import click

from lawmaster.rules.core.replay import replay


@click.command("replay")
@click.option("--seat", default=None, help="Print this seat's view instead of the summary.")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
def command(seat: str | None, file: str) -> None:
    """Replay a scenario FILE (JSON Lines, see SCENARIOS.md); '-' reads standard input."""
    try:
        if file == "-":
            lines = sys.stdin.read().splitlines()
        else:
            with open(file, encoding="utf-8") as handle:
                lines = handle.read().splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        click.echo(json.dumps({"ok": False, "error": f"cannot read {file}: {exc}"}))
        sys.exit(2)
    for result in replay(lines, seat=seat):
        click.echo(json.dumps(result, ensure_ascii=False))
