"""The GW:s brott board: a grid of cells, houses, the jail and evidence spaces.

Cells are numbered ``row * width + column`` inside the engine and named like
``"C7"`` (column letter, row number, ``A1`` top-left of the criminals' side)
everywhere a person or a scenario file sees them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from lawmaster.rules.core import IllegalAction, load_board_data

Cell = int

COLOURS = ("blue", "red", "green", "yellow", "white")
DIRECTIONS: dict[str, tuple[int, int]] = {
    "up": (0, -1),
    "down": (0, 1),
    "left": (-1, 0),
    "right": (1, 0),
}

_CELL_NAME = re.compile(r"^([A-Z])([1-9][0-9]?)$")
_CARD_ID = re.compile(r"^(" + "|".join(COLOURS) + r")-[1-9][0-9]*$")


@dataclass(frozen=True)
class Board:
    """One board's topology. Immutable; share it freely between states."""

    width: int
    height: int
    houses: frozenset[Cell]
    jail_cells: frozenset[Cell]
    jail_exits: tuple[Cell, ...]
    gw_start: Cell
    evidence: Mapping[str, Cell] = field(hash=False)
    name: str = "inline"

    # -- naming -----------------------------------------------------------
    def cell(self, name: object) -> Cell:
        """The cell called ``name`` ("C7"), or :class:`IllegalAction`."""
        if not isinstance(name, str):
            raise IllegalAction(f"a cell is named like 'C7', not {name!r}")
        match = _CELL_NAME.match(name.strip().upper())
        if not match:
            raise IllegalAction(f"'{name}' is not a cell name (a column letter and a row number)")
        col = ord(match.group(1)) - ord("A")
        row = int(match.group(2)) - 1
        if not (0 <= col < self.width and 0 <= row < self.height):
            raise IllegalAction(f"{name} is off the board")
        return row * self.width + col

    def name_of(self, cell: Cell) -> str:
        """The name of a cell ("C7")."""
        row, col = divmod(cell, self.width)
        return f"{chr(ord('A') + col)}{row + 1}"

    def xy(self, cell: Cell) -> tuple[int, int]:
        """Column and row (both from 0) of a cell."""
        row, col = divmod(cell, self.width)
        return col, row

    # -- topology ---------------------------------------------------------
    @property
    def size(self) -> int:
        return self.width * self.height

    def is_blocked(self, cell: Cell) -> bool:
        """Houses and the jail: no piece stands on or passes through them."""
        return cell in self.houses or cell in self.jail_cells

    @cached_property
    def open_cells(self) -> tuple[Cell, ...]:
        """Every cell a piece may stand on."""
        return tuple(c for c in range(self.size) if not self.is_blocked(c))

    @cached_property
    def neighbours(self) -> tuple[tuple[Cell, ...], ...]:
        """Orthogonal neighbours of each cell that are not houses or jail."""
        result = []
        for cell in range(self.size):
            col, row = self.xy(cell)
            near = []
            for dx, dy in DIRECTIONS.values():
                x, y = col + dx, row + dy
                if 0 <= x < self.width and 0 <= y < self.height:
                    other = y * self.width + x
                    if not self.is_blocked(other):
                        near.append(other)
            result.append(tuple(near))
        return tuple(result)

    def step(self, cell: Cell, direction: str) -> Cell | None:
        """The cell one step from ``cell`` in ``direction``, or ``None`` off the edge."""
        dx, dy = DIRECTIONS[direction]
        col, row = self.xy(cell)
        x, y = col + dx, row + dy
        if 0 <= x < self.width and 0 <= y < self.height:
            return y * self.width + x
        return None

    def surrounding(self, cell: Cell) -> frozenset[Cell]:
        """The cell and its up to eight neighbours, diagonals included."""
        col, row = self.xy(cell)
        cells = set()
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                x, y = col + dx, row + dy
                if 0 <= x < self.width and 0 <= y < self.height:
                    cells.add(y * self.width + x)
        return frozenset(cells)

    def are_adjacent(self, a: Cell, b: Cell) -> bool:
        """Whether two cells share an edge."""
        (ax, ay), (bx, by) = self.xy(a), self.xy(b)
        return abs(ax - bx) + abs(ay - by) == 1

    def colour_of(self, card: str) -> str:
        """The colour of an evidence card id ("blue-3" → "blue")."""
        return card.split("-", 1)[0]

    # -- loading ----------------------------------------------------------
    @classmethod
    def load(cls, board: object = "standard") -> Board:
        """A shipped board by name, or an inline board object (``SCENARIOS.md``)."""
        return cls.from_data(load_board_data(__package__, board))

    @classmethod
    def from_data(cls, data: Mapping[str, object]) -> Board:
        """Build and check a board from its JSON object."""
        width, height = data.get("width"), data.get("height")
        if not (isinstance(width, int) and isinstance(height, int)):
            raise IllegalAction("a board needs whole-number 'width' and 'height'")
        if not (2 <= width <= 26 and 2 <= height <= 99):
            raise IllegalAction("a board is 2-26 columns wide and 2-99 rows high")
        probe = cls(width, height, frozenset(), frozenset(), (), 0, {})
        jail = data.get("jail") or {}
        if not isinstance(jail, Mapping):
            raise IllegalAction("'jail' must be an object with 'exits'")
        houses = frozenset(probe.cell(c) for c in _names(data.get("houses", []), "houses"))
        jail_cells = frozenset(probe.cell(c) for c in _names(jail.get("cells", []), "jail cells"))
        exits = tuple(probe.cell(c) for c in _names(jail.get("exits", []), "jail exits"))
        if not exits:
            raise IllegalAction("the jail needs at least one exit")
        gw_start = probe.cell(data.get("gw_start"))
        evidence_data = data.get("evidence", {})
        if not isinstance(evidence_data, Mapping):
            raise IllegalAction("'evidence' must map card ids to cells")
        evidence: dict[str, Cell] = {}
        for card, where in evidence_data.items():
            if not isinstance(card, str) or not _CARD_ID.match(card):
                raise IllegalAction(f"'{card}' is not an evidence card id like 'blue-1'")
            evidence[card] = probe.cell(where)
        board = cls(
            width,
            height,
            houses,
            jail_cells,
            exits,
            gw_start,
            evidence,
            str(data.get("name", "inline")),
        )
        for cell in (*exits, gw_start, *evidence.values()):
            if board.is_blocked(cell):
                raise IllegalAction(f"{board.name_of(cell)} is a house or jail cell")
        if houses & jail_cells:
            raise IllegalAction("a cell cannot be both a house and the jail")
        if "picture" in data:
            _check_picture(board, data["picture"])
        return board


def _names(value: object, what: str) -> list[object]:
    if not isinstance(value, list):
        raise IllegalAction(f"the board's {what} must be a list of cell names")
    return value


_PICTURE_MARK = {"H": "house", "J": "jail"}


def _check_picture(board: Board, picture: object) -> None:
    """A shipped board's picture must agree with its lists, so an owner edits one truth."""
    if not isinstance(picture, list) or len(picture) != board.height + 1:
        raise IllegalAction("the board picture must have a header line and one line per row")
    for row, line in enumerate(picture[1:]):
        marks = str(line)[3:]
        for col in range(board.width):
            mark = marks[col] if col < len(marks) else "."
            cell = row * board.width + col
            drawn = _PICTURE_MARK.get(mark)
            listed = None
            if cell in board.houses:
                listed = "house"
            elif cell in board.jail_cells:
                listed = "jail"
            if drawn != listed:
                raise IllegalAction(
                    f"the board picture and the lists disagree at {board.name_of(cell)}"
                )
