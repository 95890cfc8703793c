"""A Judge's hand in headless Chromium: cards with names and effect text, the odds bar shown
before the commit, a tap on a card commits it, and no page a player or the table screen
shows holds a JSON object, a dict repr or an internal id."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from dredd_table_support import served_combat
from test_dredd_table_ui_words import LEAKS, internal_ids

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not at /usr/bin/chromium"),
]


@pytest.fixture
def combat(tmp_path, monkeypatch):
    """a fights the Perp in Channel 99 holding Fergee; b holds an Aah-Ankle Trap!."""
    hands = {"a": ["fergee-1", "robo-dogs-1"], "b": ["aah-ankle-trap-1"]}
    with served_combat(tmp_path, hands) as served:
        yield served


def assert_no_leak(text: str, where: str) -> None:
    found = LEAKS.search(text)
    assert found is None, (where, found and text[max(found.start() - 60, 0) : found.end() + 60])
    ids = [i for i in internal_ids() if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", text)]
    assert not ids, (where, ids)


def test_dredd_table_ui_browser_hand_is_cards_and_odds_come_before_commit(combat, context):
    from playwright.sync_api import expect

    table, url = combat
    page = context.new_page()
    page.goto(f"{url}/seat/{table.token('a')}")
    commit = page.locator('.prompt-jd[data-act="commit"]')
    # The hand as small cards side by side: printed name, type, what it does in the fight
    # (its badge), its effect text on a long press (its title).
    cards = commit.locator(".jd-card")
    expect(cards).to_have_count(2)
    fergee = commit.locator(".jd-card", has_text="Fergee")
    expect(fergee.locator(".jd-card-name")).to_have_text("Fergee")
    expect(fergee.locator(".jd-card-kind")).to_have_text("Combat")
    expect(fergee).to_have_attribute("title", re.compile("the slugger from the Old Ohio River"))
    expect(fergee.locator(".jd-card-badge")).to_have_text("+1 die")
    # The odds bar is there, in the commit block, above the cards, before anything is added.
    odds = commit.locator(".odds")
    expect(odds).to_be_visible()
    expect(odds.locator("svg.odds-bar rect")).to_have_count(3)
    win = table.snapshot("a")["view"]["you"]["odds"]["win"]
    expect(odds).to_have_attribute("data-win", str(win))
    odds_box = odds.bounding_box()
    card_box = cards.first.bounding_box()
    assert odds_box["y"] + odds_box["height"] <= card_box["y"]
    assert not [c for c in table.state["combat"]["cards"]]  # nothing committed yet
    # Every card button is a touch target of at least 44 px.
    for box in (b.bounding_box() for b in commit.locator("button").all()):
        assert box["height"] >= 44 and box["width"] >= 44
    # No JSON, dict or id on the page a player reads.
    assert_no_leak(page.locator("body").inner_text(), "a")
    # A tap on the card commits it.
    fergee.click()
    expect(page.locator('.prompt-jd[data-act="commit"] .jd-card')).to_have_count(1)
    assert table.actions[-1] == {"act": "commit", "by": "a", "card": "fergee-1"}
    expect(page.locator(".log")).to_contain_text("Judge A adds a card face down to their own")
    assert_no_leak(page.locator("body").inner_text(), "a after commit")
    # The other Judge's page and the table screen: the same hold.
    for where in (f"/seat/{table.token('b')}", "/table"):
        page.goto(url + where)
        expect(page.locator("svg.dredd-map")).to_be_visible()
        text = page.locator("body").inner_text()
        assert_no_leak(text, where)
        assert "Fergee" not in text  # a's face-down card stays a's secret


#: Per sector name line on the map: its words, rendered size (CSS px), its box and the box
#: of its Sector (the box of the Sector whose centre is nearest).
SECTOR_NAMES = """() => { const svg = document.querySelector('svg.dredd-map');
  const boxes = [...svg.querySelectorAll('g.sector rect')].map(r => r.getBoundingClientRect());
  const out = [];
  for (const t of svg.querySelectorAll('.sector-name')) {
    const r = t.getBoundingClientRect();
    const cx = (r.left + r.right) / 2, cy = (r.top + r.bottom) / 2;
    const box = boxes.find(b => b.left <= cx && cx <= b.right && b.top <= cy && cy <= b.bottom);
    out.push({text: t.textContent, px: parseFloat(getComputedStyle(t).fontSize)
      * t.getScreenCTM().a, box: [r.left, r.right], sector: box && [box.left, box.right]});
  }
  const standees = [...svg.querySelectorAll('.standee-label')].map(
    t => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a);
  return {names: out, standee: Math.min(...standees)}; }"""


#: Tablets up to 1024 px wide, both ways round (and a wider one in landscape).
TABLETS = [(1024, 768), (768, 1024), (800, 1280), (1280, 800)]


@pytest.mark.parametrize("size", TABLETS)
def test_dredd_table_ui_browser_map_labels_are_tablet_sized(combat, browser, size):
    table, url = combat
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    try:
        page = context.new_page()
        for where in (f"/seat/{table.token('a')}", "/table?qr=0"):
            page.goto(url + where)
            drawn = page.evaluate(SECTOR_NAMES)
            names = drawn["names"]
            assert len({n["text"] for n in names}) > 28  # every Sector named, some in 2 lines
            # A 10-inch tablet at arm's length: Sector names 16 px or more, each line inside
            # its Sector's box; standee letters at least 11 px.
            small = [(n["text"], round(n["px"], 1)) for n in names if n["px"] < 16]
            assert not small, (size, where, small)
            wide = [n["text"] for n in names if not n["sector"]
                    or n["box"][0] < n["sector"][0] or n["box"][1] > n["sector"][1]]  # fmt: skip
            assert not wide, (size, where, wide)
            assert drawn["standee"] >= 11, (size, where)
    finally:
        context.close()


def test_dredd_table_ui_browser_a_tapped_sector_shows_its_full_name(combat, context):
    table, url = combat
    page = context.new_page()
    page.goto(f"{url}/seat/{table.token('b')}")
    caption = page.locator("svg.dredd-map text.caption:visible")
    assert caption.count() == 0
    hospital = page.locator('svg.dredd-map g.sector[data-sector="justice-department-hospital"]')
    assert "Hospital" in page.locator("svg.dredd-map .sector-name").all_text_contents()
    hospital.locator("rect").click()
    assert caption.text_content() == "Justice Department Hospital"
    assert not page.locator("svg.dredd-map text.map-hint").is_visible()
    names = page.locator('details[data-key="map-names"]')
    names.locator("summary").click()
    assert "Hospital: Justice Department Hospital" in names.inner_text()
