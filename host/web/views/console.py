"""The host's console: seats and their devices, undo, manual input, set-up pages.

``GET /host/<host token>`` (the link the table prints on the Pi's console when
it starts) makes this device the host. ``GET /host`` is the console itself for
the host, and for anyone else a page that can ask to become host: the request is
granted by a press of the confirm button on the table's panel.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ..actions import action_from_form
from ..context import TABLE_SEAT, current_table, get_host
from ..errors import BAD_TOKEN, MALFORMED, REFUSED, WebError
from ..guard import access, check_host, device, device_or_new, remember_device
from .join import seat_links

bp = Blueprint("console", __name__)


@bp.get("/host/<token>")
def become_host(token: str) -> Any:
    """The host link: this device is the host from now on."""
    record = access()
    if len(token) > 128 or not record.host_link_opens(token):
        raise WebError(BAD_TOKEN, _("that host link is not this table's"))
    me = device_or_new()
    record.make_host(me)
    return remember_device(redirect(url_for("console.console"), code=303), me)


@bp.get("/host")
def console() -> Any:
    """The console for the host; for anyone else, the way to ask for it."""
    if not access().is_host(device()):
        return render_template("host_ask.html", asked=request.args.get("asked") == "1"), 403
    table = getattr(get_host(), "table", None)
    return render_template(
        "console.html",
        table=table,
        seats=_seats(table) if table is not None else [],
        links=seat_links(table, for_host=True) if table is not None else [],
        moves=access().move_requests(),
        undo=getattr(table, "undo", None),
        snapshot=table.snapshot(TABLE_SEAT) if table is not None else None,
    )


@bp.post("/host/ask")
def ask() -> Any:
    """Ask to be host; someone at the table grants it with the panel's confirm button."""
    me = device_or_new()
    access().ask_for_host(me)
    return remember_device(redirect(url_for("console.console", asked=1), code=303), me)


@bp.post("/host/seat/<seat>/<what>")
def seat_device(seat: str, what: str) -> Any:
    """Move a seat to the device that asked for it, or release it."""
    check_host()
    table = current_table()
    if seat not in table.seats() or seat == TABLE_SEAT:
        raise WebError(MALFORMED, _("there is no such seat in this game"))
    token = table.token(seat)
    if what == "grant":
        if not access().grant_move(token):
            raise WebError(
                REFUSED, _("no other device is asking for %(seat)s's seat now", seat=seat)
            )
    elif what == "release":
        access().release(token)
    else:
        raise WebError(MALFORMED, _("choose grant or release"))
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
    result = table.submit(seat, action)
    if not result.get("ok"):
        raise WebError(REFUSED, result.get("error") or _("refused"))
    return redirect(url_for("console.console"), code=303)


def _seats(table: Any) -> list[dict[str, Any]]:
    record = access()
    waiting = {m.seat for m in record.move_requests()}
    return [
        {
            "seat": seat,
            "claimed": record.is_claimed(table.token(seat)),
            "asked": seat in waiting,
        }
        for seat in table.seats()
        if seat != TABLE_SEAT
    ]
