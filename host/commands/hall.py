"""``lawmaster hall``: the hall screen for a club night, from any machine that reaches the broker.

It subscribes to every table's retained state, health and result
(``lawmaster/+/...``, see ``docs/HALL.md``) and serves one page: a tile per table,
the evening's results and wins, live. Ctrl-C or SIGTERM stops it.
"""

from __future__ import annotations

import threading

import click

from lawmaster.host.commands._service import serve_until, stop_on_sigterm
from lawmaster.host.config import ConfigError, mqtt_from
from lawmaster.host.hall import Hall, Listener, create_app
from lawmaster.host.web import ServeError, make_server
from lawmaster.host.web.i18n import LANGUAGES


@click.command("hall")
@click.option(
    "--mqtt",
    "mqtt_spec",
    required=True,
    metavar="BROKER",
    help="The broker as host:port, or a TOML file with an [mqtt] section (login, TLS).",
)
@click.option(
    "--port",
    default=8090,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="Web port (0: any free port).",
)
@click.option("--bind", default="0.0.0.0", show_default=True, help="Web address to bind.")
@click.option(
    "--language",
    type=click.Choice(LANGUAGES),
    default=None,
    help="The page's language (default: the browser's; ?lang= in the address overrides).",
)
def command(mqtt_spec: str, port: int, bind: str, language: str | None) -> None:
    """Show every table's public game on one screen, live from the MQTT broker."""
    try:
        config = mqtt_from(mqtt_spec, table_named=False)
    except ConfigError as exc:
        raise click.BadParameter(str(exc), param_hint="--mqtt") from None
    hall = Hall()
    try:
        listener = Listener(hall, config).start()
    except (OSError, ValueError) as exc:
        raise click.ClickException(f"cannot use the broker {config.host}: {exc}") from None
    app = create_app(hall, language=language)
    stop = stop_on_sigterm()  # before anything serves: a stop is always a clean one
    try:
        server = make_server(app, bind, port)
    except ServeError as exc:
        listener.close()
        raise click.ClickException(str(exc)) from None
    thread = threading.Thread(target=server.run, name="waitress", daemon=True)
    thread.start()
    shown = "127.0.0.1" if bind in ("0.0.0.0", "") else bind
    click.echo(f"hall: http://{shown}:{server.effective_port}/")
    click.echo(f"listening to {config.host}:{config.port} ({config.prefix}/+/...)")
    try:
        serve_until(stop)
    finally:
        server.close()
        thread.join(timeout=5)
        listener.close()
