"""The host's console: requests to grant, seats and their devices, host devices and screens,
undo, manual input, set-up pages.

``GET /host/<host link's secret>`` (written where only the Pi's own user reads
it, see :mod:`lawmaster.host.commands.run`) makes this device a host for
:data:`~..access.HOST_DAYS` days. ``GET /host`` is the console itself for the
host, and for anyone else a page that can ask to become host: the request
shows a short code on that device, on every table screen and on the console,
and is granted by a host on the console, or at the table by a long press of the
panel's confirm button while it is the only request waiting.
``GET /screen/<screen link's secret>`` pairs the screen it is opened on (the
Pi's own display); ``POST /table/pair`` asks for a pairing like the host's.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, redirect, render_template, request, url_for
from flask_babel import gettext as _
from markupsafe import Markup

from lawmaster.host.ui.look import chip

from .. import render
from ..access import HOST, SCREEN
from ..actions import action_from_form
from ..context import TABLE_SEAT, current_table, get_host
from ..errors import BAD_TOKEN, MALFORMED, REFUSED, UNKNOWN, WebError
from ..guard import (
    access,
    check_form,
    check_host,
    host_secret,
    is_host,
    remember_host,
    remember_screen,
    screen_secret,
)
from .join import seat_links

bp = Blueprint("console", __name__)

#: The form scope of the "ask to be host" and "pair this screen" buttons.
ASK_SCOPE = "ask"
_MAX_LINK = 128


@bp.get("/host/<token>")
def become_host(token: str) -> Any:
    """The host link: this device is a host from now on (for days), as the table screen says."""
    secret = access().open_host_link(token) if len(token) <= _MAX_LINK else None
    if secret is None:
        raise WebError(
            BAD_TOKEN, _("that host link is not this table's (it is new at every start)")
        )
    return remember_host(redirect(url_for("console.console"), code=303), secret)


@bp.get("/screen/<token>")
def pair_by_link(token: str) -> Any:
    """The table screen link (the Pi's own display): this screen shows the seat codes."""
    secret = access().open_screen_link(token) if len(token) <= _MAX_LINK else None
    if secret is None:
        raise WebError(
            BAD_TOKEN, _("that screen link is not this table's (it is new at every start)")
        )
    return remember_screen(redirect(url_for("table.screen"), code=303), secret)


@bp.get("/host")
def console() -> Any:
    """The console for the host; for anyone else, the way to ask for it."""
    record = access()
    if not is_host():
        waiting = record.request_of(host_secret(), HOST)
        return render_template("host_ask.html", waiting=waiting), 403
    table = getattr(get_host(), "table", None)
    mine = record.grant_of(host_secret())
    return render_template(
        "console.html",
        table=table,
        seats=_seats(table) if table is not None else [],
        links=seat_links(table, for_host=True) if table is not None else [],
        requests=record.requests(),
        notices=record.notices(),
        grants=record.grants(),
        mine=mine.code if mine is not None else None,
        undo=getattr(table, "undo", None),
        snapshot=table.snapshot(TABLE_SEAT) if table is not None else None,
    )


@bp.post("/host/ask")
def ask() -> Any:
    """Ask to be host: this device gets a code to show; a host or the table grants it."""
    check_form(ASK_SCOPE)
    if is_host():
        return redirect(url_for("console.console"), code=303)
    secret, _request = access().ask(HOST)
    return remember_host(redirect(url_for("console.console"), code=303), secret)


@bp.post("/table/pair")
def ask_to_pair() -> Any:
    """Ask for this screen to show the seat codes: it shows a code to grant, like the host's."""
    check_form(ASK_SCOPE)
    if access().is_screen(screen_secret()):
        return redirect(url_for("table.screen"), code=303)
    secret, _request = access().ask(SCREEN)
    return remember_screen(redirect(url_for("table.screen"), code=303), secret)


@bp.post("/host/requests/<code>/<what>")
def answer_request(code: str, what: str) -> Any:
    """Grant or refuse a waiting request (host rights, a screen's pairing, a seat's move)."""
    check_host()
    record = access()
    if what == "grant":
        done = record.grant(code)
    elif what == "refuse":
        done = record.refuse(code)
    else:
        raise WebError(MALFORMED, _("choose grant or refuse"))
    if done is None:
        raise WebError(UNKNOWN, _("no request with the code %(code)s is waiting now", code=code))
    return redirect(url_for("console.console"), code=303)


@bp.post("/host/grants/<code>/revoke")
def revoke(code: str) -> Any:
    """Take back a host device's rights or a screen's pairing."""
    check_host()
    if access().revoke(code) is None:
        raise WebError(UNKNOWN, _("no host device or screen has the code %(code)s", code=code))
    return redirect(url_for("console.console"), code=303)


@bp.post("/host/seats/release")
def release_seat() -> Any:
    """Release a seat from its device (the seat named in the form: any name, even ``a/b``)."""
    check_host()
    table = current_table()
    seat = request.form.get("seat", "")
    if seat not in table.seats() or seat == TABLE_SEAT:
        raise WebError(MALFORMED, _("there is no such seat in this game"))
    access().release(table.token(seat), seat)
    return redirect(url_for("console.console"), code=303)


@bp.post("/host/undo")
def undo() -> Any:
    """Take back the last accepted input, as the panel's undo and confirm would."""
    check_host()
    table = current_table()
    referee = table.referee
    result = referee.request_undo(None)
    if result.get("ok") and table.undo is not None and table.undo.confirmers:
        result = referee.confirm_undo(table.undo.confirmers[0])
    if not result.get("ok"):
        raise WebError(REFUSED, result.get("error") or _("nothing was undone"))
    return redirect(url_for("console.console"), code=303)


@bp.post("/host/input")
def manual_input() -> Any:
    """The referee console: an input typed for a seat, checked like any other."""
    check_host()
    table = current_table()
    seat = request.form.get("seat", "")
    if seat not in table.seats() or seat == TABLE_SEAT:
        raise WebError(MALFORMED, _("choose the seat the input is for"))
    action = action_from_form(request) if "action" in request.form else None
    if action is None:
        raise WebError(MALFORMED, _("type the input as a JSON object"))
    result = table.submit(seat, action, source="console")
    if not result.get("ok"):
        raise WebError(REFUSED, result.get("error") or _("refused"))
    return redirect(url_for("console.console"), code=303)


def _seats(table: Any) -> list[dict[str, Any]]:
    record = access()
    waiting = {r.seat for r in record.requests() if r.seat is not None}
    looks = render.table_look(table)
    return [
        {
            "seat": seat,
            "name": render.seat_name(table.game, seat),
            "chip": Markup(chip(looks.get(seat))),
            "claimed": record.is_claimed(table.token(seat)),
            "asked": seat in waiting,
        }
        for seat in table.seats()
        if seat != TABLE_SEAT
    ]

