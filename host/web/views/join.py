"""Joining a seat: the seat's code binds the seat to the device that opens it first.

``GET /join/<token>`` claims an unclaimed seat for this device (a long-lived
cookie) and opens its page, when a person opened the link themselves (scanned,
typed) or from one of our pages; a link followed from another site's page gets
a page with a button instead, and sets no cookie (so it cannot replace a
player's). Every claim is shown on the table screen and the host console.

A device that opens a seat another device holds is turned away with no view;
it may ask for the seat (``POST /join/<token>/ask``), and the seat moves when
the host grants the request (the console, or a long press of the panel's
confirm button while the table screen shows the request's code).
``POST /seat/<token>/release`` lets the seat's own device let go of it, so the
player can move to another tablet without losing anything: the game is the
table's, not the tablet's.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, redirect, render_template, url_for
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.wrappers import Response

from lawmaster.host.ui.look import chip as look_chip

from .. import render
from ..access import SEAT
from ..context import TABLE_SEAT, seat_for
from ..guard import (
    access,
    check_form,
    check_seat_post,
    device,
    device_or_new,
    join_scope,
    navigated_here,
    remember_device,
)
from ..qr import qr_svg

bp = Blueprint("join", __name__)


@bp.get("/join/<token>")
def join(token: str) -> Any:
    """Claim the seat (or open it again on its own device); anyone else may ask the host."""
    table, seat = seat_for(token)
    record = access()
    if record.holds(token, device()):
        return redirect(url_for("seat.page", token=token), code=303)
    if record.is_claimed(token):
        return _taken(table, seat, token)
    if navigated_here():
        return _claim(table, seat, token)
    # Followed from another site's page (or a client that does not say): ask first.
    page = render_template(
        "join.html", seat=seat, game=table.game, token=token, look=_look(table, seat)
    )
    return Response(page, status=200, mimetype="text/html")


@bp.post("/join/<token>")
def join_confirmed(token: str) -> Any:
    """The join page's button: claim the seat for this device."""
    table, seat = seat_for(token)
    check_form(join_scope(token))
    if access().holds(token, device()):
        return redirect(url_for("seat.page", token=token), code=303)
    return _claim(table, seat, token)


@bp.post("/join/<token>/ask")
def ask(token: str) -> Any:
    """Ask for a seat another device holds; the page then shows the request's code."""
    table, seat = seat_for(token)
    check_form(join_scope(token))
    me = device_or_new()
    record = access()
    if not record.is_claimed(token):
        return _claim(table, seat, token)
    if not record.holds(token, me):
        record.ask_for_seat(seat, token, me)
    return remember_device(redirect(url_for("join.join", token=token), code=303), me)


@bp.post("/seat/<token>/release")
def release(token: str) -> Any:
    """The seat's device lets go of it; the next device to open its code takes it over."""
    table, seat = seat_for(token)
    check_seat_post(token)
    access().release(token, seat)
    return render_template("released.html", seat=seat, game=table.game, look=_look(table, seat))


def _claim(table: Any, seat: str, token: str) -> Any:
    me = device_or_new()
    if access().claim(token, me, seat):
        return remember_device(redirect(url_for("seat.page", token=token), code=303), me)
    return _taken(table, seat, token)


def _taken(table: Any, seat: str, token: str) -> Response:
    """The seat is another device's: no view; this device's request and its code, if any."""
    waiting = access().request_of(device(), SEAT, token)
    page = render_template(
        "taken.html",
        seat=seat,
        game=table.game,
        token=token,
        waiting=waiting,
        look=_look(table, seat),
    )
    return Response(page, status=403, mimetype="text/html")


def _look(table: Any, seat: str) -> dict[str, str] | None:
    """How the seat is drawn on every page (its colour and mark): public."""
    return render.table_look(table).get(seat)


def join_url(token: str) -> str:
    """The absolute address a seat's QR code encodes (``PUBLIC_URL`` first, see seat_links)."""
    base = current_app.config.get("PUBLIC_URL")
    path = url_for("join.join", token=token)
    return base.rstrip("/") + path if base else url_for("join.join", token=token, _external=True)


def joinable(table: Any, *, for_host: bool = False) -> list[str]:
    """The seats whose code an authorised screen shows now.

    Claimed seats are left out. Once play has started, a table screen also
    leaves out every seat the game marks private then
    (:attr:`Game.private_once_started`: in GW:s brott a criminal's view shows
    where the criminals are, and GW sits at the same table). The host console
    (``for_host``) shows every unclaimed seat.
    """
    record = access()
    started = bool(getattr(table, "actions", None))
    seats = []
    for seat in table.seats():
        if seat == TABLE_SEAT or record.is_claimed(table.token(seat)):
            continue
        if not for_host and started and table.plugin.private_once_started(seat):
            continue
        seats.append(seat)
    return seats


def seat_links(table: Any, *, for_host: bool = False) -> list[dict[str, Any]]:
    """Each seat a device may still join: its name, its join address and QR code.

    Only for a screen the host authorised (see :func:`~..guard.shows_codes`): the
    caller decides that, never a public page.
    """
    links = []
    looks = render.table_look(table)
    for seat in joinable(table, for_host=for_host):
        url = join_url(table.token(seat))
        name = render.seat_name(table.game, seat)
        label = _("Join as %(seat)s", seat=name)
        chip = Markup(look_chip(looks.get(seat)))
        qr = qr_svg(url, label)
        links.append({"seat": seat, "name": name, "chip": chip, "url": url, "qr": qr})
    return links


def screen_key(table: Any, codes: bool, asking: bool) -> str:
    """What a table screen's join panel shows, as a short key the screen compares.

    The seats whose code it shows (by name, and only on a screen that shows
    codes), the notices and the requests waiting (by number and code, public
    words), and whether this screen asks to be paired.
    """
    record = access()
    seats = " ".join(joinable(table)) if codes else ""
    notices = ",".join(str(n.number) for n in record.notices())
    waiting = ",".join(r.code for r in record.requests())
    return f"{seats}|{notices}|{waiting}|{int(codes)}|{int(asking)}"
