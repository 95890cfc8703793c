"""Switching a seat page to Swedish in headless Chromium, mid-turn in GW:s brott.

The switch is a plain form in the page's top bar: pressing it reloads the page in
Swedish, and from then on the live pushes that reach the page are Swedish too. In
the status line, the prompts and the log no English is left but the names players
typed (pieces, seats) and "GW".
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from web_support import live_server
from web_ui_games import new_host, play, to_question

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not at /usr/bin/chromium"),
]

#: Words that only English sentences use (none is a Swedish word).
ENGLISH = frozenset(
    [
        "the",
        "is",
        "and",
        "your",
        "you",
        "roll",
        "rolls",
        "move",
        "moves",
        "dice",
        "die",
        "turn",
        "with",
        "to",
        "of",
        "waiting",
        "wait",
        "jail",
        "it",
        "not",
        "now",
        "has",
        "for",
        "from",
        "play",
        "pass",
        "enter",
        "choose",
        "step",
        "steps",
        "space",
        "evidence",
        "trump",
        "trumps",
        "handcuff",
        "handcuffs",
        "criminal",
        "criminals",
        "game",
        "over",
        "may",
        "must",
        "can",
        "round",
        "input",
        "undo",
        "ask",
        "nothing",
        "do",
        "arrow",
        "tablet",
        "last",
        "who",
        "which",
        "no",
        "yet",
        "left",
    ]
)
REGIONS = ("status", "prompts", "log")


def english_words(text: str, names: set[str]) -> list[str]:
    words = re.findall(r"[A-Za-zÅÄÖåäö]+", text)
    return [w for w in words if w.lower() in ENGLISH and w.lower() not in names]


def test_web_i18n_browser_the_switch_turns_a_seat_page_swedish_mid_turn(browser, tmp_path):
    host, table, players = new_host(tmp_path, "gw-brott")
    asked = to_question(table, players)
    names = {s.lower() for s in table.seats()} | {"gw"}
    with live_server(host) as live:
        context = browser.new_context(viewport={"width": 1024, "height": 768})
        context.set_default_timeout(15_000)
        page = context.new_page()
        page.goto(f"{live.url}/seat/{table.token(asked)}")
        page.wait_for_selector('body[data-live="1"]')
        assert page.get_attribute("html", "lang") == "en"
        assert "Your move" in page.inner_text("main")
        # The switch: a form in the top bar, a 44 px target, no script needed.
        button = page.get_by_role("button", name="Svenska")
        box = button.bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44
        button.click()
        page.wait_for_selector('html[lang="sv"]')
        page.wait_for_selector('body[data-live="1"]')
        assert "Ditt drag" in page.inner_text("main")

        def no_english_left() -> None:
            for region in REGIONS:
                text = page.inner_text(f'[data-region="{region}"]')
                assert not english_words(text, names), (region, text)

        no_english_left()
        # A push after the switch: the next inputs reach the page in Swedish.
        version = page.get_attribute("body", "data-version")
        assert play(table, players, 2) == 2
        page.wait_for_function("v => document.body.getAttribute('data-version') !== v", arg=version)
        # The script swaps the regions in before it records the version: they are new.
        no_english_left()
        # The other seats' pages were never switched: still English.
        other = next(s for s in ("gw", "red", "green") if s != asked)
        page.goto(f"{live.url}/seat/{table.token(other)}")
        assert page.get_attribute("html", "lang") == "en"
        context.close()
