"""Graffiti pages as a player reads them, in headless Chromium: places by name, colours by
player and pen, the threat's percentage on a tapped hex and as a list, no ids or JSON."""

from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest
from graffiti_table_support import header, install, ok

from lawmaster.host.journal import Journal
from lawmaster.host.table import TableHost
from lawmaster.host.web import create_app, make_server, stop

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not at /usr/bin/chromium"),
]
#: Hex ids as the engine spells them: "-1,5" streets, "block-4", "power-tower", colour ids.
IDS = re.compile(
    r"-?\d+,-?\d+(?!\d)|\b(?:block|sector-house)-\d+\b|\b[a-z]+-[a-z]+(?:-\d+)?\b"
    r"|\b(?:chopper|phantom)-\d\b"
)


def assert_reads_as_words(text: str) -> None:
    assert not re.search(r"\{\s*['\"]", text), text
    assert not re.search(r"['\"]\s*:\s*['\"\[\{\d]", text), text
    found = [
        m
        for m in IDS.findall(text)
        if m not in ("north-west", "north-east", "south-east", "south-west", "unamerican-graffiti")
    ]
    assert not found, found
    for key in ("arrest_chance", "judges_move", "defaced_landmarks", "legal_moves", "to_act"):
        assert key not in text


@pytest.fixture
def live(tmp_path, monkeypatch):
    host = TableHost(Journal(tmp_path / "journal.sqlite"), {})
    table = install(host.new_game(header()))
    server = make_server(create_app(host), "127.0.0.1", 0)
    thread = threading.Thread(target=server.run, name="waitress", daemon=True)
    thread.start()
    try:
        yield table, f"http://127.0.0.1:{server.effective_port}"
    finally:
        stop(server)
        thread.join(timeout=10)


def test_graffiti_table_ui_threat_percentage_on_tap_and_as_text(live, context):
    table, url = live
    threat = table.snapshot("chopper")["view"]["threat"]
    page = context.new_page()
    page.goto(f"{url}/seat/{table.token('chopper')}")
    assert_reads_as_words(page.locator("main").inner_text())
    # Tap a shaded hex: its percentage shows on the map.
    where, info = max(threat.items(), key=lambda item: item[1]["arrest_chance"])
    pct = page.locator(f'svg.graffiti-board g.threat[data-cell="{where}"] text.threat-pct')
    assert not pct.is_visible()
    page.locator(f'svg.graffiti-board g.threat[data-cell="{where}"]').focus()
    assert pct.is_visible()
    assert pct.text_content() == f"{100 * info['arrest_chance']:.0f}%"
    # The same figures as text: each end hex's choice, with the exact count of rolls, and
    # a line that says how many ends are safe.
    choices = page.locator('[data-region="prompts"] button[id^="go-"]')
    assert choices.count() == len(threat)
    line = page.locator(f'button[id="go-{where}"]').text_content()
    total = 6 ** info["hexes"]
    hits = round(info["arrest_chance"] * total)
    assert f"{100 * info['arrest_chance']:.0f}% chance of arrest ({hits} of {total} rolls" in line
    safe = sum(1 for i in threat.values() if i["arrest_chance"] <= 0)
    summary = page.locator("p.graffiti-threat").inner_text()
    assert f"{safe} of {len(threat)} safe" in summary


def test_graffiti_table_ui_pages_read_as_words_through_a_turn(live, context):
    table, url = live
    page = context.new_page()
    ok(table.submit("chopper", {"act": "move", "by": "chopper", "to": "block-4"}))
    for seat in ("chopper", "phantom"):
        page.goto(f"{url}/seat/{table.token(seat)}")
        assert_reads_as_words(page.locator("main").inner_text())
    ok(table.submit("phantom", {"act": "roll", "by": "phantom", "faces": [4, 2]}))
    page.goto(f"{url}/seat/{table.token('phantom')}")
    text = page.locator("main").inner_text()
    assert_reads_as_words(text)
    assert "Move the Judges the dice named (Judge 2, Judge 4)" in text
    assert "Chopper scrawls City Block 4 in Chopper's red" in text
    # Each Judge's buttons name the Judge and the places it may go (a tap on the map too).
    buttons = page.locator('fieldset.judge-moves[data-judge="2"] button').all_inner_texts()
    assert buttons and all(b == "Stay" or b.startswith("Judge 2 to ") for b in buttons)
    page.goto(f"{url}/table")
    assert_reads_as_words(page.locator("main").inner_text())
    # Pawns carry their player's letter, Judges their number.
    assert page.locator('g.pawn[data-player="chopper"] text').text_content() == "C"
    assert page.locator('g.judge[data-judge="2"] text.judge-number').text_content() == "2"
