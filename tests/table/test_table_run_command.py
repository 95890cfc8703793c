"""``lawmaster run --config``: the real-hardware command, on a simulated scanner's pty.

The test plays the hardware: the simulated factory's board (magnets behind the
real firmware on a pty, the scanner's serial port in the config), gpiozero's
mock pins for the panel; ``lawmaster run`` in a subprocess opens them as it
would on a Pi, and the test talks to it like a tablet over HTTP.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.games.gw_brott.setup import DEMO_HEADER
from lawmaster.host.journal import Journal
from lawmaster.host.sensing.rate import scan_rate
from lawmaster.host.sim.hardware import SimulatedBoard
from lawmaster.host.sim.physics import SimClock
from lawmaster.host.sim.rig import calibration_for
from lawmaster.host.web.guard import TOKEN_HEADER

SEED = 4


def _toml(journal: str, calibration: str, port: str) -> str:
    abilities = ", ".join(f"{k} = {json.dumps(v)}" for k, v in DEMO_HEADER["abilities"].items())
    evidence = ", ".join(f"{k} = {json.dumps(v)}" for k, v in DEMO_HEADER["evidence"].items())
    return f"""
[table]
journal = "{journal}"
calibration = "{calibration}"
board = true

[scanner]
port = "{port}"

[panel]
pin_factory = "mock"

[web]
host = "127.0.0.1"
port = 0

[game]
game = "gw-brott"
board = "standard"
criminals = ["red", "green"]
trumps = {json.dumps(DEMO_HEADER["trumps"])}
abilities = {{ {abilities} }}
evidence = {{ {evidence} }}
"""


def _board() -> SimulatedBoard:
    """The table's magnets, read by the real firmware behind a pty."""
    sensor_map = SensorMap.load("gw-brott")
    rate = scan_rate(sensor_map.channels)  # what `lawmaster run` asks of the scanner
    board = SimulatedBoard(sensor_map, seed=SEED, clock=SimClock(), rate=rate)
    board.board.put("gw", "gw", "J12")
    board.board.put("red", "criminal", "jail")
    board.board.put("green", "criminal", "jail")
    board.start()
    return board


#: The test's tablet: one cookie jar, the device that joins the seat it plays.
_TABLET = urllib.request.build_opener(
    urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
)


def _join(base: str, token: str) -> None:
    """Open the seat's code on the tablet, as a player does: the seat is the tablet's now."""
    request = urllib.request.Request(f"{base}/join/{token}", headers={"Sec-Fetch-Site": "none"})
    with _TABLET.open(request, timeout=10) as response:
        assert response.url.endswith(f"/seat/{token}")


def _post(url: str, body: dict) -> dict:
    """A seat's input as its page's script posts it (the token in the header too)."""
    token = url.split("/seat/")[1].split("/")[0]
    headers = {"Content-Type": "application/json", TOKEN_HEADER: token}
    request = urllib.request.Request(url, json.dumps(body).encode(), headers)
    with _TABLET.open(request, timeout=10) as response:
        return json.loads(response.read())


def _get(url: str) -> dict:
    with _TABLET.open(url, timeout=10) as response:
        return json.loads(response.read())


@pytest.mark.timeout(90)
def test_table_run_command_referees_the_board_on_the_configured_serial_port(tmp_path):
    board = _board()
    calibration = str(tmp_path / "calibration.json")
    calibration_for("gw-brott", SEED).save(calibration)
    journal = str(tmp_path / "table.db")
    config = tmp_path / "table.toml"
    config.write_text(_toml(journal, calibration, board.pico.port))
    process = subprocess.Popen(
        [sys.executable, "-c", "from lawmaster.host.cli import main; main()", "run"]
        + ["--config", str(config)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = process.stdout.readline()
        assert line.startswith("table screen: "), line + process.stderr.read()
        base = line.split()[-1].rstrip("/")
        tokens = Journal(journal).open_game().tokens
        red = f"{base}/seat/{tokens['red']}"
        _join(base, tokens["red"])
        faces = ["1", "2", "3", "4", "arrow"]
        assert _post(f"{red}/action", {"act": "roll", "by": "red", "faces": faces})["ok"]
        moves = _get(f"{red}.json")["snapshot"]["view"]["asked"]["moves"]
        to = moves["2"][0]
        assert _post(f"{red}/action", {"act": "move", "by": "red", "die": "2"})["ok"]
        board.lift_place("red", to)
        deadline = time.monotonic() + 15
        where = None
        while time.monotonic() < deadline:
            where = _get(f"{red}.json")["snapshot"]["view"]["criminals"]["red"]["position"]
            if where == to:
                break
            time.sleep(0.1)
        assert where == to
        record = Journal(journal).open_game()
        assert record.entries[-1].source == "board"
        assert record.actions()[-1] == {"act": "move", "by": "red", "die": "2", "to": to}
    finally:
        os.kill(process.pid, signal.SIGTERM)
        out, err = process.communicate(timeout=20)
        board.stop()
    assert process.returncode == 0, err
    assert "not wired" not in out, out
