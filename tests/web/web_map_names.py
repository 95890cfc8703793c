"""Figures for the maps (not a test): the smallest place name each map draws, in CSS px.

Run: ``python tests/web/web_map_names.py``. Judge Dredd's and Unamerican Graffiti's
tables are played by the simulated players to a question, served on 127.0.0.1,
and their table screen and one seat's page are opened in headless Chromium at the
tablet sizes; for each, the rendered size of the smallest place name on the map
(its font size times the map's scale on screen) and the map's scale are printed.
The browser tests assert 16 px or more; this prints the figures.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from web_support import live_server  # noqa: E402
from web_ui_games import new_host, to_question  # noqa: E402

#: The map and its names, per game.
MAPS = {
    "judge-dredd": ("svg.dredd-map", ".sector-name", "hershey"),
    "unamerican-graffiti": ("svg.graffiti-board", "text.place", "chopper"),
}
SIZES = ((1024, 768), (768, 1024), (800, 1280), (1280, 800))
SMALLEST = """([map, names]) => { const svg = document.querySelector(map);
  const px = [...svg.querySelectorAll(names)].filter(t => t.getClientRects().length)
    .map(t => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a);
  return {names: px.length, smallest: Math.min(...px), scale: svg.getScreenCTM().a}; }"""


def main() -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path="/usr/bin/chromium", headless=True, args=["--no-sandbox"]
        )
        for game, (map_, names, seat) in MAPS.items():
            host, table, players = new_host(Path(tempfile.mkdtemp()), game)
            to_question(table, players)
            with live_server(host) as live:
                for width, height in SIZES:
                    context = browser.new_context(viewport={"width": width, "height": height})
                    page = context.new_page()
                    for name, path in (
                        ("table", "/table?qr=0"),
                        (seat, f"/seat/{table.token(seat)}"),
                    ):
                        page.goto(live.url + path)
                        page.wait_for_selector('body[data-live="1"]')
                        found = page.evaluate(SMALLEST, [map_, names])
                        print(
                            f"{game:20} {f'{width}x{height}':9} {name:8} {found['names']:3} names,"
                            f" smallest {found['smallest']:.1f} px (map at"
                            f" {found['scale']:.3f} px per unit)"
                        )
                    context.close()
        browser.close()


if __name__ == "__main__":
    main()
