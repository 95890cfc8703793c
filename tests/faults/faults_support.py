"""The simulated table for the fault tests: the demo's whole stack, with faults to inject.

The real firmware scans the simulated magnets on a pty, the link, sensing, the
channel watch, the tracker, the referee, the journal, the emulated PN532 and
the dashboard (waitress) run as in ``lawmaster demo``. Faults are injected
where the hardware would have them: a channel's reading (the sensor), the pty
(the USB cable), the emulated reader (it stops answering).
"""

from __future__ import annotations

import http.client
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import pytest

from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.games.gw_brott.setup import DEMO_HEADER
from lawmaster.host.runtime import Runtime, open_host, start_web, wait_until
from lawmaster.host.sim.hardware import SimulatedHardware, calibration_path
from lawmaster.host.sim.physics import PhysicalBoard
from lawmaster.host.sim.rig import ideal_calibration
from lawmaster.host.stack import TableStages
from lawmaster.host.table import Table

SEED = 3


@dataclass
class FaultTable:
    """A running simulated table and the handles to break it."""

    runtime: Runtime
    hardware: SimulatedHardware
    stages: TableStages
    port: int
    overrides: dict[int, Callable[[int], int]]
    #: The ``Cookie`` header of the test's one tablet, once it joined a seat.
    cookie: str = ""

    @property
    def table(self) -> Table:
        return self.runtime.table

    @property
    def board(self) -> Any:
        return self.hardware.board

    @property
    def nfc(self) -> Any:
        return self.hardware.nfc

    @property
    def health(self) -> Any:
        return self.runtime.health

    def channel_of(self, space: str) -> int:
        return self.board.map.spots_of(space)[0].channel

    def page(self, path: str) -> str:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        headers = {"Cookie": self.cookie} if self.cookie else {}
        connection.request("GET", path, headers=headers)
        return connection.getresponse().read().decode()

    def seat_page(self, seat: str) -> str:
        """The seat's page on this test's one tablet, which joins the seat first if need be."""
        token = self.table.token(seat)
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        headers = {"Sec-Fetch-Site": "none"}
        if self.cookie:
            headers["Cookie"] = self.cookie
        connection.request("GET", f"/join/{token}", headers=headers)
        answer = connection.getresponse()
        answer.read()
        for raw in answer.headers.get_all("Set-Cookie") or []:
            if raw.startswith("lawmaster_device="):
                self.cookie = raw.split(";", 1)[0]
        return self.page(f"/seat/{token}")

    def entries(self) -> list:
        return self.table.journal.game(self.table.record.id).entries

    def wait(self, predicate: Callable[[], bool], timeout: float = 15.0) -> None:
        assert wait_until(predicate, timeout, 0.01), "the table did not get there in time"

    def settled(self) -> None:
        """Wait until everything queued for the referee so far has been handled."""
        assert self.stages.inputs.drain(10)


@lru_cache(maxsize=1)
def _calibration() -> Any:
    """What a perfect calibration of the seed's board measures (the guided flow takes long)."""
    board = PhysicalBoard(SensorMap.load("gw-brott"), seed=SEED)
    return ideal_calibration(board)


def fault_table(tmp_path, patch: Callable[[dict[int, Callable[[int], int]]], None] | None = None):
    # The sensor behind a channel replaced by a broken one, when the test says so.
    overrides: dict[int, Callable[[int], int]] = {}
    if patch is not None:
        patch(overrides)
    settings = {"board": True, "seed": SEED, "gw_pause": 0.2}
    runtime = Runtime(open_host(str(tmp_path / "faults.db"), settings, DEMO_HEADER))
    # The simulated board loads its calibration from beside the journal when it is there.
    _calibration().save(calibration_path(runtime.host.journal.path, runtime.table.game, SEED))
    hardware = SimulatedHardware(SEED, broken=overrides)
    stages = TableStages(runtime, hardware).start()
    # The referee checks the board it has just started seeing against the game. A board
    # still blind after that (a dead sensor) is shown, not hidden: play waits.
    wait_until(lambda: not runtime.table.referee.holding, 10)
    runtime.web = start_web(runtime.host, "127.0.0.1", 0)
    port = int(runtime.web.url.rsplit(":", 1)[1])
    return FaultTable(runtime, hardware, stages, port, overrides)


@pytest.fixture
def simulated(tmp_path) -> Iterator[FaultTable]:
    table = fault_table(tmp_path)
    try:
        yield table
    finally:
        table.runtime.close()
