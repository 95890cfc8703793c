"""Every failure the dashboard answers is a 4xx with a reason, never a 500.

API callers (and anything that does not ask for HTML) get
``{"ok": false, "error": "..."}``; a browser asking for a page gets the same
reason on a small HTML page, with the same status.
"""

from __future__ import annotations

import logging

from flask import Flask, Response, jsonify, render_template, request
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException

log = logging.getLogger(__name__)

#: Status codes and what they mean here, so every raise site agrees.
MALFORMED = 400
BAD_TOKEN = 403
UNKNOWN = 404
REFUSED = 409  # out of turn, illegal by the rules, or not this seat's to send
TOO_LARGE = 413


class WebError(Exception):
    """A request the dashboard refuses, with the status and a reason a person reads."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


def wants_html() -> bool:
    """Whether the client asked for a page rather than JSON (a browser navigating)."""
    best = request.accept_mimetypes.best_match(["application/json", "text/html"])
    return request.method == "GET" and best == "text/html" and not request.is_json


def error_response(status: int, reason: str) -> Response:
    """The one shape of every error answer."""
    if wants_html():
        page = render_template("error.html", status=status, reason=reason)
        return Response(page, status=status, mimetype="text/html")
    response = jsonify({"ok": False, "error": reason})
    response.status_code = status
    return response


def register_error_handlers(app: Flask) -> None:
    """Route every exception through :func:`error_response`."""

    @app.errorhandler(WebError)
    def _web_error(exc: WebError) -> Response:
        return error_response(exc.status, exc.reason)

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException) -> Response:
        status = exc.code or 400
        reasons = {
            400: _("the request could not be read"),
            404: _("there is no such page"),
            405: _("that method is not allowed here"),
            413: _("the request is too large"),
        }
        reason = reasons.get(status, exc.description or exc.name)
        # A bad request from the client is never a server fault; keep 4xx as 4xx.
        return error_response(status if 400 <= status < 500 else 400, reason)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception) -> Response:
        # Input we did not foresee must not become a 500 page; log it so it gets fixed.
        log.exception("unexpected error answering %s %s", request.method, request.path)
        # Counted so the tests can tell a refused request from a hidden bug.
        app.extensions.setdefault("lawmaster.unexpected", []).append(repr(exc))
        return error_response(MALFORMED, _("the request could not be handled"))
