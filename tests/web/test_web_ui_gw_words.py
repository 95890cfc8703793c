"""GW:s brott pages as a player reads them, in headless Chromium: sentences, not the view.

No seat page or table screen shows a JSON object, a dict repr, a view key or a card id;
GW's page has one shaded map per criminal whose spaces open on a tap (also without
scripts); pieces carry a letter as well as a colour.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from web_support import device_of, gw_header, live_server, make_host

from lawmaster.rules.gw_brott.cards import card_data

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not at /usr/bin/chromium"),
]
WAIT = 15_000  # ms; generous for a loaded machine, never asserted as a duration

#: Keys of the seat views: none may reach the text a player reads.
VIEW_KEYS = (
    "gw_position", "criminal_dice", "handcuffs_left", "evidence_held", "evidence_left",
    "trumps_left", "trumps_in_hand", "trumps_played", "evidence_handed_in", "to_act",
    "your_turn_to_act", "in_jail", "dice_to_roll", "may_reset", "may_destroy", "or_trump",
    "two_player", "criminal_card", "immune_to",
)  # fmt: skip
#: The same keys as the old key/value dump printed them (underscores as spaces).
SPACED_KEYS = (
    "gw position", "evidence handed in", "trumps in hand", "evidence left", "criminal card",
    "dice to roll", "or trump", "your turn to act", "two player",
)  # fmt: skip
CARD_IDS = re.compile(r"\b(?:blue|red|green|yellow|white)-\d\b")


def assert_reads_as_words(text: str) -> None:
    """What a player reads holds no JSON, dict repr, view key or card id."""
    assert not re.search(r"\{\s*['\"]", text), text
    assert not re.search(r"['\"]\s*:\s*['\"\[\{\d]", text), text
    for key in VIEW_KEYS + SPACED_KEYS:
        assert key not in text, key
    assert not CARD_IDS.search(text), CARD_IDS.search(text)
    assert "None" not in text and "True" not in text and "False" not in text


@pytest.fixture
def game(tmp_path):
    host = make_host(tmp_path)
    header = gw_header(3, ["red", "green"])
    header["trumps"] = ["infiltrator", "helicopter", "informer"]
    table = host.new_game(header)
    with live_server(host) as live:
        yield table, live


def play_to_gw(table, live, cookie: str | None = None) -> None:
    """Both criminals roll and move (``cookie``: the device that joined their seats)."""
    for piece in ("red", "green"):
        url = f"/seat/{table.token(piece)}/action"
        roll = {"act": "roll", "by": piece, "faces": ["1", "2", "3", "4", "arrow"]}
        live.post_json(url, roll, cookie=cookie)
        to = table.snapshot(piece)["view"]["asked"]["moves"]["2"][0]
        move = {"act": "move", "by": piece, "die": "2", "to": to}
        assert live.post_json(url, move, cookie=cookie)[0] == 200


def test_web_ui_gw_pages_read_as_words(game, context):
    table, live = game
    page = context.new_page()
    red_view = table.snapshot("red")["view"]
    page.goto(f"{live.url}/seat/{table.token('red')}")
    text = page.locator("main").inner_text()
    assert_reads_as_words(text)
    # The criminal's own cards by their printed names, with the space of each.
    names = {c["id"]: c["name"] for c in card_data()["evidence"]}
    cards = page.locator(".gw-extras li.gw-card.evidence")
    assert cards.count() == len(red_view["evidence_held"])
    for card in red_view["evidence_held"]:
        cell = red_view["board"]["evidence"][card]
        assert page.locator(".gw-card", has_text=names[card]).get_by_text(f"Space {cell}").count()
    assert "Your turn: roll the 5 dice not showing GW." in text
    # This browser is the one device of every seat here: it joins the others too.
    for seat in ("green", "gw"):
        page.goto(f"{live.url}/seat/{table.token(seat)}")
    play_to_gw(table, live, device_of(context))
    for path in (f"/seat/{table.token(s)}" for s in ("gw", "red", "green")):
        page.goto(live.url + path)
        assert_reads_as_words(page.locator("main").inner_text())
    page.goto(f"{live.url}/table")
    assert_reads_as_words(page.locator("main").inner_text())
    # The log is sentences naming pieces and places.
    log = page.locator('[data-region="log"]').inner_text()
    assert "Red moves with die 2 out of jail." in log
    assert "GW holds" not in log  # GW's trumps are GW's own news, not the table's


def test_web_ui_gw_deduction_map_per_criminal_and_tap_to_list(game, context):
    table, live = game
    play_to_gw(table, live)
    page = context.new_page()
    page.goto(f"{live.url}/seat/{table.token('gw')}")
    deduction = table.snapshot("gw")["view"]["deduction"]
    for piece in ("red", "green"):
        cells = sorted(c for c in deduction[piece] if c != "jail")
        card = page.locator(f'li.gw-suspect[data-piece="{piece}"]')
        # Letter as well as colour; the map shades exactly the spaces the view gives.
        assert card.locator(".chip").inner_text() == piece[0].upper()
        shaded = card.locator("svg.gw-mini rect.mini-maybe")
        assert sorted(shaded.evaluate_all("rs => rs.map(r => r.dataset.cell)")) == cells
        # Shaded in the board key's greyscale steps (how likely), not by colour alone.
        step = "rs => rs.map(r => r.getAttribute('class').match(/\\bl(\\d)\\b/)[1])"
        levels = set(shaded.evaluate_all(step))
        assert levels and levels <= {"0", "1", "2", "3"}
        # The map is large and has its coordinates.
        assert card.locator("svg.gw-mini").bounding_box()["width"] >= 240
        assert card.locator("svg.gw-mini text", has_text="A").count() == 1
        listed = card.locator("details.gw-cells p")
        assert not listed.is_visible()
        card.locator("details.gw-cells summary").click()
        assert listed.is_visible()
        assert set(re.findall(r"\b[A-Z]\d+\b", listed.inner_text())) == set(cells)
        box = card.locator("details.gw-cells summary").bounding_box()
        assert box["height"] >= 44
    # Main board: every mark names the pieces that may be there by letter.
    marks = page.locator("svg.gw-board g.maybe text.pt")
    labels = marks.evaluate_all("ts => ts.map(t => t.textContent)")
    assert labels and set("".join(labels)) == {"R", "G"}


def test_web_ui_gw_deduction_opens_without_scripts(game, browser):
    table, live = game
    play_to_gw(table, live)
    context = browser.new_context(java_script_enabled=False)
    context.set_default_timeout(WAIT)
    try:
        page = context.new_page()
        page.goto(f"{live.url}/seat/{table.token('gw')}")
        summary = page.locator('li.gw-suspect[data-piece="red"] details.gw-cells summary')
        summary.click()
        assert page.locator('li.gw-suspect[data-piece="red"] details.gw-cells p').is_visible()
    finally:
        context.close()


def test_web_ui_gw_trumps_and_handcuffs_in_words(game, context):
    table, live = game
    play_to_gw(table, live)
    page = context.new_page()
    page.goto(f"{live.url}/seat/{table.token('gw')}")
    extras = page.locator('[data-region="extras"]')
    for trump in card_data()["trumps"]:
        if trump["id"] in ("infiltrator", "helicopter", "informer"):
            assert extras.locator(".gw-card.trump", has_text=trump["name"]).count() == 1
            assert trump["text"] in extras.inner_text()
    handcuffs = table.snapshot("gw")["view"]["handcuffs_left"]
    assert f"You have {handcuffs} handcuffs left." in extras.inner_text()
    assert "Your turn: roll your die" in extras.inner_text()
    buttons = page.locator('[data-region="prompts"] .trump-form button').all_inner_texts()
    assert "Play Helicopter" in buttons
