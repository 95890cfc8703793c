"""Server-Sent Events: one stream per open page, fed by that seat's subscription only.

The stream starts with a comment so the headers leave at once, sends a
keep-alive comment every ``SSE_KEEPALIVE`` seconds (a closed client is only
noticed at the next write), and ends with a ``reload`` event when the host
starts a new game, since the page's seat and token belong to the old one.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from flask import Response, current_app, stream_with_context

from .context import get_host
from .errors import WebError

#: Status for "too many open streams": a 4xx the browser's EventSource retries later.
TOO_MANY = 429

#: How often the generator wakes to notice a new game, a stopping server or a due keep-alive.
_POLL = 0.25

HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


def format_event(kind: str, data: Any) -> str:
    """One SSE event; JSON has no raw newlines, so ``data`` is a single line."""
    return f"event: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def stream(
    table: Any,
    seat: str,
    payload: Callable[[dict[str, Any]], dict[str, Any]],
    keepalive: float,
) -> Response:
    """An SSE response pushing ``payload(snapshot)`` for each update of ``seat``'s snapshot."""
    host = get_host()
    app = current_app._get_current_object()
    stopping = app.extensions["lawmaster.stopping"]
    streams = app.extensions["lawmaster.streams"]
    if not streams.acquire(blocking=False):
        # Each open stream holds a server thread; keep some for ordinary requests.
        raise WebError(TOO_MANY, "too many live pages are open on this table; close one")
    try:
        subscription = table.subscribe(seat)
    except BaseException:
        streams.release()
        raise
    done = threading.Lock()

    def cleanup() -> None:
        # Runs at the generator's end and again when the server closes the response
        # (which may happen before the generator ever started): once is enough.
        if done.acquire(blocking=False):
            subscription.close()
            streams.release()

    def events() -> Iterator[str]:
        try:
            yield ": connected\n\n"
            last_write = time.monotonic()
            while not stopping.is_set():
                if getattr(host, "table", None) is not table:
                    yield format_event("reload", {"reason": "a new game was set up"})
                    return
                wait = max(0.0, min(_POLL, keepalive - (time.monotonic() - last_write)))
                message = subscription.get(timeout=wait)
                if message is not None:
                    snapshot = message.get("snapshot") if isinstance(message, dict) else None
                    if isinstance(snapshot, dict):
                        yield format_event("update", payload(snapshot))
                        last_write = time.monotonic()
                elif time.monotonic() - last_write >= keepalive:
                    yield ": keep-alive\n\n"
                    last_write = time.monotonic()
        finally:
            cleanup()

    return Response(stream_with_context(events()), mimetype="text/event-stream", headers=HEADERS)
