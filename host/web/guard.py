"""The dashboard's checks on each request, from :mod:`lawmaster.host.web.access`.

* Every state-changing request must come from one of our own pages: a browser
  names the page's origin (``Origin``, ``Sec-Fetch-Site``), and a foreign one is
  refused before any view runs. A script's JSON post also carries the seat's
  token in the ``X-Lawmaster-Token`` header, which no other site's page can set;
  a plain form carries a signed hidden field instead.
* A claimed seat opens only on the device it is bound to (its cookie).
* Host pages need the host's device.
"""

from __future__ import annotations

import hmac
from urllib.parse import urlsplit

from flask import current_app, request
from flask_babel import gettext as _
from markupsafe import Markup, escape
from werkzeug.wrappers import Response

from .access import Access, new_device_id
from .actions import body_is_json
from .errors import BAD_TOKEN, WebError

DEVICE_COOKIE = "lawmaster_device"
TOKEN_HEADER = "X-Lawmaster-Token"
FORM_FIELD = "form_token"
#: A season of game nights: a tablet stays bound to its seat across evenings.
COOKIE_SECONDS = 120 * 24 * 3600
HOST_SCOPE = "host"

_SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def access() -> Access:
    """The app's :class:`Access` record."""
    found: Access = current_app.extensions["lawmaster.access"]
    return found


def device() -> str | None:
    """This device's cookie, if it has one."""
    value = request.cookies.get(DEVICE_COOKIE)
    return value if value and len(value) <= 128 else None


def device_or_new() -> str:
    return device() or new_device_id()


def remember_device(response: Response, value: str) -> Response:
    """Give the device its cookie (again, so it lives another season)."""
    response.set_cookie(
        DEVICE_COOKIE,
        value,
        max_age=COOKIE_SECONDS,
        httponly=True,
        # Never sent with a request another site's page makes.
        samesite="Strict",
        secure=request.is_secure,
    )
    return response


def _origin(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    return parts.scheme.lower(), parts.netloc.lower()


def check_same_origin() -> None:
    """Refuse a state-changing request that another site's page sent."""
    if request.method in _SAFE_METHODS:
        return
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None and site not in ("same-origin", "none"):
        raise WebError(BAD_TOKEN, _("this request came from another site's page, so it is refused"))
    origin = request.headers.get("Origin")
    if origin is None:
        return  # not a browser page's request (a browser names the origin of every post)
    allowed = {_origin(request.host_url)}
    public = current_app.config.get("PUBLIC_URL")
    if public:
        allowed.add(_origin(str(public)))
    if _origin(origin) not in allowed:
        raise WebError(BAD_TOKEN, _("this request came from another site's page, so it is refused"))


def check_seat_device(token: str) -> None:
    """A claimed seat answers only the device it is bound to."""
    record = access()
    if record.is_claimed(token) and not record.holds(token, device()):
        raise WebError(
            BAD_TOKEN,
            _(
                "this seat is open on another device; to move it here, scan its code again"
                " and ask the host"
            ),
        )


def check_seat_post(token: str) -> None:
    """A seat's input: its device, and the token header (scripts) or the form field."""
    check_seat_device(token)
    if body_is_json(request):
        sent = request.headers.get(TOKEN_HEADER, "")
        if not hmac.compare_digest(sent.encode("utf-8"), token.encode("utf-8")):
            raise WebError(BAD_TOKEN, f"a seat's input must carry its token in {TOKEN_HEADER}")
    else:
        check_form(seat_scope(token))


def check_host() -> None:
    """Host pages and inputs: only the host's device (and, for forms, our own form)."""
    if not access().is_host(device()):
        raise WebError(
            BAD_TOKEN,
            _(
                "only the host can do that: open the host link the table printed when it"
                " started, or ask on the host page and press confirm on the table's panel"
            ),
        )
    if request.method not in _SAFE_METHODS and not request.is_json:
        # Only a real JSON body (which another site's page cannot send without
        # asking first) goes without the form's own field.
        check_form(HOST_SCOPE)


def check_form(scope: str) -> None:
    value = request.form.get(FORM_FIELD, "")
    if not value or not access().form_token_valid(value, scope):
        raise WebError(
            BAD_TOKEN, _("this form is out of date or not from this table: reload the page")
        )


def seat_scope(token: str) -> str:
    return f"seat:{token}"


def form_field(scope: str) -> Markup:
    """The hidden field a plain form posts for ``scope`` (a seat's, or the host's)."""
    value = escape(access().form_token(scope))
    return Markup(f'<input type="hidden" name="{FORM_FIELD}" value="{value}">')
