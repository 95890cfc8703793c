"""Every game's table screen and seat pages as players see them, in headless Chromium.

For each game, at three moments (just set up, mid-game with a question pending,
over), every page is opened at 1024x768 and 768x1024 and checked the way a player
at arm's length would look at it: text of 16 px or more, touch targets of 44 px or
more, nothing that reads like data (JSON, a dict, an internal name, a card id),
and nothing loaded from anywhere but the table. The landscape view of each page
is saved into ``docs/screenshots/`` for the docs (``docs/TABLETS.md``).

Set ``LAWMASTER_SHOTS`` to a folder to also keep the portrait views there.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from web_support import live_server
from web_ui_games import GAMES, SEATS, new_host, to_end, to_question
from web_ui_look import reads_like_data, small_targets, small_text

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not at /usr/bin/chromium"),
]
DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
LANDSCAPE = {"width": 1024, "height": 768}
PORTRAIT = {"width": 768, "height": 1024}


def save_small(png: bytes, path: Path) -> None:
    """A screenshot as a 256-colour PNG: a tenth of the size, the same to the eye."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)


def look(browser, url: str, viewport: dict, shot: Path | None) -> list[str]:
    """Open ``url`` at ``viewport``; the problems a player would see (and save a shot)."""
    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(15_000)
    fetched: list[str] = []
    context.on("request", lambda request: fetched.append(request.url))
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector('body[data-live="1"]')
        problems = small_text(page) + small_targets(page) + reads_like_data(page)
        table = urlsplit(url).netloc
        problems += [f"fetched from elsewhere: {u}" for u in fetched if _foreign(u, table)]
        if shot is not None:
            save_small(page.screenshot(), shot)
        return problems
    finally:
        context.close()


def _foreign(url: str, table: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme not in ("data", "blob") and parts.netloc != table


@pytest.mark.parametrize("game", GAMES)
def test_web_ui_pages_every_page_reads_well_at_every_moment(game, browser, tmp_path):
    host, table, players = new_host(tmp_path, game)
    extra = os.environ.get("LAWMASTER_SHOTS")
    DOCS.mkdir(parents=True, exist_ok=True)
    problems: dict[str, list[str]] = {}
    with live_server(host) as live:
        for moment in ("setup", "question", "over"):
            if moment == "question":
                asked = to_question(table, players)
                assert table.snapshot(asked)["prompts"]
            elif moment == "over":
                to_end(table, players)
            pages = {"table": "/table", **{s: f"/seat/{table.token(s)}" for s in SEATS[game]}}
            for name, path in pages.items():
                stem = f"{game}-{moment}-{name}"
                for viewport in (LANDSCAPE, PORTRAIT):
                    wide = viewport is LANDSCAPE
                    shot = DOCS / f"{stem}.png" if wide else None
                    if not wide and extra:
                        shot = Path(extra) / f"{stem}-portrait.png"
                    found = look(browser, live.url + path, viewport, shot)
                    if found:
                        problems[f"{stem} {viewport['width']}x{viewport['height']}"] = found
    assert problems == {}
