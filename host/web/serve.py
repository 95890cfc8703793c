"""Serving the dashboard with waitress: event streams unbuffered, a crowd or a trickle bounded
(:mod:`.slow_clients`), and a clean stop."""

from __future__ import annotations

import errno
import threading
from typing import Any

from flask import Flask
from waitress import wasyncore
from waitress.server import create_server

from .slow_clients import guard

#: Each open event stream holds a worker thread for as long as the page is open:
#: the table screens (MAX_TABLE_STREAMS), up to six seats with two streams each,
#: and ordinary requests besides.
THREADS = 32
#: Sockets waitress keeps open at once (its default, 100, let a hundred idle
#: sockets stop every request); well under the usual limit of 1024 open files.
CONNECTION_LIMIT = 600


class DashboardServer:
    """A waitress server for the dashboard (``run()``, ``close()``, ``effective_port``).

    Everything else is waitress's own server, reached through attribute access.
    ``close()`` may be called from any thread: open event streams are told to
    end first (so waitress is not left waiting for their worker threads), and
    the sockets are closed by the server's own loop thread, the only one that
    may close them while it polls them.
    """

    def __init__(self, server: Any, app: Flask) -> None:
        self._server = server
        self.app = app
        self._running = threading.Event()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._server, name)

    def run(self) -> None:
        """Serve until :meth:`close` (blocks)."""
        self._running.set()
        try:
            self._server.run()
        finally:
            self._running.clear()
            self.app.extensions["lawmaster.stopping"].set()

    def close(self) -> None:
        """Stop serving: end the event streams, then close every connection."""
        self.app.extensions["lawmaster.stopping"].set()
        server = self._server

        def close_everything() -> None:
            server.task_dispatcher.shutdown()
            wasyncore.close_all(server._map)  # every channel, so the loop has nothing left

        if self._running.is_set():
            server.trigger.pull_trigger(close_everything)
        else:
            close_everything()


def make_server(
    app: Flask, host: str = "0.0.0.0", port: int = 8080, threads: int = THREADS
) -> DashboardServer:
    """A waitress server for ``app`` (call ``.run()``; ``.close()`` to stop).

    Waitress sends as soon as one byte is queued (``send_bytes`` is 1 since
    waitress 2, and setting it is deprecated), so each SSE event leaves at its
    ``yield``; the check below keeps that true if a future default changes.
    """
    if not 0 <= port <= 65535:
        # The socket layer would wrap it silently (99999 listens on 34463).
        raise ServeError(f"{port} is not a TCP port: choose one from 1 to 65535 (0: any free one)")
    try:
        server = create_server(
            app,
            host=host,
            port=port,
            threads=max(8, threads),
            connection_limit=CONNECTION_LIMIT,
            # poll(), not select(): select cannot watch a socket numbered past 1024,
            # and hundreds of connections beside a process's own files get there.
            asyncore_use_poll=True,
            # A socket silent this long is closed: live streams write a keep-alive
            # every few seconds. A socket that trickles a header in is closed at its
            # request's deadline instead (slow_clients), checked every second.
            channel_timeout=20,
            cleanup_interval=1,
            # Refused before anything is buffered: the app's own limit is 64 KiB, and
            # waitress would otherwise spool a huge body to disk first.
            max_request_body_size=64 * 1024,
            max_request_header_size=32 * 1024,
            ident="lawmaster",
        )
    except OSError as exc:
        raise ServeError(_listen_problem(host, port, exc)) from None
    if server.adj.send_bytes > 1:
        raise RuntimeError("waitress would buffer event streams (send_bytes > 1)")
    # Bounds per client address and a deadline for every request's head.
    guard(server)
    return DashboardServer(server, app)


class ServeError(OSError):
    """The dashboard cannot listen where it was asked to; the text is for the person starting it."""


def _listen_problem(host: str, port: int, exc: OSError) -> str:
    if exc.errno == errno.EADDRINUSE:
        return (
            f"port {port} on {host} is already in use (another lawmaster or another program"
            " listens there): stop that program or choose another port"
        )
    if exc.errno in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT):
        return f"{host} is not an address of this machine, so the dashboard cannot listen on it"
    if exc.errno == errno.EACCES:
        return f"port {port} needs administrator rights here: choose a port above 1023"
    return f"the dashboard cannot listen on {host}:{port}: {exc.strerror or exc}"


def stop(server: DashboardServer) -> None:
    """Stop a server made by :func:`make_server` (the same as ``server.close()``)."""
    server.close()


def serve(app: Flask, host: str = "0.0.0.0", port: int = 8080) -> None:
    """Serve ``app`` on ``host:port`` until interrupted."""
    make_server(app, host, port).run()
