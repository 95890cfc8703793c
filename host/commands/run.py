"""``lawmaster run --config table.toml``: referee a real table.

The same stack as ``lawmaster demo`` wired from the real hardware factory,
``Hardware.real(config)``: the scanner's serial port, the PN532 readers and the
GPIO pins named in the configuration (see ``deploy/table.toml``), and with an
``[mqtt]`` section the public game published for the hall (``docs/HALL.md``).
Serves the dashboard through waitress until stopped (SIGTERM or Ctrl-C).
"""

from __future__ import annotations

import sys

import click

from lawmaster.host.commands._service import serve_until, stop_on_sigterm
from lawmaster.host.config import ConfigError, TableConfig, load
from lawmaster.host.devices import Hardware
from lawmaster.host.journal import Journal
from lawmaster.host.runtime import Runtime, open_host, start_web, write_links
from lawmaster.host.stack import TableStages, publish
from lawmaster.host.web import ServeError
from lawmaster.rules.core import IllegalAction


@click.command("run")
@click.option(
    "--config",
    "config_path",
    required=True,
    type=click.Path(dir_okay=False),
    help="The table's TOML configuration.",
)
@click.option(
    "--public-url",
    default=None,
    help="The address tablets reach this table by, for the QR codes"
    " (overrides [web] public_url), e.g. http://lawmaster.local:8080.",
)
def command(config_path: str, public_url: str | None) -> None:
    """Referee the table described by the configuration file."""
    try:
        config = load(config_path)
    except ConfigError as exc:
        raise click.ClickException(str(exc)) from None
    if not config.game and not _has_open_game(config):
        raise click.ClickException(
            "the journal holds no game and [game] in the configuration is empty"
        )
    try:
        host = open_host(config.journal, config.settings(), config.game)
    except IllegalAction as exc:
        raise click.ClickException(f"the game in [game] cannot be set up: {exc.reason}") from None
    runtime = Runtime(host)
    stop = stop_on_sigterm()  # before anything serves: a stop is always a clean one
    try:
        start(runtime, config)
        public = config.web.public_url if public_url is None else public_url
        try:
            runtime.web = start_web(runtime.host, config.web.host, config.web.port, public)
        except ServeError as exc:
            raise click.ClickException(str(exc)) from None
        base = public.rstrip("/") or runtime.web.url
        click.echo(f"table screen: {base}/")
        _say_links(config.journal, runtime)
        for line in runtime.missing:
            click.echo(f"not wired: {line}")
        serve_until(stop)
    finally:
        runtime.close()


def _say_links(journal: str, runtime: Runtime) -> None:
    """The host console's and the table screen's links: in a file only this user reads.

    Standard output is the system log under systemd (``journalctl``), which others
    on the Pi may read; so the links themselves are printed only to a terminal a
    person sits at (the Pi's own screen, or an operator's own session).
    """
    assert runtime.web is not None
    path = write_links(journal, runtime.web)
    click.echo(f"host console and table screen links: in {path} (readable by this user only)")
    if sys.stdout.isatty():
        click.echo(f"host console (keep it to yourself): {runtime.web.host_url}")
        click.echo(f"table screen with the seats' codes: {runtime.web.screen_url}")


def start(runtime: Runtime, config: TableConfig) -> TableStages:
    """The devices ``config`` names, wired to the referee, and the broker it publishes its
    public game to (``[mqtt]``); what cannot start is said in ``runtime.missing``."""
    if not runtime.table.settings.get("board", False) and config.board:
        runtime.missing.append("board: the resumed game was set up without one")
    stages = TableStages(runtime, Hardware.real(config)).start()
    if config.mqtt is not None:
        publish(runtime, config.mqtt)
    return stages


def _has_open_game(config: TableConfig) -> bool:
    journal = Journal(config.journal)
    try:
        if journal.damage is not None:
            # Said before the refusal below: what the damaged journal lost, in words.
            click.echo("\n".join(journal.damage.lines()), err=True)
        return journal.open_game() is not None
    finally:
        journal.close()
