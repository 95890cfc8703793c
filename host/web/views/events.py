"""Live updates: ``/events/table`` (public) and ``/events/<token>`` (one seat)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app
from werkzeug.wrappers import Response

from .. import render
from ..context import TABLE_SEAT, current_table, seat_for
from ..fragments import regions
from ..guard import check_seat_device
from ..sse import stream
from .join import joins_key, seat_links
from .seat import digital_dice

bp = Blueprint("events", __name__)


def _keepalive() -> float:
    return float(current_app.config["SSE_KEEPALIVE"])


@bp.get("/events/table")
def table_events() -> Response:
    """The table screen's stream: public snapshots only."""
    table = current_table()

    def payload(snapshot: dict[str, Any]) -> dict[str, Any]:
        # Which seats still show a code, by name only: the page fetches the codes
        # themselves when that changes, so no seat's token rides the public stream.
        joins = joins_key(seat_links(table))
        html = regions(snapshot, look=render.table_look(table))
        return {"type": "update", "snapshot": snapshot, "html": html, "joins": joins}

    return stream(table, TABLE_SEAT, payload, _keepalive())


@bp.get("/events/<token>")
def seat_events(token: str) -> Response:
    """One seat's stream: that seat's snapshots only, with its regions rendered from them."""
    table, seat = seat_for(token)
    check_seat_device(token)
    dice = digital_dice(table)

    def payload(snapshot: dict[str, Any]) -> dict[str, Any]:
        html = regions(snapshot, token, dice, render.table_look(table))
        return {"type": "update", "snapshot": snapshot, "html": html}

    return stream(table, seat, payload, _keepalive(), key=token)
