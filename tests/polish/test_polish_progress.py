"""The calibration and enrollment pages show real progress: the guided calibration flow
prompt by prompt, the calibration file a table loads, the cards the registry knows, the
enrolment flow tap by tap, and the demo's start-up (its board calibrated, its deck enrolled)."""

from __future__ import annotations

import queue
from pathlib import Path

import pytest

from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.nfc.cards import card_list
from lawmaster.host.nfc.emulator import Ntag213, PN532Emulator
from lawmaster.host.nfc.enroll import Enrollment, prompts_for
from lawmaster.host.nfc.reader import TagReader
from lawmaster.host.nfc.registry import CardRegistry
from lawmaster.host.nfc.transport import ReaderConfig
from lawmaster.host.progress import CalibrationProgress, DeckProgress
from lawmaster.host.runtime import Runtime, demo_header, open_host
from lawmaster.host.sim.hardware import SimulatedHardware, calibration_path
from lawmaster.host.sim.physics import PhysicalBoard, SimClock
from lawmaster.host.sim.rig import simulated_person_calibration
from lawmaster.host.stack import TableStages
from lawmaster.host.web import create_app

GAME = "unamerican-graffiti"


def _calibrate(progress: CalibrationProgress, seen: list[dict]) -> None:
    sensor_map = SensorMap.load(GAME)
    clock = SimClock()
    board = PhysicalBoard(sensor_map, seed=2, clock=clock)

    def on_prompt(prompt):
        progress.on_prompt(prompt)
        seen.append(progress.progress())

    simulated_person_calibration(board, clock, on_prompt=on_prompt)


def test_polish_calibration_progress_follows_the_guided_flow_spot_by_spot():
    sensor_map = SensorMap.load(GAME)
    progress = CalibrationProgress(sensor_map)
    assert progress.progress()["step"] == "waiting"
    seen: list[dict] = []
    _calibrate(progress, seen)
    total = len(sensor_map.spots) * len(sensor_map.kinds)
    dones = [s["done"] for s in seen]
    assert all(s["total"] == total for s in seen)
    assert dones == sorted(dones)  # never goes back
    assert seen[0]["step"] == "empty" and seen[-1] == {**seen[-1], "step": "done", "done": total}
    # Every spot of every kind is a step of its own, passed through on the way.
    assert len({s["done"] for s in seen if s["step"] == "remove"}) == total
    second_kind = next(
        s for s in seen if s["step"] == "place" and s["done"] > len(sensor_map.spots)
    )
    assert list(sensor_map.kinds)[1] in second_kind["message"]


def test_polish_calibration_progress_of_a_loaded_missing_or_broken_file(tmp_path):
    sensor_map = SensorMap.load(GAME)
    missing = CalibrationProgress.from_file(sensor_map, tmp_path / "none.json").progress()
    assert missing["step"] == "missing" and "lawmaster calibrate" in missing["message"]
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    assert CalibrationProgress.from_file(sensor_map, broken).progress()["step"] == "missing"
    clock = SimClock()
    calibration = simulated_person_calibration(
        PhysicalBoard(sensor_map, seed=2, clock=clock), clock
    )
    calibration.save(tmp_path / "cal.json")
    loaded = CalibrationProgress.from_file(sensor_map, tmp_path / "cal.json").progress()
    assert loaded["step"] == "done" and loaded["done"] == loaded["total"] > 0
    assert "cal.json" in loaded["message"]


def test_polish_deck_progress_counts_the_cards_the_registry_knows():
    cards = card_list("gw-brott")
    with CardRegistry(":memory:") as registry:
        deck = DeckProgress(registry, "gw-brott", cards)
        assert deck.progress()["done"] == 0 and cards[0].name in deck.progress()["message"]
        for card in cards[:5]:
            registry.enroll("gw-brott", card, Ntag213.random().uid)
        now = deck.progress()
        assert (now["step"], now["done"], now["total"]) == ("enrolling", 5, len(cards))
        assert cards[5].name in now["message"]
        for card in cards[5:]:
            registry.enroll("gw-brott", card, Ntag213.random().uid)
        assert deck.progress() == {**deck.progress(), "step": "done", "done": len(cards)}


def test_polish_enrollment_flow_reports_each_tap():
    cards = card_list("judge-dredd")[:3]
    seen: list[dict] = []
    with PN532Emulator() as emulator, CardRegistry(":memory:") as registry:
        events: queue.Queue = queue.Queue()
        with TagReader(ReaderConfig(port=emulator.port), events.put) as reader:
            enrollment = Enrollment(registry, "judge-dredd", reader, events, say=lambda _: None)

            def hand(prompt):
                seen.append(enrollment.progress())
                emulator.remove()
                emulator.present(Ntag213.random())

            enrollment.on_prompt = hand
            assert enrollment.progress()["step"] == "waiting"
            enrollment.run(prompts_for(cards))
    assert [(s["step"], s["done"], s["total"]) for s in seen] == [
        ("tap", 0, 3),
        ("tap", 1, 3),
        ("tap", 2, 3),
    ]
    assert cards[1].name in seen[1]["message"]
    assert enrollment.progress()["step"] == "done" and enrollment.progress()["done"] == 3


class _Interrupted(Exception):
    """The person calibrating walks away halfway."""


def test_polish_progress_pages_show_a_calibration_under_way(tmp_path):
    host = open_host(str(tmp_path / "j.db"), {"board": False}, demo_header("gw-brott", 1))
    client = create_app(host).test_client()
    assert client.get("/calibration.json").status_code == 404
    sensor_map = SensorMap.load(GAME)
    progress = CalibrationProgress(sensor_map)
    host.calibration = progress

    def on_prompt(prompt):
        progress.on_prompt(prompt)
        if progress.progress()["done"] >= 40:
            raise _Interrupted

    clock = SimClock()
    with pytest.raises(_Interrupted):
        simulated_person_calibration(
            PhysicalBoard(sensor_map, seed=2, clock=clock), clock, on_prompt=on_prompt
        )
    halfway = progress.progress()
    assert halfway["step"] == "remove" and halfway["done"] == 40  # the 40th spot measured
    body = client.get("/calibration.json").get_json()
    assert body == {"ok": True, "progress": halfway}
    page = client.get("/calibration", headers={"Accept": "text/html"}).get_data(as_text=True)
    assert '<span data-field="done">40</span>' in page
    assert f'<span data-field="total">{halfway["total"]}</span>' in page
    assert 'http-equiv="refresh"' in page  # not finished: the page keeps itself up to date
    host.journal.close()


@pytest.mark.timeout(120)
def test_polish_demo_start_up_calibrates_the_board_and_enrols_the_deck_on_the_pages(tmp_path):
    seed = 5
    host = open_host(
        str(tmp_path / "demo.db"), {"board": True, "seed": seed}, demo_header("judge-dredd", seed)
    )
    runtime = Runtime(host)
    try:
        client = create_app(host).test_client()
        TableStages(runtime, SimulatedHardware(seed)).start()
        assert calibration_path(host.journal.path, "judge-dredd", seed).exists()
        calibration = client.get("/calibration.json").get_json()["progress"]
        spots = len(SensorMap.load("judge-dredd").spots)
        assert calibration == {**calibration, "step": "done", "done": spots, "total": spots}
        enrollment = client.get("/enrollment.json").get_json()["progress"]
        deck = len(card_list("judge-dredd"))
        assert enrollment == {**enrollment, "step": "done", "done": deck, "total": deck}
    finally:
        runtime.close()
        host.journal.close()
    # A restarted demo loads the board's calibration instead of measuring it again.
    runtime = Runtime(open_host(str(tmp_path / "demo.db"), {"board": True}, {}))
    try:
        sensor_map = runtime.table.plugin.sensor_map()
        SimulatedHardware(seed).calibrate(runtime.host, runtime.table.game, sensor_map)
        assert "loaded from" in runtime.host.calibration.progress()["message"]
    finally:
        runtime.close()
        runtime.host.journal.close()


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


_HOST = None


def _json(url: str) -> dict:
    import json
    import urllib.request

    if _HOST is not None:
        with _HOST.open(url, timeout=10) as response:
            return json.loads(response.read())

    with urllib.request.urlopen(url, timeout=10) as response:
        return json.loads(response.read())


@pytest.mark.timeout(120)
def test_polish_lawmaster_run_shows_its_calibration_file_and_live_enrolment(tmp_path):
    import os
    import subprocess
    import sys
    import time

    port = _free_port()
    cards_db = tmp_path / "cards.db"
    config = tmp_path / "table.toml"
    config.write_text(
        f"""
[table]
journal = "{tmp_path / "table.db"}"
calibration = "{tmp_path / "no-calibration.json"}"
cards = "{cards_db}"

[scanner]
port = "{tmp_path / "no-scanner"}"

[[nfc]]
name = "table"
port = "{tmp_path / "no-reader"}"

[panel]
pin_factory = "mock"

[web]
host = "127.0.0.1"
port = {port}

[game]
game = "judge-dredd"
players = ["dredd", "anderson"]
"""
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "lawmaster.host", "run", "--config", str(config)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                _open_as_host(base, tmp_path / "table.db.access.json")
                calibration = _json(base + "/calibration.json")["progress"]
                break
            except OSError:
                assert process.poll() is None and time.monotonic() < deadline
                time.sleep(0.1)
        assert calibration["step"] == "missing" and "lawmaster calibrate" in calibration["message"]
        deck = card_list("judge-dredd")
        assert _json(base + "/enrollment.json")["progress"]["done"] == 0
        # `lawmaster enroll` beside the table writes the same registry file: the page follows.
        with CardRegistry(cards_db) as registry:
            for card in deck[:7]:
                registry.enroll("judge-dredd", card, Ntag213.random().uid)
        enrollment = _json(base + "/enrollment.json")["progress"]
        assert (enrollment["done"], enrollment["total"]) == (7, len(deck))
        assert deck[7].name in enrollment["message"]
    finally:
        globals()["_HOST"] = None
        process.terminate()
        process.wait(timeout=20)


def _open_as_host(base: str, access_file: Path) -> None:
    """Follow the host link (in the file beside the journal only the service's user reads)."""
    import http.cookiejar
    import re
    import urllib.request

    links = Path(str(access_file).removesuffix(".access.json") + ".host-link")
    token = re.search(r"/host/([A-Za-z0-9_-]+)", links.read_text()).group(1)
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )
    opener.open(f"{base}/host/{token}", timeout=10).close()
    globals()["_HOST"] = opener
