"""A crowd or a trickle cannot stall the table (issue 20, findings 5 and 6).

The slow-headers attack runs against ``lawmaster demo`` itself in a process of
its own (the server exactly as a person starts it), from one address; the
request that must still be answered comes from another (``127.0.0.2``).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading

import pytest
from security_support import Device, served, trickle

from lawmaster.host.games.gw_brott.setup import DEMO_HEADER

#: The attack's pass condition: a bound on one request, not a speed figure.
ANSWER_WITHIN = 2.0


@pytest.fixture
def demo(tmp_path):
    """``lawmaster demo`` on a free port of 127.0.0.1, its port read from what it prints."""
    process = subprocess.Popen(
        [sys.executable, "-c", "from lawmaster.host.cli import main; main()", "demo",
         "--no-board", "--port", "0", "--pace", "30", "--journal", str(tmp_path / "j.db")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        port = None
        for line in process.stdout:
            if line.startswith("table screen:"):
                port = int(line.split()[-1].rstrip("/").rsplit(":", 1)[1].split("/")[0])
                break
        assert port is not None, process.stderr.read()
        threading.Thread(target=process.stdout.read, daemon=True).start()
        yield port
    finally:
        os.kill(process.pid, signal.SIGTERM)
        process.communicate(timeout=30)


def _answered(port: int, source: str) -> int:
    """One plain request from ``source``; its status (a timeout fails the test)."""
    sock = socket.create_connection(
        ("127.0.0.1", port), timeout=ANSWER_WITHIN, source_address=(source, 0)
    )
    try:
        sock.sendall(b"GET /table.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        head = sock.recv(64)
    finally:
        sock.close()
    assert head.startswith(b"HTTP/1.1 "), head
    return int(head.split()[1])


@pytest.mark.timeout(180)
def test_security_600_trickling_sockets_leave_another_address_answered(demo):
    port = demo
    sockets: list[socket.socket] = []
    stop = threading.Event()
    thread = threading.Thread(target=trickle, args=(sockets, stop, 1.0), daemon=True)
    try:
        for _ in range(600):
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=5,
                                                source_address=("127.0.0.1", 0))  # fmt: skip
                sock.sendall(b"GET /table HTTP/1.1\r\nHost: x\r\n")
            except OSError:
                continue  # turned away at once: that is the defence working
            sockets.append(sock)
        thread.start()
        # While they trickle (each adds a header line every second, never ending its
        # headers), another machine is answered: now, and after several header deadlines.
        for _ in range(4):
            assert _answered(port, "127.0.0.2") == 200
            stop.wait(3.0)
    finally:
        stop.set()
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.close()


def test_security_one_device_cannot_use_up_the_table_screens_streams(tmp_path):
    with served(tmp_path, DEMO_HEADER) as world:
        hog = Device(world.port, "127.0.0.2")
        held = [hog.stream("/events/table") for _ in range(8)]
        try:
            assert any(s.status == 429 for s in held)  # one device gets a few, not all
            screen = world.device("127.0.0.3").stream("/events/table")
            try:
                assert screen.status == 200
                assert screen.watch(1.0)[:1] == [": connected"]
            finally:
                screen.close()
        finally:
            for stream in held:
                stream.close()


def _closed_by_server(sock: socket.socket) -> bool:
    """Whether the server has closed ``sock`` (it reads as ended, or resets)."""
    sock.settimeout(0.2)
    try:
        return sock.recv(1) == b""
    except TimeoutError:
        return False
    except OSError:
        return True


def test_security_a_trickled_head_is_dropped_at_its_deadline(tmp_path):
    from lawmaster.host.web.slow_clients import HEAD_SECONDS

    with served(tmp_path, DEMO_HEADER) as world:
        sock = socket.create_connection(("127.0.0.1", world.port), timeout=5)
        try:
            sock.sendall(b"GET /table HTTP/1.1\r\nHost: x\r\n")
            lines = 0
            # One header line a second, for up to four times the deadline: the server
            # must close the socket although it never goes quiet for long.
            while lines < 4 * HEAD_SECONDS and not _closed_by_server(sock):
                with contextlib.suppress(OSError):
                    sock.sendall(b"X-Slow: 1\r\n")
                lines += 1
                threading.Event().wait(0.8)
            assert _closed_by_server(sock), "a head trickling in was never dropped"
            assert lines >= HEAD_SECONDS - 1  # not before its deadline, either
        finally:
            sock.close()
        # The address is not banned: its next request is answered.
        assert _answered(world.port, "127.0.0.1") == 200


def test_security_one_address_gets_a_bounded_number_of_connections(tmp_path):
    from lawmaster.host.web.slow_clients import PER_ADDRESS

    with served(tmp_path, DEMO_HEADER) as world:
        held = []
        try:
            for _ in range(PER_ADDRESS + 8):
                sock = socket.create_connection(("127.0.0.1", world.port), timeout=5,
                                                source_address=("127.0.0.2", 0))  # fmt: skip
                held.append(sock)
            threading.Event().wait(0.5)
            closed = sum(_closed_by_server(s) for s in held)
            assert closed >= 8, closed  # those beyond the bound were closed at once
            assert _answered(world.port, "127.0.0.3") == 200
        finally:
            for sock in held:
                sock.close()
