"""Joining a seat: the QR code's link binds the seat to the device that scans it first.

``GET /join/<token>`` claims an unclaimed seat for this device (a long-lived
cookie) and opens its page. A second device is turned away with no view; its
request waits on the host console (or a press of the panel's confirm button).
``POST /seat/<token>/release`` lets the seat's own device let go of it, so the
player can move to another tablet without losing anything: the game is the
table's, not the tablet's.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, redirect, render_template, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from ..context import TABLE_SEAT, seat_for
from ..guard import access, check_seat_post, device_or_new, remember_device
from ..qr import qr_svg

bp = Blueprint("join", __name__)


@bp.get("/join/<token>")
def join(token: str) -> Any:
    """Claim the seat (or open it again on its own device); anyone else waits for the host."""
    table, seat = seat_for(token)
    me = device_or_new()
    record = access()
    if record.claim(token, me):
        return remember_device(redirect(url_for("seat.page", token=token), code=303), me)
    record.ask_to_move(seat, token, me)
    page = render_template("taken.html", seat=seat, game=table.game, token=token)
    return remember_device(Response(page, status=403, mimetype="text/html"), me)


@bp.post("/seat/<token>/release")
def release(token: str) -> Any:
    """The seat's device lets go of it; the next device to scan its code takes it over."""
    table, seat = seat_for(token)
    check_seat_post(token)
    access().release(token)
    return render_template("released.html", seat=seat, game=table.game)


def join_url(token: str) -> str:
    """The absolute address a seat's QR code encodes (``PUBLIC_URL`` first, see seat_links)."""
    base = current_app.config.get("PUBLIC_URL")
    path = url_for("join.join", token=token)
    return base.rstrip("/") + path if base else url_for("join.join", token=token, _external=True)


def seat_links(table: Any, *, for_host: bool = False) -> list[dict[str, Any]]:
    """Each seat that a device may still join: its name, its join address and QR code.

    Claimed seats are left out. Once play has started, the shared table screen
    also leaves out every seat the game marks private then
    (:attr:`Game.private_once_started`: in GW:s brott a criminal's view shows
    where the criminals are, and GW sits at the same table). The host console
    (``for_host``) shows every unclaimed seat.
    """
    record = access()
    started = bool(getattr(table, "actions", None))
    links = []
    for seat in table.seats():
        if seat == TABLE_SEAT:
            continue
        token = table.token(seat)
        if record.is_claimed(token):
            continue
        if not for_host and started and table.plugin.private_once_started(seat):
            continue
        url = join_url(token)
        label = _("Join as %(seat)s", seat=seat)
        links.append({"seat": seat, "url": url, "qr": qr_svg(url, label)})
    return links


def joins_key(links: list[dict[str, Any]]) -> str:
    """The seats that still show a code, by name: what the table screen compares."""
    return " ".join(link["seat"] for link in links)
