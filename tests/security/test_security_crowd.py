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
