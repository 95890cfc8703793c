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

from lawmaster.host.games.unamerican_graffiti import know
from lawmaster.host.games.unamerican_graffiti.pages import board_of
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

    # The scrawler taps the hex on the map (the hex itself carries its threat shading):
    # the action bar asks to confirm, and a second tap moves there.
    hex_ = chopper.locator('svg.graffiti-board g.threat[data-cell="-1,5"] > polygon').first
    hex_.click()
    chopper.locator(".action-bar #chooser button.chooser-go").wait_for()
    hex_.click()
    chopper.locator('g.piece.pawn[data-player="chopper"][data-cell="-1,5"]').wait_for()

    # The opponent's page updates live: three dice for the Judges, each a row of faces.
    rows = phantom.locator(".prompt-enter_dice fieldset.die-row")
    rows.nth(2).wait_for()
    assert rows.count() == 3
    for i, face in enumerate(["4", "2", "4"]):
        rows.nth(i).locator(f'label.die-choice:has(input[value="{face}"])').click()
    phantom.locator(".action-bar button", has_text="Enter dice").click()
    phantom.locator(".prompt-move_judge").wait_for()
    assert table.actions[-1] == {"act": "roll", "by": "phantom", "faces": [4, 2, 4]}
    assert sources(table) == ["tablet", "tablet"]
    assert phantom.locator(".graffiti-extras .die").all_inner_texts() == ["2", "4", "4"]

    # A Judge's move from its button: Judge 2 steps onto the first hex offered.
    button = phantom.locator(
        'fieldset.judge-moves[data-judge="2"] button[data-on-board]:not(.secondary)'
    )
    to = button.first.get_attribute("data-on-board")
    button.first.click()
    phantom.locator(f'g.piece.judge[data-judge="2"][data-cell="{to}"]').wait_for()
    chopper.locator(f'g.piece.judge[data-judge="2"][data-cell="{to}"]').wait_for()
    assert table.actions[-1]["judge"] == 2
    assert app.extensions["lawmaster.unexpected"] == []


#: Every visible text of the map as drawn: its class, words, rendered size (CSS px) and box.
MAP_TEXTS = """() => { const svg = document.querySelector('svg.graffiti-board');
  const out = [];
  for (const t of svg.querySelectorAll('text')) {
    if (!t.getClientRects().length) continue;
    const r = t.getBoundingClientRect();
    out.push({cls: t.getAttribute('class') || '', text: t.textContent,
      px: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a,
      box: [r.left, r.top, r.right, r.bottom]});
  }
  const s = svg.getBoundingClientRect();
  return {texts: out, svg: [s.left, s.top, s.right, s.bottom]}; }"""


def _overlap(a, b) -> float:
    """The area two boxes share (0 when they only touch)."""
    width = min(a[2], b[2]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[1], b[1])
    return max(width, 0) * max(height, 0)


@pytest.mark.parametrize("size", [(1024, 768), (768, 1024)])
def test_graffiti_table_browser_place_names_are_tablet_sized(live, browser, size):
    table, url, app = live
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    try:
        page = context.new_page()
        for where in (f"/seat/{table.token('chopper')}", "/table?qr=0"):
            page.goto(url + where)
            drawn = page.evaluate(MAP_TEXTS)
            places = [t for t in drawn["texts"] if t["cls"] == "place"]
            assert len(places) == 27  # every location of the standard map is named
            # Arm's length on a 10-inch tablet: 16 px or more, the hint under the map too.
            small = [(t["text"], round(t["px"], 1)) for t in drawn["texts"] if t["px"] < 16]
            assert not [s for s in small if s[0] in {p["text"] for p in places}], (size, small)
            hint = next(t for t in drawn["texts"] if t["cls"] == "map-hint")
            assert hint["px"] >= 16
            # No name runs off the map or over another name, a prestige figure or a piece.
            left, top, right, bottom = drawn["svg"]
            for place in places:
                box = place["box"]
                assert left <= box[0] and box[2] <= right and top <= box[1], place
                others = [t for t in drawn["texts"] if t is not place and t["cls"] != "map-hint"]
                hit = [t["text"] for t in others if _overlap(box, t["box"]) > 1]
                assert not hit, (size, where, place["text"], hit)
    finally:
        context.close()


def test_graffiti_table_browser_a_tapped_hex_shows_its_full_name(live, context):
    table, url, app = live
    page = context.new_page()
    page.goto(f"{url}/seat/{table.token('phantom')}")
    caption = page.locator("svg.graffiti-board text.caption:visible")
    assert caption.count() == 0
    assert page.locator("svg.graffiti-board text.map-hint").is_visible()
    # A short name on the map, the whole one under it on a tap.
    dome = page.locator('svg.graffiti-board g.hex[data-cell="aggro-dome"]')
    assert "Aggro" in page.locator("svg.graffiti-board text.place").all_text_contents()
    dome.click()
    assert caption.text_content() == "Aggro Dome — Landmark, prestige 3"
    assert not page.locator("svg.graffiti-board text.map-hint").is_visible()
    # A street by the name the move buttons give it.
    page.locator('svg.graffiti-board g.hex[data-cell="-1,5"] polygon').first.click()
    street = know.place(board_of({}), "-1,5")
    assert street.startswith("the street ")
    assert caption.text_content() == "T" + street[1:]
    # The list beside the map says what the short names stand for.
    names = page.locator('details[data-key="map-names"]')
    names.locator("summary").click()
    assert "Aggro: Aggro Dome" in names.inner_text()
