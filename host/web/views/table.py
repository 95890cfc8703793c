"""The table screen: the public board, the public log, a QR code per seat, and replays.

Everything here comes from the ``"table"`` snapshot (public view and public
log). The seat links are on this screen by design: players join by scanning them.
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
from werkzeug.wrappers import Response

from ..context import TABLE_SEAT, current_table, get_host
from ..errors import UNKNOWN, WebError
from ..fragments import as_markup, regions
from ..qr import qr_svg
from ..render.gw_brott import SIDES

bp = Blueprint("table", __name__)


@bp.get("/")
def home() -> Response:
    """The table screen once a game is set up, the setup page before."""
    if getattr(get_host(), "table", None) is None:
        return redirect(url_for("setup.setup"))
    return redirect(url_for("table.screen"))


def seat_links(table: Any) -> list[dict[str, Any]]:
    """Each seat's name, absolute URL and QR code.

    The links start with ``PUBLIC_URL`` when the app is configured with one (a
    screen on the Pi itself is opened as 127.0.0.1, which no tablet can reach),
    else with the address this screen was opened by.
    """
    base = current_app.config.get("PUBLIC_URL")
    links = []
    for seat in table.seats():
        path = url_for("seat.page", token=table.token(seat))
        url = (
            base.rstrip("/") + path
            if base
            else url_for("seat.page", token=table.token(seat), _external=True)
        )
        links.append({"seat": seat, "url": url, "qr": qr_svg(url, f"Join as {seat}")})
    return links


def only_here(links: list[dict[str, Any]]) -> bool:
    """Whether the links name this machine only (loopback), useless to a tablet."""
    if not links:
        return False
    host = urlsplit(links[0]["url"]).hostname or ""
    return host == "localhost" or host.startswith("127.") or host == "::1"


@bp.get("/table")
def screen() -> str:
    """The public screen, complete without scripts; scripts keep it live."""
    table = current_table()
    snapshot = table.snapshot(TABLE_SEAT)
    show_qr = request.args.get("qr", "1") != "0"
    side = request.args.get("side") if request.args.get("side") in SIDES else None
    links = seat_links(table) if show_qr else []
    return render_template(
        "table.html",
        snapshot=snapshot,
        regions=as_markup(regions(snapshot)),
        links=links,
        only_here=only_here(links),
        events_url=url_for("events.table_events", side=side),
        snapshot_url=url_for("table.snapshot_json", html=1, side=side),
    )


@bp.get("/table.json")
def snapshot_json() -> Response:
    """The public snapshot as JSON."""
    snapshot = current_table().snapshot(TABLE_SEAT)
    answer: dict[str, Any] = {"ok": True, "snapshot": snapshot}
    if request.args.get("html"):
        answer["html"] = regions(snapshot)
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
        raise WebError(UNKNOWN, "nothing has been played yet, so there is nothing to replay")
    raw = request.args.get("step", "")
    step = int(raw) if raw.isdigit() and len(raw) < 7 else len(history) - 1
    step = max(0, min(step, len(history) - 1))
    snapshot = history[step]
    return render_template(
        "replay.html",
        snapshot=snapshot,
        regions=as_markup(regions(snapshot)),
        step=step,
        steps=len(history),
        over=table.export_scenario() is not None,
    )


def scenario_file(table: Any, seat: str) -> Response:
    """The finished game as ``seat`` may read it, as a scenario file to download."""
    lines = table.export_scenario(seat)
    if lines is None:
        raise WebError(UNKNOWN, "the game is not over yet: its scenario is exported at the end")
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
