"""A seat's own page, opened by its token: its view, its prompts, and its inputs.

Every answer here is built from ``table.snapshot(seat)`` for the seat the token
opens, and every input goes through ``table.submit(seat, ...)``, which refuses
what that seat may not send.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from .. import render
from ..actions import action_from_form, action_from_json, body_is_json, checked_action
from ..context import seat_for
from ..errors import MALFORMED, REFUSED, WebError, error_response
from ..fragments import as_markup, regions
from ..guard import TOKEN_HEADER, access, check_seat_device, check_seat_post
from ..i18n import translate
from .table import scenario_file

bp = Blueprint("seat", __name__)


def digital_dice(table: Any) -> bool:
    """Whether this table rolls dice on the tablets instead of entering physical ones."""
    settings = getattr(table, "settings", None)
    return isinstance(settings, Mapping) and bool(settings.get("digital_dice"))


def render_seat(
    table: Any, seat: str, token: str, error: str | None = None, status: int = 200
) -> tuple[str, int]:
    """The seat's full page (also used to show a refused form input, without scripts)."""
    snapshot = table.snapshot(seat)
    sides = render.ui_for(snapshot.get("game")).sides
    asked = request.args.get("side")
    side = asked if asked in sides else None
    page = render_template(
        "seat.html",
        snapshot=snapshot,
        seat=seat,
        token=token,
        regions=as_markup(regions(snapshot, token, digital_dice(table), render.table_look(table))),
        events_url=url_for("events.seat_events", token=token, side=side),
        token_header=TOKEN_HEADER,
        snapshot_url=url_for("seat.snapshot_json", token=token, html=1, side=side),
        side=render.side(snapshot, side),
        sides=sides,
        error=error,
    )
    return page, status


@bp.get("/seat/<token>")
def page(token: str) -> Any:
    """The seat's page, complete without scripts, on the device that holds the seat."""
    table, seat = seat_for(token)
    if not access().is_claimed(token):
        # To see a seat, a device claims it: the join link decides how (and the
        # table screen says it happened). Nothing of the seat is drawn here.
        return redirect(url_for("join.join", token=token), code=303)
    check_seat_device(token)
    return render_seat(table, seat, token)


@bp.get("/seat/<token>.json")
def snapshot_json(token: str) -> Response:
    """The seat's snapshot."""
    table, seat = seat_for(token)
    check_seat_device(token)
    snapshot = table.snapshot(seat)
    answer: dict[str, Any] = {"ok": True, "snapshot": snapshot}
    if request.args.get("html"):
        answer["html"] = regions(snapshot, token, digital_dice(table), render.table_look(table))
    return jsonify(answer)


def _answer(table: Any, seat: str, token: str, result: Mapping[str, Any]) -> Any:
    """A table result as JSON for scripts, or post-redirect-get / the page with the error."""
    ok = isinstance(result, Mapping) and result.get("ok") is True
    error = None if ok else result.get("error") or _("refused")
    if body_is_json(request):
        if ok:
            answer = {"ok": True, "events": result.get("events", [])}
            if result.get("pending"):
                # Held until the board shows the rest.
                answer["pending"] = translate(result["pending"])
            return jsonify(answer)
        raise WebError(REFUSED, translate(error or _("refused")))
    if ok:
        return redirect(url_for("seat.page", token=token), code=303)
    return render_seat(table, seat, token, error=error, status=REFUSED)


@bp.get("/seat/<token>/scenario.jsonl")
def scenario(token: str) -> Response:
    """The finished game as this seat may read it (see ``Table.export_scenario``)."""
    table, seat = seat_for(token)
    check_seat_device(token)
    return scenario_file(table, seat)


@bp.post("/seat/<token>/action")
def action(token: str) -> Any:
    """One input from this seat (JSON from the script, or a plain form)."""
    table, seat = seat_for(token)
    check_seat_post(token)
    act = action_from_json(request) if body_is_json(request) else action_from_form(request)
    return _answer(table, seat, token, table.submit(seat, act))


@bp.post("/seat/<token>/roll")
def roll(token: str) -> Any:
    """Roll on the tablet: send the dice prompt's action without faces; the referee rolls."""
    table, seat = seat_for(token)
    check_seat_post(token)
    if not digital_dice(table):
        raise WebError(REFUSED, _("this table enters real dice; digital rolls are off"))
    prompt = next(
        (p for p in table.snapshot(seat).get("prompts") or [] if p.get("kind") == "enter_dice"),
        None,
    )
    if prompt is None:
        raise WebError(REFUSED, _("there are no dice for you to roll now"))
    action = dict(prompt.get("action") or {"act": prompt.get("act"), "by": prompt.get("by")})
    action = {k: v for k, v in action.items() if v is not None}
    return _answer(table, seat, token, table.submit(seat, checked_action(action)))


@bp.post("/seat/<token>/undo")
def undo(token: str) -> Any:
    """Ask for the last input to be taken back; the host confirms (console or panel)."""
    table, seat = seat_for(token)
    check_seat_post(token)
    return _answer(table, seat, token, table.request_undo(seat))


@bp.errorhandler(WebError)
def _form_error(exc: WebError) -> Any:
    # A plain form that went wrong shows the seat's page with the reason, so a
    # player without scripts is never stranded on a JSON page.
    if (
        request.method == "POST"
        and not body_is_json(request)
        and exc.status in (MALFORMED, REFUSED)
        and request.view_args
        and "token" in request.view_args
    ):
        try:
            table, seat = seat_for(request.view_args["token"])
        except WebError as bad:
            return error_response(bad.status, bad.reason)
        return render_seat(table, seat, request.view_args["token"], exc.reason, exc.status)
    return error_response(exc.status, exc.reason)
