"""Serving the dashboard with waitress, with event streams delivered unbuffered."""

from __future__ import annotations

from typing import Any

from flask import Flask
from waitress import wasyncore
from waitress.server import create_server

#: Each open event stream holds a worker thread for as long as the page is open:
#: a table screen plus up to six seats, some with two tabs, plus ordinary requests.
THREADS = 24


def make_server(app: Flask, host: str = "0.0.0.0", port: int = 8080, threads: int = THREADS) -> Any:
    """A waitress server for ``app`` (call ``.run()``; ``.close()`` to stop).

    Waitress sends as soon as one byte is queued (``send_bytes`` is 1 since
    waitress 2, and setting it is deprecated), so each SSE event leaves at its
    ``yield``; the check below keeps that true if a future default changes.
    """
    server = create_server(
        app,
        host=host,
        port=port,
        threads=max(8, threads),
        channel_timeout=60,  # keep-alive comments every 15 s keep live streams open
        ident="lawmaster",
    )
    if server.adj.send_bytes > 1:
        raise RuntimeError("waitress would buffer event streams (send_bytes > 1)")
    server.lawmaster_app = app  # waitress wraps the app it serves; :func:`stop` needs ours
    return server


def stop(server: Any) -> None:
    """Stop a server made by :func:`make_server` from any thread, ending open streams first.

    The event streams see the app's stopping flag within a poll and return, so
    the worker threads are free when waitress joins them; the close itself runs
    in the server's own loop thread, which is the only one allowed to close its
    sockets while it is polling them.
    """
    server.lawmaster_app.extensions["lawmaster.stopping"].set()

    def close_everything() -> None:
        server.task_dispatcher.shutdown()
        wasyncore.close_all(server._map)  # every channel, so the loop has nothing left

    server.trigger.pull_trigger(close_everything)


def serve(app: Flask, host: str = "0.0.0.0", port: int = 8080) -> None:
    """Serve ``app`` until interrupted."""
    server = make_server(app, host, port)
    try:
        server.run()
    finally:
        app.extensions["lawmaster.stopping"].set()
