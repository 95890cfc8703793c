"""Faults bench: what watching every channel for faults costs the host, per board.

:class:`~lawmaster.host.sensing.faults.ChannelWatch` is fed noisy frames of
each standard board (the simulated sensors' empty-board readings with ±20
counts of noise added, so no channel looks stuck) at the board's scan rate
from :func:`~lawmaster.host.sensing.rate.scan_rate`, and timed.

Figures:

- ``faults_watch_us_per_scan_<game>``: mean microseconds of host CPU per scan.
- ``faults_watch_core_pct_<game>``: that times the scan rate, as a share of
  one core (the Pi's budget for everything else is what is left).
"""

from __future__ import annotations

import random
import time

from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.sensing.faults import ChannelWatch
from lawmaster.host.sensing.rate import scan_rate
from lawmaster.host.sim.physics import PhysicalBoard
from lawmaster.host.sim.rig import ideal_calibration

GAMES = ("gw-brott", "judge-dredd", "unamerican-graffiti")
SCANS = 20000


def watch_cost(game: str, scans: int = SCANS) -> tuple[float, float]:
    """(microseconds per scan, scans per second) of the channel watch on a game's board."""
    sensor_map = SensorMap.load(game)
    board = PhysicalBoard(sensor_map, seed=1)
    calibration = ideal_calibration(board)
    rate = float(scan_rate(sensor_map.channels))
    rng = random.Random(1)
    empty = board.frame()
    frames = [[v + rng.randint(-20, 20) for v in empty] for _ in range(257)]
    watch = ChannelWatch(sensor_map, calibration, rate=rate)
    started = time.perf_counter()
    for i in range(scans):
        watch.feed(frames[i % 257], i / rate)
    elapsed = time.perf_counter() - started
    return elapsed / scans * 1e6, rate


def run() -> dict[str, float]:
    figures: dict[str, float] = {}
    for game in GAMES:
        us, rate = watch_cost(game)
        figures[f"faults_watch_us_per_scan_{game}"] = round(us, 1)
        figures[f"faults_watch_core_pct_{game}"] = round(us * rate / 1e4, 2)
    return figures
