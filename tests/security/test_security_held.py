"""What held against the earlier probes keeps holding (issue 20, "What held, keep it").

A claim race has one winner; a claimed seat's token without its device's cookie
opens nothing; eleven state-changing routes refuse thirteen ways of asking without
the right credentials or from another site's page; every answer carries the
headers that keep pages out of frames, caches and content sniffing.
"""

from __future__ import annotations

import json
import threading
from urllib.parse import urlencode

import pytest
from security_support import Device, served

from lawmaster.host.games.gw_brott.setup import DEMO_HEADER
from lawmaster.host.web.guard import FORM_FIELD, HOST_SCOPE, TOKEN_HEADER, seat_scope

ROLL = {"act": "roll", "by": "red", "faces": ["1", "2", "3", "4", "arrow"]}


def test_security_a_claim_race_of_16_devices_has_one_winner(tmp_path):
    with served(tmp_path, DEMO_HEADER) as world:
        token = world.table.token("red")
        devices = [world.device(f"127.0.0.{2 + n}") for n in range(16)]
        answers: list[int] = []
        start = threading.Barrier(16)

        def claim(device: Device) -> None:
            start.wait()
            answers.append(device.navigate(f"/join/{token}").status)

        threads = [threading.Thread(target=claim, args=(d,)) for d in devices]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(answers) == [200] + [403] * 15
        assert sum(d.get(f"/seat/{token}.json").status == 200 for d in devices) == 1


def test_security_a_claimed_seat_opens_for_no_other_device_on_any_route(tmp_path):
    with served(tmp_path, DEMO_HEADER) as world:
        table = world.table
        red = table.token("red")
        assert world.device().claim(red).status == 200
        stranger = world.device("127.0.0.2")
        gets = [f"/seat/{red}", f"/seat/{red}.json", f"/seat/{red}.json?html=1",
                f"/seat/{red}/scenario.jsonl", f"/events/{red}"]  # fmt: skip
        for path in gets:
            answer = stranger.get(path, {"Accept": "text/html"})
            assert answer.status == 403, path
            assert '"view"' not in answer.text and "data-region" not in answer.text, path
        for path in ("action", "roll", "undo", "release"):
            answer = stranger.post_json(f"/seat/{red}/{path}", ROLL)
            assert answer.status == 403, path
        assert table.actions == [] and world.access.is_claimed(red)


class _Case:
    """One state-changing route asked with the right credentials, or with something wrong."""

    def __init__(self, world, route: str) -> None:
        self.world, self.route = world, route
        table = world.table
        self.red = table.token("red")
        self.tablet = world.device()
        assert self.tablet.claim(self.red).status == 200
        self.other = world.device("127.0.0.3")
        assert self.other.claim(table.token("green")).status == 200
        self.console = world.host_device()
        self.waiting = waiting = world.device("127.0.0.4")
        page = waiting.get("/host")
        waiting.submit(page, "/host/ask")
        self.code = world.access.requests()[0].code
        self.grant = world.access.grants()[0].code
        access = world.access
        self.seat_form = access.form_token(seat_scope(self.red))
        self.host_form = access.form_token(HOST_SCOPE)

    @property
    def is_seat(self) -> bool:
        return self.route.startswith("/seat/")

    def path(self) -> str:
        return self.route.format(red=self.red, code=self.code, grant=self.grant)

    def body(self) -> dict:
        if self.route == "/setup":
            return {"header": DEMO_HEADER, "replace": True}
        if self.route == "/host/input":
            return {"seat": "red", "action": json.dumps(ROLL)}
        if self.route == "/host/seats/release":
            return {"seat": "red"}
        return ROLL

    def state(self) -> tuple:
        world = self.world
        access = world.access
        return (
            world.runtime.host.table,
            len(world.table.actions),
            access.holds(self.red, self.tablet.cookies.get("lawmaster_device")),
            tuple(g.code for g in access.grants()),
            tuple(r.code for r in access.requests()),
        )


#: Eleven routes that change something: a seat's four, the host's seven.
ROUTES = [
    "/seat/{red}/action", "/seat/{red}/roll", "/seat/{red}/undo", "/seat/{red}/release",
    "/setup", "/host/undo", "/host/input", "/host/seats/release",
    "/host/requests/{code}/grant", "/host/requests/{code}/refuse", "/host/grants/{grant}/revoke",
]  # fmt: skip

#: Thirteen ways of asking that must all be refused.
VARIANTS = [
    "no credentials", "no cookie but the seat's header", "another device's cookie",
    "JSON without the seat's header (a seat's) or a host cookie still waiting (the host's)",
    "JSON sent as text/plain", "a foreign Origin",
    "Sec-Fetch-Site cross-site", "Sec-Fetch-Site same-site", "a forged form field",
    "another page's form field", "Origin null", "an overlong cookie", "a player's own cookie",
]  # fmt: skip


def _ask(case: _Case, variant: str) -> int:
    world = case.world
    device = Device(world.port, "127.0.0.5")
    own = case.tablet if case.is_seat else case.console
    cookies = dict(own.cookies)
    headers: dict[str, str] = {}
    body: bytes
    form = {**{k: str(v) for k, v in case.body().items()},
            FORM_FIELD: case.seat_form if case.is_seat else case.host_form}  # fmt: skip
    as_json = json.dumps(case.body()).encode()
    kind = "json"
    if variant == "no credentials":
        cookies = {}
    elif variant == "no cookie but the seat's header":
        cookies = {}
        headers[TOKEN_HEADER] = case.red
    elif variant == "another device's cookie":
        cookies = dict(case.other.cookies)
        headers[TOKEN_HEADER] = case.red
    elif variant.startswith("JSON without the seat's header"):
        if not case.is_seat:
            cookies = dict(case.waiting.cookies)  # asked to be host, not granted
    elif variant == "JSON sent as text/plain":
        kind = "text"
    elif variant == "a foreign Origin":
        headers.update({"Origin": "http://evil.example", TOKEN_HEADER: case.red})
        kind = "form"
    elif variant == "Sec-Fetch-Site cross-site":
        headers.update({"Sec-Fetch-Site": "cross-site", TOKEN_HEADER: case.red})
        kind = "form"
    elif variant == "Sec-Fetch-Site same-site":
        headers.update({"Sec-Fetch-Site": "same-site", TOKEN_HEADER: case.red})
        kind = "form"
    elif variant == "a forged form field":
        form[FORM_FIELD] = form[FORM_FIELD][:-4] + "AAAA"
        kind = "form"
    elif variant == "another page's form field":
        access = world.access
        form[FORM_FIELD] = access.form_token(seat_scope(world.table.token("green")))
        if not case.is_seat:
            form[FORM_FIELD] = case.seat_form  # a seat page's field on a host form
        kind = "form"
    elif variant == "Origin null":
        headers.update({"Origin": "null", TOKEN_HEADER: case.red})
        kind = "form"
    elif variant == "an overlong cookie":
        cookies = {name: value * 40 for name, value in cookies.items()}
        headers[TOKEN_HEADER] = case.red
    elif variant == "a player's own cookie":
        # For a seat's route: the seat's form field with no cookie; for the host's: a tablet's.
        cookies = {} if case.is_seat else dict(case.tablet.cookies)
        kind = "form"
    if kind == "json" and not variant.startswith("JSON without") and case.is_seat:
        headers.setdefault(TOKEN_HEADER, case.red)
    if kind == "json":
        body, headers["Content-Type"] = as_json, "application/json"
    elif kind == "text":
        body, headers["Content-Type"] = as_json, "text/plain"
    else:
        body = urlencode(form).encode()
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    device.cookies = cookies
    return device.request("POST", case.path(), body, headers).status


@pytest.mark.parametrize("route", ROUTES)
def test_security_state_changing_routes_refuse_every_wrong_way_of_asking(tmp_path, route):
    with served(tmp_path, DEMO_HEADER) as world:
        case = _Case(world, route)
        # Something to undo, so an undo that went through would show.
        assert case.tablet.post_json(f"/seat/{case.red}/action", ROLL).status == 200
        before = case.state()
        for variant in VARIANTS:
            status = _ask(case, variant)
            assert 400 <= status < 500, (route, variant, status)
            assert case.state() == before, (route, variant)
        assert world.runtime.web.server.app.extensions["lawmaster.unexpected"] == []


@pytest.mark.parametrize("path", ["/table", "/table.json", "/host", "/events/table",
                                  "/seat/x.json", "/static/lawmaster.css"])  # fmt: skip
def test_security_every_answer_keeps_out_of_frames_caches_and_sniffing(tmp_path, path):
    with served(tmp_path, DEMO_HEADER) as world:
        device = world.device()
        if path == "/events/table":
            stream = device.stream(path)
            headers = stream.response.headers
            stream.close()
        else:
            headers = device.get(path).headers
        assert headers.get("X-Content-Type-Options") == "nosniff"
        assert "frame-ancestors 'none'" in headers.get("Content-Security-Policy", "")
        assert "script-src 'self'" in headers.get("Content-Security-Policy", "")
        if not path.startswith("/static/"):
            assert headers.get("Cache-Control") in ("no-store", "no-cache")
