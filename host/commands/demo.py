"""``lawmaster demo``: a whole refereed game on the simulated board, in the browser.

Firmware code → pty → link → sensing → tracker → referee → journal → web, with
simulated players at human pace: ``lawmaster run``'s stack wired from the
simulated hardware factory. Open the printed URL; Ctrl-C stops it.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sys
import tempfile
import threading
from typing import Any

import click

from lawmaster.host.config import ConfigError, MqttConfig, mqtt_from
from lawmaster.host.runtime import (
    Autoplay,
    Runtime,
    demo_games,
    demo_header,
    open_host,
    start_web,
)
from lawmaster.host.sim.hardware import SimulatedHardware
from lawmaster.host.sim.people import SimulatedPeople
from lawmaster.host.stack import TableStages, publish
from lawmaster.host.web import ServeError

from ._options import GameChoice


@click.command("demo")
@click.option(
    "--game",
    type=GameChoice(demo_games),
    default="gw-brott",
    show_default=True,
    help="The game to watch.",
)
@click.option(
    "--port",
    default=8080,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="Web port (0: any free port).",
)
@click.option("--bind", default="127.0.0.1", show_default=True, help="Web address to bind.")
@click.option(
    "--seed", default=1, show_default=True, help="Seed of the simulated players and dice."
)
@click.option(
    "--pace",
    default=3.0,
    show_default=True,
    help="Seconds between inputs (0: as fast as possible).",
)
@click.option("--journal", default=None, help="Journal file (default: a new temporary file).")
@click.option(
    "--public-url",
    default="",
    help="The address tablets reach the demo by, for the QR codes (e.g. http://192.168.1.20:8080).",
)
@click.option("--board/--no-board", default=True, show_default=True, help="Simulate the board.")
@click.option("--web/--no-web", default=True, show_default=True, help="Serve the dashboard.")
@click.option("--exit-when-over", is_flag=True, help="Stop when the game ends (for scripts).")
@click.option(
    "--print-accepted", is_flag=True, help="Print 'accepted SEQ' after each journal commit."
)
@click.option(
    "--mqtt",
    "mqtt_spec",
    default=None,
    metavar="BROKER",
    help="Publish the public game for `lawmaster hall`: the broker as host:port, or a"
    " TOML file with an [mqtt] section (login, TLS; docs/HALL.md).",
)
@click.option(
    "--table-name",
    default="",
    help="This table's name on the broker (lawmaster/NAME/...); default: the file's, or demo.",
)
def command(game: str, journal: str | None, **options: Any) -> None:
    """Watch a refereed game played by simulated players on the simulated board."""
    if journal is not None:
        _demo(game=game, journal=journal, **options)
        return
    # A throwaway journal for this run only; removed on the way out.
    scratch = tempfile.mkdtemp(prefix="lawmaster-demo-")
    try:
        _demo(game=game, journal=os.path.join(scratch, "journal.db"), **options)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _demo(
    *,
    game: str,
    port: int,
    bind: str,
    seed: int,
    pace: float,
    journal: str,
    public_url: str,
    board: bool,
    web: bool,
    exit_when_over: bool,
    print_accepted: bool,
    mqtt_spec: str | None,
    table_name: str,
) -> None:
    try:
        mqtt = None if mqtt_spec is None else _broker(mqtt_spec, table_name)
    except ConfigError as exc:
        raise click.BadParameter(str(exc), param_hint="--mqtt") from None
    settings = {"digital_dice": False, "seed": seed, "board": board}
    click.echo("starting the simulated table (the first start calibrates the board)...")
    host = open_host(journal, settings, demo_header(game, seed))
    runtime = Runtime(host)
    done = threading.Event()
    # From the start: a SIGTERM while the table still starts stops it cleanly too.
    signal.signal(signal.SIGTERM, lambda *_: done.set())

    def echo_accepted(seq: int, action: dict[str, Any]) -> None:
        # Printed only after the journal commit: a crash test compares these with the file.
        sys.stdout.write(f"accepted {seq}\n")
        sys.stdout.flush()

    if web:
        # Served first, so the calibration and enrollment pages show the start-up.
        try:
            runtime.web = start_web(host, bind, port, public_url)
        except ServeError as exc:
            runtime.close()
            raise click.ClickException(str(exc)) from None
        _print_urls(runtime, public_url)
    if not board:
        runtime.missing.append("board (--no-board): moves are entered on the tablets")
    # The same wiring as `lawmaster run`, from the simulated factory; rebuilt for
    # each new game set up from the web's setup page.
    hardware = SimulatedHardware(seed, board=board)
    people = SimulatedPeople(TableStages(runtime, hardware).start(), hardware)
    if mqtt is not None:
        publish(runtime, mqtt)
        click.echo(f"publishing to {mqtt.host}:{mqtt.port} as {mqtt.prefix}/{mqtt.table}/")
    if print_accepted:
        host.table.referee.on_accepted.append(echo_accepted)  # type: ignore[union-attr]
        host.on_new_table.append(lambda table: table.referee.on_accepted.append(echo_accepted))
    click.echo(f"journal: {journal}")
    for line in runtime.missing:
        click.echo(f"not wired: {line}")

    def over(table: Any) -> None:
        click.echo(json.dumps({"over": True, "summary": table.engine.summary(table.state)}))
        if exit_when_over:
            done.set()

    # With the dashboard up, a game set up on its setup page is played in turn.
    autoplay = Autoplay(host, people.act, seed=seed, pace=pace, on_over=over, follow_new_games=web)
    autoplay.start()
    try:
        while not done.wait(0.2):
            if autoplay.error is not None:
                raise click.ClickException(f"the simulated players stopped: {autoplay.error}")
            if not autoplay.is_alive() and not web:
                break
    except KeyboardInterrupt:
        pass
    finally:
        autoplay.stop()
        runtime.close()


def _broker(spec: str, table_name: str) -> MqttConfig:
    """``--mqtt`` and ``--table-name`` as a broker configuration (the demo's name: demo)."""
    config = mqtt_from(spec, table_name, table_named=False)
    if not config.table:
        config = mqtt_from(spec, "demo")
    return config


def _print_urls(runtime: Runtime, public_url: str = "") -> None:
    assert runtime.web is not None
    table = runtime.table
    base = public_url.rstrip("/") or runtime.web.url
    click.echo(f"table screen: {base}/")
    # The demo's terminal is the machine's own screen: its links may be shown here
    # (``lawmaster run`` writes them to a file only its user reads instead).
    click.echo(f"table screen with the seats' codes: {runtime.web.screen_url}")
    click.echo(f"host console (keep it to yourself): {runtime.web.host_url}")
    for seat in table.seats():
        click.echo(f"seat {seat}: {base}/join/{table.token(seat)}")
