"""Where each criminal may stand so that the *rest* of a game's events can still happen.

Used when the particle filter of ``probability.py`` replays a game after every
kept position died: knowing the whole event log, each move can skip the end
cells from which a later observation (a catch, evidence handed in, an informer)
is out of reach, so no particle is spent on a history that is bound to die.

``future_masks(board, pieces, events)[t][i]`` is a bitmask of the cells piece
``i`` may stand on just after event ``t`` such that every later event of that
piece can still happen. It is computed backwards, one piece at a time, with
the other pieces ignored: a walk's end might be taken and a slide might stop
early at another criminal, so the sets only ever err towards too many cells.
Removing a cell outside them therefore removes only histories that no later
event allows: the filter's weights among the survivors do not change.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import Any

from lawmaster.rules.core import IllegalAction

from .board import Board
from .geometry import geometry_of

# Against each slide direction (up, down, left, right): one cell back.
_BACK = ("down", "up", "right", "left")
_PIPS = {"1": 1, "2": 2, "3": 3, "4": 4}


def future_masks(
    board: Board,
    pieces: Sequence[str],
    events: Sequence[Mapping[str, Any]],
    gw: int | None = None,
) -> list[tuple[int, ...]]:
    """Per event (after it), per piece: the cells the rest of the log allows.

    ``gw`` is GW's cell before the first of ``events`` (default: its start).
    """
    geo = _Masks(board)
    gws = _gw_before(board, events, board.gw_start if gw is None else gw)
    count = len(pieces)
    masks = [geo.open] * count
    result: list[tuple[int, ...]] = [()] * len(events)
    for t in range(len(events) - 1, -1, -1):
        result[t] = tuple(masks)
        event = events[t]
        kind = event.get("type")
        passable = geo.open & ~(1 << gws[t])
        if kind == "criminal_moved" and event.get("by") in pieces:
            i = pieces.index(event["by"])
            die = str(event.get("die"))
            if event.get("from_jail"):
                masks[i] = geo.open
            elif die in _PIPS:
                # Walks are reversible: the starts of n-step walks into the mask.
                masks[i] = geo.walk(masks[i] & passable, _PIPS[die], passable)
            else:
                masks[i] = _slide_starts(geo, masks[i] & passable, passable)
        elif kind == "gw_moved":
            clear = _cells(board, event.get("path"))
            caught = event.get("caught")
            to = _cells(board, [event.get("to")])
            if event.get("blocked"):
                # The cells before the blocking criminal held nobody.
                masks = [m & ~clear for m in masks]
            elif caught is not None:
                masks = [
                    m & to if p == caught else m & ~clear
                    for m, p in zip(masks, pieces, strict=True)
                ]
            else:
                # A special move may pass over criminals (an option this pass
                # does not read): then only its end is known to be empty.
                empty = to if event.get("kind") == "special" else clear | to
                masks = [m & ~empty for m in masks]
        elif kind == "caught" and event.get("piece") in pieces:
            masks[pieces.index(event["piece"])] = _cells(board, [event.get("cell")])
        elif kind in ("evidence_destroyed", "informed", "infiltrated"):
            for piece, cell in _pins(event):
                if piece in pieces and cell != "jail":
                    i = pieces.index(piece)
                    masks[i] &= _cells(board, [cell])
    return result


class _Masks:
    """The few bitmask operations the backward pass needs, on one board."""

    def __init__(self, board: Board) -> None:
        engine = geometry_of(board)
        self.engine = engine
        self.open = engine.open_mask
        self.width = board.width
        self.full = (1 << board.size) - 1
        first_col = sum(1 << (r * board.width) for r in range(board.height))
        self.not_first_col = self.full & ~first_col
        self.not_last_col = self.full & ~(first_col << (board.width - 1))

    def walk(self, cells: int, steps: int, passable: int) -> int:
        return self.engine.walk_ends(cells, steps, passable)

    def shift(self, cells: int, direction: str) -> int:
        """Every cell one step from ``cells`` in ``direction`` (no wrapping)."""
        if direction == "up":
            return cells >> self.width
        if direction == "down":
            return (cells << self.width) & self.full
        if direction == "left":
            return (cells >> 1) & self.not_last_col
        return (cells << 1) & self.not_first_col


def _slide_starts(geo: _Masks, ends: int, passable: int) -> int:
    """Cells from which a straight run through passable cells reaches ``ends``.

    With the other criminals unknown, a slide may stop on any cell of its run.
    """
    starts = 0
    for back in _BACK:
        layer = ends
        run = 0
        while layer:
            # One step back against the slide; the piece stood on (or ran over)
            # a passable cell there.
            layer = geo.shift(layer, back) & passable & ~run
            run |= layer
        starts |= run
    return starts


def _pins(event: Mapping[str, Any]) -> list[tuple[object, object]]:
    kind = event.get("type")
    if kind == "evidence_destroyed":
        return [(event.get("by"), event.get("cell"))]
    if kind == "informed":
        if event.get("immune") or event.get("cell") is None:
            return []
        return [(event.get("target"), event.get("cell"))]
    seen = event.get("seen") or {}
    return list(seen.items()) if isinstance(seen, Mapping) else []


def _cells(board: Board, names: object) -> int:
    mask = 0
    for name in names if isinstance(names, list | tuple) else []:
        try:
            mask |= 1 << board.cell(name)
        except IllegalAction:
            continue
    return mask


def _gw_before(board: Board, events: Sequence[Mapping[str, Any]], gw: int) -> list[int]:
    """GW's cell just before each event, from ``gw`` before the first."""
    result = []
    for event in events:
        result.append(gw)
        kind = event.get("type")
        name = None
        if kind == "setup":
            name = event.get("gw_position")
        elif kind == "gw_moved":
            name = event.get("to")
        elif kind == "caught":
            name = event.get("cell")
        if isinstance(name, str):
            with contextlib.suppress(IllegalAction):
                gw = board.cell(name)
    return result
