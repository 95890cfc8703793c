"""Eight tables on a 1080p wall: everything fits, reads from across the room, and a blind
table is marked.

Eight tables publish to one Mosquitto: seven play on their tablets, one (GW:s brott)
reads its simulated board through the real firmware on a pty, and its scanner's
cable is pulled, so its referee pauses: the board is blind. The hall's page at
1920x1080 in Chromium shows every tile whole (nothing cut off, nothing scrolled),
whose turn it is in letters of 24 px or more, the scores in 20 px or more, and the
blind table marked as such. The picture goes to ``docs/screenshots/hall-eight-tables.png``
with ``LAWMASTER_DOC_SHOTS=1``.
"""

from __future__ import annotations

import threading

import pytest
from hall_support import WAIT, Mosquitto, wait_until
from test_hall_tables import CHROMIUM, SCREEN, _save, _shots

from lawmaster.host.bench.hall import GAMES, _seat
from lawmaster.host.config import MqttConfig
from lawmaster.host.hall import Hall, Listener, create_app
from lawmaster.host.runtime import Runtime, demo_header, open_host
from lawmaster.host.sim.hardware import SimulatedHardware
from lawmaster.host.stack import TableStages, publish
from lawmaster.host.web import make_server

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not at /usr/bin/chromium"),
]


#: The elements of a tile drawn (partly) outside it, as far as they show (an ancestor
#: that clips, such as a line ending in an ellipsis, hides the rest): tag and class of
#: the first few.
OUTSIDE = """t => {
    const r = t.getBoundingClientRect();
    return [...t.querySelectorAll('*')].filter(e => {
        let b = e.getBoundingClientRect();
        let box = {l: b.left, r: b.right, t: b.top, b: b.bottom};
        for (let a = e.parentElement; a && a !== t; a = a.parentElement) {
            if (getComputedStyle(a).overflow === 'visible') continue;
            const c = a.getBoundingClientRect();
            box = {l: Math.max(box.l, c.left), r: Math.min(box.r, c.right),
                   t: Math.max(box.t, c.top), b: Math.min(box.b, c.bottom)};
        }
        if (box.r - box.l <= 0 || box.b - box.t <= 0) return false;
        return box.l < r.left - 1 || box.r > r.right + 1 || box.t < r.top - 1
            || box.b > r.bottom + 1;
    }).slice(0, 5).map(e => e.tagName + '.' + (e.getAttribute('class') || ''));
}"""


def test_hall_eight_tables_fit_a_1080p_screen_and_a_blind_one_is_marked(browser, tmp_path):
    broker = Mosquitto(tmp_path / "broker").start()
    hall = Hall()
    listener = Listener(hall, MqttConfig(host="127.0.0.1", port=broker.port)).start()
    server = make_server(create_app(hall, language="en"), "127.0.0.1", 0)
    threading.Thread(target=server.run, daemon=True).start()
    seats = []
    runtime = None
    try:
        for i in range(7):
            mqtt = MqttConfig(host="127.0.0.1", port=broker.port, table=f"table-{i + 1}")
            seat = _seat(f"table-{i + 1}", tmp_path, GAMES[i % 3], i + 1, mqtt)
            seats.append(seat)
            for _ in range(4 + i):
                seat.play_one(i + 1)
        # The eighth reads its board; its scanner's cable is pulled.
        runtime = Runtime(open_host(str(tmp_path / "t8.db"), {"board": True, "seed": 8},
                                    demo_header("gw-brott", 8)))  # fmt: skip
        hardware = SimulatedHardware(8, board=True)
        TableStages(runtime, hardware).start()
        publish(runtime, MqttConfig(host="127.0.0.1", port=broker.port, table="table-8"))
        wait_until(lambda: len(hall.view().tables) == 8, timeout=60)
        hardware.board.unplug()
        wait_until(lambda: any(t.name == "table-8" and t.blind for t in hall.view().tables))

        context = browser.new_context(viewport=SCREEN)
        context.set_default_timeout(WAIT * 1000)
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{server.effective_port}/")
        page.wait_for_selector("#tile-table-8.blind .mark-blind")
        assert "Blind" in page.locator("#tile-table-8 .mark-blind").inner_text().title()
        tiles = page.locator(".tile")
        assert tiles.count() == 8
        for i in range(8):
            tile = tiles.nth(i)
            box = tile.bounding_box()
            assert box is not None
            # Whole on the screen, and nothing inside cut off by the tile's edge.
            assert box["x"] >= 0 and box["y"] >= 0
            assert box["x"] + box["width"] <= SCREEN["width"]
            assert box["y"] + box["height"] <= SCREEN["height"]
            clipped = tile.evaluate("t => t.scrollHeight > t.clientHeight + 1")
            assert not clipped, tile.get_attribute("id")
            # Nothing drawn past the tile's edge either (overflow a tile does not clip,
            # such as a board drawing's key spilling over its neighbours).
            outside = tile.evaluate(OUTSIDE)
            assert not outside, (tile.get_attribute("id"), outside)
            assert tile.locator("svg.board").count() == 1
        sizes = page.evaluate(
            """() => ({
                turn: Math.min(...[...document.querySelectorAll('.turn strong')]
                    .map(e => parseFloat(getComputedStyle(e).fontSize))),
                score: Math.min(...[...document.querySelectorAll('.scores li')]
                    .map(e => parseFloat(getComputedStyle(e).fontSize))),
                name: Math.min(...[...document.querySelectorAll('.tile-head h2')]
                    .map(e => parseFloat(getComputedStyle(e).fontSize))),
            })"""
        )
        assert sizes["turn"] >= 24 and sizes["score"] >= 20 and sizes["name"] >= 24, sizes
        _save(page, _shots("hall-eight-tables.png", tmp_path))
        context.close()
    finally:
        if runtime is not None:
            runtime.close()
        for seat in seats:
            seat.runtime.close()
            seat.table.journal.close()
        server.close()
        listener.close()
        broker.stop()
