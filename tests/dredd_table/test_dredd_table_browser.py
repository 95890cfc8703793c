"""A Judge's seat page in headless Chromium (Debian's /usr/bin/chromium via playwright),
served by waitress on 127.0.0.1: the map, the Judge's own combat odds, and the odds
updated live (SSE) when another player adds a card face down."""

from __future__ import annotations

from pathlib import Path

import pytest
from dredd_table_support import served_combat

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not at /usr/bin/chromium"),
]
WAIT = 15_000  # ms; generous for a loaded machine, never asserted as a duration


@pytest.fixture
def served(tmp_path, monkeypatch):
    with served_combat(tmp_path, {"a": ["fergee-1"], "b": ["aah-ankle-trap-1"]}) as served:
        yield served


def test_dredd_table_browser_a_judge_sees_its_combat_odds_live(served):
    from playwright.sync_api import expect, sync_playwright

    table, url = served
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        )
        try:
            page = browser.new_page(viewport={"width": 900, "height": 1200})
            page.set_default_timeout(WAIT)
            page.goto(f"{url}/seat/{table.token('a')}")
            expect(page.locator("svg.dredd-map")).to_be_visible()
            expect(page.locator('svg.dredd-map [data-judge="a"]')).to_have_count(1)
            odds = page.locator(".odds")
            expect(odds).to_contain_text("Your combat odds")
            first = table.snapshot("a")["view"]["you"]["odds"]
            expect(odds).to_have_attribute("data-win", str(first["win"]))
            expect(page.locator(".odds-win")).to_contain_text(f"win {first['win'] * 100:.0f}%")
            # b adds a card face down: a's page follows over SSE with the new odds.
            assert table.submit(
                "b", {"act": "commit", "by": "b", "card": "aah-ankle-trap-1", "for": "a"}
            )["ok"]
            after = table.snapshot("a")["view"]["you"]["odds"]
            assert after["win"] != first["win"]
            expect(odds).to_have_attribute("data-win", str(after["win"]))
            expect(page.locator("body")).not_to_contain_text("aah-ankle-trap")
            # b's page has no odds: b is not fighting.
            page.goto(f"{url}/seat/{table.token('b')}")
            expect(page.locator("svg.dredd-map")).to_be_visible()
            expect(page.locator(".odds")).to_have_count(0)
        finally:
            browser.close()
