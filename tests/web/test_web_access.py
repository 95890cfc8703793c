"""Seats that stay private and a host who is in charge, probed as a stranger on the Wi-Fi.

These tests use Flask's plain test client (not the page-like one the other
tests get), since a stranger's requests carry none of what our pages send.
"""

from __future__ import annotations

import http.client
import socket
import threading
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from web_support import SseReader, gw_header, live_server, make_host, tokens

from lawmaster.host.web import create_app
from lawmaster.host.web.access import Access
from lawmaster.host.web.guard import DEVICE_COOKIE, FORM_FIELD, HOST_COOKIE, TOKEN_HEADER

#: What a browser says when a person opens a link themselves (scans a code, types it).
OPENED = {"Sec-Fetch-Site": "none"}


def plain(app) -> FlaskClient:
    """A device of its own, with nothing our pages would add."""
    return FlaskClient(app, app.response_class, use_cookies=True)


def host_device(app) -> FlaskClient:
    device = plain(app)
    token = app.extensions["lawmaster.access"].host_token
    assert device.get(f"/host/{token}").status_code == 303
    return device


def paired_screen(app) -> FlaskClient:
    """A table screen opened with the screen link (the Pi's own display): it shows the codes."""
    screen = plain(app)
    token = app.extensions["lawmaster.access"].screen_token
    assert screen.get(f"/screen/{token}").status_code == 303
    return screen


def ask_for(device: FlaskClient, app, token: str) -> str:
    """``device`` asks for a seat another device holds; the request's code."""
    from lawmaster.host.web.guard import join_scope

    field = app.extensions["lawmaster.access"].form_token(join_scope(token))
    assert device.post(f"/join/{token}/ask", data={FORM_FIELD: field}).status_code == 303
    page = device.get(f"/join/{token}", headers=OPENED).get_data(as_text=True)
    return page.split('data-code="')[1].split('"')[0]


@pytest.fixture
def world(tmp_path):
    host = make_host(tmp_path)
    host.new_game(gw_header(4, ["red", "green"]))
    app = create_app(host, ACCESS_FILE=str(tmp_path / "access.json"))
    return host, app


def test_web_access_a_claimed_seat_opens_on_its_own_device_only(world):
    host, app = world
    red = host.table.token("red")
    tablet, other = plain(app), plain(app)
    joined = tablet.get(f"/join/{red}", headers=OPENED)
    assert joined.status_code == 303 and joined.headers["Location"].endswith(f"/seat/{red}")
    assert tablet.get(f"/seat/{red}").status_code == 200
    assert tablet.get(f"/seat/{red}.json").get_json()["snapshot"]["seat"] == "red"
    # A second device scanning the same code gets no view, on any route.
    taken = other.get(f"/join/{red}", headers=OPENED)
    page = taken.get_data(as_text=True)
    assert taken.status_code == 403 and "open on another tablet" in page
    assert "evidence" not in page and 'data-region="board"' not in page
    assert other.get(f"/seat/{red}").status_code == 403
    assert other.get(f"/seat/{red}.json").status_code == 403
    assert other.get(f"/events/{red}").status_code == 403
    refused = other.post(f"/seat/{red}/action", json={"act": "pass", "by": "red"},
                         headers={TOKEN_HEADER: red})  # fmt: skip
    assert refused.status_code == 403 and host.table.actions == []


def test_web_access_the_code_leaves_the_table_screen_and_comes_back_on_release(world):
    host, app = world
    red = host.table.token("red")
    screen = paired_screen(app)
    assert red in screen.get("/table").get_data(as_text=True)
    tablet = plain(app)
    tablet.get(f"/join/{red}", headers=OPENED)
    assert red not in screen.get("/table").get_data(as_text=True)
    assert red not in screen.get("/table/joins").get_data(as_text=True)
    page = tablet.get(f"/seat/{red}").get_data(as_text=True)
    field = page.split(f'name="{FORM_FIELD}" value="')[1].split('"')[0]
    released = tablet.post(f"/seat/{red}/release", data={FORM_FIELD: field})
    assert released.status_code == 200 and "free" in released.get_data(as_text=True)
    assert red in screen.get("/table/joins").get_data(as_text=True)


def test_web_access_a_seat_moves_to_a_new_device_with_the_hosts_consent(world):
    host, app = world
    red = host.table.token("red")
    old, new = plain(app), plain(app)
    old.get(f"/join/{red}", headers=OPENED)
    assert host.table.submit("red", {"act": "roll", "by": "red", "faces": ["1"] * 5})["ok"]
    assert new.get(f"/join/{red}", headers=OPENED).status_code == 403
    code = ask_for(new, app, red)
    console = host_device(app)
    assert "another tablet asks for it" in console.get("/host").get_data(as_text=True)
    form = app.extensions["lawmaster.access"].form_token("host")
    granted = console.post(f"/host/requests/{code}/grant", data={FORM_FIELD: form})
    assert granted.status_code == 303
    # Nothing is lost: the new device sees the game as it stands; the old one is out.
    snapshot = new.get(f"/seat/{red}.json").get_json()["snapshot"]
    assert snapshot["move"] == 1 and snapshot["seat"] == "red"
    assert old.get(f"/seat/{red}").status_code == 403


def test_web_access_the_panels_long_press_grants_one_waiting_request(world):
    host, app = world
    record: Access = app.extensions["lawmaster.access"]
    green = host.table.token("green")
    first, second = plain(app), plain(app)
    first.get(f"/join/{green}", headers=OPENED)
    ask_for(second, app, green)
    assert record.long_press() is not None  # the only request: the seat moves
    assert second.get(f"/seat/{green}").status_code == 200
    asker = plain(app)
    assert asker.get("/host").status_code == 403
    field = record.form_token("ask")
    assert asker.post("/host/ask", data={FORM_FIELD: field}).status_code == 303
    assert record.long_press() is not None
    assert asker.get("/host").status_code == 200
    assert record.long_press() is None  # nothing waits any more


@pytest.mark.parametrize(
    ("method", "path"),
    [("GET", "/setup"), ("POST", "/setup"), ("GET", "/calibration"), ("GET", "/enrollment"),
     ("GET", "/calibration.json"), ("GET", "/enrollment.json"), ("GET", "/host"),
     ("POST", "/host/undo"), ("POST", "/host/input"), ("POST", "/host/seats/release"),
     ("POST", "/host/requests/ABCD/grant"), ("POST", "/host/grants/ABCD/revoke")],
)  # fmt: skip
def test_web_access_host_pages_refuse_anyone_but_the_host(world, method, path):
    host, app = world
    assert host.table.submit("red", {"act": "roll", "by": "red", "faces": ["1"] * 5})["ok"]
    stranger = plain(app)
    stranger.get(f"/join/{host.table.token('red')}", headers=OPENED)  # even a player
    response = stranger.open(path, method=method, json={"header": {"game": "gw-brott"}})
    assert response.status_code == 403
    assert len(host.table.actions) == 1 and host.table.game == "gw-brott"


def test_web_access_the_host_sets_up_undoes_and_types_inputs(world):
    host, app = world
    console = host_device(app)
    form = app.extensions["lawmaster.access"].form_token("host")
    red = {"act": "roll", "by": "red", "faces": ["1"] * 5}
    typed = console.post(
        "/host/input", data={FORM_FIELD: form, "seat": "red", "action": str(red).replace("'", '"')}
    )
    assert typed.status_code == 303 and len(host.table.actions) == 1
    assert console.post("/host/undo", data={FORM_FIELD: form}).status_code == 303
    assert host.table.actions == []
    started = console.post("/setup", json={"header": gw_header(9), "replace": True})
    assert started.status_code == 200 and started.get_json()["ok"]
    # A form without the console's own field is refused, even from the host's device.
    assert console.post("/host/undo", data={}).status_code == 403


def test_web_access_cross_origin_posts_are_refused(world):
    host, app = world
    console = host_device(app)
    before = host.table
    evil = {"Origin": "http://evil.example"}
    body = '{"header": {"game": "gw-brott", "criminals": ["x"]}, "replace": true}'
    text = console.post("/setup", data=body, content_type="text/plain", headers=evil)
    assert text.status_code == 403 and host.table is before
    site = console.post("/setup", json={"header": gw_header(1), "replace": True},
                        headers={"Sec-Fetch-Site": "cross-site"})  # fmt: skip
    assert site.status_code == 403 and host.table is before
    red = host.table.token("red")
    move = {"act": "roll", "by": "red", "faces": ["1"] * 5}
    foreign = plain(app).post(f"/seat/{red}/action", json=move,
                              headers={**evil, TOKEN_HEADER: red})  # fmt: skip
    assert foreign.status_code == 403
    # Without the token header (a simple cross-site request cannot set one), refused too.
    assert plain(app).post(f"/seat/{red}/action", json=move).status_code == 403
    form = plain(app).post(f"/seat/{red}/action", data={"action": body})
    assert form.status_code == 403 and host.table.actions == []
    tablet = plain(app)
    tablet.get(f"/join/{red}", headers=OPENED)
    same = tablet.post(f"/seat/{red}/action", json=move,
                       headers={"Origin": "http://localhost", TOKEN_HEADER: red})  # fmt: skip
    assert same.status_code == 200


def test_web_access_gw_table_screen_has_no_criminal_token_once_play_starts(tmp_path):
    host = make_host(tmp_path)
    table = host.new_game(gw_header(6, ["red", "green", "yellow"]))
    app = create_app(host)
    screen = paired_screen(app)
    assert all(token in screen.get("/table").get_data(as_text=True)
               for token in tokens(table).values())  # fmt: skip
    assert table.submit("red", {"act": "roll", "by": "red", "faces": ["1"] * 5})["ok"]
    page = screen.get("/table").get_data(as_text=True)
    page += screen.get("/table/joins").get_data(as_text=True)
    page += screen.get("/table.json?html=1").get_data(as_text=True)
    for seat, token in tokens(table).items():
        assert (token in page) is (seat == "gw"), seat
    # The host's console still has them, for a criminal who joins late.
    console = host_device(app).get("/host").get_data(as_text=True)
    assert all(token in console for token in tokens(table).values())


def test_web_access_claims_and_the_host_survive_a_restart(tmp_path):
    host = make_host(tmp_path)
    host.new_game(gw_header(4, ["red", "green"]))
    red = host.table.token("red")
    first = create_app(host, ACCESS_FILE=str(tmp_path / "access.json"))
    tablet = plain(first)
    tablet.get(f"/join/{red}", headers=OPENED)
    cookie = tablet.get_cookie(DEVICE_COOKIE).value
    console = host_device(first)
    host_cookie = console.get_cookie(HOST_COOKIE).value
    again = create_app(host, ACCESS_FILE=str(tmp_path / "access.json"))
    # The host link is new at every start: one seen once is no key for ever.
    old_link = first.extensions["lawmaster.access"].host_token
    assert again.extensions["lawmaster.access"].host_token != old_link
    assert plain(again).get(f"/host/{old_link}").status_code == 403
    same, stranger, boss = plain(again), plain(again), plain(again)
    same.set_cookie(DEVICE_COOKIE, cookie)
    boss.set_cookie(HOST_COOKIE, host_cookie)
    assert same.get(f"/seat/{red}").status_code == 200
    assert stranger.get(f"/seat/{red}").status_code == 403
    assert boss.get("/host").status_code == 200
    assert (tmp_path / "access.json").stat().st_mode & 0o077 == 0  # readable by us alone


def test_web_access_two_games_with_one_configuration_roll_different_dice(tmp_path):
    rolls = []
    for run in range(2):
        (tmp_path / str(run)).mkdir()
        host = make_host(tmp_path / str(run), {"digital_dice": True})
        table = host.new_game(gw_header(3, ["red", "green"]))
        app = create_app(host)
        red = table.token("red")
        tablet = plain(app)
        tablet.get(f"/join/{red}", headers=OPENED)
        faces = []
        for _ in range(12):
            rolled = tablet.post(f"/seat/{red}/roll", json={}, headers={TOKEN_HEADER: red})
            assert rolled.status_code == 200, rolled.get_json()
            faces.append(tuple(table.actions[-1]["faces"]))
            table.take_back(seat=None, source="test")
        rolls.append(faces)
    # Twelve rolls of five dice alike by chance: once in 6**60 pairs of games.
    assert rolls[0] != rolls[1]


def test_web_access_a_huge_body_is_refused_before_it_is_read(world):
    host, app = world
    with live_server(host) as live:
        conn = http.client.HTTPConnection("127.0.0.1", live.port, timeout=10)
        conn.putrequest("POST", f"/seat/{host.table.token('red')}/action")
        conn.putheader("Content-Type", "application/json")
        conn.putheader("Content-Length", str(500 * 1024 * 1024))
        conn.endheaders()
        conn.send(b"{" * 1000)  # the rest never comes: waitress must not wait for it
        response = conn.getresponse()
        assert response.status == 413
        conn.close()


def _still_open(sock: socket.socket) -> bool:
    """Whether the server still holds ``sock``: nothing to read, neither an answer (a
    request it gave up on) nor the end of the connection."""
    sock.setblocking(False)
    try:
        sock.recv(1)
        return False
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        sock.setblocking(True)


def test_web_access_seats_get_their_streams_and_moves_through_a_crowd(tmp_path, monkeypatch):
    from lawmaster.host.web import slow_clients

    # The crowd's half-sent requests are held for the whole test (not closed after their
    # few seconds' deadline), so the seats must get through while the crowd is there,
    # however slow the machine: no clock decides this test.
    monkeypatch.setattr(slow_clients, "HEAD_SECONDS", 600.0)
    monkeypatch.setattr(slow_clients, "REQUEST_SECONDS", 600.0)
    host = make_host(tmp_path)
    table = host.new_game(gw_header(8, ["red", "green", "yellow"]))
    crowd: list[SseReader] = []
    idle: list[socket.socket] = []
    with live_server(host, SSE_KEEPALIVE=0.5) as live:
        try:
            for n in range(50):  # table screens: a few are served, the rest told to retry
                source = f"127.0.0.{10 + n % 20}"  # from twenty machines on the Wi-Fi
                reader = SseReader(live.port, "/events/table", timeout=5, source=source)
                assert reader.response.status in (200, 429)
                crowd.append(reader)
            for n in range(100):  # sockets that never finish their request
                source = (f"127.0.1.{n % 20}", 0)
                try:
                    sock = socket.create_connection(("127.0.0.1", live.port), timeout=5,
                                                    source_address=source)  # fmt: skip
                    sock.sendall(b"GET /table HTTP/1.1\r\nHost: x\r\n")
                except OSError:
                    continue  # an address over its bound is turned away at once
                idle.append(sock)
            streams = {}
            for seat in table.seats():
                streams[seat] = SseReader(live.port, f"/events/{table.token(seat)}", timeout=30)
                assert streams[seat].response.status == 200, seat
                assert streams[seat].next_block() == ": connected"
            # ... while every half-sent request is still held open.
            assert idle and all(_still_open(sock) for sock in idle)
            status, _ = live.post_json(
                f"/seat/{table.token('red')}/action",
                {"act": "roll", "by": "red", "faces": ["1", "2", "3", "4", "arrow"]},
            )
            assert status == 200
            for seat, reader in streams.items():
                # The other seats joining redrew every page first (the table screen says
                # who joined); then the move.
                for _ in range(len(streams) + 1):
                    name, data = reader.next_event()
                    if data["snapshot"]["move"] == 1:
                        break
                assert name == "update" and data["snapshot"]["move"] == 1, seat
                reader.close()
        finally:
            for reader in crowd:
                reader.close()
            for sock in idle:
                sock.close()


def test_web_access_a_page_that_reconnects_gets_what_it_missed(world):
    host, app = world
    red = host.table.token("red")
    with live_server(host, SSE_KEEPALIVE=0.5) as live:
        seen = host.table.version
        assert host.table.submit("red", {"act": "roll", "by": "red", "faces": ["1"] * 5})["ok"]
        # The page was away during that move; it comes back naming the last version it saw.
        reader = SseReader(live.port, f"/events/{red}?last={seen}", timeout=5)
        try:
            name, data = reader.next_event()
            assert name == "update" and data["snapshot"]["move"] == 1
        finally:
            reader.close()
        fresh = SseReader(live.port, f"/events/{red}?last={host.table.version}", timeout=5)
        try:
            assert fresh.next_block() == ": connected"
            # Nothing missed, nothing sent: the next thing on the stream is a keep-alive.
            assert fresh.next_block() == ": keep-alive"
        finally:
            fresh.close()


def test_web_access_keeps_working_with_threads_in_flight(world):
    host, app = world
    errors: list[BaseException] = []

    def claim(token: str) -> None:
        try:
            assert plain(app).get(f"/join/{token}", headers=OPENED).status_code in (303, 403)
        except BaseException as exc:  # noqa: BLE001 - collected for the assertion below
            errors.append(exc)

    token = host.table.token("green")
    threads = [threading.Thread(target=claim, args=(token,)) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert app.extensions["lawmaster.access"].is_claimed(token)
    assert Path(app.config["ACCESS_FILE"]).exists()


def test_web_access_the_real_panels_confirm_lets_a_device_in(tmp_path):
    """The panel as `lawmaster run` and the demo wire it: a press of confirm is always the
    game's; a long press grants the device that asked to be host, and is no game input."""
    import http.cookiejar
    import urllib.parse
    import urllib.request

    from lawmaster.host.games.gw_brott.setup import DEMO_HEADER
    from lawmaster.host.runtime import Runtime, open_host, start_web
    from lawmaster.host.sim.hardware import SimulatedHardware
    from lawmaster.host.stack import TableStages

    runtime = Runtime(open_host(str(tmp_path / "j.db"), {"board": False}, DEMO_HEADER))
    try:
        runtime.web = start_web(runtime.host, "127.0.0.1", 0)
        stages = TableStages(runtime, SimulatedHardware(seed=1, board=False)).start()
        panel = stages.current.panel
        pressed = []
        runtime.table.referee.button = pressed.append  # type: ignore[method-assign]
        device = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        field = runtime.web.access.form_token("ask")
        body = urllib.parse.urlencode({FORM_FIELD: field}).encode()
        ask = urllib.request.Request(f"{runtime.web.url}/host/ask", body, method="POST")
        with pytest.raises(urllib.error.HTTPError) as waiting:
            device.open(ask)  # asked, and sent on to the console: 403 until someone agrees
        assert waiting.value.code == 403
        panel.press("confirm")  # a short press is the game's: no grant
        assert stages.inputs.drain(10) and pressed == ["confirm"]
        with pytest.raises(urllib.error.HTTPError):
            device.open(f"{runtime.web.url}/host")
        assert panel.hold("confirm")  # the long press grants the one request waiting
        assert device.open(f"{runtime.web.url}/host").status == 200
        assert stages.inputs.drain(10) and pressed == ["confirm"]  # and was no game input
    finally:
        runtime.close()
