"""The host is one deliberate act: a press meant for an undo grants nothing.

The attack (issue 20, finding 2): a stranger asks for the seat of a player and
to be host; GW asks for an undo; someone at the table presses the panel's
confirm button once, meaning the undo. That press must confirm the undo and
grant nothing else. Becoming host needs its own gesture (a long press while the
table screen shows the asking device's code, or the host console), pending
requests are listed, host devices can be revoked, and the host's cookie lasts
days (finding 5).
"""

from __future__ import annotations

import re

import pytest
from security_support import served

from lawmaster.host.games.gw_brott.setup import DEMO_HEADER
from lawmaster.host.sim.hardware import SimulatedHardware
from lawmaster.host.stack import TableStages

ROLL = {"act": "roll", "by": "red", "faces": ["1", "2", "3", "4", "arrow"]}


@pytest.fixture
def world(tmp_path):
    with served(tmp_path, DEMO_HEADER) as world:
        stages = TableStages(world.runtime, SimulatedHardware(seed=1, board=False)).start()
        world.stages = stages  # type: ignore[attr-defined]
        yield world


def _code(page: str) -> str:
    """The short code a waiting device's page shows."""
    found = re.search(r'data-code="([A-Z0-9]{4,8})"', page)
    assert found, f"the page shows no code:\n{page[:3000]}"
    return found.group(1)


def test_security_a_confirm_press_for_an_undo_grants_nothing(world):
    table = world.table
    red, gw = world.device(), world.device()
    assert red.claim(table.token("red")).status == 200
    assert gw.claim(table.token("gw")).status == 200
    assert red.post_json(f"/seat/{table.token('red')}/action", ROLL).status == 200
    stranger = world.device("127.0.0.2")
    # The stranger asks for red's seat (every way it can) and to be host.
    asked_seat = stranger.navigate(f"/join/{table.token('red')}")
    if f'action="/join/{table.token("red")}/ask"' in asked_seat.text:
        stranger.submit(asked_seat, f"/join/{table.token('red')}/ask")
    stranger.post_form("/host/ask", {})
    stranger.submit(stranger.get("/host"), "/host/ask")
    # GW asks for the undo; someone at the table presses confirm, meaning that undo.
    assert gw.post_json(f"/seat/{table.token('gw')}/undo", {}).status == 200
    assert table.undo is not None
    world.stages.current.panel.press("confirm")
    assert world.stages.inputs.drain(10)
    # The press did what it meant: the undo, and nothing else.
    assert table.undo is None and table.actions == []
    assert stranger.get("/host").status == 403
    assert stranger.get(f"/seat/{table.token('red')}.json").status == 403
    assert red.get(f"/seat/{table.token('red')}.json").status == 200
    assert stranger.post_json("/host/undo", {}).status == 403
    setup = stranger.post_json("/setup", {"header": DEMO_HEADER, "replace": True})
    assert setup.status == 403 and world.table is table
    # Everyone at the table can see that a device waits for host rights.
    screen = world.device().get("/table").text + world.device().get("/table/joins").text
    assert "asks to be host" in screen


def test_security_a_long_press_grants_the_one_request_the_table_screen_shows(world):
    asker = world.device("127.0.0.2")
    page = asker.submit(asker.get("/host"), "/host/ask")
    code = _code(page.text)
    screen = world.device().get("/table/joins").text
    assert code in screen and "asks to be host" in screen
    # A short press is no grant, however many times.
    for _ in range(3):
        world.stages.current.panel.press("confirm")
    assert world.stages.inputs.drain(10)
    assert asker.get("/host").status == 403
    world.stages.current.panel.hold("confirm")
    assert asker.get("/host").status == 200
    notice = world.device().get("/table/joins").text
    assert "became host" in notice and code in notice


def test_security_a_long_press_with_two_requests_waiting_grants_neither(world):
    first, second = world.device("127.0.0.2"), world.device("127.0.0.3")
    first.submit(first.get("/host"), "/host/ask")
    second.submit(second.get("/host"), "/host/ask")
    world.stages.current.panel.hold("confirm")
    assert first.get("/host").status == 403 and second.get("/host").status == 403
    assert "host console" in world.device().get("/table/joins").text


def test_security_pending_requests_are_listed_and_the_host_grants_or_refuses(world):
    console = world.host_device()
    asker = world.device("127.0.0.2")
    code = _code(asker.submit(asker.get("/host"), "/host/ask").text)
    page = console.get("/host")
    assert code in page.text
    grant = f"/host/requests/{code}/grant"
    assert console.submit(page, grant).status == 200
    assert asker.get("/host").status == 200
    # A refused request grants nothing, and is gone from the list.
    other = world.device("127.0.0.3")
    code = _code(other.submit(other.get("/host"), "/host/ask").text)
    page = console.get("/host")
    assert console.submit(page, f"/host/requests/{code}/refuse").status == 200
    assert other.get("/host").status == 403
    assert f'data-code="{code}"' not in console.get("/host").text


def test_security_a_host_device_can_be_revoked_and_its_cookie_lasts_days(world):
    console = world.host_device()
    second = world.device("127.0.0.2")
    code = _code(second.submit(second.get("/host"), "/host/ask").text)
    page = console.get("/host")
    console.submit(page, f"/host/requests/{code}/grant")
    assert second.get("/host").status == 200
    host_cookies = [c for c in second.set_cookies if "lawmaster_host" in c]
    ages = [int(m) for c in host_cookies for m in re.findall(r"Max-Age=(\d+)", c)]
    assert ages and max(ages) <= 7 * 24 * 3600, host_cookies
    page = console.get("/host")
    revoke = [a for a in re.findall(r'<form[^>]*action="([^"]+)"', page.text) if "revoke" in a]
    assert len(revoke) == 2, page.text  # both host devices are listed
    mine = next(a for a in revoke if code in a)
    assert console.submit(page, mine).status == 200
    assert second.get("/host").status == 403
    assert console.get("/host").status == 200


def test_security_the_host_grant_expires_on_the_server_too(tmp_path):
    from lawmaster.host.web.access import HOST_DAYS, Access

    now = [1_000_000.0]
    record = Access(tmp_path / "access.json", wall=lambda: now[0])
    secret = record.open_host_link(record.host_token)
    assert secret is not None and record.is_host(secret)
    now[0] += HOST_DAYS * 24 * 3600 + 1
    assert not record.is_host(secret)
