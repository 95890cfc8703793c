"""The dashboard's checks on each request, from :mod:`lawmaster.host.web.access`.

* Every state-changing request must come from one of our own pages: a browser
  names the page's origin (``Origin``, ``Sec-Fetch-Site``), and a foreign one is
  refused before any view runs. A script's JSON post also carries the seat's
  token in the ``X-Lawmaster-Token`` header, which no other site's page can set;
  a plain form carries a signed hidden field instead.
* A seat opens only on the device that holds it (its cookie); an unclaimed
  seat opens for nobody until a device claims it.
* Host pages need the host's cookie (:data:`HOST_COOKIE`, days long); the seat
  codes need the host's device or a paired screen (:data:`SCREEN_COOKIE`).
* A device cookie is only ever *set* by a request from one of our own pages or
  a link a person opened themselves (:func:`navigated_here`): a link on another
  site's page cannot replace a player's cookie and so unseat them.
"""

from __future__ import annotations

import hmac
from urllib.parse import urlsplit

from flask import current_app, request
from flask_babel import gettext as _
from markupsafe import Markup, escape
from werkzeug.wrappers import Response

from .access import HOST_SECONDS, Access, new_device_id
from .actions import body_is_json
from .errors import BAD_TOKEN, WebError

DEVICE_COOKIE = "lawmaster_device"
#: The host's rights, apart from the device's seats: they expire in days and can be revoked.
HOST_COOKIE = "lawmaster_host"
#: A table screen's pairing: the seat codes show on it.
SCREEN_COOKIE = "lawmaster_screen"
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


def _cookie(name: str) -> str | None:
    value = request.cookies.get(name)
    return value if value and len(value) <= 128 else None


def host_secret() -> str | None:
    """This device's host cookie, if it has one (granted or still waiting)."""
    return _cookie(HOST_COOKIE)


def screen_secret() -> str | None:
    """This device's screen cookie, if it has one (paired or still waiting)."""
    return _cookie(SCREEN_COOKIE)


def is_host() -> bool:
    return access().is_host(host_secret())


def shows_codes() -> bool:
    """Whether this device may show the seats' codes: the host's, or a paired screen."""
    record = access()
    return record.is_host(host_secret()) or record.is_screen(screen_secret())


def navigated_here() -> bool:
    """Whether a person opened this page themselves (typed, scanned, a bookmark) or from one
    of our own pages, as the browser says (``Sec-Fetch-Site``): not from another site."""
    return request.headers.get("Sec-Fetch-Site") in ("none", "same-origin")


def remember_device(response: Response, value: str) -> Response:
    """Give the device its cookie (again, so it lives another season)."""
    return _set(response, DEVICE_COOKIE, value, COOKIE_SECONDS)


def remember_host(response: Response, value: str) -> Response:
    """Give the device its host cookie: it lasts as long as the host's grant, days."""
    return _set(response, HOST_COOKIE, value, HOST_SECONDS)


def remember_screen(response: Response, value: str) -> Response:
    return _set(response, SCREEN_COOKIE, value, HOST_SECONDS)


def _set(response: Response, name: str, value: str, seconds: int) -> Response:
    response.set_cookie(
        name,
        value,
        max_age=seconds,
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
    """A seat answers only the device that holds it; an unclaimed seat answers nobody."""
    record = access()
    if record.holds(token, device()):
        return
    if not record.is_claimed(token):
        raise WebError(
            BAD_TOKEN,
            _(
                "nobody has joined this seat yet: open its code's link on your tablet to join"
                " it (the table screen shows it)"
            ),
        )
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
    if not is_host():
        raise WebError(
            BAD_TOKEN,
            _(
                "only the host can do that: open the host link on the table's own screen,"
                " or ask on the host page and let the host (or the table's panel) agree"
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


def join_scope(token: str) -> str:
    """The join and ask buttons' scope: a page anyone with the seat's code may see, so its
    field opens none of the seat's own forms."""
    return f"join:{token}"


def form_field(scope: str) -> Markup:
    """The hidden field a plain form posts for ``scope`` (a seat's, or the host's)."""
    value = escape(access().form_token(scope))
    return Markup(f'<input type="hidden" name="{FORM_FIELD}" value="{value}">')
