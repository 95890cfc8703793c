"""Live updates: ``/events/table`` (public) and ``/events/<token>`` (one seat's device only).

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
from ..access import SCREEN
from ..context import TABLE_SEAT, current_table, seat_for
from ..delta import Delta
from ..fragments import regions
from ..guard import access, check_seat_device, device, host_secret, screen_secret, shows_codes
from ..packed import pack_stream
from ..sse import stream
from .join import screen_key
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
    """The table screen's stream: public snapshots only.

    A screen the host authorised has stream slots of its own (by its grant); any
    other shares the public ones, a few per client address.
    """
    table = current_table()
    record = access()
    host, mine = host_secret(), screen_secret()
    grant = record.grant_of(host) or record.grant_of(mine)
    delta = Delta() if _wants_diff() else None

    def payload(snapshot: dict[str, Any]) -> dict[str, Any]:
        # What the screen's join panel shows, as a key: the page fetches the panel
        # itself when that changes, so no seat's token rides this stream.
        codes = record.is_host(host) or record.is_screen(mine)
        joins = screen_key(table, codes, record.request_of(mine, SCREEN) is not None)
        html = regions(snapshot, look=render.table_look(table))
        if delta is not None:
            return {**light(snapshot, html, delta), "joins": joins}
        return {"type": "update", "snapshot": snapshot, "html": html, "joins": joins}

    key = f"screen:{grant.holder}" if grant is not None and shows_codes() else None
    response = stream(table, TABLE_SEAT, payload, _keepalive(), key=key)
    return pack_stream(response) if delta is not None else response


@bp.get("/events/<token>")
def seat_events(token: str) -> Response:
    """One seat's stream, for the device holding the seat and for as long as it holds it.

    It ends the moment the seat changes hands (claimed, released, moved: see
    :meth:`~lawmaster.host.web.access.Access.on_seat_change`), and each update
    asks again first, so nothing of the seat reaches a device that no longer holds it.
    With ``?diff=1`` its pushes are edits computed from this stream's own earlier
    pushes only.
    """
    table, seat = seat_for(token)
    check_seat_device(token)
    dice = digital_dice(table)
    record, mine = access(), device()
    delta = Delta() if _wants_diff() else None

    def payload(snapshot: dict[str, Any]) -> dict[str, Any]:
        html = regions(snapshot, token, dice, render.table_look(table))
        if delta is not None:
            return light(snapshot, html, delta)
        return {"type": "update", "snapshot": snapshot, "html": html}

    def still_holds() -> bool:
        return record.holds(token, mine)

    response = stream(table, seat, payload, _keepalive(), key=token, allowed=still_holds)
    return pack_stream(response) if delta is not None else response
