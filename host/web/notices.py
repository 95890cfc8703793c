"""The words for claims, grants and waiting requests (:mod:`.access`), on the table screen and
the host console, and for who entered a roll of dice, in the log. Public words only: seat
names and request codes, never a seat's token."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from flask_babel import gettext
from markupsafe import Markup, escape

from lawmaster.host.plugin import DIGITAL

from . import render
from .access import HOST, LONG_PRESS_SECONDS, SCREEN, SEAT, Notice, Request


def _(text: str, **values: Any) -> str:
    return str(gettext(text, **values))


def _how(how: str) -> str:
    if how == "panel":
        return _("granted with a long press of the panel's confirm button")
    if how == "console":
        return _("granted on the host console")
    if how == "link":
        return _("with the link on the table's own screen")
    return ""


def notice_line(notice: Notice, game: object) -> str:
    """One notice as a sentence, with its time."""
    seat = render.seat_name(game, notice.seat) if notice.seat else ""
    code = notice.code or ""
    how = _how(notice.how)
    if notice.what == "joined":
        line = _("%(seat)s joined on a new tablet", seat=seat)
    elif notice.what == "moved":
        line = _("%(seat)s moved to another tablet (request %(code)s, %(how)s)",
                 seat=seat, code=code, how=how)  # fmt: skip
    elif notice.what == "released":
        line = _("%(seat)s's seat was released: its code can be scanned again", seat=seat)
    elif notice.what == HOST:
        line = _("A device became host (%(code)s, %(how)s)", code=code, how=how)
    elif notice.what == SCREEN:
        line = _("A table screen was paired (%(code)s, %(how)s)", code=code, how=how)
    elif notice.what == "revoked":
        line = _("Host rights or a screen's pairing were taken back (%(code)s)", code=code)
    else:
        line = _("The request %(code)s was refused", code=code)
    at = time.strftime("%H:%M", time.localtime(notice.at))
    return f"{at} {line}"


def request_line(request: Request, game: object) -> str:
    """One waiting request as a sentence, with its code."""
    if request.kind == HOST:
        return _("A device asks to be host: code %(code)s", code=request.code)
    if request.kind == SCREEN:
        return _("A screen asks to be paired: code %(code)s", code=request.code)
    assert request.kind == SEAT
    seat = render.seat_name(game, request.seat or "")
    return _("A device asks for %(seat)s's seat: code %(code)s", seat=seat, code=request.code)


def request_marked(request: Request, game: object) -> Markup:
    """:func:`request_line` for a page: its code set large, to be matched at a glance with
    the code the asking device shows."""
    line = str(escape(request_line(request, game)))
    code = str(escape(request.code))
    head, found, tail = line.rpartition(code)
    if not found:
        return Markup(line)
    return Markup(f'{head}<strong class="request-code">{code}</strong>{tail}')


def dice_line(game: object, event: Mapping[str, Any]) -> str:
    """Who entered a roll of dice (a ``dice_entered`` log event of the table's)."""
    source = event.get("source")
    seat = render.seat_name(game, str(event.get("by") or ""))
    if source == DIGITAL:
        return _("Dice rolled by the referee (digital dice)")
    if source == "console":
        return _("Dice entered by the host on the host console, for %(seat)s", seat=seat)
    return _("Dice entered on %(seat)s's tablet", seat=seat)


def grant_hint(waiting: int) -> str:
    """How a waiting request is granted, on the table screen."""
    if waiting == 1:
        return _(
            "To grant it at the table, hold the panel's confirm button for %(seconds)d seconds"
            " (a short press never grants anything), or the host grants it on the host console."
            " Grant only the code the asking device shows.",
            seconds=int(LONG_PRESS_SECONDS),
        )
    return _(
        "Several requests are waiting: the host grants or refuses each on the host console"
        " (the panel's long press grants only a request that waits alone)."
    )
