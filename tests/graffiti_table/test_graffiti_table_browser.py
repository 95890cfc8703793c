"""A Graffiti game in headless Chromium (Debian's /usr/bin/chromium via playwright), served
by waitress on 127.0.0.1: the scrawler taps a hex on the SVG map to move, the opponent's
page updates live and takes the Judges' dice, then a Judge's move.

The render registry may not know Graffiti yet: the fixture adds it to ``_MODULES`` for
the test only (monkeypatch), and installs the Graffiti rules on the table's referee.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from graffiti_table_support import header, install, sources

from lawmaster.host.journal import Journal
from lawmaster.host.table import TableHost
from lawmaster.host.web import create_app, make_server, stop

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not at /usr/bin/chromium"),
]
WAIT = 15_000  # ms; generous for a loaded machine, never asserted as a duration


@pytest.fixture
def live(tmp_path, monkeypatch):
    host = TableHost(Journal(tmp_path / "journal.sqlite"), {})
    table = install(host.new_game(header()))
    app = create_app(host)
    server = make_server(app, "127.0.0.1", 0)
    thread = threading.Thread(target=server.run, name="waitress", daemon=True)
    thread.start()
    try:
        yield table, f"http://127.0.0.1:{server.effective_port}", app
    finally:
        stop(server)
        thread.join(timeout=10)


def open_live(context, url):
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector('body[data-live="1"]')  # the EventSource is open
    return page


def test_graffiti_table_browser_tap_a_hex_then_enter_the_judges_dice(live, context):
    table, url, app = live
    chopper = open_live(context, f"{url}/seat/{table.token('chopper')}")
    phantom = open_live(context, f"{url}/seat/{table.token('phantom')}")
    assert chopper.locator("svg.graffiti-board g.threat").count() > 0
    assert phantom.locator("svg.graffiti-board g.threat").count() == 0
    assert phantom.locator('[data-region="prompts"] .prompt').count() == 0

    # The scrawler taps the destination field, then the hex on the map (its threat shading
    # lies on top and names the same hex).
    field = chopper.locator('.move-to-form input[name="f:to"]')
    field.click()
    chopper.locator('svg.graffiti-board g.threat[data-cell="-1,5"]').click()
    assert field.input_value() == "-1,5"
    chopper.locator(".move-to-form button[type=submit]").click()
    chopper.locator('g.piece.pawn[data-player="chopper"][data-cell="-1,5"]').wait_for()

    # The opponent's page updates live: three dice for the Judges.
    selects = phantom.locator('.prompt-enter_dice select[name="l:faces"]')
    selects.nth(2).wait_for()
    assert selects.count() == 3
    for i, face in enumerate(["4", "2", "4"]):
        selects.nth(i).select_option(face)
    phantom.locator(".prompt-enter_dice form.dice-form button[type=submit]").click()
    phantom.locator(".prompt-move_judge").wait_for()
    assert table.actions[-1] == {"act": "roll", "by": "phantom", "faces": [4, 2, 4]}
    assert sources(table) == ["tablet", "tablet"]
    assert phantom.locator(".graffiti-extras .die").all_inner_texts() == ["2", "4", "4"]

    # A Judge's move from its button: Judge 2 steps onto the first hex offered.
    button = phantom.locator('fieldset.judge-moves[data-judge="2"] button[data-to]:not(.secondary)')
    to = button.first.get_attribute("data-to")
    button.first.click()
    phantom.locator(f'g.piece.judge[data-judge="2"][data-cell="{to}"]').wait_for()
    chopper.locator(f'g.piece.judge[data-judge="2"][data-cell="{to}"]').wait_for()
    assert table.actions[-1]["judge"] == 2
    assert app.extensions["lawmaster.unexpected"] == []
