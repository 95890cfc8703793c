"""``lawmaster run --config table.toml``: referee a real table.

The same stack as ``lawmaster demo`` with the real factories: the scanner's
serial port, the PN532 readers and the GPIO pins named in the configuration
(see ``deploy/table.toml``). Serves the dashboard through waitress until
stopped (SIGTERM or Ctrl-C).
"""

from __future__ import annotations

import signal
import threading
from dataclasses import replace
from typing import Any

import click

from lawmaster.host.config import ConfigError, PanelConfig, TableConfig, load
from lawmaster.host.runtime import Runtime, open_host, start_web
from lawmaster.host.web import ServeError


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
    runtime = Runtime(open_host(config.journal, config.settings(), config.game))
    if not runtime.table.settings.get("board", False) and config.board:
        runtime.missing.append("board: the resumed game was set up without one")
    try:
        wire_real(runtime, config)
        public = config.web.public_url if public_url is None else public_url
        try:
            runtime.web = start_web(runtime.host, config.web.host, config.web.port, public)
        except ServeError as exc:
            raise click.ClickException(str(exc)) from None
        base = public.rstrip("/") or runtime.web.url
        click.echo(f"table screen: {base}/")
        click.echo(f"host console (keep it to yourself): {runtime.web.host_url}")
        for line in runtime.missing:
            click.echo(f"not wired: {line}")
        stop = threading.Event()
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
        try:
            while not stop.wait(0.5):
                pass
        except KeyboardInterrupt:
            pass
    finally:
        runtime.close()


def wire_real(runtime: Runtime, config: TableConfig) -> None:
    """The real stages named by ``config``; what cannot start is said in ``runtime.missing``."""
    from lawmaster.host import stack

    if config.board:
        track_calibration(runtime, config.calibration, config.board_map)
        runtime.host.on_new_table.append(
            lambda _table: track_calibration(runtime, config.calibration, config.board_map)
        )
        try:
            feed = stack.wire_real_board(runtime, config)
            if not feed.link.wait_ready(5):  # type: ignore[attr-defined]
                runtime.missing.append(
                    f"the scanner on {config.scanner.port} has not answered yet"
                    " (the link keeps trying)"
                )
        except (OSError, ValueError) as exc:
            runtime.missing.append(f"board ({exc}); moves are entered on the tablets")
    if config.nfc:
        from lawmaster.host.nfc.registry import CardRegistry

        try:
            registry = CardRegistry(config.cards)
            runtime.closers.append(registry.close)
            stack.wire_nfc(runtime, config.nfc, registry)
        except (OSError, ValueError) as exc:
            runtime.missing.append(f"NFC readers ({exc})")
        else:
            track_enrollment(runtime, registry)
            # A new game of another kind (from the setup page) has other cards to enrol.
            runtime.host.on_new_table.append(lambda _table: track_enrollment(runtime, registry))
    try:
        wire_panel(runtime, config.panel)
    except Exception as exc:  # noqa: BLE001 - gpiozero raises its own zoo without pins
        runtime.missing.append(f"panel ({type(exc).__name__}: {exc})")


def track_calibration(runtime: Runtime, path: str, map_path: str = "") -> None:
    """The calibration page says what the board's calibration file holds (or lacks).

    ``map_path``: the configuration's ``[board] map``, if the board is not the shipped one.
    """
    from lawmaster.host.progress import CalibrationProgress

    try:
        sensor_map = runtime.table.plugin.sensor_map(file=map_path or None)
    except (OSError, ValueError, LookupError):
        runtime.host.calibration = None  # no sensor map: the board is reported missing
        return
    runtime.host.calibration = CalibrationProgress.from_file(sensor_map, path)


def track_enrollment(runtime: Runtime, registry: Any) -> None:
    """The enrollment page counts the game's cards the registry knows (live: it is SQLite)."""
    from lawmaster.host.nfc.cards import NoCardList, card_list
    from lawmaster.host.progress import DeckProgress

    try:
        cards = card_list(runtime.table.game)
    except NoCardList:
        runtime.host.enrollment = None  # a game without cards has nothing to enrol
        return
    runtime.host.enrollment = DeckProgress(registry, runtime.table.game, cards)


def wire_panel(runtime: Runtime, panel: PanelConfig) -> Any:
    """The panel on the configured pins, with the LED's polarity (common anode or cathode)."""
    from lawmaster.host import stack
    from lawmaster.host.panel import PanelPins, panel_pin_factory

    pins = replace(PanelPins.from_config(panel), led_active_high=panel.led_active_high)
    return stack.wire_panel(runtime, pins, panel_pin_factory(False, panel.pin_factory))


def _has_open_game(config: TableConfig) -> bool:
    from lawmaster.host.journal import Journal

    journal = Journal(config.journal)
    try:
        return journal.open_game() is not None
    finally:
        journal.close()
