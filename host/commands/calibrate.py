"""``lawmaster calibrate``: measure every hall sensor of a board, guiding a person through it.

Steps: (0) through a scanner, its self-test first: every sensor's idle voltage
against its window (``lawmaster selftest`` prints the whole table), so a sensor
missing or a magnet left lying about shows before it spoils a baseline; (1) take
every magnet off the board; (2) for each kind of magnet the game
uses (GW:s brott: a criminal's piece, then GW's pair), put one on each spot asked,
hold it until the next prompt, and take it off. Progress reads like
"criminal: 12 of 122 spots". The result is saved as JSON (format in
``hardware/CALIBRATION.md``).

``--simulated`` runs the same flow on the simulated board, a simulated person
doing what each prompt asks: a demonstration, and what the tests run.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from pathlib import Path

import click

from lawmaster.hardware.electronics.bringup import idle_window_counts
from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host import games
from lawmaster.host.link import Link
from lawmaster.host.sensing import Calibration, Calibrator, Prompt
from lawmaster.host.sensing.idle import out, table
from lawmaster.host.sim.physics import PhysicalBoard, SimClock
from lawmaster.host.sim.rig import simulated_person_calibration

from ._options import GameChoice, with_sensor_map


def _printer(sensor_map: SensorMap, quiet: bool) -> Callable[[Prompt], None]:
    last_kind: list[str | None] = [None]

    def show(prompt: Prompt) -> None:
        if prompt.step == "place":
            if prompt.kind != last_kind[0]:
                last_kind[0] = prompt.kind
                kind = sensor_map.kinds[prompt.kind or ""]
                click.echo(f"Now a {kind.name} ({kind.description or kind.polarity}) on each spot:")
            if not quiet or prompt.done % 20 == 0:
                click.echo(f"  {prompt.text}")
        elif prompt.step != "remove" or not quiet:
            click.echo(f"  {prompt.text}" if prompt.step == "remove" else prompt.text)

    return show


def _selftest_first(
    link: Link, sensor_map: SensorMap, port: str, say: Callable[[str], None]
) -> None:
    report = link.selftest(timeout=10)
    if report is None:
        say("! The scanner sent no self-test report; calibrating anyway.")
        return
    if not out(report, sensor_map):
        sensors = sum(1 for space in sensor_map.space_of_channel() if space)
        say(
            f"Self-test: all {sensors} sensors idle inside their window"
            f" ({report.window[0]}-{report.window[1]} counts)."
        )
        return
    say(table(report, sensor_map, only_out=True))
    say(
        f"Calibrating anyway; `lawmaster selftest --port {port}` tests again once those"
        " channels are seen to."
    )


def _calibrate_port(
    sensor_map: SensorMap,
    port: str,
    show: Callable[[Prompt], None],
    timeout: float,
    say: Callable[[str], None] = click.echo,
) -> Calibration:
    frames: queue.SimpleQueue = queue.SimpleQueue()
    calibrator = Calibrator(sensor_map)
    # Full frames: calibration wants every reading of every scan, not the changes.
    link = Link(
        port,
        lambda frame: frames.put(frame.readings),
        expect_channels=sensor_map.channels,
        full_frames=True,
        idle_window=idle_window_counts(sensor_map),
    ).start()
    try:
        if not link.wait_ready(timeout=10):
            raise click.ClickException(f"no scanner answering on {port}")
        _selftest_first(link, sensor_map, port, say)
        show(calibrator.prompt)
        shown = calibrator.prompt
        warned = ""
        deadline = time.monotonic() + timeout
        while not calibrator.done:
            if time.monotonic() > deadline:
                raise click.ClickException("calibration timed out; nothing was saved")
            try:
                readings = frames.get(timeout=1.0)
            except queue.Empty:
                continue
            if len(readings) < sensor_map.channels:
                raise click.ClickException(
                    f"the scanner sends {len(readings)} channels; the map needs"
                    f" {sensor_map.channels}"
                )
            prompt = calibrator.feed(readings)
            if prompt is not shown:
                shown = prompt
                show(prompt)
            if calibrator.warning != warned:
                warned = calibrator.warning
                if warned:
                    click.echo(f"  ! {warned}")
        return calibrator.result()
    finally:
        link.stop()


@click.command("calibrate")
@click.option("--game", type=GameChoice(with_sensor_map), default="gw-brott", show_default=True)
@click.option("--board", default="standard", show_default=True, help="The board's sensor map.")
@click.option("--port", help="The scanner's serial port (e.g. /dev/ttyACM0).")
@click.option("--simulated", is_flag=True, help="Calibrate the simulated board instead.")
@click.option("--seed", type=int, default=0, show_default=True, help="Simulated board's seed.")
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Where to save (default: calibration-<game>.json).",
)
@click.option("--quiet", is_flag=True, help="Show only every 20th spot.")
@click.option("--timeout", type=float, default=3600.0, help="Give up after this many seconds.")
def command(
    game: str,
    board: str,
    port: str | None,
    simulated: bool,
    seed: int,
    out: Path | None,
    quiet: bool,
    timeout: float,
) -> None:
    """Calibrate the hall sensors of a board, step by step."""
    try:
        sensor_map = games.game(game).sensor_map(board)
    except LookupError as exc:
        raise click.BadParameter(str(exc), param_hint="--board") from None
    out = out or Path(f"calibration-{game}.json")
    show = _printer(sensor_map, quiet)
    click.echo(
        f"Calibrating {game} ({board}): {len(sensor_map.spots)} spots,"
        f" kinds {', '.join(sensor_map.kinds)}"
    )
    if simulated:
        clock = SimClock()
        physical = PhysicalBoard(sensor_map, seed=seed, clock=clock)
        calibration = simulated_person_calibration(physical, clock, on_prompt=show)
        click.echo(f"(simulated: {clock.now:.0f} s of table time)")
    elif port:
        calibration = _calibrate_port(sensor_map, port, show, timeout)
    else:
        raise click.UsageError("give --port PORT for the real board, or --simulated")
    problems = calibration.check()
    for problem in problems:
        click.echo(f"  ! {problem}")
    calibration.save(out)
    click.echo(f"Saved {out}" + (f" with {len(problems)} problem(s)" if problems else ""))
