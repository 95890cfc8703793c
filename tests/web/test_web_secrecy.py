"""Secrecy over many random games: every page, JSON answer and pushed event a seat gets
holds only what that seat may know.

Random legal games run through the real table. After each input every seat's
page and JSON (and, in the streamed game, every SSE payload) is checked against
the referee's whole truth (the engine summary at that moment):

* the JSON snapshot is exactly that seat's snapshot, and its log has no event
  routed to other seats;
* no evidence card another seat holds appears anywhere outside the drawn board
  (whose cell titles name every card, as the printed board does);
* GW and the table screen get no criminal piece drawn, no criminal's position,
  ability or hand; only GW gets the deduction map; the table screen never names
  a trump GW still holds;
* no page of a seat carries another seat's token (it would open that seat).
"""

from __future__ import annotations

import json
import random
import re
import threading
from typing import Any

import pytest
from web_support import SseReader, gw_header, live_server, make_host, play_random, tokens

from lawmaster.host.web import create_app, delta

_BOARD_SVG = re.compile(r'<svg class="board.*?</svg>', re.S)

GAMES = [
    (21, ["red", "green"], False),
    (22, ["red", "green", "yellow"], False),
    (23, ["red", "green", "yellow", "blue"], False),
    (24, ["red", "green"], True),
]
STEPS = 50


def outside_board(html: str) -> str:
    """The text of a page without the drawn board."""
    return _BOARD_SVG.sub("", html)


def forbidden_cards(truth: dict[str, Any], seat: str, two_player: bool) -> set[str]:
    """Evidence cards still held by someone ``seat`` is not."""
    cards = set()
    for piece, info in truth["criminals"].items():
        if seat == piece or (two_player and seat in truth["criminals"]):
            continue
        cards.update(info["evidence_held"])
    return cards


def check_snapshot(snapshot: dict[str, Any], seat: str) -> None:
    """Structural secrecy of one snapshot for ``seat``."""
    assert snapshot["seat"] == seat
    view = snapshot["view"]
    types = {e["type"] for e in snapshot["log"]}
    assert all("visible_to" not in e for e in snapshot["log"])
    if seat in ("gw", "table"):
        assert "criminal_position" not in types and "dealt" not in types
        assert "evidence_held" not in view and "ability" not in view
        assert all("position" not in info for info in view["criminals"].values())
    if seat == "table":
        assert not types & {"trumps_dealt", "informed", "infiltrated"}
        assert "deduction" not in view and "trumps_left" not in view and "revealed" not in view
        assert snapshot["prompts"] == [] if "prompts" in snapshot else True
    if seat not in ("gw", "table"):
        assert "deduction" not in view and "trumps_left" not in view
        assert "trumps_dealt" not in types


def check_html(
    html: str, seat: str, truth: dict[str, Any], two_player: bool, others: set[str]
) -> None:
    """What a rendered page (or pushed fragment) of ``seat`` may not show."""
    text = outside_board(html)
    for card in forbidden_cards(truth, seat, two_player):
        assert card not in text, (seat, card)
    for token in others:
        assert token not in html, seat
    if seat in ("gw", "table"):
        assert 'class="piece criminal"' not in html
        assert "<dt>ability</dt>" not in text and "<dt>evidence held</dt>" not in text
    if seat != "gw":
        assert 'class="maybe"' not in html
    if seat == "table":
        in_hand = set(truth["trumps_left"])
        for card in in_hand:
            assert card not in text, card


def _check_seat_pages(client, table, seat, token, truth, two_player, all_tokens) -> None:
    others = {t for s, t in all_tokens.items() if s != seat}
    if seat == "table":
        page = client.get("/table?qr=0").get_data(as_text=True)
        answer = client.get("/table.json?html=1").get_json()
    else:
        page = client.get(f"/seat/{token}").get_data(as_text=True)
        answer = client.get(f"/seat/{token}.json?html=1").get_json()
    assert answer["snapshot"] == table.snapshot(seat)
    check_snapshot(answer["snapshot"], seat)
    check_html(page, seat, truth, two_player, others)
    check_html("".join(answer["html"].values()), seat, truth, two_player, others)


@pytest.mark.parametrize("seed,criminals,two_player", GAMES)
def test_web_secrecy_pages_and_json_over_random_games(tmp_path, seed, criminals, two_player):
    host = make_host(tmp_path)
    table = host.new_game(gw_header(seed, criminals, two_player))
    client = create_app(host).test_client()
    seats = tokens(table)
    rng = random.Random(seed)
    accepted = 0
    for _ in range(STEPS):
        if table.is_over():
            break
        _, _, result = play_random(table, rng)
        accepted += result["ok"]
        truth = table.engine.summary(table.state)
        for seat in (*seats, "table"):
            _check_seat_pages(client, table, seat, seats.get(seat), truth, two_player, seats)
    assert accepted >= STEPS // 2 or table.is_over()
    # The replay of the table screen is public too.
    history = client.get("/table/replay.json").get_json()["history"]
    for snapshot in history:
        check_snapshot(snapshot, "table")


def test_web_secrecy_table_screen_page_has_only_seat_links_as_tokens(tmp_path):
    host = make_host(tmp_path)
    table = host.new_game(gw_header(7, ["red", "green", "yellow"]))
    client = create_app(host).test_client()
    page = client.get("/table").get_data(as_text=True)
    # The QR codes are the one place tokens appear: each seat's own join link, by design.
    for seat, token in tokens(table).items():
        assert page.count(token) == 1, seat
        assert f'/join/{token}"' in page


def test_web_secrecy_sse_payloads_over_a_streamed_game(tmp_path):
    host = make_host(tmp_path)
    two_player = False
    table = host.new_game(gw_header(31, ["red", "green", "yellow"], two_player))
    seats = tokens(table)
    truths: dict[int, dict[str, Any]] = {0: table.engine.summary(table.state)}
    received: dict[str, list[dict[str, Any]]] = {seat: [] for seat in (*seats, "table")}
    rng = random.Random(31)

    def read(seat: str, reader: SseReader) -> None:
        try:
            while True:
                name, data = reader.next_event()
                if name == "update":
                    received[seat].append(data)
        except (EOFError, OSError, ValueError):
            return

    with live_server(host) as live:
        readers = {
            seat: SseReader(live.port, "/events/" + seats.get(seat, "table"), timeout=20)
            for seat in received
        }
        for reader in readers.values():
            assert reader.next_block() == ": connected"
        threads = [
            threading.Thread(target=read, args=(seat, reader), daemon=True)
            for seat, reader in readers.items()
        ]
        for thread in threads:
            thread.start()
        for _ in range(60):
            if table.is_over():
                break
            _, _, result = play_random(table, rng)
            if result["ok"]:
                truths[len(table.actions)] = table.engine.summary(table.state)
        # Every stream gets the last input before the server stops.
        last = len(table.actions)
        for seat in received:
            for _ in range(2000):  # up to 20 s on a loaded machine
                if received[seat] and received[seat][-1]["snapshot"]["move"] == last:
                    break
                threading.Event().wait(0.01)
    for thread in threads:
        thread.join(timeout=10)
    for reader in readers.values():
        reader.close()

    for seat, payloads in received.items():
        assert payloads, seat
        assert payloads[-1]["snapshot"]["move"] == last, seat
        history = table.history(seat)
        others = {t for s, t in seats.items() if s != seat}
        for payload in payloads:
            snapshot = payload["snapshot"]
            move = snapshot["move"]
            check_snapshot(snapshot, seat)
            assert snapshot["view"] == history[move]["view"]
            assert snapshot["log"] == history[move]["log"]
            check_html("".join(payload["html"].values()), seat, truths[move], two_player, others)


def test_web_secrecy_light_pushes_are_each_seats_own(tmp_path):
    """The pages' light streams (``?diff=1``): every push, as sent and with its edits
    applied to what that stream sent before, holds only what its seat may know; and the
    page it rebuilds is the seat's own page, as a fresh load draws it."""
    host = make_host(tmp_path)
    table = host.new_game(gw_header(32, ["red", "green", "yellow"]))
    seats = tokens(table)
    truths: dict[int, dict[str, Any]] = {0: table.engine.summary(table.state)}
    received: dict[str, list[tuple[str, dict[str, Any]]]] = {s: [] for s in (*seats, "table")}
    rng = random.Random(32)

    def read(seat: str, reader: SseReader) -> None:
        try:
            while True:
                block = reader.next_block()
                if block.startswith("id: ") and "\nevent: update\n" in block:
                    text = block.split("\ndata: ", 1)[1]
                    received[seat].append((text, json.loads(text)))
        except (EOFError, OSError, ValueError):
            return

    with live_server(host) as live:
        # As the page asks: light pushes, its regions whole at once.
        readers = {
            seat: SseReader(
                live.port,
                f"/events/{seats.get(seat, 'table')}?diff=1&last=99999999999",
                timeout=20,
            )
            for seat in received
        }
        threads = [
            threading.Thread(target=read, args=(seat, reader), daemon=True)
            for seat, reader in readers.items()
        ]
        for thread in threads:
            thread.start()
        for _ in range(40):
            if table.is_over():
                break
            _, _, result = play_random(table, rng)
            if result["ok"]:
                truths[len(table.actions)] = table.engine.summary(table.state)
        last = len(table.actions)
        for seat in received:
            for _ in range(2000):  # up to 20 s on a loaded machine
                if received[seat] and received[seat][-1][1]["move"] == last:
                    break
                threading.Event().wait(0.01)
        # A fresh load on each seat's own device (the one whose stream was read).
        fresh = {
            seat: live.get_json(
                "/table.json?html=1" if seat == "table" else f"/seat/{token}.json?html=1"
            )[1]["html"]
            for seat, token in (*seats.items(), ("table", ""))
        }
    for thread in threads:
        thread.join(timeout=10)
    for reader in readers.values():
        reader.close()

    for seat, pushes in received.items():
        others = {t for s, t in seats.items() if s != seat}
        sent: dict[str, list[str]] = {}
        assert pushes and "html" in pushes[0][1], seat  # the first push is whole
        for text, push in pushes:
            assert "snapshot" not in push  # numbers, not the snapshot
            truth = truths[push["move"]]
            # What went over the wire, and the regions it rebuilds.
            check_html(text, seat, truth, False, others)
            for region, html in (push.get("html") or {}).items():
                sent[region] = delta.chunks(html)
            for region, ops in (push.get("diff") or {}).items():
                sent[region] = delta.apply(sent[region], ops)
            rebuilt = {region: "".join(chunks) for region, chunks in sent.items()}
            check_html("".join(rebuilt.values()), seat, truth, False, others)
        assert rebuilt == {r: h for r, h in fresh[seat].items() if r in rebuilt}, seat
