"""Finding the host, its current table and the seat a token opens, for one request."""

from __future__ import annotations

from typing import Any

from flask import current_app
from flask_babel import gettext as _

from .errors import BAD_TOKEN, UNKNOWN, WebError

#: The seat name of the public table screen (the engine never uses it for a player).
TABLE_SEAT = "table"

#: Tokens are ``secrets.token_urlsafe(24)`` (32 characters); anything far longer is junk.
MAX_TOKEN_LENGTH = 128


def get_host() -> Any:
    """The ``TableHost``-like object the app was created with."""
    return current_app.extensions["lawmaster.host"]


def current_table() -> Any:
    """The table in play, or a 404 when no game has been set up yet."""
    table = getattr(get_host(), "table", None)
    if table is None:
        raise WebError(UNKNOWN, _("no game is set up on this table yet"))
    return table


def seat_for(token: str) -> tuple[Any, str]:
    """The table and the seat a token opens, or a 403 for a token that opens nothing."""
    table = current_table()
    seat = None
    if 0 < len(token) <= MAX_TOKEN_LENGTH:
        seat = table.seat_for_token(token)
    if seat is None or seat == TABLE_SEAT:
        raise WebError(BAD_TOKEN, _("that seat link is not valid for this game"))
    return table, seat
