"""Live updates: ``/events/table`` (public) and ``/events/<token>`` (one seat's device only)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app
from werkzeug.wrappers import Response

from ..access import SCREEN
from ..context import TABLE_SEAT, current_table, seat_for
from ..fragments import regions
from ..guard import access, check_seat_device, device, host_secret, screen_secret, shows_codes
from ..sse import stream
from .join import screen_key
from .seat import digital_dice

bp = Blueprint("events", __name__)


def _keepalive() -> float:
    return float(current_app.config["SSE_KEEPALIVE"])


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

    def payload(snapshot: dict[str, Any]) -> dict[str, Any]:
        # What the screen's join panel shows, as a key: the page fetches the panel
        # itself when that changes, so no seat's token rides this stream.
        codes = record.is_host(host) or record.is_screen(mine)
        joins = screen_key(table, codes, record.request_of(mine, SCREEN) is not None)
        return {"type": "update", "snapshot": snapshot, "html": regions(snapshot), "joins": joins}

    key = f"screen:{grant.holder}" if grant is not None and shows_codes() else None
    return stream(table, TABLE_SEAT, payload, _keepalive(), key=key)


@bp.get("/events/<token>")
def seat_events(token: str) -> Response:
    """One seat's stream, for the device holding the seat and for as long as it holds it.

    It ends the moment the seat changes hands (claimed, released, moved: see
    :meth:`~lawmaster.host.web.access.Access.on_seat_change`), and each update
    asks again first, so nothing of the seat reaches a device that no longer holds it.
    """
    table, seat = seat_for(token)
    check_seat_device(token)
    dice = digital_dice(table)
    record, mine = access(), device()

    def payload(snapshot: dict[str, Any]) -> dict[str, Any]:
        return {"type": "update", "snapshot": snapshot, "html": regions(snapshot, token, dice)}

    def still_holds() -> bool:
        return record.holds(token, mine)

    return stream(table, seat, payload, _keepalive(), key=token, allowed=still_holds)


