"""The Flask application factory for the dashboard."""

from __future__ import annotations

import json
import threading
import time
from functools import partial
from typing import Any

from flask import Flask
from jinja2 import ChoiceLoader
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup

from . import compress, i18n, render, static_files
from .access import Access
from .context import TABLE_SEAT
from .errors import register_error_handlers
from .guard import HOST_SCOPE, check_same_origin, form_field, join_scope, seat_scope
from .notices import grant_hint, notice_line, request_marked
from .sse import StreamSlots
from .templating import GameTemplates
from .views import console, events, join, seat, setup, table

#: Inputs are small JSON objects; anything near this size is not a move.
MAX_BODY = 64 * 1024
#: Table screens with a live stream at once; every seat has streams of its own besides.
MAX_TABLE_STREAMS = 6


_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'"
)


def create_app(host: Any, **config: Any) -> Flask:
    """A dashboard for ``host`` (a ``TableHost``-like object: ``table``, ``new_game``).

    ``config`` overrides Flask settings, e.g. ``SSE_KEEPALIVE`` (seconds between
    keep-alive comments on the event streams, 5 by default: a closed page is
    only noticed at a write, and its slot is freed then), ``MAX_TABLE_STREAMS``
    (table screens streaming at once; more are answered 429 and the page retries
    later; each seat's streams are kept apart and never refused for them),
    ``PUBLIC_URL`` (the address tablets reach this table by, e.g.
    ``"http://192.168.1.20:8080"``, for the QR codes; by default the address
    the table screen was opened by) and ``ACCESS_FILE`` (where the claimed seats
    and the host are kept, beside the journal; ``None`` keeps them in memory).
    """
    app = Flask(__name__)
    # The app's own templates, then each game's as "<slug>/<name>".
    app.jinja_loader = ChoiceLoader([app.jinja_loader, GameTemplates()])  # type: ignore[list-item]
    app.config.update(
        MAX_CONTENT_LENGTH=MAX_BODY,
        MAX_FORM_MEMORY_SIZE=MAX_BODY,
        SSE_KEEPALIVE=5.0,
        MAX_TABLE_STREAMS=MAX_TABLE_STREAMS,
        PUBLIC_URL=None,
        ACCESS_FILE=None,
        JSON_SORT_KEYS=False,
    )
    app.config.update(config)
    record = Access(app.config["ACCESS_FILE"])
    app.extensions["lawmaster.access"] = record
    app.config["SECRET_KEY"] = record.secret
    # A claim, a grant or a request redraws the open table screens (their join panel).
    record.on_change.append(lambda: _touch(host))
    app.json.sort_keys = False  # type: ignore[attr-defined]  # the default provider has it
    # "/seat//action" is an unknown page (404), not a redirect to some other page.
    app.url_map.merge_slashes = False
    app.extensions["lawmaster.host"] = host
    app.extensions["lawmaster.unexpected"] = []
    # Set when the server stops, so open event streams end instead of holding threads.
    app.extensions["lawmaster.stopping"] = threading.Event()
    # Open event streams each hold a server thread: the table screens share a few.
    slots = StreamSlots(app.config["MAX_TABLE_STREAMS"])
    app.extensions["lawmaster.streams"] = slots
    # A seat that changes hands ends every stream of it at once (see sse.stream).
    record.on_seat_change.append(slots.end_seat)
    for blueprint in (table.bp, seat.bp, events.bp, setup.bp, join.bp, console.bp):
        app.register_blueprint(blueprint)
    register_error_handlers(app)
    static_files.install(app)
    compress.install(app)
    i18n.init_app(app)
    app.before_request(check_same_origin)
    app.jinja_env.globals.update(
        form_field=form_field,
        seat_scope=seat_scope,
        join_scope=join_scope,
        HOST_SCOPE=HOST_SCOPE,
        game_name=render.title,
        seat_name=render.seat_name,
        seat_names=render.seat_names,
        notice_line=notice_line,
        request_line=request_marked,
        grant_hint=grant_hint,
    )
    app.jinja_env.filters["timestamp"] = _timestamp
    # A form's JSON (a choice's value) without spaces: pages carry many, and so do the
    # live pushes that redraw them.
    app.jinja_env.filters["tojson"] = _compact_json

    @app.after_request
    def _headers(response: Any) -> Any:
        # Pages and JSON hold live secrets of one seat: never cache them anywhere.
        if response.mimetype != "text/css" and response.mimetype != "text/javascript":
            response.headers.setdefault("Cache-Control", "no-store")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        # Our own pages keep their origin (the same-origin check reads it); no other
        # site ever sees a page address, which holds a seat's token.
        response.headers.setdefault("Referrer-Policy", "same-origin")
        # Only our own script runs, whatever a piece or player name contains.
        response.headers.setdefault("Content-Security-Policy", _CSP)
        return response

    # Jinja compiles a template on first use (30-50 ms holding the GIL); done
    # here, that cost never lands inside the first push of a live move.
    for name in app.jinja_env.list_templates():
        app.jinja_env.get_template(name)
    return app


def _compact_json(value: Any) -> Markup:
    return htmlsafe_json_dumps(value, dumps=partial(json.dumps, separators=(",", ":")))


def _timestamp(at: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(at))


def _touch(host: Any) -> None:
    table = getattr(host, "table", None)
    if table is not None and callable(getattr(table, "touch", None)):
        table.touch(TABLE_SEAT)  # only the table screens show claims and requests
