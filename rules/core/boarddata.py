"""Loading board, card and dice data files shipped inside an engine package.

Board layouts and card lists the rulebooks do not give are reconstructions.
They live as JSON data files (each saying so in its ``"_note"``) that an owner
may edit to match their own copy, never as code.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources

from .errors import IllegalAction
from .jsontypes import JsonValue


def load_data(package: str, name: str) -> JsonValue:
    """Read ``data/<name>.json`` from ``package``: JSON, of a shape the caller checks."""
    ref = resources.files(package).joinpath("data").joinpath(f"{name}.json")
    try:
        text = ref.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise IllegalAction(f"there is no shipped data file called {name!r}") from None
    data: JsonValue = json.loads(text)
    return data


def load_board_data(package: str, board: object) -> Mapping[str, object]:
    """A scenario's ``"board"``: a shipped board's name, or an inline board object."""
    if board is None:
        board = "standard"
    if isinstance(board, str):
        if not board.replace("-", "").replace("_", "").isalnum():
            raise IllegalAction(f"there is no shipped board called {board!r}")
        data = load_data(package, f"board-{board}")
        if not isinstance(data, Mapping):
            raise IllegalAction(f"the shipped board {board!r} is not a board object")
        return data
    if isinstance(board, Mapping):
        return board
    raise IllegalAction("'board' must be the name of a shipped board or a board object")
