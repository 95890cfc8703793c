"""The table screen: the public board, the public log, the seats' codes, and replays.

Everything here comes from the ``"table"`` snapshot (public view and public
log), and from the access record's public words: who joined, what was granted,
which requests wait (by code). The join codes of seats no device has claimed
yet show only on a screen the host authorised (a paired screen, the Pi's own
display, the host's device): players join by scanning them there (see
:mod:`.join`); any other device reads the same screen without them.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from .. import render
from ..access import SCREEN
from ..context import TABLE_SEAT, current_table, get_host
from ..errors import UNKNOWN, WebError
from ..fragments import as_markup, regions
from ..guard import access, is_host, screen_secret, shows_codes
from .join import screen_key, seat_links

bp = Blueprint("table", __name__)


@bp.get("/")
def home() -> Response:
    """The table screen once a game is set up, the setup page before."""
    if getattr(get_host(), "table", None) is None:
        return redirect(url_for("setup.setup"))
    return redirect(url_for("table.screen"))


def only_here(links: list[dict[str, Any]]) -> bool:
    """Whether the links name this machine only (loopback), useless to a tablet."""
    if not links:
        return False
    host = urlsplit(links[0]["url"]).hostname or ""
    return host == "localhost" or host.startswith("127.") or host == "::1"


def host_here() -> bool:
    """Whether the device asking is one of the table's host devices (its host cookie; it
    alone is shown the host's links: anyone else would only be refused)."""
    return is_host()


@bp.get("/table")
def screen() -> str:
    """The public screen, complete without scripts; scripts keep it live."""
    table = current_table()
    snapshot = table.snapshot(TABLE_SEAT)
    show_qr = request.args.get("qr", "1") != "0"
    asked = request.args.get("side")
    side = asked if asked in render.ui_for(snapshot.get("game")).sides else None
    joins = joins_context(table, show_qr)
    return render_template(
        "table.html",
        snapshot=snapshot,
        regions=as_markup(regions(snapshot, look=render.table_look(table))),
        host_here=host_here(),
        events_url=url_for("events.table_events", side=side),
        snapshot_url=url_for("table.snapshot_json", html=1, side=side),
        joins=screen_key(table, shows_codes(), bool(joins["pair"] and joins["pair"]["waiting"])),
        joins_url=url_for("table.joins", qr=0 if not show_qr else None),
        **joins,
    )


@bp.get("/table/joins")
def joins() -> str:
    """The table screen's join panel alone (its script fetches it when it changes)."""
    table = current_table()
    show_qr = request.args.get("qr", "1") != "0"
    return render_template("_joins.html", **joins_context(table, show_qr))


def joins_context(table: Any, show_qr: bool) -> dict[str, Any]:
    """What the join panel of this device's table screen shows.

    The seats' codes on a screen the host authorised only; on every screen, the
    latest claims and grants and the requests waiting (public words and codes);
    on a screen that is not authorised, the way to ask for its pairing.
    """
    record = access()
    codes = shows_codes()
    links = seat_links(table) if codes and show_qr else []
    pair = None if codes else {"waiting": record.request_of(screen_secret(), SCREEN)}
    return {
        "links": links,
        "only_here": only_here(links),
        "requests": record.requests(),
        "notices": record.notices(),
        "pair": pair,
        "game": table.game,
    }


@bp.get("/table.json")
def snapshot_json() -> Response:
    """The public snapshot as JSON."""
    snapshot = current_table().snapshot(TABLE_SEAT)
    answer: dict[str, Any] = {"ok": True, "snapshot": snapshot}
    if request.args.get("html"):
        answer["html"] = regions(snapshot, look=render.table_look(current_table()))
    return jsonify(answer)


def public_history(table: Any) -> list[dict[str, Any]]:
    """``table.history("table")``, kept until the table changes: stepping through a
    replay asks for the same history once per step."""
    cache = current_app.extensions.setdefault("lawmaster.history", {})
    version = getattr(table, "version", None)
    entry = cache.get("entry")  # (table, version, history), replaced whole: thread-safe
    if entry is None or entry[0] is not table or entry[1] != version:
        entry = (table, version, table.history(TABLE_SEAT))
        cache["entry"] = entry
    return entry[2]


@bp.get("/table/replay")
def replay() -> str:
    """A game replayed input by input from the public history; ``?step=N`` picks one."""
    table = current_table()
    history = public_history(table)
    if not history:
        raise WebError(UNKNOWN, _("nothing has been played yet, so there is nothing to replay"))
    raw = request.args.get("step", "")
    step = int(raw) if raw.isdigit() and len(raw) < 7 else len(history) - 1
    step = max(0, min(step, len(history) - 1))
    snapshot = history[step]
    return render_template(
        "replay.html",
        snapshot=snapshot,
        regions=as_markup(regions(snapshot, look=render.table_look(table))),
        step=step,
        steps=len(history),
        over=table.export_scenario() is not None,
    )


def scenario_file(table: Any, seat: str) -> Response:
    """The finished game as ``seat`` may read it, as a scenario file to download."""
    lines = table.export_scenario(seat)
    if lines is None:
        raise WebError(UNKNOWN, _("the game is not over yet: its scenario is exported at the end"))
    response = Response("\n".join(lines) + "\n", mimetype="application/x-ndjson")
    response.headers["Content-Disposition"] = f'attachment; filename="game-{seat}.jsonl"'
    return response


@bp.get("/table/scenario.jsonl")
def scenario() -> Response:
    """The finished game as the public screen saw it (header, then one line per input)."""
    return scenario_file(current_table(), TABLE_SEAT)


@bp.get("/table/replay.json")
def replay_json() -> Response:
    """Every public snapshot of the game so far, in order."""
    history = public_history(current_table())
    return jsonify({"ok": True, "steps": len(history), "history": history})
