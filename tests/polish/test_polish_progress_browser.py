"""The calibration page in headless Chromium (Debian's /usr/bin/chromium via playwright)
follows a calibration as it goes, without reloading, until it is done."""

from __future__ import annotations

from pathlib import Path

import pytest

from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.progress import CalibrationProgress
from lawmaster.host.runtime import Runtime, demo_header, open_host, start_web
from lawmaster.host.sim.physics import PhysicalBoard, SimClock
from lawmaster.host.sim.rig import simulated_person_calibration

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not at /usr/bin/chromium"),
]
WAIT = 15_000  # ms; generous for a loaded machine, never asserted as a duration


def test_polish_browser_calibration_page_follows_the_flow_to_the_end(tmp_path):
    from playwright.sync_api import sync_playwright

    sensor_map = SensorMap.load("unamerican-graffiti")
    prompts = []
    clock = SimClock()
    simulated_person_calibration(
        PhysicalBoard(sensor_map, seed=1, clock=clock), clock, on_prompt=prompts.append
    )
    host = open_host(str(tmp_path / "j.db"), {"board": False}, demo_header("gw-brott", 1))
    runtime = Runtime(host)
    progress = CalibrationProgress(sensor_map)
    host.calibration = progress
    halfway = len(prompts) // 2
    for prompt in prompts[:halfway]:
        progress.on_prompt(prompt)
    shown = progress.progress()
    assert 0 < shown["done"] < shown["total"]
    try:
        runtime.web = start_web(host, "127.0.0.1", 0)
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox"]
            )
            try:
                page = browser.new_page()
                page.set_default_timeout(WAIT)
                page.goto(runtime.web.host_url)  # calibration is the host's page
                page.goto(f"{runtime.web.url}/calibration")
                done = page.locator('[data-field="done"]')
                assert done.inner_text() == str(shown["done"])
                assert page.locator('[data-field="message"]').inner_text() == shown["message"]
                for prompt in prompts[halfway:]:
                    progress.on_prompt(prompt)
                total = str(shown["total"])
                page.wait_for_function(
                    "t => document.querySelector('[data-field=\"done\"]').textContent === t",
                    arg=total,
                )
                assert page.locator('[data-field="step"]').inner_text() == "done"
                assert page.locator("progress").evaluate("e => e.value") == shown["total"]
            finally:
                browser.close()
    finally:
        runtime.close()
        host.journal.close()
