"""The hall screen: one tile per table, the evening's results and wins, live over SSE.

``create_app(hall)`` builds the Flask app over a :class:`~.model.Hall` (which the
listener keeps filled from the broker); ``lawmaster hall`` serves it with waitress.

Routes:

* ``GET /`` — the page, complete without scripts (``?lang=sv`` for Swedish; the
  default is the command's ``--language``, else the browser's);
* ``GET /events`` — SSE: ``tile`` (one table's tile, redrawn), ``tiles`` (the whole
  grid, when a table comes or goes), ``side`` (results and wins) and ``banner``
  (the hall's own connection), each with the hall's ``version``;
* ``GET /hall.json`` — what the hall knows, as JSON.

Languages: the dashboard's catalogue (``host/web/translations``; the hall's words
are extracted into it by ``scripts/i18n`` like every page's), and the games' own
sentences for the events.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

from flask import (
    Blueprint,
    Flask,
    Response,
    current_app,
    jsonify,
    render_template,
    request,
    stream_with_context,
)
from flask_babel import Babel, get_locale

from lawmaster.host.web.i18n import LANGUAGES, NAMES, TRANSLATIONS

from . import draw
from .model import Hall, HallView

#: Seconds between keep-alive comments on a quiet stream.
KEEPALIVE_S = 15.0
#: How often a waiting stream looks whether the server is stopping.
_POLL_S = 0.25

bp = Blueprint("hall", __name__)


def create_app(
    hall: Hall, *, language: str | None = None, keepalive: float = KEEPALIVE_S
) -> Flask:
    """The hall's Flask app over ``hall`` (``language``: the default page language)."""
    app = Flask(__name__)
    app.config.update(HALL_LANGUAGE=language, HALL_KEEPALIVE=keepalive)
    app.extensions["lawmaster.hall"] = hall
    # The server's stop tells open streams to end (host.web.serve reads this event).
    app.extensions["lawmaster.stopping"] = threading.Event()
    Babel(
        app,
        locale_selector=_locale,
        default_locale=LANGUAGES[0],
        default_translation_directories=str(TRANSLATIONS),
    )
    app.jinja_env.policies["ext.i18n.trimmed"] = True
    app.jinja_env.globals.update(draw=draw, language_names=NAMES, languages=LANGUAGES)
    app.register_blueprint(bp)
    return app


def _locale() -> str:
    asked = request.args.get("lang", "")
    if asked in LANGUAGES:
        return asked
    default = current_app.config.get("HALL_LANGUAGE")
    if default in LANGUAGES:
        return str(default)
    return request.accept_languages.best_match(LANGUAGES) or LANGUAGES[0]


def _hall() -> Hall:
    hall: Hall = current_app.extensions["lawmaster.hall"]
    return hall


def _language() -> str:
    locale = get_locale()
    return locale.language if locale is not None else LANGUAGES[0]


@bp.get("/")
def page() -> str:
    view = _hall().view()
    return render_template("hall.html", view=view, lang=_language())


@bp.get("/hall.json")
def as_json() -> Response:
    view = _hall().view()
    return jsonify(
        {
            "version": view.version,
            "connection": view.connection,
            "tables": [
                {
                    "table": t.name,
                    "online": t.online,
                    "blind": t.blind,
                    "state": t.state,
                    "health": t.health,
                }
                for t in view.tables
            ],
            "results": view.results,
            "wins": view.wins,
        }
    )


def _event(kind: str, data: Any) -> str:
    return f"event: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def _tile_event(view: HallView, name: str) -> str:
    table = next(t for t in view.tables if t.name == name)
    state = table.state or {}
    html = render_template("_tile.html", table=table)
    data = {
        "table": name,
        "game_id": state.get("game_id"),
        "move": state.get("move"),
        "version": view.version,
        "html": html,
    }
    return _event("tile", data)


@bp.get("/events")
def events() -> Response:
    """The page's live updates (see the module docstring)."""
    hall = _hall()
    stopping: threading.Event = current_app.extensions["lawmaster.stopping"]
    keepalive = float(current_app.config["HALL_KEEPALIVE"])
    raw = request.args.get("v", "")
    drawn = int(raw) if raw.isdigit() and len(raw) < 12 else -1

    def stream() -> Iterator[str]:
        yield ": connected\n\n"
        last_write = time.monotonic()
        view = hall.view()
        # What the page shows: nothing, unless it was drawn at this very version.
        tiles = dict(view.tile_versions) if view.version == drawn else {}
        names = [t.name for t in view.tables] if view.version == drawn else None
        side = (view.results_version, view.wins) if view.version == drawn else None
        banner = (view.connection, view.detail) if view.version == drawn else None
        version = view.version if view.version == drawn else -1
        while not stopping.is_set():
            if view.version != version:
                version = view.version
                now_names = [t.name for t in view.tables]
                if now_names != names:
                    names, tiles = now_names, dict(view.tile_versions)
                    html = render_template("_tiles.html", view=view)
                    yield _event("tiles", {"version": version, "html": html})
                for name, seen in view.tile_versions.items():
                    if tiles.get(name) != seen:
                        tiles[name] = seen
                        yield _tile_event(view, name)
                if (view.results_version, view.wins) != side:
                    side = (view.results_version, view.wins)
                    html = render_template("_side.html", view=view)
                    yield _event("side", {"version": version, "html": html})
                if (view.connection, view.detail) != banner:
                    banner = (view.connection, view.detail)
                    html = render_template("_banner.html", view=view)
                    yield _event("banner", {"version": version, "html": html})
                last_write = time.monotonic()
            elif time.monotonic() - last_write >= keepalive:
                yield ": keep-alive\n\n"
                last_write = time.monotonic()
            if hall.wait(version, _POLL_S) != version:
                view = hall.view()

    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return Response(stream_with_context(stream()), mimetype="text/event-stream", headers=headers)
