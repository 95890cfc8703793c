"""Live updates: ``/events/table`` (public) and ``/events/<token>`` (one seat).

Two shapes of push. The default carries the whole snapshot and every region's HTML
(scripts and tests read it). With ``?diff=1`` (what the pages ask for) a push carries
only what changed since the stream's last push (:mod:`..delta`): the snapshot's
``version`` and ``move``, and per changed region its whole HTML or an edit of it; the
stream is gzip-compressed for a browser that takes it (:mod:`..packed`).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, request
from werkzeug.wrappers import Response

from .. import render
from ..context import TABLE_SEAT, current_table, seat_for
from ..delta import Delta
from ..fragments import regions
from ..guard import check_seat_device
from ..packed import pack_stream
from ..sse import stream
from .join import joins_key, seat_links
from .seat import digital_dice

bp = Blueprint("events", __name__)


def _keepalive() -> float:
    return float(current_app.config["SSE_KEEPALIVE"])


def light(snapshot: dict[str, Any], html: dict[str, str], delta: Delta) -> dict[str, Any]:
    """A push of what changed: the snapshot's numbers and the regions' edits."""
    found: dict[str, Any] = {
        "type": "update",
        "version": snapshot.get("version"),
        "move": snapshot.get("move"),
    }
    found.update(delta.push(html))
    return found


def _wants_diff() -> bool:
    return request.args.get("diff") == "1"


@bp.get("/events/table")
def table_events() -> Response:
    """The table screen's stream: public snapshots only."""
    table = current_table()
    delta = Delta() if _wants_diff() else None

    def payload(snapshot: dict[str, Any]) -> dict[str, Any]:
        # Which seats still show a code, by name only: the page fetches the codes
        # themselves when that changes, so no seat's token rides the public stream.
        joins = joins_key(seat_links(table))
        html = regions(snapshot, look=render.table_look(table))
        if delta is not None:
            return {**light(snapshot, html, delta), "joins": joins}
        return {"type": "update", "snapshot": snapshot, "html": html, "joins": joins}

    response = stream(table, TABLE_SEAT, payload, _keepalive())
    return pack_stream(response) if delta is not None else response


@bp.get("/events/<token>")
def seat_events(token: str) -> Response:
    """One seat's stream: that seat's snapshots only, with its regions rendered from them
    (and, with ``?diff=1``, edits computed from this stream's own earlier pushes only)."""
    table, seat = seat_for(token)
    check_seat_device(token)
    dice = digital_dice(table)
    delta = Delta() if _wants_diff() else None

    def payload(snapshot: dict[str, Any]) -> dict[str, Any]:
        html = regions(snapshot, token, dice, render.table_look(table))
        if delta is not None:
            return light(snapshot, html, delta)
        return {"type": "update", "snapshot": snapshot, "html": html}

    response = stream(table, seat, payload, _keepalive(), key=token)
    return pack_stream(response) if delta is not None else response
