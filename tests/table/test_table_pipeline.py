"""``lawmaster bench --json table`` times the stages ``lawmaster run`` builds.

Both go through one wiring (:func:`lawmaster.host.stack.wire`) from a hardware
factory: ``lawmaster run`` from the table's configuration (here naming the
real firmware on a pty, an emulated PN532 and gpiozero's mock pins), the bench
from the simulated factory. Every kind of input must pass through the same
classes from the device to the referee, timed by the factory's clock.
"""

from __future__ import annotations

import time

import pytest

from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.bench.table import start_table
from lawmaster.host.commands.run import start
from lawmaster.host.config import parse
from lawmaster.host.devices import RealHardware
from lawmaster.host.games.gw_brott.setup import DEMO_HEADER
from lawmaster.host.nfc.emulator import PN532Emulator
from lawmaster.host.runtime import Runtime, demo_header, open_host
from lawmaster.host.sim.pico import SimulatedPico
from lawmaster.host.sim.rig import calibration_for
from lawmaster.host.stack import Stages

SEED = 21


def _wired_as_one(stages: Stages, clock: object) -> None:
    """The link feeds the board feed, which feeds the input queue of the referee it serves."""
    assert stages.link is not None and stages.feed is not None
    assert stages.link._on_scan == stages.feed.on_scan
    assert stages.feed.inputs is stages.inputs
    assert stages.table.referee.board is stages.feed
    assert stages.table.referee.panel is stages.panel
    assert stages.feed.clock is clock and stages.inputs.clock is clock


@pytest.mark.timeout(120)
def test_table_pipeline_the_bench_times_what_lawmaster_run_builds(tmp_path):
    gw = SensorMap.load("gw-brott")
    calibration = tmp_path / "calibration.json"
    calibration_for("gw-brott", SEED).save(calibration)
    with SimulatedPico(channels=gw.channels) as scanner, PN532Emulator() as reader:
        config = parse(
            {
                "table": {
                    "journal": str(tmp_path / "run.db"),
                    "calibration": str(calibration),
                    "cards": str(tmp_path / "cards.db"),
                },
                "scanner": {"port": scanner.port},
                "nfc": [{"name": "table", "port": reader.port}],
                "panel": {"pin_factory": "mock"},
                "game": DEMO_HEADER,
            }
        )
        run = Runtime(open_host(config.journal, config.settings(), config.game))
        settings = {"board": True, "seed": SEED, "gw_pause": 0.0}
        header = demo_header("gw-brott", SEED)
        bench = Runtime(open_host(str(tmp_path / "bench.db"), settings, header))
        try:
            run_stages = start(run, config)
            bench_stages, hardware, _ = start_table(bench, SEED)
            assert run.missing == [] and bench.missing == []
            assert run_stages.current is not None and bench_stages.current is not None
            pipeline = run_stages.current.pipeline()
            assert set(pipeline) == {"board", "readers", "panel"}
            assert bench_stages.current.pipeline() == pipeline
            assert isinstance(run_stages.hardware, RealHardware)  # Hardware.real(config)
            _wired_as_one(run_stages.current, time.monotonic)
            _wired_as_one(bench_stages.current, hardware.clock)
        finally:
            for runtime in (run, bench):
                runtime.close()
                runtime.host.journal.close()
