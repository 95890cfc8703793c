"""The page regions of one snapshot, rendered once and used by full pages and SSE pushes alike.

Every region is built from the snapshot passed in and nothing else, so a seat's
page, its JSON and its pushed events can never hold more than its snapshot.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from flask import render_template
from flask_babel import get_locale
from markupsafe import Markup

from lawmaster.host.ui.look import chip

from . import render
from .notices import dice_line

#: The log shows the newest events first and stops here; the full log is in the journal.
LOG_LINES = 150
#: Log lines kept once said: every push re-renders a page's whole log, and saying an
#: event again (its translation looked up word by word) was most of a push's cost.
LINE_CACHE = 8192

_lines: OrderedDict[tuple[str, str, str], str] = OrderedDict()
_lines_lock = threading.Lock()


def _line(game: object, language: str, event: Any) -> str:
    """One event's sentence, said once per game, language and event (a seat's UI says a
    line from the event and the page's language alone: ``SeatUI.describe``)."""
    # An event is JSON-like data, so its repr is its content (two equal events whose
    # keys came in another order only miss the cache).
    key = (str(game), language, repr(event))
    with _lines_lock:
        line = _lines.get(key)
        if line is not None:
            _lines.move_to_end(key)
            return line
    if isinstance(event, Mapping) and event.get("type") == "dice_entered":
        line = dice_line(game, event)  # the table's own note, not the game's event
    else:
        line = render.describe(game, event)
    with _lines_lock:
        _lines[key] = line
        if len(_lines) > LINE_CACHE:
            _lines.popitem(last=False)
    return line


def log_lines(snapshot: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The snapshot's log, newest first: each line's number, the chip of the seat it is
    about (in that seat's colour, from the drawn snapshot's look) and its sentence; after
    a roll of dice, who entered it (the snapshot's ``entered``, see ``Table``), as a line
    of its own without a number."""
    events = snapshot.get("log") or []
    game = snapshot.get("game")
    language = str(get_locale())
    look = snapshot.get("look") or {}
    ui = render.ui_for(game)
    notes = {n.get("move"): n for n in snapshot.get("entered") or [] if isinstance(n, Mapping)}
    shown = events[-LOG_LINES:]
    first = len(events) - len(shown) + 1
    lines: list[dict[str, Any]] = []
    for index, event in enumerate(shown):
        actor = ui.actor(event) if isinstance(event, Mapping) else None
        lines.append(
            {
                "number": first + index,
                "chip": Markup(chip(look.get(actor))) if actor else Markup(""),
                "text": _line(game, language, event),
            }
        )
        move = event.get("move") if isinstance(event, Mapping) else None
        following = shown[index + 1] if index + 1 < len(shown) else None
        ends_move = not isinstance(following, Mapping) or following.get("move") != move
        if move in notes and ends_move:
            entered = {"type": "dice_entered", **notes[move]}
            said = _line(game, language, entered)
            lines.append({"number": None, "chip": Markup(""), "text": said})
    return list(reversed(lines[-LOG_LINES:]))


def regions(
    snapshot: Mapping[str, Any],
    token: str | None = None,
    digital_dice: bool = False,
    look: Mapping[str, Any] | None = None,
) -> dict[str, str]:
    """HTML for each live region of a page; ``token`` is given for a seat's own page only,
    ``look`` is the table's (see :func:`render.table_look`; the game's defaults without)."""
    shown = render.drawn(snapshot, look)
    bar = render.bar(shown)
    parts = {
        "bar": render_template("_bar.html", bar=bar, token=token),
        "final": render_template("_final.html", bar=bar),
        "status": render_template("_status.html", snapshot=shown),
        "board": str(render.board(shown)),
        "extras": str(render.extras(shown)),
        "log": render_template("_log.html", lines=log_lines(shown)),
        # The health banner on every page; the whole panel on the table screen only.
        "health": render_template("_health.html", snapshot=shown, panel=token is None),
    }
    if token is not None:
        controls = render.controls(shown, token, digital_dice)
        parts["prompts"] = render_template(
            "_prompts.html",
            snapshot=shown,
            token=token,
            digital_dice=digital_dice,
            controls=controls,
            # Prompt kinds the game draws itself are not drawn again generically.
            covered=render.covered_prompts(snapshot.get("game")),
        )
    return {name: tight(html) for name, html in parts.items()}


#: Whitespace alone between two tags: the templates' indentation.
_BETWEEN_TAGS = re.compile(r">\s{2,}<")


def tight(html: str) -> str:
    """``html`` without the templates' indentation: whitespace alone between two tags is
    one space, which a browser draws the same (no region holds a ``<pre>`` or a
    ``<textarea>``). Every page and every live push carries the regions, so they are
    kept lean."""
    return _BETWEEN_TAGS.sub("> <", html)


def as_markup(parts: Mapping[str, str]) -> dict[str, Markup]:
    """The regions for embedding in a full page."""
    return {name: Markup(html) for name, html in parts.items()}
