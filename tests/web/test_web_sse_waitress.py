"""Event streams through waitress: unbuffered, the right headers, keep-alives, one seat each."""

from __future__ import annotations

import random
import threading

import pytest
from web_support import SseReader, gw_header, live_server, make_host, tokens

from lawmaster.host.web.serve import make_server


@pytest.fixture
def host(tmp_path):
    host = make_host(tmp_path)
    host.new_game(gw_header(1))
    return host


def test_web_sse_event_arrives_through_waitress_at_once(host):
    """An input made after the stream opened reaches the reader without buffering.

    No wall-clock assertion: the stream must deliver the event while the socket's
    read timeout (5 s) has not run out, which it cannot if waitress held the bytes
    back for a buffer to fill (an update is a few kB; the buffer would be 16 MB).
    """
    with live_server(host) as live:
        reader = SseReader(live.port, "/events/table", timeout=5)
        try:
            assert reader.response.status == 200
            assert reader.response.getheader("Content-Type").startswith("text/event-stream")
            assert reader.response.getheader("Cache-Control") == "no-cache"
            assert reader.response.getheader("X-Accel-Buffering") == "no"
            assert reader.next_block() == ": connected"
            faces = ["1", "2", "3", "4", "arrow"]
            result = host.table.submit("red", {"act": "roll", "by": "red", "faces": faces})
            assert result["ok"], result
            name, data = reader.next_event()
            assert name == "update"
            assert data["snapshot"]["seat"] == "table"
            assert data["snapshot"]["log"][-1]["type"] == "rolled"
            # Who entered the roll (here: red's tablet), beside the game's events.
            assert data["snapshot"]["entered"] == [{"move": 1, "by": "red", "source": "tablet"}]
            assert "Red rolls 1, 2, 3, 4, arrow." in data["html"]["log"]
        finally:
            reader.close()


def test_web_sse_keepalive_comment_when_nothing_happens(host):
    with live_server(host, SSE_KEEPALIVE=0.05) as live:
        reader = SseReader(live.port, f"/events/{host.table.token('gw')}", timeout=5)
        try:
            assert reader.next_block() == ": connected"
            assert reader.next_block() == ": keep-alive"
        finally:
            reader.close()


def test_web_sse_seat_stream_carries_that_seats_snapshot_only(host):
    table = host.table
    seats = tokens(table)
    with live_server(host) as live:
        readers = {
            seat: SseReader(live.port, f"/events/{tok}", timeout=5) for seat, tok in seats.items()
        }
        try:
            for reader in readers.values():
                assert reader.next_block() == ": connected"
            faces = ["2", "2", "3", "4", "gw"]
            assert table.submit("red", {"act": "roll", "by": "red", "faces": faces})["ok"]
            for seat, reader in readers.items():
                name, data = reader.next_event()
                assert name == "update"
                assert data["snapshot"] == table.snapshot(seat)
                # The seat's own prompts region is rendered for its own token only.
                for other, token in seats.items():
                    assert (token in data["html"]["prompts"]) == (other == seat)
        finally:
            for reader in readers.values():
                reader.close()


def test_web_sse_new_game_tells_open_pages_to_reload(host):
    with live_server(host) as live:
        reader = SseReader(live.port, "/events/table", timeout=5)
        try:
            assert reader.next_block() == ": connected"
            host.new_game(gw_header(2, ["blue", "yellow", "white"]))
            name, data = reader.next_event()
            assert name == "reload"
        finally:
            reader.close()


def test_web_sse_unknown_token_is_403_not_a_stream(host):
    with live_server(host) as live:
        reader = SseReader(live.port, "/events/not-a-token", timeout=5)
        try:
            assert reader.response.status == 403
        finally:
            reader.close()


def test_web_waitress_does_not_buffer_and_has_threads_for_streams(host):
    from lawmaster.host.web import create_app

    server = make_server(create_app(host), "127.0.0.1", 0, threads=2)
    try:
        assert server.adj.send_bytes == 1
        assert server.adj.threads >= 8
    finally:
        server.close()


def test_web_sse_many_inputs_arrive_in_order(host):
    table = host.table
    rng = random.Random(5)
    from web_support import play_random

    with live_server(host) as live:
        reader = SseReader(live.port, f"/events/{table.token('gw')}", timeout=5)
        try:
            assert reader.next_block() == ": connected"
            moves = []
            for _ in range(15):
                _, _, result = play_random(table, rng)
                if result["ok"]:
                    moves.append(len(table.actions))
            seen = []
            while len(seen) < len(moves):
                name, data = reader.next_event()
                assert name == "update"
                if data["snapshot"]["move"] not in seen:
                    seen.append(data["snapshot"]["move"])
            assert seen == moves
        finally:
            reader.close()


def test_web_server_close_from_another_thread_ends_open_streams(host):
    import threading

    from lawmaster.host.web import create_app

    server = make_server(create_app(host), "127.0.0.1", 0)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    reader = SseReader(server.effective_port, "/events/table", timeout=5)
    try:
        assert reader.next_block() == ": connected"
        server.close()
        thread.join(timeout=20)
        assert not thread.is_alive()
        with pytest.raises(EOFError):
            reader.next_block()  # the stream was ended by the server, not by a timeout
    finally:
        reader.close()


def test_web_sse_table_streams_are_capped_and_freed_and_seats_never_wait(host):
    with live_server(host, MAX_TABLE_STREAMS=2, SSE_KEEPALIVE=0.1) as live:
        screens = [SseReader(live.port, "/events/table", timeout=5) for _ in range(2)]
        seats = []
        try:
            for screen in screens:
                assert screen.next_block() == ": connected"
            refused = SseReader(live.port, "/events/table", timeout=5)
            assert refused.response.status == 429
            refused.close()
            # Every seat still gets its stream: seats never share the screens' places.
            for seat in host.table.seats():
                if seat != "table":
                    seats.append(SseReader(live.port, f"/events/{host.table.token(seat)}", 5))
                    assert seats[-1].next_block() == ": connected"
            # Ordinary pages still load while the streams are open.
            status, _ = live.post_json(f"/seat/{host.table.token('green')}/action", {"act": "x"})
            assert status == 409
        finally:
            screens[0].close()
        # A closed page's stream frees its place once a write (here a keep-alive) fails.
        faces = ["1", "1", "1", "1", "1"]
        assert host.table.submit("red", {"act": "roll", "by": "red", "faces": faces})["ok"]
        for _ in range(200):
            again = SseReader(live.port, "/events/table", timeout=5)
            if again.response.status == 200:
                break
            again.close()
            threading.Event().wait(0.05)
        try:
            assert again.response.status == 200
            assert again.next_block() == ": connected"
        finally:
            again.close()
            screens[1].close()
            for reader in seats:
                reader.close()


def test_web_sse_a_seats_newest_stream_replaces_its_oldest(host):
    token = host.table.token("red")
    with live_server(host, SSE_KEEPALIVE=0.1) as live:
        old = [SseReader(live.port, f"/events/{token}", timeout=5) for _ in range(2)]
        try:
            for reader in old:
                assert reader.next_block() == ": connected"
            newest = SseReader(live.port, f"/events/{token}", timeout=5)
            assert newest.response.status == 200 and newest.next_block() == ": connected"
            with pytest.raises(EOFError):  # a tablet that slept left its stream behind
                while True:
                    old[0].next_block()
            assert host.table.submit("red", {"act": "roll", "by": "red", "faces": ["1"] * 5})["ok"]
            name, data = newest.next_event()
            assert name == "update" and data["snapshot"]["seat"] == "red"
        finally:
            for reader in [*old, newest]:
                reader.close()


def test_web_sse_serves_sockets_numbered_past_1024(host):
    """A busy table holds hundreds of sockets beside its own files: select() cannot watch
    a descriptor past 1024 (every later request timed out), so waitress must poll."""
    import os

    held = [os.open(os.devnull, os.O_RDONLY) for _ in range(1100)]
    try:
        with live_server(host, SSE_KEEPALIVE=0.2) as live:
            reader = SseReader(live.port, "/events/table", timeout=5)
            try:
                assert reader.next_block() == ": connected"
            finally:
                reader.close()
    finally:
        for fd in held:
            os.close(fd)
