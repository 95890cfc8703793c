"""``lawmaster selftest``: every sensor's idle voltage against its expected window.

The step of a new board's bring-up after first power (``hardware/BUILD.md``, "First
power"): with every magnet off the board, the scanner reads each channel 32 times
and judges its mean against the window a good DRV5055 idles in
(``bringup.idle_window_counts``, which the host sends it). The command prints one
line per channel (channel, the map's space, idle volts, the expected window,
OK/OUT) and, for each OUT channel, what it usually means. It exits 1 when a
channel is OUT, so a script can stop there.

``--simulated`` runs the scanner's own firmware on the simulated board (live
sensors with their spread and noise); ``--leave SPACE`` leaves a piece standing
there, to see what an OUT channel looks like.
"""

from __future__ import annotations

import time

import click

from lawmaster.hardware.electronics.bringup import idle_window_counts
from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host import games
from lawmaster.host.link import Link, SelfTestReport
from lawmaster.host.sensing.idle import out, table
from lawmaster.host.sim.physics import PhysicalBoard
from lawmaster.host.sim.pico import SimulatedPico

from ._options import GameChoice, with_sensor_map


def run_selftest(sensor_map: SensorMap, port: str, timeout: float) -> SelfTestReport:
    """Connect to the scanner on ``port`` (the board's layout and idle window sent in
    the handshake), ask for a self-test and return its report."""
    link = Link(
        port,
        lambda frame: None,
        expect_channels=sensor_map.channels,
        idle_window=idle_window_counts(sensor_map),
    ).start()
    try:
        if not link.wait_ready(timeout):
            raise click.ClickException(f"no scanner answering on {port}")
        report = link.selftest(timeout)
        if report is None:
            raise click.ClickException(f"the scanner on {port} sent no self-test report")
        return report
    finally:
        link.stop()


def _simulated(
    sensor_map: SensorMap, seed: int, leave: tuple[str, ...], timeout: float
) -> SelfTestReport:
    board = PhysicalBoard(sensor_map, seed=seed, clock=time.monotonic)
    kind = next(iter(sensor_map.kinds))
    for i, space in enumerate(leave):
        if space not in sensor_map.spaces:
            raise click.BadParameter(f"{space!r} is no space of this board", param_hint="--leave")
        board.put(f"left-{i}", kind, space)
    with SimulatedPico(frame=board.frame, channels=sensor_map.channels) as pico:
        return run_selftest(sensor_map, pico.port, timeout)


@click.command("selftest")
@click.option("--game", type=GameChoice(with_sensor_map), default="gw-brott", show_default=True)
@click.option("--board", default="standard", show_default=True, help="The board's sensor map.")
@click.option("--port", help="The scanner's serial port (e.g. /dev/ttyACM0).")
@click.option("--simulated", is_flag=True, help="Test the simulated board instead.")
@click.option("--seed", type=int, default=0, show_default=True, help="Simulated board's seed.")
@click.option(
    "--leave",
    multiple=True,
    metavar="SPACE",
    help="Simulated: leave a piece standing on SPACE (repeatable).",
)
@click.option("--out-only", is_flag=True, help="List only the channels that are OUT.")
@click.option("--timeout", type=float, default=10.0, show_default=True, help="Seconds to wait.")
def command(
    game: str,
    board: str,
    port: str | None,
    simulated: bool,
    seed: int,
    leave: tuple[str, ...],
    out_only: bool,
    timeout: float,
) -> None:
    """Each sensor's idle voltage against its expected window (first power, step 5)."""
    try:
        sensor_map = games.game(game).sensor_map(board)
    except LookupError as exc:
        raise click.BadParameter(str(exc), param_hint="--board") from None
    if simulated:
        report = _simulated(sensor_map, seed, leave, timeout)
    elif port:
        if leave:
            raise click.UsageError("--leave is for the simulated board")
        report = run_selftest(sensor_map, port, timeout)
    else:
        raise click.UsageError("give --port PORT for the real board, or --simulated")
    click.echo(table(report, sensor_map, only_out=out_only))
    if out(report, sensor_map):
        raise click.exceptions.Exit(1)
