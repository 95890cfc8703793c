"""Join codes reach only the people at the table; to see a seat, a device claims it.

The attacks (issue 20, finding 3 and the cross-site link of finding 5): every
seat's code fetched from a public page; an unclaimed seat's page, JSON and
stream read without leaving a trace; a link on another site's page that
replaces a player's device cookie, so the player's own seat turns them away.
"""

from __future__ import annotations

import http.server
import threading
from pathlib import Path

import pytest
from security_support import PRIVATE_KEYS, carries_seat, served

from lawmaster.host.games.gw_brott.setup import DEMO_HEADER

ROLL = {"act": "roll", "by": "red", "faces": ["1", "2", "3", "4", "arrow"]}
#: Every page and answer a device with no rights may fetch (GET), the table's stream aside.
PUBLIC = [
    "/", "/table", "/table?qr=1", "/table/joins", "/table/joins?qr=1", "/table.json",
    "/table.json?html=1", "/table/replay", "/table/replay?step=0", "/table/replay.json",
    "/table/scenario.jsonl", "/host", "/setup", "/calibration", "/enrollment",
    "/calibration.json", "/enrollment.json", "/static/lawmaster.js",
]  # fmt: skip


def _tokens(table) -> list[str]:
    return [table.token(seat) for seat in [*table.seats(), "table"]]


@pytest.mark.parametrize("when", ["before play", "mid-game"])
def test_security_no_public_route_carries_a_seat_code(tmp_path, when):
    with served(tmp_path, DEMO_HEADER) as world:
        table = world.table
        if when == "mid-game":
            red = world.device()
            assert red.claim(table.token("red")).status == 200
            assert red.post_json(f"/seat/{table.token('red')}/action", ROLL).status == 200
        stranger = world.device("127.0.0.2")
        for path in PUBLIC:
            answer = stranger.get(path, {"Accept": "text/html"})
            assert answer.status < 500, path
            for token in _tokens(table):
                assert token not in answer.text, f"{path} shows a seat code ({when})"
        stream = stranger.stream("/events/table")
        try:
            table.touch()
            text = "\n".join(stream.watch(1.5))
            assert not any(token in text for token in _tokens(table))
        finally:
            stream.close()


def test_security_an_unclaimed_seat_shows_nothing_private(tmp_path):
    with served(tmp_path, DEMO_HEADER) as world:
        table = world.table
        stranger = world.device("127.0.0.2")
        for seat in ("red", "gw"):
            token = table.token(seat)
            page = stranger.get(f"/seat/{token}", {"Accept": "text/html"})
            as_json = stranger.get(f"/seat/{token}.json?html=1")
            for answer in (page, as_json):
                assert not carries_seat(answer.text, seat), answer.text[:500]
                assert 'data-region="prompts"' not in answer.text
            stream = stranger.stream(f"/events/{token}")
            try:
                table.touch()
                text = "\n".join(stream.watch(1.5))
                assert not carries_seat(text, seat)
                assert "data-region" not in text and '"view"' not in text
            finally:
                stream.close()
        assert not world.access.is_claimed(table.token("red"))


def test_security_every_claim_is_shown_on_the_table_screen_and_the_console(tmp_path):
    with served(tmp_path, DEMO_HEADER) as world:
        table = world.table
        tablet = world.device("127.0.0.2")
        assert tablet.claim(table.token("red")).status == 200
        screen = world.device("127.0.0.3")
        said = screen.get("/table").text
        assert "red joined on a new tablet" in said.lower()
        assert "red joined on a new tablet" in screen.get("/table/joins").text.lower()
        console = world.host_device().get("/host").text
        assert "red joined on a new tablet" in console.lower()
        assert 'action="/host/seat/release"' in console or "/release" in console


def test_security_the_codes_are_on_the_screens_the_host_authorised(tmp_path):
    with served(tmp_path, DEMO_HEADER) as world:
        table = world.table
        red = table.token("red")
        assert red not in world.device().get("/table").text
        # The host's own device, and a screen the host paired, show them.
        console = world.host_device()
        assert red in console.get("/table").text and red in console.get("/host").text
        screen = world.device("127.0.0.2")
        asked = screen.submit(screen.get("/table"), "/table/pair")
        assert red not in asked.text
        page = console.get("/host")
        import re

        code = re.search(r'data-code="([A-Z0-9]+)"', asked.text).group(1)
        assert console.submit(page, f"/host/requests/{code}/grant").status == 200
        assert red in screen.get("/table").text and red in screen.get("/table/joins").text
        assert "table screen was paired" in world.device().get("/table/joins").text


CHROMIUM = Path("/usr/bin/chromium")


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not at /usr/bin/chromium")
def test_security_a_link_on_another_site_does_not_unseat_a_player(tmp_path, browser):
    with served(tmp_path, DEMO_HEADER) as world:
        table = world.table
        base = f"http://127.0.0.1:{world.port}"
        red, green = table.token("red"), table.token("green")
        evil = _evil_site(f"{base}/join/{green}")
        context = browser.new_context()
        try:
            page = context.new_page()
            page.goto(f"{base}/join/{red}")
            _confirm_if_asked(page)
            assert page.locator('[data-region="board"]').count() == 1
            # The player follows a link on another site's page to the table's join link.
            page.goto(evil.url)
            page.click("#go")
            page.wait_for_load_state()
            page.goto(f"{base}/seat/{red}")
            assert page.locator('[data-region="board"]').count() == 1, page.content()[:2000]
            assert not world.access.is_claimed(green)
        finally:
            context.close()
            evil.close()


def _confirm_if_asked(page) -> None:
    button = page.locator('form[action^="/join/"] button[type="submit"]')
    if button.count():
        button.first.click()
        page.wait_for_load_state()


class _Evil:
    def __init__(self, target: str) -> None:
        body = f'<!doctype html><a id="go" href="{target}">free prizes</a>'.encode()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - the standard library's name
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args) -> None:
                pass

        self.server = http.server.HTTPServer(("127.0.0.2", 0), Handler)
        self.url = f"http://127.0.0.2:{self.server.server_port}/"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _evil_site(target: str) -> _Evil:
    """Another site's page (another address: another site to the browser) with a link."""
    return _Evil(target)


assert PRIVATE_KEYS  # the seats' own words, shared with the other security tests
