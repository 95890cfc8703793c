"""The demo's whole stack: firmware on a pty → link → sensing → tracker → referee → journal → web.

Simulated players play on the simulated board (hands move the magnets, the
real firmware scans them) and the table screen's SSE stream, served by
waitress, carries every accepted move.
"""

from __future__ import annotations

import http.client
import json
import threading

import pytest

from lawmaster.host.games.gw_brott.setup import DEMO_HEADER
from lawmaster.host.runtime import Autoplay, Runtime, open_host, start_web, wait_until
from lawmaster.host.sim.hardware import SimulatedHardware
from lawmaster.host.sim.people import SimulatedPeople
from lawmaster.host.stack import TableStages

BOARD_MOVES = 4


@pytest.mark.timeout(120)
def test_table_demo_stack_referees_board_moves_and_streams_them(tmp_path):
    settings = {"board": True, "seed": 3, "gw_pause": 0.2}
    runtime = Runtime(open_host(str(tmp_path / "demo.db"), settings, DEMO_HEADER))
    try:
        hardware = SimulatedHardware(seed=3)
        stages = TableStages(runtime, hardware).start()
        act = SimulatedPeople(stages, hardware).act
        runtime.web = start_web(runtime.host, "127.0.0.1", 0)
        port = int(runtime.web.url.rsplit(":", 1)[1])
        moves_seen: list[int] = []
        leaks: list[dict] = []

        def listen() -> None:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            connection.request("GET", "/events/table")
            response = connection.getresponse()
            while line := response.fp.readline():
                if line.startswith(b"data: "):
                    snapshot = json.loads(line[6:])["snapshot"]
                    if "position" in json.dumps(snapshot["view"]["criminals"]):
                        leaks.append(snapshot)
                    moves_seen.append(snapshot["move"])

        threading.Thread(target=listen, daemon=True).start()
        autoplay = Autoplay(runtime.host, act, seed=3, pace=0.0)
        autoplay.start()
        journal = runtime.host.journal

        def board_inputs() -> int:
            return sum(e.source == "board" for e in journal.open_game().entries)

        assert wait_until(lambda: board_inputs() >= BOARD_MOVES or autoplay.error, 90, 0.05)
        autoplay.stop()
        autoplay.join(20)
        assert autoplay.error is None, autoplay.error
        accepted = len(runtime.table.actions)
        assert wait_until(lambda: bool(moves_seen) and max(moves_seen) >= accepted, 5)
        assert leaks == []  # the table screen never learns where a criminal is
        assert stages.current.feed.frames > 100  # real scans came through the link
    finally:
        runtime.close()
