"""Every game's table screen and seat pages as players see them, in headless Chromium.

For each game, at three moments (just set up, mid-game with a question pending,
over), its pages are opened at 1024x768 (and, mid-game, 768x1024 and a 390x844 phone) and
checked the way a player
at arm's length would look at it: text of 16 px or more, touch targets of 44 px or
more, nothing that reads like data (JSON, a dict, an internal name, a card id),
and nothing loaded from anywhere but the table. The landscape view of the table
screen and of one or two seats is saved as a picture; with ``LAWMASTER_DOC_SHOTS=1``
into ``docs/screenshots/`` for the docs (``docs/TABLETS.md``), else into a
temporary folder, so a test run never edits the source tree.

Set ``LAWMASTER_SHOTS`` to a folder to also keep the portrait views there, and
``LAWMASTER_LOOK_REPORT`` to a folder for every finding as JSON, per game.
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from web_support import live_server
from web_ui_games import GAMES, new_host, to_end, to_question
from web_ui_look import FRAME, problems

from lawmaster.host.web.i18n import COOKIE, seat_key

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not at /usr/bin/chromium"),
]
DOC_SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
LANDSCAPE = {"width": 1024, "height": 768}
PORTRAIT = {"width": 768, "height": 1024}
PHONE = {"width": 390, "height": 844}


def save_small(png: bytes, path: Path) -> None:
    """A screenshot as a 256-colour PNG: a tenth of the size, the same to the eye."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)


#: Pages pictured per game besides the table screen: both sides of GW:s brott, one
#: seat of the others (their seats' pages look alike).
PICTURED = {
    "gw-brott": ("gw", "red"),
    "judge-dredd": ("hershey",),
    "unamerican-graffiti": ("chopper",),
}
MOMENTS = ("setup", "question", "over")


class Look:
    """One tab that visits pages and records what a player would see on them."""

    def __init__(self, browser) -> None:
        self.context = browser.new_context(viewport=LANDSCAPE)
        self.context.set_default_timeout(15_000)
        self.fetched: list[str] = []
        self.context.on("request", lambda request: self.fetched.append(request.url))
        self.page = self.context.new_page()

    def pair(self, live) -> None:
        """This tab is the Pi's own display too: the table screen paired by the screen link
        (it shows the seats' codes). Its seats' pages it claims as a player's tablet does,
        the first time it opens each (the page sends an unclaimed seat to its code)."""
        token = live.app.extensions["lawmaster.access"].screen_token
        self.page.goto(f"{live.url}/screen/{token}")

    def speak(self, url: str, scopes: list[str], language: str) -> None:
        """Every page of ``scopes`` (a seat's key, "table") in ``language`` from now on."""
        value = "|".join(f"{scope}.{language}" for scope in scopes)
        self.context.add_cookies([{"name": COOKIE, "value": value, "url": url}])

    def visit(self, url: str, viewport: dict, shot: Path | None) -> dict[str, list[str]]:
        """The frame's problems and the whole page's, at ``viewport`` (and a saved shot)."""
        self.page.set_viewport_size(viewport)
        self.fetched.clear()
        self.page.goto(url)
        self.page.wait_for_selector('body[data-live="1"]')
        table = urlsplit(url).netloc
        foreign = [f"fetched from elsewhere: {u}" for u in self.fetched if _foreign(u, table)]
        if shot is not None:
            save_small(self.page.screenshot(), shot)
        return {"frame": problems(self.page, FRAME) + foreign, "page": problems(self.page)}

    def close(self) -> None:
        self.context.close()


def _foreign(url: str, table: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme not in ("data", "blob") and parts.netloc != table


@pytest.fixture(scope="module", params=GAMES)
def looked(request, browser, tmp_path_factory):
    """Each game's pages at each moment: per page, the frame's problems and the page's.

    Every pictured page is saved at 1024x768; with a question pending, each is also
    checked at 768x1024 (``LAWMASTER_SHOTS`` keeps those pictures too).
    """
    game = request.param
    host, table, players = new_host(tmp_path_factory.mktemp(game), game)
    extra = os.environ.get("LAWMASTER_SHOTS")
    to_docs = os.environ.get("LAWMASTER_DOC_SHOTS") == "1"
    shots = DOC_SHOTS if to_docs else tmp_path_factory.mktemp(f"{game}-shots")
    shots.mkdir(parents=True, exist_ok=True)
    found: dict[str, dict[str, list[str]]] = {}
    look = Look(browser)
    try:
        # The address a table's tablets reach it by (a Pi's own hotspot), so the
        # table screen's codes are ones a tablet could scan.
        with live_server(host, PUBLIC_URL="http://192.168.4.1:8080") as live:
            look.pair(live)
            for moment in MOMENTS:
                if moment == "question":
                    assert table.snapshot(to_question(table, players))["prompts"]
                elif moment == "over":
                    to_end(table, players)
                seats = PICTURED[game]
                for name in ("table", *seats):
                    path = "/table" if name == "table" else f"/seat/{table.token(name)}"
                    stem = f"{game}-{moment}-{name}"
                    shot = (
                        shots / f"{stem}.png" if name == "table" or name in PICTURED[game] else None
                    )
                    found[stem] = look.visit(live.url + path, LANDSCAPE, shot)
                    if moment == "question":
                        tall = Path(extra) / f"{stem}-portrait.png" if extra else None
                        found[f"{stem} portrait"] = look.visit(live.url + path, PORTRAIT, tall)
                        # A phone too: the docs show the pictured seats' phones.
                        phone = shots / f"{stem}-phone.png" if shot is not None else None
                        found[f"{stem} phone"] = look.visit(live.url + path, PHONE, phone)
    finally:
        look.close()
    if report := os.environ.get("LAWMASTER_LOOK_REPORT"):
        # Every finding, for the people who draw each game's pages.
        Path(report).mkdir(parents=True, exist_ok=True)
        (Path(report) / f"{game}.json").write_text(json.dumps(found, indent=1))
    return game, found


def test_web_ui_pages_the_shared_frame_reads_well(looked):
    # Header, status, flash, panel titles, undo, release, join codes: 16 px text,
    # 44 px targets, words only, nothing fetched from elsewhere, on every page.
    game, found = looked
    assert {page: seen["frame"] for page, seen in found.items() if seen["frame"]} == {}


#: What the whole-page check still finds inside a game's own board, panels or log
#: (drawn by that game's renderer, which is another group's work at this time). The
#: mark is strict: once the game's pages read well, the test says to remove it.
GAME_FINDINGS: dict[str, str] = {}


def test_web_ui_pages_every_page_reads_well(looked, request):
    game, found = looked
    if game in GAME_FINDINGS:
        request.applymarker(pytest.mark.xfail(strict=True, reason=GAME_FINDINGS[game]))
    assert {page: seen["page"] for page, seen in found.items() if seen["page"]} == {}


#: GW:s brott is a Swedish game: its table screen and both sides' pages are looked at in
#: Swedish too, mid-game (Swedish words are longer: nothing may run out of its box).
SWEDISH = ("table", "gw", "red")


@pytest.fixture(scope="module")
def looked_swedish(browser, tmp_path_factory):
    """GW:s brott's pages in Swedish with a question pending, as ``looked`` checks them."""
    host, table, players = new_host(tmp_path_factory.mktemp("gw-brott-sv"), "gw-brott")
    to_docs = os.environ.get("LAWMASTER_DOC_SHOTS") == "1"
    shots = DOC_SHOTS if to_docs else tmp_path_factory.mktemp("gw-brott-sv-shots")
    shots.mkdir(parents=True, exist_ok=True)
    extra = os.environ.get("LAWMASTER_SHOTS")
    found: dict[str, dict[str, list[str]]] = {}
    look = Look(browser)
    try:
        with live_server(host, PUBLIC_URL="http://192.168.4.1:8080") as live:
            look.pair(live)
            assert table.snapshot(to_question(table, players))["prompts"]
            scopes = ["table", *(seat_key(table.token(s)) for s in SWEDISH if s != "table")]
            look.speak(live.url, scopes, "sv")
            for name in SWEDISH:
                path = "/table" if name == "table" else f"/seat/{table.token(name)}"
                stem = f"gw-brott-question-{name}-sv"
                found[stem] = look.visit(live.url + path, LANDSCAPE, shots / f"{stem}.png")
                assert look.page.get_attribute("html", "lang") == "sv"
                tall = Path(extra) / f"{stem}-portrait.png" if extra else None
                found[f"{stem} portrait"] = look.visit(live.url + path, PORTRAIT, tall)
    finally:
        look.close()
    return found


def test_web_ui_pages_swedish_pages_read_well(looked_swedish):
    # The frame and the whole page, as in English: 16 px text, 44 px targets, words only.
    assert {page: seen["frame"] for page, seen in looked_swedish.items() if seen["frame"]} == {}
    assert {page: seen["page"] for page, seen in looked_swedish.items() if seen["page"]} == {}
