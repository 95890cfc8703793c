"""Table config keys for per-seat NFC readers, the end-turn button, a common-anode LED
and the public URL of the QR codes: each one reaches the stage that uses it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from lawmaster.host.commands.run import start
from lawmaster.host.config import ConfigError, PanelConfig, TableConfig, load, parse
from lawmaster.host.games.gw_brott.setup import DEMO_HEADER
from lawmaster.host.nfc.transport import readers_from_config
from lawmaster.host.panel import PanelPins
from lawmaster.host.runtime import Runtime, open_host, start_web

EXAMPLE = Path(__file__).resolve().parents[2] / "deploy" / "table.toml"


def test_polish_config_per_seat_readers_with_their_poll_timeout_reach_the_reader():
    config = parse(
        {
            "nfc": [
                {"name": "shared"},
                {"name": "dredd", "port": "/dev/ttyUSB1", "seat": "dredd", "poll_timeout": 1},
                {"name": "anderson", "port": "/dev/ttyUSB2", "seat": "anderson"},
            ]
        }
    )
    readers = readers_from_config(config.nfc)
    assert [(r.name, r.seat) for r in readers] == [
        ("shared", None),
        ("dredd", "dredd"),
        ("anderson", "anderson"),
    ]
    assert readers[1].poll_timeout == 1.0 and readers[2].poll_timeout == 0.15


@pytest.mark.parametrize("bad", [0, -1, "fast", True])
def test_polish_config_a_poll_timeout_that_is_no_time_is_named(bad):
    with pytest.raises(ConfigError, match="nfc\\[0\\].poll_timeout must be a positive number"):
        parse({"nfc": [{"name": "r", "poll_timeout": bad}]})


def test_polish_config_example_has_the_end_turn_button_and_the_led_polarity():
    config = load(EXAMPLE)
    assert config.panel.buttons == {"undo": 5, "confirm": 6, "end_turn": 13}
    assert config.panel.led_active_high is True
    assert PanelPins.from_config(parse({}).panel).buttons() == {
        "confirm": 6,
        "undo": 5,
        "end_turn": 13,
    }
    with pytest.raises(ConfigError, match="panel.led_active_high must be bool"):
        parse({"panel": {"led_active_high": "no"}})


@pytest.mark.parametrize(("active_high", "lit"), [(True, True), (False, False)])
def test_polish_run_wires_the_led_polarity_and_the_end_turn_button(tmp_path, active_high, lit):
    runtime = Runtime(open_host(str(tmp_path / "j.db"), {"board": False}, DEMO_HEADER))
    try:
        panel_config = PanelConfig(pin_factory="mock", led_active_high=active_high)
        panel = start(runtime, TableConfig(board=False, panel=panel_config)).current.panel
        assert panel.pins.led_active_high is active_high
        assert panel.pins.buttons()["end_turn"] == 13
        panel.show("ok")  # green on: the green pin is driven high only on a common cathode
        assert panel._factory.pin(27).state == lit
        assert panel._factory.pin(17).state != lit
    finally:
        runtime.close()


def _page(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read().decode()


def _screen(local: str, screen_link: str) -> str:
    """The table screen with the seats' codes: a screen paired by the screen link (which
    names the public address; opened here by the local one)."""
    import http.cookiejar
    import re

    path = re.sub(r"^https?://[^/]+", "", screen_link)
    screen = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )
    with screen.open(local + path, timeout=10) as response:
        return response.read().decode()


def test_polish_start_web_puts_the_public_url_in_the_seat_links(tmp_path):
    runtime = Runtime(open_host(str(tmp_path / "j.db"), {"board": False}, DEMO_HEADER))
    try:
        runtime.web = start_web(runtime.host, "127.0.0.1", 0, "http://table.example:8080/")
        assert runtime.web.screen_url.startswith("http://table.example:8080/screen/")
        page = _screen(runtime.web.url, runtime.web.screen_url)
        token = runtime.table.token("red")
        assert f"http://table.example:8080/join/{token}" in page
        assert f"127.0.0.1:{runtime.web.url.rsplit(':', 1)[1]}/join/{token}" not in page
    finally:
        runtime.close()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _toml(tmp_path: Path, port: int, public_url: str) -> Path:
    path = tmp_path / "table.toml"
    text = EXAMPLE.read_text()
    game = text[text.index("[game]") :]
    path.write_text(
        f"""
[table]
journal = "{tmp_path / "table.db"}"
board = false

[panel]
pin_factory = "mock"

[web]
host = "127.0.0.1"
port = {port}
public_url = "{public_url}"

{game}"""
    )
    return path


def _run_until_served(
    args: list[str], port: int, links: Path | None = None
) -> tuple[subprocess.Popen, str]:
    """The command's first line, and its table screen as the screen link pairs it (the link
    from the file ``links``, as ``lawmaster run`` writes it, or from the demo's output)."""
    import re

    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "lawmaster.host", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    assert process.stdout is not None
    first = process.stdout.readline()
    said = first
    while links is None and "table screen with the seats' codes:" not in said:
        line = process.stdout.readline()
        if not line:
            break
        said += line
    deadline = time.monotonic() + 30
    while True:
        try:
            text = links.read_text() if links is not None else said
            screen_link = re.search(r"table screen with the seats' codes: (\S+)", text).group(1)
            return process, first + _screen(f"http://127.0.0.1:{port}", screen_link)
        except (OSError, AttributeError):  # not serving yet, or the link not written yet
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise AssertionError(first + process.stdout.read()) from None
            time.sleep(0.1)


@pytest.mark.parametrize("option", [None, "http://override.example:9000"])
def test_polish_lawmaster_run_takes_the_public_url_from_config_or_option(tmp_path, option):
    port = _free_port()
    config = _toml(tmp_path, port, "http://lawmaster.local:8080")
    args = ["run", "--config", str(config)]
    if option is not None:
        args += ["--public-url", option]
    process, seen = _run_until_served(args, port, tmp_path / "table.db.host-link")
    try:
        expected = option or "http://lawmaster.local:8080"
        assert f"table screen: {expected}/" in seen
        assert f"{expected}/join/" in seen  # the QR codes' links on the table screen
    finally:
        process.terminate()
        process.wait(timeout=20)


def test_polish_lawmaster_demo_takes_the_public_url_option(tmp_path):
    port = _free_port()
    args = ["demo", "--game", "unamerican-graffiti", "--no-board", "--port", str(port)]
    args += ["--pace", "30", "--journal", str(tmp_path / "demo.db")]
    args += ["--public-url", "http://demo.example:8080"]
    process, seen = _run_until_served(args, port)
    try:
        assert "http://demo.example:8080/join/" in seen
    finally:
        process.terminate()
        process.wait(timeout=20)
