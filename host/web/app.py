"""The Flask application factory for the dashboard."""

from __future__ import annotations

import threading
from typing import Any

from flask import Flask

from .errors import register_error_handlers

#: Inputs are small JSON objects; anything near this size is not a move.
MAX_BODY = 64 * 1024
#: Open event streams at once: below the server's 24 threads, so pages still load.
MAX_STREAMS = 18


_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'"
)


def create_app(host: Any, **config: Any) -> Flask:
    """A dashboard for ``host`` (a ``TableHost``-like object: ``table``, ``new_game``).

    ``config`` overrides Flask settings, e.g. ``SSE_KEEPALIVE`` (seconds between
    keep-alive comments on the event streams, 15 by default) and ``MAX_STREAMS``
    (open event streams at once; more are answered 429 and the browser retries) and
    ``PUBLIC_URL`` (the address tablets reach this table by, e.g.
    ``"http://192.168.1.20:8080"``, for the QR codes; by default the address
    the table screen was opened by).
    """
    from .views import events, seat, setup, table

    app = Flask(__name__)
    app.config.update(
        MAX_CONTENT_LENGTH=MAX_BODY,
        MAX_FORM_MEMORY_SIZE=MAX_BODY,
        SSE_KEEPALIVE=15.0,
        MAX_STREAMS=MAX_STREAMS,
        PUBLIC_URL=None,
        JSON_SORT_KEYS=False,
    )
    app.config.update(config)
    app.json.sort_keys = False
    # "/seat//action" is an unknown page (404), not a redirect to some other page.
    app.url_map.merge_slashes = False
    app.extensions["lawmaster.host"] = host
    app.extensions["lawmaster.unexpected"] = []
    # Set when the server stops, so open event streams end instead of holding threads.
    app.extensions["lawmaster.stopping"] = threading.Event()
    # Open event streams each hold a server thread: at most this many at once.
    app.extensions["lawmaster.streams"] = threading.BoundedSemaphore(app.config["MAX_STREAMS"])
    for blueprint in (table.bp, seat.bp, events.bp, setup.bp):
        app.register_blueprint(blueprint)
    register_error_handlers(app)

    @app.after_request
    def _headers(response: Any) -> Any:
        # Pages and JSON hold live secrets of one seat: never cache them anywhere.
        if response.mimetype != "text/css" and response.mimetype != "text/javascript":
            response.headers.setdefault("Cache-Control", "no-store")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        # Only our own script runs, whatever a piece or player name contains.
        response.headers.setdefault("Content-Security-Policy", _CSP)
        return response

    # Jinja compiles a template on first use (30-50 ms holding the GIL); done
    # here, that cost never lands inside the first push of a live move.
    for name in app.jinja_env.list_templates():
        app.jinja_env.get_template(name)
    return app
