"""A seat's stream belongs to the device that holds the seat, for as long as it holds it.

The attack (issue 20, finding 1): a stranger on the Wi-Fi opens a seat's event
stream before its player claims the seat, and keeps it open. Whatever the claim
does, nothing of that seat may reach the stranger's stream afterwards; the same
when a seat moves to another tablet or is released. Each attack is made on the default
stream and on the light one the pages ask for (``?diff=1``, gzip-compressed for a
browser that takes it, its pushes edits of what that stream sent before).
"""

from __future__ import annotations

import re

import pytest
from security_support import carries_seat, served, updates

from lawmaster.host.games.gw_brott.setup import DEMO_HEADER

WATCH = 5.0  # seconds each stranger's stream is watched after the claim
ROLL = {"act": "roll", "by": "red", "faces": ["1", "2", "3", "4", "arrow"]}
#: The stream as a script reads it, and as the pages ask for it: light, compressed.
KINDS = {"whole": ("", False), "light": ("?diff=1&last=99999999999", True)}


def _seat_of(update: dict) -> str | None:
    return update["snapshot"].get("seat") if "snapshot" in update else None


def _move_of(update: dict) -> int | None:
    return update["snapshot"].get("move") if "snapshot" in update else update.get("move")


def _play_to_gw(served_table, red, green) -> None:
    """Both criminals take a turn on their own tablets, so GW has a deduction to keep."""
    table = served_table.table
    for device, seat in ((red, "red"), (green, "green")):
        token = table.token(seat)
        rolled = device.post_json(f"/seat/{token}/action", {"act": "roll", "by": seat,
                                                             "faces": ["1"] * 5})  # fmt: skip
        assert rolled.status == 200, rolled.text
        snapshot = device.get(f"/seat/{token}.json").json()["snapshot"]
        die, cells = next(iter(snapshot["view"]["asked"]["moves"].items()))
        move = {"act": "move", "by": seat, "die": die, "to": cells[0]}
        moved = device.post_json(f"/seat/{token}/action", move)
        assert moved.status == 200, moved.text


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seat", ["red", "gw"])
def test_security_a_stream_opened_before_the_claim_receives_nothing_of_the_seat(
    tmp_path, seat, kind
):
    query, gzip = KINDS[kind]
    with served(tmp_path, DEMO_HEADER) as world:
        table = world.table
        red, green = world.device(), world.device()
        if seat == "gw":
            # Mid-game: GW's view now holds its trumps and its deduction of the criminals.
            assert red.claim(table.token("red")).status == 200
            assert green.claim(table.token("green")).status == 200
            _play_to_gw(world, red, green)
        token = table.token(seat)
        stranger = world.device("127.0.0.2").stream(f"/events/{token}{query}", gzip)
        try:
            player = world.device()
            assert player.claim(token).status == 200
            # The player plays on: the seat's view changes while the stranger listens.
            if seat == "red":
                assert player.post_json(f"/seat/{token}/action", ROLL).status == 200
            else:
                asked = player.get(f"/seat/{token}.json").json()["snapshot"]["view"]["asked"]
                assert asked["act"] == "gw_roll"
                assert player.post_json(f"/seat/{token}/action",
                                        {"act": "gw_roll", "face": 3}).status == 200  # fmt: skip
            seen = stranger.watch(WATCH)
            text = "\n".join(seen)
            assert not carries_seat(text, seat), f"the stranger's stream got {seat}'s view"
            assert not any(_seat_of(u) == seat for u in updates(seen))
            # Nothing of the seat at all: no update (a light push names no seat, so none).
            assert updates(seen) == [], f"the stranger's {kind} stream got pushes"
        finally:
            stranger.close()


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("how", ["moved", "released"])
def test_security_a_stream_ends_when_its_device_loses_the_seat(tmp_path, how, kind):
    query, gzip = KINDS[kind]
    with served(tmp_path, DEMO_HEADER) as world:
        table = world.table
        red = table.token("red")
        old = world.device()
        assert old.claim(red).status == 200
        stream = old.stream(f"/events/{red}{query}", gzip)
        try:
            assert stream.status == 200
            packed = stream.response.headers.get("Content-Encoding")
            assert packed == ("gzip" if gzip else None)
            opened = stream.watch(1.0)
            assert opened[:1] == [": connected"]
            if query:
                # The light stream's first push: every region whole, what the old device's
                # page now holds.
                assert set(updates(opened)[0]["html"]) >= {"board", "log"}
            console = world.host_device()
            if how == "moved":
                new = world.device("127.0.0.2")
                asked = new.claim(red)
                assert asked.status == 403  # the seat is someone else's: it asks the host
                if f'action="/join/{red}/ask"' in asked.text:
                    new.submit(asked, f"/join/{red}/ask")
                form = console.get("/host")
                # The host agrees on the console: the seat moves to the new tablet.
                granted = console.submit(form, _grant_action(form.text, "red"))
                assert granted.status == 200, granted.text[:500]
                assert new.get(f"/seat/{red}.json").status == 200
            else:
                page = old.get(f"/seat/{red}")
                assert old.submit(page, f"/seat/{red}/release").status == 200
                new = world.device("127.0.0.2")
                assert new.claim(red).status == 200
            fresh = new.stream(f"/events/{red}{query}", gzip)
            assert new.post_json(f"/seat/{red}/action", ROLL).status == 200
            seen = stream.watch(WATCH)
            assert stream.ended.is_set(), "the old device's stream was left open"
            assert not any(_move_of(u) == 1 for u in updates(seen)), (
                "the old device's stream received the seat after it moved"
            )
            # The new device's stream starts from nothing of the old one's: its first push
            # is whole (no edit of what the old device's stream had sent), then the move.
            got = updates(fresh.watch(2.0))
            fresh.close()
            assert got, "the new device's stream sent nothing"
            if query:
                assert "diff" not in got[0] and {"board", "log"} <= set(got[0]["html"])
            assert _move_of(got[-1]) == 1
            assert old.get(f"/seat/{red}.json").status == 403
            reopened = old.stream(f"/events/{red}")
            assert reopened.status == 403
            reopened.close()
        finally:
            stream.close()


def _grant_action(page: str, seat: str) -> str:
    """The console's one form that grants what waits (here: ``seat`` to the asking device)."""
    grants = [a for a in re.findall(r'<form[^>]*action="([^"]+)"', page) if a.endswith("grant")]
    assert len(grants) == 1, f"the console should offer one grant for {seat}:\n{page[:3000]}"
    return grants[0]
