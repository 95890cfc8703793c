"""The board a GW:s brott view is played on, rebuilt from the view itself.

Every seat's view carries the printed board (the same for everyone), so a page
or a simulated player needs nothing else to know the streets and houses.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from lawmaster.rules.core import IllegalAction
from lawmaster.rules.gw_brott.board import Board


@lru_cache(maxsize=16)
def _board_from_json(text: str) -> Board:
    return Board.from_data(json.loads(text))


def board_data(spec: Mapping[str, Any]) -> dict[str, Any]:
    """A view's board (``jail_cells``/``jail_exits``) in the board file's shape."""
    if "jail" in spec:
        return dict(spec)
    data = {k: v for k, v in spec.items() if k not in ("jail_cells", "jail_exits")}
    data["jail"] = {"cells": spec.get("jail_cells", []), "exits": spec.get("jail_exits", [])}
    return data


def view_board(spec: object) -> Board:
    """The board a view's ``"board"`` describes (a shipped board's name, or the board
    itself); :class:`IllegalAction` if it is neither."""
    if isinstance(spec, str):
        return Board.load(spec)
    if isinstance(spec, Mapping):
        return _board_from_json(json.dumps(board_data(spec), sort_keys=True))
    raise IllegalAction("the view names no board")


def board_of(view: Mapping[str, Any]) -> Board | None:
    """The board a view is played on, or ``None`` if the view does not say one."""
    try:
        return view_board(view.get("board", "standard"))
    except (IllegalAction, TypeError, ValueError):
        return None
