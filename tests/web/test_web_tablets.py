"""The tablets as players check them, in Chromium at 1024x768 and 390x844, in English and
Swedish: whose turn it is and what to do (the action bar), marks one can read on the
maps, nothing cut off, choosing on the picture, one colour per player for the whole
game, the end of the game as an event, Judge Dredd's compact combat, the table screen,
and live pushes that draw the same page as a fresh load.

Each test plays its own table (the simulated players of ``web_ui_games``) and loads few
pages, each checked for several things at once; the browser is shared by the module.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from web_support import live_server
from web_tablets import (
    chip_colours,
    clipped_text,
    doc_shot,
    english_words,
    map_text_too_small,
    overlapping_map_text,
)
from web_ui_games import GAMES, new_host, play, to_end, to_question

from lawmaster.host.web.i18n import COOKIE, seat_key

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not at /usr/bin/chromium"),
]
TABLET = {"width": 1024, "height": 768}
PHONE = {"width": 390, "height": 844}
WAIT = 15_000  # ms; generous for a loaded machine, never asserted as a duration
YOUR_TURN = {"en": "Your turn:", "sv": "Din tur:"}


def open_page(browser: Any, live: Any, path: str, viewport: dict, language: str, table: Any):
    """A new tab on ``path`` at ``viewport``, every page of the table in ``language``.

    A seat's page is opened as its player's tablet opens it: the first time, its code's
    link claims the seat for this browser (the seat's page sends an unclaimed seat to
    it); later, with the device cookie that claim left, as the same tablet. The table
    screen is the Pi's own display, paired by the screen link.
    """
    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(WAIT)
    scopes = ["table", *(seat_key(table.token(s)) for s in table.seats())]
    value = "|".join(f"{scope}.{language}" for scope in scopes)
    context.add_cookies([{"name": COOKIE, "value": value, "url": live.url}])
    known = live.devices.get(path)
    if known:
        context.add_cookies(known)
    page = context.new_page()
    if path == "/table" and not known:
        page.goto(f"{live.url}/screen/{live.app.extensions['lawmaster.access'].screen_token}")
    page.goto(live.url + path)
    page.wait_for_selector('body[data-live="1"]')
    kept = ("lawmaster_device", "lawmaster_screen")
    live.devices[path] = [c for c in context.cookies() if c["name"] in kept]
    return context, page


def seat_path(table: Any, seat: str) -> str:
    return "/table" if seat == "table" else f"/seat/{table.token(seat)}"


def bar_findings(page: Any, name: str, language: str, acting: bool, viewport: dict) -> list[str]:
    """The action bar names the seat and, on the acting seat's page, its turn and step; it
    is above the fold, and stays at the top when the page scrolls."""
    found = []
    bar = page.locator(".action-bar .bar")
    text = bar.inner_text()
    if name not in text:
        found.append(f"the bar does not name {name}: {text!r}")
    if acting and not re.search(re.escape(YOUR_TURN[language]) + r"\s*\w+", text):
        found.append(f"the bar does not say the turn and the step: {text!r}")
    box = bar.bounding_box()
    if box is None or box["y"] < 0 or box["y"] + box["height"] > viewport["height"]:
        found.append(f"the bar is not above the fold: {box}")
    page.mouse.wheel(0, 900)
    page.wait_for_timeout(100)
    moved = bar.bounding_box()
    if moved is None or moved["y"] > 2:
        found.append(f"the bar does not stay at the top when the page scrolls: {moved}")
    page.mouse.wheel(0, -2000)
    return found


@pytest.mark.parametrize("game", GAMES)
def test_web_tablets_the_acting_seat_reads_its_turn_on_both_sizes_in_both_languages(
    game, browser, tmp_path
):
    """On the acting seat's page and a waiting seat's, at 1024x768 and 390x844, in English
    and Swedish: the bar (seat, step, above the fold, sticky), nothing cut off, every map
    mark 16 px or more and none over another at 1024x768, no English on Swedish pages."""
    host, table, players = new_host(tmp_path, game)
    acting = to_question(table, players)
    waiting = next(s for s in table.seats() if s != acting)
    found: dict[str, list[str]] = {}
    with live_server(host) as live:
        for language in ("en", "sv"):
            for size, viewport in (("tablet", TABLET), ("phone", PHONE)):
                for seat in (acting, waiting, "table"):
                    if seat == waiting and size == "phone":
                        continue  # the waiting seat's page is checked once per language
                    context, page = open_page(
                        browser, live, seat_path(table, seat), viewport, language, table
                    )
                    try:
                        problems = clipped_text(page)
                        if seat != "table":
                            bar = page.locator(".bar[data-seat]").get_attribute("data-seat")
                            assert bar == seat
                            name = page.locator(".bar-name").inner_text()
                            problems += bar_findings(page, name, language, seat == acting, viewport)
                        if viewport is TABLET:
                            problems += map_text_too_small(page) + overlapping_map_text(page)
                        if language == "sv":
                            problems += english_words(page)
                        if problems:
                            found[f"{seat} {size} {language}"] = problems
                    finally:
                        context.close()
    assert found == {}


def _tap_and_wait(page: Any, table: Any, target: str, before: int) -> None:
    """Tap ``target`` on the board: the bar asks to confirm the choice there; tap it again
    (with two choices for one place, the bar's first)."""
    # Its own shape (a tapped place shows its name in the strip under the map, which
    # widens the place's box).
    place = page.locator(target).first.locator(":scope > rect, :scope > polygon").first
    place.click()
    confirm = page.locator(".action-bar #chooser button.chooser-go")
    confirm.first.wait_for()
    assert len(table.actions) == before, "a single tap played the move"
    if confirm.count() == 1:
        place.click()
    else:
        confirm.first.click()
    for _ in range(200):
        if len(table.actions) > before:
            return
        page.wait_for_timeout(50)
    raise AssertionError("tapping the board played no move")


@pytest.mark.parametrize("game", GAMES)
def test_web_tablets_choosing_a_place_by_tapping_it_plays_the_move(game, browser, tmp_path):
    """The seat asked to move taps a place the board rings; the action bar asks to confirm
    it, a second tap plays the move, and the page then draws it as the last move."""
    host, table, players = new_host(tmp_path, game)
    seat = to_question(table, players)
    with live_server(host) as live:
        context, page = open_page(browser, live, seat_path(table, seat), TABLET, "en", table)
        try:
            pickable = "svg.board .pickable"
            page.wait_for_selector(pickable)
            before = len(table.actions)
            _tap_and_wait(page, table, pickable, before)
            played = table.actions[before]
            assert played["act"] in ("move", "place_judge", "judge_move"), played
            page.wait_for_selector(f'body[data-version="{table.version}"]', state="attached")
            if played["act"] != "place_judge":
                assert page.locator("svg.board .last-move").count() == 1
        finally:
            context.close()


def test_web_tablets_gw_taps_a_path_cell_by_cell_and_sees_the_route(browser, tmp_path):
    """GW's move: each tapped space is drawn on the route with its step's number; a tap
    on the last space takes it back; Move in the bar plays the path."""
    host, table, players = new_host(tmp_path, "gw-brott")
    for _ in range(400):
        if any(p.get("kind") == "gw_move" for p in table.snapshot("gw")["prompts"]):
            break
        play(table, players, 1)
    view = table.snapshot("gw")["view"]
    start = view["gw_position"]
    with live_server(host) as live:
        context, page = open_page(browser, live, seat_path(table, "gw"), TABLET, "en", table)
        try:
            col, row = ord(start[0]) - 65, int(start[1:])
            houses = set(view["board"]["houses"]) | set(view["board"]["jail_cells"])
            steps = [
                f"{chr(65 + c)}{r}"
                for c, r in ((col + 1, row), (col - 1, row), (col, row + 1), (col, row - 1))
                if 0 <= c < view["board"]["width"] and 1 <= r <= view["board"]["height"]
            ]
            step = next(s for s in steps if s not in houses)
            cell = page.locator(f'svg.board g.cell[data-cell="{step}"]')
            cell.click()
            assert page.locator("svg.board #route .route-step").all_text_contents() == ["1"]
            cell.click()  # taken back
            assert page.locator("svg.board #route .route-step").count() == 0
            cell.click()
            before = len(table.actions)
            page.locator(".bar-buttons button", has_text="Move").click()
            for _ in range(200):
                if len(table.actions) > before:
                    break
                page.wait_for_timeout(50)
            assert table.actions[before] == {"act": "gw_move", "path": [step]}
        finally:
            context.close()


def _colours(browser: Any, live: Any, table: Any, seen: dict[str, set[str]]) -> None:
    for seat in ["table", *table.seats()]:
        context, page = open_page(browser, live, seat_path(table, seat), TABLET, "en", table)
        try:
            for who, colours in chip_colours(page).items():
                seen.setdefault(who, set()).update(colours)
        finally:
            context.close()


@pytest.mark.parametrize("game", GAMES)
def test_web_tablets_each_player_keeps_one_colour_on_every_page_to_the_end(
    game, browser, tmp_path
):
    """A seat's chips (bar, log, final scores) and its own bar are one colour on every page,
    mid-game and after the game is over; and no two seats share a colour."""
    host, table, players = new_host(tmp_path, game)
    to_question(table, players)
    seen: dict[str, set[str]] = {}
    with live_server(host) as live:
        _colours(browser, live, table, seen)
        to_end(table, players)
        _colours(browser, live, table, seen)
    assert set(seen) == set(table.seats())
    assert {seat: len(colours) for seat, colours in seen.items()} == dict.fromkeys(seen, 1)
    assert len({next(iter(c)) for c in seen.values()}) == len(seen)


@pytest.mark.parametrize("game", GAMES)
def test_web_tablets_the_end_of_the_game_is_a_banner_with_the_winner(game, browser, tmp_path):
    """At the end: "You won!" on the winner's page, the winner by name on every other page
    and the table screen, and a final score for every seat."""
    host, table, players = new_host(tmp_path, game)
    to_end(table, players)
    winner = table.snapshot("table")["view"].get("winner")
    with live_server(host) as live:
        for seat in ["table", *table.seats()]:
            context, page = open_page(
                browser, live, seat_path(table, seat), TABLET, "en", table
            )
            try:
                # The end's pages read as well as the game's: marks, nothing cut off.
                assert map_text_too_small(page) + clipped_text(page) == [], seat
                headline = page.locator(".final-headline > span:not(.chip)").inner_text()
                rows = page.locator(".final-scores tbody tr")
                assert rows.count() == len(table.seats()), seat
                if winner == "draw":
                    assert "draw" in headline
                elif seat == winner:
                    assert headline.strip() == "You won!"
                else:
                    # The winner's row names it (its own words, beside its chip).
                    name = page.locator(".final-scores tr.winner th").evaluate(
                        "th => [...th.childNodes].filter(n => n.nodeType === 3)"
                        ".map(n => n.textContent).join('').trim()"
                    )
                    assert headline.strip() == f"{name} won!"
                assert page.locator(".final").bounding_box()["y"] < TABLET["height"] / 2
            finally:
                context.close()
        # In Swedish too, every word Swedish: the winner's page and the table screen.
        for seat in ("table", winner if winner in table.seats() else table.seats()[0]):
            context, page = open_page(
                browser, live, seat_path(table, seat), TABLET, "sv", table
            )
            try:
                headline = page.locator(".final-headline > span:not(.chip)").inner_text()
                assert seat != winner or headline.strip() == "Du vann!"
                assert english_words(page) == [], seat
            finally:
                context.close()


def test_web_tablets_dredd_combat_is_one_row_of_cards_with_a_toggle_per_judge(
    browser, tmp_path
):
    """A Judge asked for combat cards sees its hand as small cards side by side, a toggle
    per Judge in the fight under each card, the odds above and Reveal in the action bar,
    all on one screen; a card chosen goes in and the odds are drawn again."""
    host, table, players = new_host(tmp_path, "judge-dredd")
    seat = None
    for _ in range(3000):
        for s in table.to_act():
            view = table.snapshot(s)["view"]
            asked = {a["act"] for a in view["asked"]}
            cards = [c for c in view["you"]["known_cards"] if not c.startswith("alert")]
            if "commit" in asked and cards and not view["judges"][s]["ko"]:
                seat = s
                break
        if seat or table.is_over():
            break
        play(table, players, 1)
    assert seat, "no combat came up"
    with live_server(host) as live:
        context, page = open_page(browser, live, seat_path(table, seat), TABLET, "en", table)
        try:
            row = page.locator(".jd-fan-row .jd-compact")
            assert row.count() >= 1
            # The picture for the docs: the choice just under the bar, as a player scrolls to it.
            top = page.locator('.prompt[data-act="commit"]').bounding_box()["y"]
            page.mouse.wheel(0, top - page.locator(".action-bar").bounding_box()["height"] - 8)
            page.wait_for_timeout(100)
            doc_shot(page, "judge-dredd-combat")
            boxes = [row.nth(i).bounding_box() for i in range(row.count())]
            if len(boxes) > 1:  # side by side, not one card to a row
                assert boxes[1]["y"] == boxes[0]["y"] and boxes[1]["x"] > boxes[0]["x"]
            groups = table.snapshot(seat)["view"]["combat"]["groups"]
            fighters = len([g for group in groups for g in group])
            # A toggle per Judge in the fight under each card; with one Judge, the card
            # itself is the button.
            toggles = row.first.locator(".jd-toggle")
            if fighters > 1:
                assert toggles.count() == fighters
            else:
                toggles = page.locator(".jd-fan-row button.jd-compact-button")
                assert toggles.count() == row.count()
            assert page.locator(".bar-buttons button", has_text="Reveal").count() == 1
            assert page.locator(".prompts-panel .odds").count() == 1
            # The whole choice fits a tablet's screen under the action bar (it was a 4,887 px
            # scroll).
            block = page.locator('.prompt[data-act="commit"]').bounding_box()
            bar = page.locator(".action-bar").bounding_box()
            assert block["height"] <= TABLET["height"] - bar["height"], block
            before = len(table.actions)
            toggles.first.click()
            for _ in range(200):
                if len(table.actions) > before:
                    break
                page.wait_for_timeout(50)
            assert table.actions[before]["act"] == "commit"
            page.wait_for_selector(f'body[data-version="{table.version}"]', state="attached")
            assert "Cards in:" in page.locator('[data-region="extras"]').inner_text()
        finally:
            context.close()


@pytest.mark.parametrize("game", GAMES)
def test_web_tablets_the_table_screen_shows_the_game_first(game, browser, tmp_path):
    """The table screen leads with the bar and the board; health is one line while all is
    well; the host console's link is on the host's device only."""
    host, table, players = new_host(tmp_path, game)
    to_question(table, players)
    with live_server(host) as live:
        context, page = open_page(browser, live, "/table", TABLET, "en", table)
        try:
            board = page.locator('[data-region="board"]').bounding_box()
            assert board["y"] < 200 and board["x"] < 100
            assert page.locator(".health-panel").count() == 0
            assert page.get_by_role("link", name="Host console").count() == 0
            host_token = live.app.extensions["lawmaster.access"].host_token
            page.goto(f"{live.url}/host/{host_token}")
            page.goto(f"{live.url}/table")
            assert page.get_by_role("link", name="Host console").count() == 1
        finally:
            context.close()


@pytest.mark.parametrize("game", GAMES)
def test_web_tablets_live_edits_draw_the_same_page_as_a_fresh_load(game, browser, tmp_path):
    """A page kept open through many pushes (edits of what its stream sent before) shows
    every region as a page loaded afresh does."""
    host, table, players = new_host(tmp_path, game)
    seat = table.seats()[0]
    with live_server(host) as live:
        context, page = open_page(browser, live, seat_path(table, seat), TABLET, "en", table)
        try:
            fresh = context.new_page()
            for _ in range(3):
                if play(table, players, 12) == 0:
                    break
                page.wait_for_selector(f'body[data-version="{table.version}"]', state="attached")
                fresh.goto(live.url + seat_path(table, seat))
                for region in ("bar", "final", "board", "prompts", "extras", "log"):
                    selector = f'[data-region="{region}"]'
                    assert page.inner_html(selector) == fresh.inner_html(selector), region
        finally:
            context.close()


def _cross_site_join(context: Any, live: Any, token: str) -> Any:
    """The join page a link on another site's page opens (it asks before claiming)."""
    page = context.new_page()
    page.set_content(f'<a id="go" href="{live.url}/join/{token}">join</a>')
    page.click("#go")
    page.wait_for_load_state()
    return page


@pytest.mark.parametrize("viewport", [TABLET, PHONE], ids=["tablet", "phone"])
def test_web_tablets_the_trust_pages_read_as_the_seat_pages_do(browser, tmp_path, viewport):
    """The join page, a seat taken by another tablet (asked for), the page asking to be host,
    the host console and the paired table screen, with requests waiting: seats by their
    names and marks ("Judge Hershey", not its id), request codes large, the console's
    Grant/Refuse/Revoke/Release beside their words (not stacked), 16 px text, 44 px
    targets, nothing cut off."""
    from web_ui_look import problems, reads_like_data, small_targets, small_text

    host, table, players = new_host(tmp_path, "judge-dredd")
    hershey, dredd = "hershey", "dredd"
    with live_server(host, PUBLIC_URL="http://192.168.4.1:8080") as live:
        access = live.app.extensions["lawmaster.access"]
        contexts = [browser.new_context(viewport=viewport) for _ in range(4)]
        player, other, asker, console = contexts
        try:
            for context in contexts:
                context.set_default_timeout(WAIT)
            player.new_page().goto(f"{live.url}/join/{table.token(dredd)}")
            found: dict[str, list[str]] = {}
            join = _cross_site_join(other, live, table.token(hershey))
            assert join.locator("h1 > span:not(.chip)").inner_text() == "Join as Judge Hershey?"
            assert join.locator("h1 .chip").inner_text() == "HE"
            found["join"] = problems(join)
            taken = other.new_page()
            taken.goto(f"{live.url}/join/{table.token(dredd)}")
            taken.locator("form[action$='/ask'] button").click()
            taken.wait_for_selector(".code-show")
            assert "Judge Dredd's seat" in taken.locator("h1").inner_text()
            seat_code = taken.locator(".code-show").inner_text().strip()
            found["taken"] = problems(taken)
            asking = asker.new_page()
            asking.goto(f"{live.url}/host")
            asking.locator("form[action='/host/ask'] button").click()
            asking.wait_for_selector(".code-show")
            found["host ask"] = problems(asking)
            page = console.new_page()
            page.goto(f"{live.url}/host/{access.host_token}")
            rows = page.locator(".console-requests li.row")
            assert rows.count() == 2
            for i in range(2):
                grant = rows.nth(i).get_by_role("button", name="Grant").bounding_box()
                refuse = rows.nth(i).get_by_role("button", name="Refuse").bounding_box()
                assert abs(grant["y"] - refuse["y"]) < 2 and refuse["x"] > grant["x"]
            assert page.locator(f'.request-code:text-is("{seat_code}")').count() == 1
            seat_row = page.locator('.console-seats li[data-seat="dredd"]')
            assert "Judge Dredd" in seat_row.inner_text()
            release = seat_row.get_by_role("button", name="Release").bounding_box()
            words = seat_row.locator(".row-words").bounding_box()
            if viewport is TABLET:  # beside its words, not under them
                assert release["x"] > words["x"] + words["width"] - 1
            assert page.locator(".qr-card .qr-name").all_text_contents() == ["HEJudge Hershey"]
            # The referee console's input is typed as JSON, by design: words everywhere else.
            found["console"] = small_text(page) + small_targets(page) + clipped_text(page)
            found["console"] += reads_like_data(page, ".console-requests, .console-seats")
            page.goto(f"{live.url}/screen/{access.screen_token}")
            page.wait_for_selector('body[data-live="1"]')
            assert page.locator(".qr-card .qr-name").all_text_contents() == ["HEJudge Hershey"]
            assert page.locator(f'.requests .request-code:text-is("{seat_code}")').count() == 1
            found["table"] = problems(page, "[data-region=joins]") + clipped_text(page)
        finally:
            for context in contexts:
                context.close()
    assert {page: seen for page, seen in found.items() if seen} == {}
