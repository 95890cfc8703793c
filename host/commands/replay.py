"""``lawmaster replay``: feed a scenario file to its engine, one JSON line per line."""

from __future__ import annotations

import json
import sys

import click

from lawmaster.host import games
from lawmaster.rules.core.replay import NotAScenario, replay


@click.command("replay")
@click.option(
    "--seat",
    default=None,
    help="Print what this seat received live, line by line, and its view at the end.",
)
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
def command(seat: str | None, file: str) -> None:
    """Replay a scenario FILE (JSON Lines: a header naming the game, then one
    input per line; each game's rules README gives its vocabulary); '-' reads
    standard input. Exits 2, with a sentence, when FILE is not a scenario."""
    name = "standard input" if file == "-" else file
    try:
        if file == "-":
            lines = sys.stdin.read().splitlines()
        else:
            with open(file, encoding="utf-8") as handle:
                lines = handle.read().splitlines()
    except UnicodeDecodeError:
        _fail(f"cannot read {name}: it is not UTF-8 text")
    except OSError as exc:
        _fail(f"cannot read {name}: {exc.strerror or exc}")
    results = replay(lines, seat=seat, engines=games.engine_for, strict=True)
    try:
        # The header (and the seat) are checked before anything is printed.
        first = next(results)
    except NotAScenario as exc:
        _fail(f"{name}: {exc}")
    click.echo(json.dumps(first, ensure_ascii=False))
    for result in results:
        click.echo(json.dumps(result, ensure_ascii=False))


def _fail(sentence: str) -> None:
    click.echo(f"lawmaster replay: {sentence}", err=True)
    sys.exit(2)
