"""Three simulated tables and the hall, on one Mosquitto with logins, seen in Chromium.

``lawmaster demo --mqtt FILE`` runs three tables (one of each game, tablet-only to
spare the CI machine the simulated scanners), each logging in with its own user
from an ``[mqtt]`` file; ``lawmaster hall --mqtt FILE`` serves the hall. The
Unamerican Graffiti table plays to its end at once and stops, before the hall
page is opened: the hall learns it from the retained messages (its result, and
its goodbye). In Chromium at 1920x1080:

* a tile per table, drawn with its board, whose turn it is and the scores;
* a table's tile follows its game live (SSE), without a reload;
* the finished game is in the results list, its table marked offline (stopped);
* a table killed outright is marked offline by its last will, live;
* the page speaks Swedish when asked.

The pictures go to a temporary folder, or with ``LAWMASTER_DOC_SHOTS=1`` to
``docs/screenshots/`` (``docs/HALL.md`` shows them).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hall_support import WAIT, Mosquitto, wait_until

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not at /usr/bin/chromium"),
]
DOC_SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SCREEN = {"width": 1920, "height": 1080}
LAWMASTER = [sys.executable, "-m", "lawmaster.host"]
USERS = {"t1": "one", "t2": "two", "t3": "three", "hall": "wall"}
TABLES = {"t1": "gw-brott", "t2": "judge-dredd", "t3": "unamerican-graffiti"}


class Process:
    """A ``lawmaster`` command in the background, its output read as it comes."""

    def __init__(self, *args: str, cwd: Path) -> None:
        self.lines: list[str] = []
        self.process = subprocess.Popen(
            [*LAWMASTER, *args],
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def found(self, pattern: str) -> re.Match[str] | None:
        for line in list(self.lines):
            match = re.search(pattern, line)
            if match:
                return match
        return None

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    """The broker, three demo tables and the hall; the hall's URL and the processes."""
    folder = tmp_path_factory.mktemp("hall")
    broker = Mosquitto(folder / "broker", users=USERS).start()
    processes: dict[str, Process] = {}
    try:
        for name, game in TABLES.items():
            secret = folder / f"{name}.password"
            secret.write_text(USERS[name] + "\n")
            config = broker.toml(
                folder, name, username=name, password_file=str(secret), keepalive=5
            )
            args = ["demo", "--game", game, "--no-web", "--no-board", "--seed", "3",
                    "--journal", str(folder / f"{name}.db"), "--mqtt", str(config)]  # fmt: skip
            # The Graffiti table plays its whole game at once and stops; the others play on.
            args += ["--pace", "0", "--exit-when-over"] if name == "t3" else ["--pace", "0.6"]
            processes[name] = Process(*args, cwd=folder)
        wait_until(lambda: processes["t3"].process.poll() is not None, timeout=120)
        assert processes["t3"].found(r'"over": true'), processes["t3"].lines[-10:]
        config = broker.toml(folder, username="hall", password=USERS["hall"], keepalive=5)
        processes["hall"] = Process(
            "hall", "--mqtt", str(config), "--port", "0", "--bind", "127.0.0.1", "--language",
            "en", cwd=folder,
        )  # fmt: skip
        url = wait_until(lambda: processes["hall"].found(r"hall: (http://\S+)"), timeout=WAIT)
        yield {"url": url.group(1), "processes": processes, "folder": folder}
    finally:
        for process in processes.values():
            process.stop()
        broker.stop()


def _shots(name: str, tmp_path: Path) -> Path:
    folder = DOC_SHOTS if os.environ.get("LAWMASTER_DOC_SHOTS") == "1" else tmp_path
    return folder / name


def _save(page, path: Path) -> None:
    import io

    from PIL import Image

    image = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)


def _move(page, table: str) -> int:
    raw = page.get_attribute(f"#tile-{table}", "data-move") or "-1"
    return int(raw) if raw.lstrip("-").isdigit() else -1


def test_hall_three_tables_live_in_chromium(hall, browser, tmp_path):
    context = browser.new_context(viewport=SCREEN)
    context.set_default_timeout(WAIT * 1000)
    page = context.new_page()
    page.goto(hall["url"])
    for name in TABLES:
        page.wait_for_selector(f"#tile-{name} svg.board")
    # Whose turn and the scores, in words, on the live tables.
    for name in ("t1", "t2"):
        tile = page.locator(f"#tile-{name}")
        assert tile.locator(".turn strong").inner_text().strip()
        assert tile.locator(".scores li").count() >= 2
        assert "offline" not in (tile.get_attribute("class") or "")
    assert "GW" in page.locator("#tile-t1 .scores").inner_text()

    # The finished game: in the results, its table offline (stopped), from retained messages.
    t3 = page.locator("#tile-t3")
    assert "offline" in (t3.get_attribute("class") or "")
    assert "stopped" in t3.locator(".mark-offline").inner_text()
    assert "t3" in page.locator(".results").inner_text()
    assert "Unamerican Graffiti" in page.locator(".results").inner_text()
    # The wins list counts the winner (a drawn game counts nobody).
    winner = page.locator(".results .r-winner").first.inner_text()
    if "draw" not in winner.lower():
        assert page.locator(".wins li").count() == 1

    # Live: t1's tile follows its game without a reload.
    page.evaluate("window.__same_page = true")
    before = _move(page, "t1")
    page.wait_for_function(
        f"Number(document.querySelector('#tile-t1').dataset.move) > {before}"
    )
    assert page.evaluate("window.__same_page === true")
    _save(page, _shots("hall-three-tables.png", tmp_path))

    # A table killed outright: the broker publishes its last will, the tile says offline.
    hall["processes"]["t2"].stop(signal.SIGKILL)
    page.wait_for_selector("#tile-t2.offline", timeout=WAIT * 1000)
    assert "stopped answering" in page.locator("#tile-t2 .mark-offline").inner_text()
    assert page.evaluate("window.__same_page === true")
    _save(page, _shots("hall-offline.png", tmp_path))
    context.close()


def test_hall_speaks_swedish(hall, browser, tmp_path):
    context = browser.new_context(viewport=SCREEN)
    context.set_default_timeout(WAIT * 1000)
    page = context.new_page()
    page.goto(hall["url"] + "?lang=sv")
    page.wait_for_selector("#tile-t1 svg.board")
    text = page.locator("body").inner_text()
    assert "Resultat i kväll" in text and "Vinster i kväll" in text
    assert page.get_attribute("html", "lang") == "sv"
    assert page.locator("#tile-t1 .turn .label").inner_text().strip() == "Tur"
    assert "bordet stängdes av" in page.locator("#tile-t3 .mark-offline").inner_text()
    _save(page, _shots("hall-sv.png", tmp_path))
    context.close()
