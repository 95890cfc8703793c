"""Movement on a board, precomputed once per board and done with integer bit sets.

A set of cells is an ``int`` whose bit ``c`` is set when cell ``c`` is in it, so a
whole step of a walk (every cell one step from any cell of the set) is four shifts
and a mask. That keeps a criminal's legal destinations for a die to a few
microseconds on the standard board.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from .board import DIRECTIONS, Board, Cell

Mask = int

#: The four slide directions, in the order views and legal-move lists use.
DIRECTION_NAMES: tuple[str, ...] = ("up", "down", "left", "right")


def bit(cell: Cell) -> Mask:
    """The one-cell set holding ``cell``."""
    return 1 << cell


def cells_of(mask: Mask) -> Iterator[Cell]:
    """The cells of a set, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class Geometry:
    """Precomputed topology of one board: open cells, rays for slides, bit masks."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.width = board.width
        self.size = board.size
        full = (1 << self.size) - 1
        first_col = sum(bit(r * self.width) for r in range(board.height))
        last_col = sum(bit(r * self.width + self.width - 1) for r in range(board.height))
        self._full = full
        self._not_first_col = full & ~first_col
        self._not_last_col = full & ~last_col
        #: Cells a piece may stand on or pass through (no houses, no jail cells).
        self.open_mask: Mask = sum(bit(c) for c in board.open_cells)
        self.exits_mask: Mask = sum(bit(c) for c in board.jail_exits)
        #: For each cell and direction, the open cells in that direction up to the
        #: first house, jail cell or edge (pieces are checked at move time).
        self.rays: tuple[dict[str, tuple[Cell, ...]], ...] = tuple(
            {d: self._ray(c, d) for d in DIRECTION_NAMES} for c in range(self.size)
        )

    def _ray(self, cell: Cell, direction: str) -> tuple[Cell, ...]:
        out = []
        here = self.board.step(cell, direction)
        while here is not None and not self.board.is_blocked(here):
            out.append(here)
            here = self.board.step(here, direction)
        return tuple(out)

    # -- walks --------------------------------------------------------------
    def spread(self, cells: Mask, passable: Mask) -> Mask:
        """Every passable cell one orthogonal step from a cell of ``cells``."""
        moved = (
            ((cells & self._not_last_col) << 1)
            | ((cells & self._not_first_col) >> 1)
            | (cells << self.width)
            | (cells >> self.width)
        )
        return moved & passable & self._full

    def walk_ends(self, start: Mask, steps: int, passable: Mask) -> Mask:
        """Cells where a walk of exactly ``steps`` steps from ``start`` can end."""
        here = start
        for _ in range(steps):
            here = self.spread(here, passable)
            if not here:
                break
        return here

    def distance(self, start: Mask, goal: Cell, passable: Mask) -> int | None:
        """The fewest steps from ``start`` to ``goal`` through passable cells, or None."""
        seen = start
        frontier = start
        steps = 0
        while frontier:
            if frontier & bit(goal):
                return steps
            frontier = self.spread(frontier, passable) & ~seen
            seen |= frontier
            steps += 1
        return None

    def slide(self, cell: Cell, direction: str, obstacles: Mask) -> Cell:
        """Where a slide from ``cell`` stops: just before the first obstacle.

        Houses, jail cells and the edge are built into the rays; ``obstacles`` adds
        GW and the other criminals. Returns ``cell`` itself when it cannot move.
        """
        end = cell
        for here in self.rays[cell][direction]:
            if obstacles & bit(here):
                break
            end = here
        return end

    def adjacent(self, a: Cell, b: Cell) -> bool:
        """Whether two cells share an edge."""
        return self.board.are_adjacent(a, b)


@lru_cache(maxsize=64)
def geometry_of(board: Board) -> Geometry:
    """The (cached) geometry of a board."""
    return Geometry(board)


def direction_between(board: Board, a: Cell, b: Cell) -> str | None:
    """The direction of the straight line from ``a`` to ``b``, if they share a row or column."""
    (ax, ay), (bx, by) = board.xy(a), board.xy(b)
    for name, (dx, dy) in DIRECTIONS.items():
        if (dx == 0 and ax == bx and (by - ay) * dy > 0) or (
            dy == 0 and ay == by and (bx - ax) * dx > 0
        ):
            return name
    return None
