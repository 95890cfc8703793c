"""Setting up a game, and the calibration and card-enrollment progress pages."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from lawmaster.host import games
from lawmaster.host.ui.look import CHOOSABLE, PALETTE, colour_name, looks
from lawmaster.rules.core import IllegalAction

from ..actions import parse_json
from ..context import get_host
from ..errors import MALFORMED, REFUSED, UNKNOWN, WebError, wants_html
from ..guard import check_host

bp = Blueprint("setup", __name__)


#: The system's randomness deals at the table (a seed is for the simulator only).
_DEALER = secrets.SystemRandom()


def fields_of(form: Mapping[str, str], slug: str) -> dict[str, str]:
    """A game's own fields of the setup form (named ``<slug>.<field>`` on the page)."""
    prefix = f"{slug}."
    return {k[len(prefix) :]: v for k, v in form.items() if k.startswith(prefix)}


def header_from_form(form: Mapping[str, str]) -> dict[str, Any]:
    """A scenario header from the setup form; the advanced JSON box overrides the fields."""
    slug = form.get("game", "")
    header: dict[str, Any] = {"game": slug}
    game = games.games().get(slug)
    if game is not None:
        header.update(game.setup.header(fields_of(form, slug)))
    extra = form.get("extra", "").strip()
    if extra:
        more = parse_json(extra, "the extra setup")
        if not isinstance(more, dict):
            raise WebError(MALFORMED, _("the extra setup must be a JSON object"))
        header.update(more)
    return header


def colours_from_form(form: Mapping[str, str], slug: str) -> dict[str, str]:
    """The colours the setup page chose for a game's players (slot → colour key), from
    its fields ``<slug>.colour.<slot>``."""
    game = games.games().get(slug)
    if game is None:
        return {}
    chosen: dict[str, str] = {}
    for slot, _label, _default in game.ui.colour_slots():
        key = form.get(f"{slug}.colour.{slot}", "")
        if key in PALETTE:
            chosen[slot] = key
    return chosen


def _check_colours(game: Any, header: Mapping[str, Any], chosen: Mapping[str, str]) -> None:
    """A 400 when two of the game's seats would share a colour (only the slots of the
    seats the header sets up count: six colours are offered for up to six Judges)."""
    if not chosen:
        return
    engine = game.engine
    seats = [str(s) for s in engine.seats(engine.new_game(header).state)]
    colours = list(looks(game.ui, seats, chosen).values())
    if len({look.colour for look in colours}) < len(colours):
        raise WebError(MALFORMED, _("two players cannot share a colour: choose another"))


def colour_choices(game: Any) -> list[dict[str, Any]]:
    """A game's colour fields on the setup page: each slot with its label, its default and
    the colours it may take (their names in the page's language)."""
    fields = []
    for slot, label, default in game.ui.colour_slots():
        keys = list(CHOOSABLE) + ([default] if default not in CHOOSABLE else [])
        fields.append(
            {
                "slot": slot,
                "label": label,
                "default": default,
                "colours": [(k, colour_name(k), PALETTE[k].fill) for k in keys],
            }
        )
    return fields


def _in_progress() -> bool:
    table = getattr(get_host(), "table", None)
    if table is None:
        return False
    try:
        return not table.is_over()
    except Exception:  # noqa: BLE001 - a broken old game never blocks a new one
        return False


def _start(
    header: dict[str, Any],
    replace: bool,
    deal: bool = False,
    colours: Mapping[str, str] | None = None,
) -> Any:
    slug = header.get("game")
    # Only a name is a game: a list or an object here is no key to look up (it was an
    # unexpected error once, answered by the catch-all handler).
    game = games.games().get(slug) if isinstance(slug, str) else None
    if game is None:
        raise WebError(MALFORMED, _("choose one of the known games"))
    if _in_progress() and not replace:
        raise WebError(REFUSED, _("a game is in progress: tick 'replace the game in progress'"))
    try:
        if deal and game.setup.deal is not None:
            header = game.setup.deal(header, _DEALER)
        colours = {str(k): str(v) for k, v in (colours or {}).items() if v in PALETTE}
        _check_colours(game, header, colours)
        host = get_host()
        settings = getattr(host, "settings", None)
        if isinstance(settings, dict):
            # Each player's colour for the whole game: kept with the game's settings in
            # the journal, so a restart draws everyone as before.
            settings["colours"] = dict(colours)
        return host.new_game(header)
    except IllegalAction as exc:
        reason = _("that setup is not valid: %(reason)s", reason=exc.reason)
        raise WebError(MALFORMED, reason) from None
    except (KeyError, TypeError, ValueError) as exc:
        raise WebError(MALFORMED, _("that setup is not valid (%(error)s)", error=exc)) from None


def _page(form: Mapping[str, str], error: str | None, status: int) -> tuple[str, int]:
    host = get_host()
    settings = getattr(host, "settings", None)
    return (
        render_template(
            "setup.html",
            games=list(games.games().values()),
            colours={slug: colour_choices(g) for slug, g in games.games().items()},
            form=form,
            error=error,
            in_progress=_in_progress(),
            digital_dice=isinstance(settings, Mapping) and bool(settings.get("digital_dice")),
            can_choose_dice=isinstance(settings, dict),
        ),
        status,
    )


@bp.get("/setup")
def setup() -> tuple[str, int]:
    """The setup form (the host's)."""
    check_host()
    return _page({}, None, 200)


@bp.post("/setup")
def start() -> Any:
    """Start a game from the form (then show the table) or from a JSON header (the host's)."""
    check_host()
    if request.is_json:
        body = parse_json(request.get_data(cache=True), "the setup")
        if not isinstance(body, dict) or not isinstance(body.get("header"), dict):
            raise WebError(
                MALFORMED,
                'send {"header": {...}, "replace": false, "deal": false, "colours": {...}}',
            )
        colours = body.get("colours") if isinstance(body.get("colours"), dict) else None
        table = _start(
            dict(body["header"]), body.get("replace") is True, body.get("deal") is True, colours
        )
        return jsonify({"ok": True, "game": table.game, "seats": table.seats()})
    form = request.form
    try:
        host = get_host()
        header = header_from_form(form)
        settings = getattr(host, "settings", None)
        if isinstance(settings, dict):
            # The table's own choice, read by the referee of each new game.
            settings["digital_dice"] = bool(form.get("digital_dice"))
        colours = colours_from_form(form, header.get("game", ""))
        _start(header, bool(form.get("replace")), bool(form.get("deal")), colours)
    except WebError as exc:
        return _page(form, exc.reason, exc.status)
    return redirect(url_for("table.screen"), code=303)


def _progress(kind: str) -> dict[str, Any] | None:
    source = getattr(get_host(), kind, None)
    if source is None or not callable(getattr(source, "progress", None)):
        return None
    data = source.progress()
    return dict(data) if isinstance(data, Mapping) else None


def _progress_page(kind: str, title: str) -> Any:
    check_host()
    progress = _progress(kind)
    if not wants_html():
        if progress is None:
            raise WebError(UNKNOWN, _("%(what)s is not available on this table", what=title))
        return jsonify({"ok": True, "progress": progress})
    done, total = 0, 0
    if progress is not None:
        done_value, total_value = progress.get("done"), progress.get("total")
        done = done_value if isinstance(done_value, int) else 0
        total = total_value if isinstance(total_value, int) else 0
    return render_template(
        "progress.html", kind=kind, title=title, progress=progress, done=done, total=total
    )


@bp.get("/calibration")
def calibration() -> Any:
    """Sensor calibration progress (from the host's calibration object, if it has one)."""
    return _progress_page("calibration", _("Calibration"))


@bp.get("/enrollment")
def enrollment() -> Any:
    """NFC card enrollment progress (from the host's enrollment object, if it has one)."""
    return _progress_page("enrollment", _("Card enrollment"))


@bp.get("/calibration.json")
def calibration_json() -> Response:
    """Calibration progress as JSON (404 when the table has none)."""
    check_host()
    progress = _progress("calibration")
    if progress is None:
        raise WebError(UNKNOWN, _("calibration is not available on this table"))
    return jsonify({"ok": True, "progress": progress})


@bp.get("/enrollment.json")
def enrollment_json() -> Response:
    """Enrollment progress as JSON (404 when the table has none)."""
    check_host()
    progress = _progress("enrollment")
    if progress is None:
        raise WebError(UNKNOWN, _("card enrollment is not available on this table"))
    return jsonify({"ok": True, "progress": progress})
