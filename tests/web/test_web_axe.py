"""axe-core (through ``axe-playwright-python``) finds no serious or critical
accessibility violation on the table screen or on a seat page of each game, with a
question pending for that seat, in headless Chromium."""

from __future__ import annotations

from pathlib import Path

import pytest
from web_support import live_server
from web_ui_games import GAMES, new_host, to_question

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not at /usr/bin/chromium"),
]
axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright")
#: axe's two upper impact levels; "moderate" and "minor" are reported, not failed.
FAILING = ("serious", "critical")


def violations(page) -> list[str]:
    """Every serious or critical axe violation on ``page``, one line per element."""
    results = axe_playwright.Axe().run(page)
    found = []
    for rule in results.response["violations"]:
        if rule.get("impact") not in FAILING:
            continue
        for node in rule["nodes"]:
            found.append(f"{rule['id']} ({rule['impact']}): {node['target']} {node['html'][:120]}")
    return found


@pytest.mark.parametrize("game", GAMES)
def test_web_axe_table_screen_and_a_seat_page(game, browser, tmp_path):
    host, table, players = new_host(tmp_path, game)
    seat = to_question(table, players)
    found = {}
    with live_server(host) as live:
        context = browser.new_context(viewport={"width": 1024, "height": 768})
        context.set_default_timeout(15_000)
        try:
            for name, path in (("table", "/table"), (seat, f"/seat/{table.token(seat)}")):
                page = context.new_page()
                page.goto(live.url + path)
                page.wait_for_selector('body[data-live="1"]')
                if problems := violations(page):
                    found[name] = problems
                page.close()
        finally:
            context.close()
    assert found == {}
