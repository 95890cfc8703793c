"""Server-Sent Events: one stream per open page, fed by that seat's subscription only.

The stream starts with a comment so the headers leave at once, sends a
keep-alive comment every ``SSE_KEEPALIVE`` seconds (a closed client is only
noticed at the next write), and ends with a ``reload`` event when the host
starts a new game, since the page's seat and token belong to the old one.

A seat's stream belongs to the claim that opened it: it ends the moment the
seat changes hands (:meth:`StreamSlots.end_seat`, woken at once), and asks
again before every update it writes, so nothing of the seat leaves for a
device that no longer holds it.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from flask import Response, current_app, request, stream_with_context
from flask_babel import gettext as _

from .context import get_host
from .errors import BAD_TOKEN, WebError

#: Status for "too many open streams": a 4xx the browser's EventSource retries later.
TOO_MANY = 429

#: How often the generator wakes to notice a new game, a stopping server or a due keep-alive.
_POLL = 0.25

HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


class StreamSlot:
    """One open stream's place; ``ended`` is set when the stream must stop at once.

    A seat's stream ends when the seat opened a newer one (its oldest is dropped)
    or when the device holding the seat changed (:meth:`StreamSlots.end_seat`).
    ``wake`` is called after ``ended`` is set, so a stream waiting for its next
    message notices without waiting for its poll.
    """

    def __init__(self, key: str, owner: str) -> None:
        self.key = key
        self.owner = owner
        self.ended = threading.Event()
        self.wake: Callable[[], None] = lambda: None

    def end(self) -> None:
        self.ended.set()
        self.wake()


class StreamSlots:
    """Who holds an event stream: each seat its own few, the table screens theirs.

    A seat is never refused for the crowd: its streams are counted apart from the
    table screens', and a seat opening one stream too many closes its oldest (a
    page left open on a tablet that went to sleep) instead of being turned away.
    A screen the host authorised (paired, or the host's own device) is treated the
    same way, each by its own grant. Other table screens share ``table_screens``
    slots, at most ``per_owner`` for any one client address, so one laptop cannot
    take them all; beyond that they are answered 429 and retry later.
    """

    def __init__(self, table_screens: int, per_seat: int = 2, per_owner: int = 2) -> None:
        self.table_screens = table_screens
        self.per_seat = per_seat
        self.per_owner = per_owner
        self._lock = threading.Lock()
        self._open: dict[str, list[StreamSlot]] = {}

    def open(self, key: str, shared: bool, owner: str = "") -> StreamSlot | None:
        """A slot for a stream of ``key`` (a seat's token, a screen's grant, or the shared
        table screens' name); ``owner`` is who opened it (a shared slot's client address)."""
        with self._lock:
            held = self._open.setdefault(key, [])
            if shared:
                if len(held) >= self.table_screens:
                    return None
                if sum(1 for s in held if s.owner == owner) >= self.per_owner:
                    return None
            elif len(held) >= self.per_seat:
                held.pop(0).end()
            slot = StreamSlot(key, owner)
            held.append(slot)
            return slot

    def close(self, slot: StreamSlot) -> None:
        with self._lock:
            held = self._open.get(slot.key, [])
            if slot in held:
                held.remove(slot)

    def end_seat(self, key: str) -> None:
        """End every open stream of ``key`` now (the seat changed hands)."""
        with self._lock:
            held = list(self._open.get(key, []))
        for slot in held:
            slot.end()

    def count(self, key: str) -> int:
        with self._lock:
            return len(self._open.get(key, []))


def format_event(kind: str, data: Any, event_id: object = None) -> str:
    """One SSE event; JSON has no raw newlines, so ``data`` is a single line.

    ``event_id`` (the snapshot's version) comes back as ``Last-Event-ID`` when the
    browser reconnects, so the stream knows what the page has already seen.
    """
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def _last_seen() -> int | None:
    raw = request.headers.get("Last-Event-ID") or request.args.get("last") or ""
    return int(raw) if raw.isdigit() and len(raw) < 12 else None


def stream(
    table: Any,
    seat: str,
    payload: Callable[[dict[str, Any]], dict[str, Any]],
    keepalive: float,
    key: str | None = None,
    allowed: Callable[[], bool] = lambda: True,
) -> Response:
    """An SSE response pushing ``payload(snapshot)`` for each update of ``seat``'s snapshot.

    ``key`` names the stream for :class:`StreamSlots` (a seat's token, or a screen's
    grant); without one the stream is a public table screen's and shares their
    slots. ``allowed`` is asked before every update: the moment it says no (the
    seat changed hands), the stream ends and sends nothing more. A page that
    reconnects with an older ``Last-Event-ID`` (or ``?last=``) than the table's
    version gets the current snapshot at once: it missed something.
    """
    host = get_host()
    app = current_app
    stopping = app.extensions["lawmaster.stopping"]
    slots: StreamSlots = app.extensions["lawmaster.streams"]
    slot = slots.open(key or seat, shared=key is None, owner=request.remote_addr or "")
    if slot is None:
        # Each open stream holds a server thread; keep some for ordinary requests.
        raise WebError(TOO_MANY, _("too many table screens are open on this table; close one"))
    if not allowed():
        # The seat changed hands between the request's check and the slot: no stream.
        slots.close(slot)
        raise WebError(BAD_TOKEN, _("this seat is open on another device"))
    try:
        subscription = table.subscribe(seat)
    except BaseException:
        slots.close(slot)
        raise
    # A stream told to end wakes at once instead of at its next poll.
    slot.wake = lambda: subscription.put({"type": "ended"})
    if slot.ended.is_set():
        slot.wake()
    seen = _last_seen()
    done = threading.Lock()

    def cleanup() -> None:
        # Runs at the generator's end and again when the server closes the response
        # (which may happen before the generator ever started): once is enough.
        if done.acquire(blocking=False):
            subscription.close()
            slots.close(slot)

    def events() -> Iterator[str]:
        try:
            yield ": connected\n\n"
            last_write = time.monotonic()
            if seen is not None and seen != getattr(table, "version", seen) and allowed():
                snapshot = table.snapshot(seat)
                yield format_event("update", payload(snapshot), snapshot.get("version"))
            while not stopping.is_set():
                if getattr(host, "table", None) is not table:
                    yield format_event("reload", {"reason": "a new game was set up"})
                    return
                if slot.ended.is_set() or not allowed():
                    # The seat changed hands, or opened a newer stream (another tab, or
                    # a reconnect that came before this one timed out): end this one.
                    return
                wait = max(0.0, min(_POLL, keepalive - (time.monotonic() - last_write)))
                message = subscription.get(timeout=wait)
                if message is not None:
                    snapshot = message.get("snapshot") if isinstance(message, dict) else None
                    # Asked again just before the write: nothing of the seat leaves
                    # once the device holding it changed, even a message already taken.
                    if slot.ended.is_set() or not allowed():
                        return
                    if isinstance(snapshot, dict):
                        yield format_event("update", payload(snapshot), snapshot.get("version"))
                        last_write = time.monotonic()
                elif time.monotonic() - last_write >= keepalive:
                    yield ": keep-alive\n\n"
                    last_write = time.monotonic()
        finally:
            cleanup()

    return Response(stream_with_context(events()), mimetype="text/event-stream", headers=HEADERS)
