"""A live update keeps what the player opened, in headless Chromium.

A push from the table redraws a page's regions; the page script finds again, by its
``id`` or ``data-key``, an open ``<details>``, the element with focus and a scrolled
list, and the page stays where it was scrolled. Each test makes the change from
another seat's tablet, as at a table, and checks the region was redrawn (the
element is a new one) yet looks as the player left it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from web_support import device_of, gw_header, live_server, make_host

from lawmaster.host.games.unamerican_graffiti.players import GraffitiPlayers

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not at /usr/bin/chromium"),
]
WAIT = 15_000  # ms; generous for a loaded machine, never asserted as a duration
LANDSCAPE = {"width": 1024, "height": 768}
PORTRAIT = {"width": 768, "height": 1024}


@pytest.fixture
def gw_game(tmp_path):
    host = make_host(tmp_path)
    table = host.new_game(gw_header(3, ["red", "green"]))
    with live_server(host) as live:
        yield table, live


def roll_and_move(table, live, piece: str, cookie: str | None = None) -> None:
    """``piece``'s tablet rolls and moves two steps (``cookie``: the device holding the seat,
    when it is a browser page's)."""
    url = f"/seat/{table.token(piece)}/action"
    faces = {"act": "roll", "by": piece, "faces": ["1", "2", "3", "4", "arrow"]}
    assert live.post_json(url, faces, cookie=cookie)[0] == 200
    to = table.snapshot(piece)["view"]["asked"]["moves"]["2"][0]
    move = {"act": "move", "by": piece, "die": "2", "to": to}
    assert live.post_json(url, move, cookie=cookie)[0] == 200


def open_live(browser, url: str, viewport: dict):
    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(WAIT)
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector('body[data-live="1"]')
    return context, page


def wait_for_version(page, version: int) -> None:
    """Until the page has drawn the push that brought ``version``."""
    page.wait_for_selector(f'body[data-version="{version}"]')


def test_web_ui_keep_open_a_deduction_list_stays_open_through_a_move(gw_game, browser):
    table, live = gw_game
    roll_and_move(table, live, "red")
    context, page = open_live(browser, f"{live.url}/seat/{table.token('gw')}", PORTRAIT)
    try:
        details = page.locator('details[data-key="gw-cells-red"]')
        details.locator("summary").click()
        assert details.evaluate("d => d.open")
        # The old element is marked: after the push it must be a new one (redrawn).
        details.evaluate("d => { d.dataset.before = '1'; }")
        # Scrolled down to the lists, as GW is when reading them on a portrait tablet.
        details.scroll_into_view_if_needed()
        page.evaluate("window.scrollBy(0, 40)")
        scrolled = page.evaluate("window.scrollY")
        assert scrolled > 0
        roll_and_move(table, live, "green")  # from green's tablet
        wait_for_version(page, table.snapshot("gw")["version"])
        redrawn = page.locator('details[data-key="gw-cells-red"]')
        assert redrawn.get_attribute("data-before") is None
        assert redrawn.evaluate("d => d.open")
        assert redrawn.locator("p").is_visible()
        # The other criminal's list, never opened, is still closed.
        assert not page.locator('details[data-key="gw-cells-green"]').evaluate("d => d.open")
        assert page.evaluate("window.scrollY") == scrolled
    finally:
        context.close()


def test_web_ui_keep_open_the_log_keeps_focus_and_its_scroll(gw_game, browser):
    table, live = gw_game
    context, page = open_live(browser, f"{live.url}/seat/{table.token('red')}", LANDSCAPE)
    try:
        # Red's own tablet (this browser) and green's play a turn each: a log to scroll.
        roll_and_move(table, live, "red", device_of(context))
        roll_and_move(table, live, "green")
        wait_for_version(page, table.snapshot("red")["version"])
        log = page.locator('ol.log[data-key="log"]')
        # A short log box, so it scrolls: the player reads back and leaves focus in it.
        page.add_style_tag(content="ol.log { max-height: 3em !important; }")
        log.focus()
        log.evaluate("l => { l.scrollTop = 20; l.dataset.before = '1'; }")
        top = log.evaluate("l => l.scrollTop")
        assert top > 0
        gw = f"/seat/{table.token('gw')}/action"
        assert live.post_json(gw, {"act": "gw_roll", "face": 1})[0] == 200  # from GW's tablet
        wait_for_version(page, table.snapshot("red")["version"])
        redrawn = page.locator('ol.log[data-key="log"]')
        assert redrawn.get_attribute("data-before") is None
        assert redrawn.evaluate("l => l === document.activeElement")
        assert redrawn.evaluate("l => l.scrollTop") == top
    finally:
        context.close()


def test_web_ui_keep_open_a_tapped_hex_keeps_focus_and_its_name(tmp_path, browser):
    host = make_host(tmp_path)
    table = host.new_game({"game": "unamerican-graffiti", "dredd_roll": 1})
    with live_server(host) as live:
        url = f"{live.url}/seat/{table.token('phantom')}"
        context, page = open_live(browser, url, LANDSCAPE)
        try:
            hex_ = page.locator('svg.graffiti-board g.hex[data-key="hex-aggro-dome"]')
            hex_.locator("polygon").first.click()
            assert hex_.evaluate("h => h === document.activeElement")
            caption = page.locator("svg.graffiti-board text.caption:visible")
            assert caption.text_content().startswith("Aggro Dome")
            hex_.evaluate("h => { h.dataset.before = '1'; }")
            chopper = f"/seat/{table.token('chopper')}/action"
            move = {"act": "move", "by": "chopper", "to": "block-4"}
            assert live.post_json(chopper, move)[0] == 200  # from chopper's tablet
            wait_for_version(page, table.snapshot("phantom")["version"])
            redrawn = page.locator('svg.graffiti-board g.hex[data-key="hex-aggro-dome"]')
            assert redrawn.get_attribute("data-before") is None
            assert redrawn.evaluate("h => h === document.activeElement")
            assert caption.text_content().startswith("Aggro Dome")
        finally:
            context.close()


def test_web_ui_keep_open_a_tapped_threat_hex_keeps_focus(tmp_path, browser):
    # Chopper is about to move and reads the threat on a hex; phantom's tablet asks to
    # take back its last input, which every page shows: the threat hex keeps its focus.
    host = make_host(tmp_path)
    table = host.new_game({"game": "unamerican-graffiti", "dredd_roll": 1})
    players = GraffitiPlayers(table, 3)
    while not (len(table.actions) > 1 and table.snapshot("chopper")["view"].get("threat")):
        decision = players.decide()
        assert table.submit(decision.seat, decision.action)["ok"]
    with live_server(host) as live:
        url = f"{live.url}/seat/{table.token('chopper')}"
        context, page = open_live(browser, url, LANDSCAPE)
        try:
            threat = page.locator("svg.graffiti-board g.threat").first
            key = threat.get_attribute("data-key")
            threat.locator("> polygon").first.click()
            assert threat.evaluate("t => t === document.activeElement")
            assert page.locator(f'[data-key="{key}"] .threat-pct').is_visible()
            threat.evaluate("t => { t.dataset.before = '1'; }")
            undo = f"/seat/{table.token('phantom')}/undo"
            assert live.post_json(undo, {})[0] == 200  # from phantom's tablet
            page.wait_for_selector('[data-region="prompts"]:has-text("take back")')
            # A push that does not touch the map leaves it as it was (light updates send
            # what changed): the very hex the player tapped keeps its focus and figure.
            kept = page.locator(f'svg.graffiti-board [data-key="{key}"]')
            assert kept.get_attribute("data-before") == "1"
            assert kept.evaluate("t => t === document.activeElement")
            assert kept.locator(".threat-pct").is_visible()
        finally:
            context.close()
