"""The dashboard in headless Chromium (Debian's /usr/bin/chromium via playwright),
served by waitress on 127.0.0.1: join from the QR code, live moves over SSE, dice
entered on the tablet, an illegal move flagged and cleared, pages without scripts,
portrait and landscape."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from web_qr import decode_svg
from web_support import device_of, gw_header, live_server, make_host

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not at /usr/bin/chromium"),
]
WAIT = 15_000  # ms; generous for a loaded CI machine, never asserted as a duration


@pytest.fixture
def game(tmp_path):
    host = make_host(tmp_path)
    header = gw_header(3, ["red", "green"])
    header["trumps"] = ["infiltrator", "helicopter", "informer"]
    table = host.new_game(header)
    with live_server(host) as live:
        yield host, table, live


def open_live(context, url):
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector('body[data-live="1"]')  # the EventSource is open
    return page


def test_web_browser_join_a_seat_from_its_qr_code(game, context):
    host, table, live = game
    page = context.new_page()
    # The table's own screen: paired with the screen link, so it shows the seats' codes.
    page.goto(f"{live.url}/screen/{live.app.extensions['lawmaster.access'].screen_token}")
    assert page.url == f"{live.url}/table"
    assert page.locator("svg.board").is_visible()
    for seat in table.seats():
        card = page.locator(f'li.qr-card[data-seat="{seat}"]')
        svg = card.locator("svg.qr")
        assert svg.is_visible()
        href = card.locator("a").get_attribute("href")
        assert href == f"{live.url}/join/{table.token(seat)}"
        assert decode_svg(svg.evaluate("e => e.outerHTML")) == href
    url = decode_svg(
        page.locator('li.qr-card[data-seat="red"] svg.qr').evaluate("e => e.outerHTML")
    )
    page.goto(url)
    assert page.locator(".action-bar .bar-name").inner_text() == "Red"
    assert page.locator("svg.board").is_visible()
    # Five dice to enter, each a row of faces to tap.
    assert page.locator(".prompt-enter_dice fieldset.die-row").count() == 5
    # Red's code has left the table screen; another tablet scanning it gets no view.
    page.goto(f"{live.url}/table")
    assert page.locator('li.qr-card[data-seat="red"]').count() == 0
    other = context.browser.new_context()
    try:
        stranger = other.new_page()
        stranger.goto(url)
        assert "open on another tablet" in stranger.content()
        assert stranger.locator("svg.board").count() == 0
    finally:
        other.close()
    # Let go of the seat again: the other tests of this module open red's page directly.
    live.app.extensions["lawmaster.access"].release(table.token("red"))


def test_web_browser_a_move_from_another_seat_arrives_live(game, context):
    host, table, live = game
    gw_page = open_live(context, f"{live.url}/seat/{table.token('gw')}")
    screen = open_live(context, f"{live.url}/table")
    faces = ["2", "3", "3", "4", "arrow"]
    status, answer = live.post_json(
        f"/seat/{table.token('red')}/action", {"act": "roll", "by": "red", "faces": faces}
    )
    assert status == 200 and answer["ok"]
    for page in (gw_page, screen):
        page.locator('[data-region="log"]').get_by_text("Red rolls 2, 3, 3, 4, arrow.").wait_for()
    # The criminal's move shows as public news on GW's page, never where it went.
    moves = table.snapshot("red")["view"]["asked"]["moves"]
    to = moves["3"][0]
    status, _ = live.post_json(
        f"/seat/{table.token('red')}/action", {"act": "move", "by": "red", "die": "3", "to": to}
    )
    assert status == 200
    gw_page.locator('[data-region="log"]').get_by_text("Red moves with die 3").wait_for()
    assert gw_page.locator("g.piece.criminal").count() == 0
    assert gw_page.locator('g.maybe[data-pieces~="red"]').count() > 0


def test_web_browser_enter_dice_then_choose_a_move(game, context):
    host, table, live = game
    page = open_live(context, f"{live.url}/seat/{table.token('red')}")
    # Each die's face is tapped on a die drawn as dice; the bar's button enters them.
    rows = page.locator(".prompt-enter_dice form.dice-form fieldset.die-row")
    for i, face in enumerate(["1", "2", "gw", "4", "arrow"]):
        rows.nth(i).locator(f'label.die-choice:has(input[value="{face}"])').click()
    page.locator(".action-bar button", has_text="Enter dice").click()
    page.locator(".prompt-choose_die").wait_for()
    assert table.actions[-1] == {
        "act": "roll",
        "by": "red",
        "faces": ["1", "2", "gw", "4", "arrow"],
    }
    target = page.locator(".prompt-choose_die fieldset.die-moves button").first
    label = target.inner_text()
    target.click()
    page.locator(".action-bar").get_by_text("Green is rolling the dice").wait_for()
    assert table.engine.summary(table.state)["criminals"]["red"]["position"] == label
    page.locator(f'g.piece.criminal[data-piece="red"][data-cell="{label}"]').wait_for()


def tapped(card, seat):
    """A card read by the seat's NFC reader, as the reader thread reports it."""
    from lawmaster.host.nfc.events import CardTapped

    return CardTapped("gw-brott", card, "04a1b2c3", seat, seat, "registry", 0.0)


def test_web_browser_illegal_move_is_flagged_and_cleared(game, context):
    from lawmaster.host.nfc.cards import Card

    host, table, live = game
    screen = open_live(context, f"{live.url}/table")
    red = open_live(context, f"{live.url}/seat/{table.token('red')}")
    gw = open_live(context, f"{live.url}/seat/{table.token('gw')}")

    # An illegal tablet input (posted as red's page posts it): refused with a reason;
    # nothing changes. The seat pages have no typed-input box any more.
    status, answer = live.post_json(
        f"/seat/{table.token('red')}/action",
        {"act": "move", "by": "red", "die": "3", "to": "A1"},
        cookie=device_of(context),
    )
    assert status == 409 and not answer["ok"] and answer["error"].strip()
    assert table.actions == []

    # An illegal physical input: red's evidence card tapped when red may not hand it in.
    card = table.header["evidence"]["red"][0]
    table.referee.nfc(tapped(Card(card, card, "evidence"), "red"))
    for page in (screen, red, gw):
        page.locator('.status-illegal[data-state="illegal"]').wait_for()
    # Each page shows its own seat's wording of the flag; the public one names no card.
    for seat, page in (("table", screen), ("red", red), ("gw", gw)):
        message = table.snapshot(seat)["status"]["message"]
        assert message and message in page.locator(".status-illegal").inner_text()
    assert card not in screen.locator(".status-illegal").inner_text()
    assert card not in gw.locator(".status-illegal").inner_text()

    # Play on to GW's turn, where tapping the infiltrator trump is legal: the flag clears.
    rng = random.Random(1)
    for piece in ("red", "green"):
        faces = ["1", "2", "3", "4", "arrow"]
        url = f"/seat/{table.token(piece)}/action"
        device = device_of(context) if piece == "red" else None  # red's page is this browser
        live.post_json(url, {"act": "roll", "by": piece, "faces": faces}, cookie=device)
        to = rng.choice(table.snapshot(piece)["view"]["asked"]["moves"]["2"])
        live.post_json(url, {"act": "move", "by": piece, "die": "2", "to": to}, cookie=device)
    assert table.to_act() == ["gw"]
    table.referee.nfc(tapped(Card("infiltrator", "Infiltrator", "trump"), "gw"))
    for page in (screen, red, gw):
        page.locator('[data-region="status"] [data-state="ok"]').wait_for(state="attached")
        assert page.locator(".status-illegal").count() == 0
    gw.locator('[data-region="log"]').get_by_text("GW plays the Infiltrator trump.").wait_for()


def test_web_browser_pages_work_without_scripts(game, browser):
    host, table, live = game
    context = browser.new_context(java_script_enabled=False)
    context.set_default_timeout(WAIT)
    try:
        page = context.new_page()
        page.goto(f"{live.url}/seat/{table.token('red')}")
        rows = page.locator(".prompt-enter_dice form.dice-form fieldset.die-row")
        for i in range(5):
            rows.nth(i).locator('label.die-choice:has(input[value="4"])').click()
        # The bar's button submits the dice form (a form attribute: no script needed).
        page.locator(".action-bar button", has_text="Enter dice").click()
        page.wait_for_url(f"{live.url}/seat/{table.token('red')}")
        assert page.locator(".prompt-choose_die").count() == 1
        assert "Red rolls 4, 4, 4, 4, 4." in page.locator('[data-region="log"]').inner_text()
        page.goto(f"{live.url}/table")
        assert page.locator("svg.board").is_visible()
    finally:
        context.close()


@pytest.mark.parametrize("width,height", [(768, 1024), (1024, 768), (390, 844), (1280, 800)])
def test_web_browser_tablet_portrait_and_landscape(game, browser, width, height):
    host, table, live = game
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(WAIT)
    try:
        page = context.new_page()
        for path in ("/table", f"/seat/{table.token('gw')}", f"/seat/{table.token('red')}"):
            page.goto(live.url + path)
            overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, (path, overflow)
            board = page.locator("svg.board").bounding_box()
            assert board["width"] <= width and board["height"] > 0
            # The board scales with the screen rather than keeping a fixed pixel size.
            assert board["width"] >= min(width, height) * 0.4
    finally:
        context.close()




def test_web_browser_board_move_flagged_until_put_back(tmp_path, context):
    """The real path of a physical move: magnets, hall sensors, sensing, tracker, referee."""
    from lawmaster.host.games.gw_brott.setup import DEMO_HEADER
    from lawmaster.host.sim.rig import Rig, RigBoard

    rig = Rig.for_game("gw-brott", seed=4)
    rig.board.put("gw", "gw", "J12")
    rig.board.put("red", "criminal", "jail")
    rig.board.put("green", "criminal", "jail")
    rig.run(0.3)
    host = make_host(tmp_path, {"board": True, "gw_pause": 0.01})
    table = host.new_game(DEMO_HEADER)
    board = RigBoard(rig)
    table.referee.attach_board(board)

    def run_until(when: float) -> None:
        board.run(table.referee, when - rig.now + 0.4)

    with live_server(host) as live:
        screen = open_live(context, f"{live.url}/table")
        gw = open_live(context, f"{live.url}/seat/{table.token('gw')}")
        red = open_live(context, f"{live.url}/seat/{table.token('red')}")
        faces = ["1", "2", "3", "4", "arrow"]
        live.post_json(
            f"/seat/{table.token('red')}/action",
            {"act": "roll", "by": "red", "faces": faces},
            cookie=device_of(context),
        )
        # With a board, the tablet only says the die; the piece moves on the board.
        red.locator(".prompt-choose_die button", has_text="1").first.click()
        red.locator(".prompt-move_piece").wait_for()
        # The referee's answer says what it now waits for; the page shows it.
        assert red.locator("#flash.flash-ok").inner_text().strip()
        # One step out of the jail reaches an exit only: A1 is not a legal end.
        run_until(rig.hands.lift_place("red", "A1", rig.now))
        for page in (screen, gw, red):
            page.locator(".status-illegal").wait_for()
        assert "A1" not in gw.locator('[data-region="status"]').inner_text()
        assert "A1" not in screen.locator('[data-region="status"]').inner_text()
        assert (
            table.snapshot("red")["status"]["message"]
            in red.locator(".status-illegal").inner_text()
        )
        run_until(rig.hands.lift_place("red", "jail", rig.now))
        for page in (screen, gw, red):
            page.locator('[data-region="status"] [data-state="ok"]').wait_for(state="attached")
        exit_cell = table.snapshot("red")["view"]["asked"]["moves"]["1"][0]
        run_until(rig.hands.lift_place("red", exit_cell, rig.now))
        gw.locator('[data-region="log"]').get_by_text(
            "Red moves with die 1 out of jail."
        ).wait_for()
        red.locator(f'g.piece.criminal[data-piece="red"][data-cell="{exit_cell}"]').wait_for()
        assert gw.locator("g.piece.criminal").count() == 0


def test_web_browser_gw_taps_its_path_on_the_board(game, context):
    host, table, live = game
    for piece in ("red", "green"):
        url = f"/seat/{table.token(piece)}/action"
        live.post_json(url, {"act": "roll", "by": piece, "faces": ["1", "2", "3", "4", "arrow"]})
        to = table.snapshot(piece)["view"]["asked"]["moves"]["1"][0]
        assert live.post_json(url, {"act": "move", "by": piece, "die": "1", "to": to})[0] == 200
    gw = open_live(context, f"{live.url}/seat/{table.token('gw')}")
    # GW's die is a face to tap, in the action bar.
    gw.locator('.action-bar button.die-face[data-face="2"]').click()
    path_input = gw.locator(".gw-move-form input.path-input")
    path_input.wait_for()
    # The one field that asks for the board listens at once: no need to touch it first.
    for name in ("J11", "J10"):
        gw.locator(f'svg.board g.cell[data-cell="{name}"]').click()
    assert path_input.input_value() == "J11 J10"
    assert gw.locator("svg.board g.cell.picked").count() == 2
    assert gw.locator("svg.board #route .route-step").all_text_contents() == ["1", "2"]
    gw.locator(".action-bar button", has_text="Move").click()
    gw.locator('[data-region="log"]').get_by_text("GW makes a move from J12 to J10.").wait_for()
    assert table.actions[-1] == {"act": "gw_move", "path": ["J11", "J10"]}
