"""GW's deduction map: where each criminal can be, given only what GW knows.

Interface (the engine relies on it; the tight implementation replaces the body):

* ``Deduction.start(board, criminals)`` — every criminal starts in jail.
* ``deduction.update(event)`` — a *new* ``Deduction`` after one event GW may see
  (the engine's public events and those routed to ``"gw"``); events it does not
  know are ignored. Never mutates ``self``.
* ``deduction.cells(piece)`` — the cell names the piece can be on now, plus
  ``"jail"`` if it can be in jail.

This first version is sound but loose: it only tracks who is known to be in
jail or known exactly; anyone else may be on any open cell.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from .board import Board

JAIL = "jail"


@dataclass(frozen=True)
class Deduction:
    """Per criminal piece, the set of places GW cannot rule out."""

    board: Board
    possible: Mapping[str, frozenset[str]]

    @classmethod
    def start(cls, board: Board, criminals: Iterable[str]) -> Deduction:
        return cls(board, {p: frozenset({JAIL}) for p in criminals})

    def cells(self, piece: str) -> frozenset[str]:
        return self.possible[piece]

    def update(self, event: Mapping[str, Any]) -> Deduction:
        kind = event.get("type")
        everywhere = frozenset(self.board.name_of(c) for c in self.board.open_cells)
        if kind == "criminal_moved":
            return self._set(event["by"], everywhere)
        if kind == "caught":
            return self._set(event["piece"], frozenset({JAIL}))
        return self

    def _set(self, piece: str, cells: frozenset[str]) -> Deduction:
        possible = dict(self.possible)
        possible[piece] = cells
        return replace(self, possible=possible)
