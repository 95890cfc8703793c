"""A seat page of the race in headless Chromium (Debian's, through playwright).

The page is served by waitress as at a table, drawn by the race's own seat
pages: its SVG board, its prompt in words, its own move buttons (from the
game's template). A move made on red's page is applied, and blue's page
updates live with its own prompt and the log's sentence.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from plugins_support import SLUG

from lawmaster.host.journal import Journal
from lawmaster.host.table import Table, TableHost
from lawmaster.host.web import create_app, make_server, stop

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not at /usr/bin/chromium"),
]


@pytest.fixture
def live(toy: Path, tmp_path: Path) -> Iterator[tuple[Table, str, dict]]:
    host = TableHost(Journal(tmp_path / "journal.db"), {})
    table = host.new_game({"game": SLUG, "first": "red"})
    app = create_app(host)
    server = make_server(app, "127.0.0.1", 0)
    thread = threading.Thread(target=server.run, name="waitress", daemon=True)
    thread.start()
    try:
        yield table, f"http://127.0.0.1:{server.effective_port}", app.extensions
    finally:
        stop(server)
        thread.join(timeout=10)
        host.journal.close()


def _open(context, url: str):
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector('body[data-live="1"]')  # the event stream is open
    return page


def test_plugins_browser_a_move_made_on_the_seat_page_is_applied(live, context):
    table, url, extensions = live
    red = _open(context, f"{url}/seat/{table.token('red')}")
    blue = _open(context, f"{url}/seat/{table.token('blue')}")

    # The race's own drawing: two lanes of cells, each piece on its start.
    assert red.locator("svg.race-board g.cell").count() == 8
    red.locator('svg.race-board g.piece[data-piece="red"][data-cell="a1"]').wait_for()
    # The prompt in words, and the game's own buttons for the cells red may step to.
    prompts = red.locator('[data-region="prompts"]')
    assert "Your turn: move your piece from a1 one cell on" in prompts.inner_text()
    buttons = prompts.locator("form.race-move-form button")
    assert sorted(buttons.all_inner_texts()) == ["Move to a2"]
    assert blue.locator('[data-region="prompts"] form.race-move-form').count() == 0

    buttons.filter(has_text="Move to a2").click()
    red.locator('svg.race-board g.piece[data-piece="red"][data-cell="a2"]').wait_for()
    assert table.actions == [{"act": "move", "by": "red", "to": "a2"}]
    assert table.journal.open_game().entries[-1].source == "tablet"

    # Blue's page follows live: the piece, the log's sentence, and now its own prompt.
    blue.locator('svg.race-board g.piece[data-piece="red"][data-cell="a2"]').wait_for()
    blue.get_by_text("Red moved from a1 to a2.").wait_for()
    blue.locator("form.race-move-form button").first.wait_for()
    offered = blue.locator("form.race-move-form button").all_inner_texts()
    assert sorted(offered) == ["Move to a1", "Move to b2"]
    assert extensions["lawmaster.unexpected"] == []
