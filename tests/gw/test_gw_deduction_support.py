"""Test helpers for GW's deduction map: a brute-force oracle and a tiny rules driver.

No tests live here (pytest collects nothing); the deduction test files import it.

* :class:`Oracle` enumerates every concrete history (every walk path and every
  slide direction of every criminal move) consistent with the events GW saw,
  in plain Python over cell numbers and ``Board.neighbours`` / ``Board.step`` —
  deliberately nothing shared with the bitmask code under test.
* :func:`random_game` plays a small random game by the engine contract's
  readings (its own little driver) and returns the GW-visible events together
  with the true positions after each event. The real engine's games are in
  ``test_gw_deduction_engine.py``; this driver only lets the oracle tests run on
  tiny boards with one criminal, which the engine does not set up.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from lawmaster.rules.gw_brott.board import Board

JAIL = None
OUT = "out"
Position = int | None | str  # a cell, JAIL (None) or OUT
Joint = tuple[Position, ...]

TINY_BOARDS: dict[str, dict[str, Any]] = {
    "4x4": {
        "width": 4,
        "height": 4,
        "houses": ["B2"],
        "jail": {"exits": ["A1", "D4"]},
        "gw_start": "C3",
        "evidence": {},
    },
    "5x4": {
        "width": 5,
        "height": 4,
        "houses": ["B2", "D3"],
        "jail": {"exits": ["C1"]},
        "gw_start": "E4",
        "evidence": {},
    },
    # Dead ends (A1, C1, E1, A4, E4) where GW's piece next door leaves no move.
    "5x4-pockets": {
        "width": 5,
        "height": 4,
        "houses": ["B1", "D1", "A3", "C3", "E3"],
        "jail": {"exits": ["C2", "D4"]},
        "gw_start": "C4",
        "evidence": {},
    },
    # An exit in the open: leaving jail by the arrow stays on it only when blocked.
    "5x5-open-exit": {
        "width": 5,
        "height": 5,
        "houses": ["A1", "E5"],
        "jail": {"exits": ["C3"]},
        "gw_start": "E1",
        "evidence": {},
    },
    "5x4-jail": {
        "width": 5,
        "height": 4,
        "houses": ["E1"],
        "jail": {"cells": ["C2", "C3"], "exits": ["B2", "D3"]},
        "gw_start": "A4",
        "evidence": {},
    },
}

DIRECTIONS = ("up", "down", "left", "right")
TRUMPS = ("helicopter", "informer", "breakthrough", "infiltrator")
FACES = ("1", "2", "3", "4", "arrow", "gw")


# -- concrete moves (the rules, written out plainly) ---------------------------
def walk_ends(board: Board, start: Position, steps: int, gw: int, others: set[int]) -> set[int]:
    """Every end of every concrete walk of exactly ``steps`` steps (path by path)."""
    ends: set[int] = set()

    def extend(cell: int, left: int) -> None:
        if left == 0:
            if cell not in others:
                ends.add(cell)
            return
        for nxt in board.neighbours[cell]:
            if nxt != gw:
                extend(nxt, left - 1)

    if start is JAIL:
        for exit_ in board.jail_exits:
            if exit_ != gw:
                extend(exit_, steps - 1)
    else:
        assert isinstance(start, int)
        extend(start, steps)
    return ends


def slide_end(board: Board, start: int, direction: str, gw: int, others: set[int]) -> int | None:
    """Where a slide stops, or None if it cannot move a single cell."""
    here = start
    while True:
        nxt = board.step(here, direction)
        if nxt is None or board.is_blocked(nxt) or nxt == gw or nxt in others:
            break
        here = nxt
    return None if here == start else here


def slide_ends(board: Board, start: Position, gw: int, others: set[int]) -> set[int]:
    """Every end of every legal slide.

    From jail the piece steps onto a free exit and slides from there; the step
    out is already a move, so a slide of 0 cells leaves it on the exit (the
    engine's reading).
    """
    ends = set()
    if start is JAIL:
        for exit_ in board.jail_exits:
            if exit_ == gw or exit_ in others:
                continue
            for direction in DIRECTIONS:
                end = slide_end(board, exit_, direction, gw, others)
                ends.add(exit_ if end is None else end)
        return ends
    assert isinstance(start, int)
    for direction in DIRECTIONS:
        end = slide_end(board, start, direction, gw, others)
        if end is not None:
            ends.add(end)
    return ends


def move_ends(board: Board, start: Position, die: str, gw: int, others: set[int]) -> set[int]:
    """Every cell a piece at ``start`` can end on with ``die``."""
    if die == "arrow":
        return slide_ends(board, start, gw, others)
    return walk_ends(board, start, int(die), gw, others)


def on_board(position: Position) -> bool:
    return isinstance(position, int)


def others_of(joint: Joint, i: int) -> set[int]:
    return {p for j, p in enumerate(joint) if j != i and isinstance(p, int)}


# -- the oracle -------------------------------------------------------------------
class Oracle:
    """Every concrete joint history consistent with the events GW saw, enumerated.

    A history is the tuple of joint positions after each criminal move; the set
    of histories is extended move by move (every walk path, every slide) and
    filtered by every observation. The places a piece can be now are the last
    positions of the surviving histories.
    """

    def __init__(self, board: Board, pieces: Sequence[str]) -> None:
        self.board = board
        self.pieces = tuple(pieces)
        self.gw = board.gw_start
        start: Joint = tuple(JAIL for _ in pieces)
        self.histories: set[tuple[Joint, ...]] = {(start,)}
        self.faces: tuple[str, ...] = ()

    def places(self, piece: str) -> frozenset[str]:
        """Names of the cells (and "jail") the piece is on in some surviving history."""
        i = self.pieces.index(piece)
        names = set()
        for history in self.histories:
            where = history[-1][i]
            if where is JAIL:
                names.add("jail")
            elif isinstance(where, int):
                names.add(self.board.name_of(where))
        return frozenset(names)

    def _keep(self, test: Any) -> None:
        self.histories = {h for h in self.histories if test(h[-1])}

    def _map(self, change: Any) -> None:
        self.histories = {h[:-1] + (change(h[-1]),) for h in self.histories}

    def see(self, event: Mapping[str, Any]) -> None:
        """Extend and filter the histories by one GW-visible event."""
        kind = event["type"]
        board = self.board
        if kind == "setup":
            self.gw = board.cell(event["gw_position"])
        elif kind in ("turn", "reset", "dice_reset"):
            self.faces = ()
        elif kind == "rolled":
            self.faces = tuple(f for f in event["dice"] if f not in (None, "gw"))
        elif kind == "criminal_moved":
            i = self.pieces.index(event["by"])
            grown = set()
            for history in self.histories:
                joint = history[-1]
                if (joint[i] is JAIL) != bool(event["from_jail"]):
                    continue
                for end in move_ends(board, joint[i], event["die"], self.gw, others_of(joint, i)):
                    grown.add(history + (joint[:i] + (end,) + joint[i + 1 :],))
            self.histories = grown
            self.faces = ()
        elif kind == "passed":
            i = self.pieces.index(event["by"])
            faces = self.faces

            def stuck(joint: Joint) -> bool:
                others = others_of(joint, i)
                return not any(move_ends(board, joint[i], f, self.gw, others) for f in faces)

            self._keep(stuck)
            self.faces = ()
        elif kind == "gw_moved" and event.get("blocked"):
            # A trump some immune criminal stopped (who is immune GW does not know).
            self.gw = board.cell(event["from"])
            clear = {board.cell(n) for n in event["path"]}
            if event["kind"] == "helicopter":
                area = board.surrounding(board.cell(event["target"]))
            else:
                area = frozenset({board.cell(event["blocked_at"])})
            self._keep(lambda joint: not clear & set(joint) and any(p in area for p in joint))
        elif kind == "gw_moved":
            path = [board.cell(n) for n in event["path"]]
            caught = event.get("caught")
            clear = set(path[:-1]) if caught else set(path)
            catch_cell = path[-1] if caught else None

            def consistent(joint: Joint) -> bool:
                for j, where in enumerate(joint):
                    if caught == self.pieces[j]:
                        if where != catch_cell:
                            return False
                    elif where in clear or (where is not None and where == catch_cell):
                        return False
                return True

            self._keep(consistent)
            self.gw = board.cell(event["to"])
        elif kind == "caught":
            i = self.pieces.index(event["piece"])
            self._keep(lambda joint: joint[i] == board.cell(event["cell"]))
            self._map(lambda joint: joint[:i] + (JAIL,) + joint[i + 1 :])
        elif kind in ("evidence_destroyed", "informed"):
            piece = event.get("by") or event.get("target")
            if event.get("cell") is None:
                return
            i = self.pieces.index(piece)
            self._keep(lambda joint: joint[i] == board.cell(event["cell"]))
        elif kind == "infiltrated":
            for piece, cell in event["seen"].items():
                i = self.pieces.index(piece)
                where = JAIL if cell == "jail" else board.cell(cell)
                self._keep(lambda joint, i=i, where=where: joint[i] == where)
        elif kind == "out":
            i = self.pieces.index(event["piece"])
            self._map(lambda joint: joint[:i] + (OUT,) + joint[i + 1 :])


# -- a tiny driver of the rules -------------------------------------------------------
def random_game(
    board: Board,
    pieces: Sequence[str],
    rng: random.Random,
    criminal_moves: int,
) -> Iterator[tuple[dict[str, Any], Joint]]:
    """Play a random game; yield each GW-visible event and the true positions after it.

    Criminal turns: maybe hand in "evidence" (pins the cell), roll 1-3 dice, then a
    random legal move or a pass. GW turns: a random walk of 0-3 steps that
    catches the first criminal on it, or now and then a helicopter, breakthrough
    or infiltrator (each once a game; every piece has a random immunity); now and
    then an informer reveal. Stops after ``criminal_moves`` criminal turns.
    """
    gw = board.gw_start
    positions: list[Position] = [JAIL for _ in pieces]
    handcuffs = [0 for _ in pieces]
    abilities = [rng.choice(TRUMPS) for _ in pieces]
    used: set[str] = set()
    yield (
        {"type": "setup", "criminals": list(pieces), "gw_position": board.name_of(gw)},
        tuple(positions),
    )
    turns = 0
    while turns < criminal_moves and any(p != OUT for p in positions):
        for i, piece in enumerate(pieces):
            if positions[i] == OUT or turns >= criminal_moves:
                continue
            turns += 1
            yield {"type": "turn", "seat": piece}, tuple(positions)
            here = positions[i]
            if on_board(here) and rng.random() < 0.15:
                event = {"type": "evidence_destroyed", "by": piece, "card": "x-1"}
                event["cell"] = board.name_of(here)  # type: ignore[arg-type]
                yield event, tuple(positions)
            dice = [rng.choice(FACES) for _ in range(rng.randint(1, 3))]
            yield {"type": "rolled", "by": piece, "faces": dice, "dice": dice}, tuple(positions)
            others = others_of(tuple(positions), i)
            options = [
                (face, end)
                for face in dice
                if face != "gw"
                for end in sorted(move_ends(board, here, face, gw, others))
            ]
            if not options:
                yield {"type": "passed", "by": piece, "reason": "no legal move"}, tuple(positions)
                continue
            face, end = rng.choice(options)
            event = {"type": "criminal_moved", "by": piece, "die": face, "from_jail": here is JAIL}
            positions[i] = end
            yield event, tuple(positions)
        # GW's turn: now and then a trump (each once a game), else a short walk.
        spare = [t for t in ("helicopter", "breakthrough", "infiltrator") if t not in used]
        if spare and rng.random() < 0.3:
            card = rng.choice(spare)
            used.add(card)
            yield {"type": "trump_played", "card": card}, tuple(positions)
            if card == "infiltrator":
                seen = {
                    p: "jail" if positions[j] is JAIL else board.name_of(positions[j])  # type: ignore[arg-type]
                    for j, p in enumerate(pieces)
                    if positions[j] != OUT and abilities[j] != "infiltrator"
                }
                hidden = [
                    p for j, p in enumerate(pieces) if positions[j] != OUT and abilities[j] == card
                ]
                yield {"type": "infiltrated", "seen": seen, "hidden": hidden}, tuple(positions)
                continue
            if card == "helicopter":
                targets = [c for c in board.open_cells if c != gw]
                standing = [p for p in positions if isinstance(p, int)]
                if standing and rng.random() < 0.5:  # aim near a criminal
                    near_one = board.surrounding(rng.choice(standing))
                    targets = [c for c in targets if c in near_one] or targets
                target = rng.choice(targets)
                near = board.surrounding(target)
                guard = any(
                    isinstance(where, int) and where in near and abilities[j] == card
                    for j, where in enumerate(positions)
                )
                if guard:
                    event = _gw_event(board, card, [], gw, gw, None)
                    yield (
                        {**event, "blocked": True, "target": board.name_of(target)},
                        tuple(positions),
                    )
                    continue
                path = [target]
            else:
                path = _gw_walk(board, gw, rng.randint(0, 8), rng)
        else:
            card = "normal"
            path = _gw_walk(board, gw, rng.randint(0, 3), rng)
        walked, caught = path, None
        for k, cell in enumerate(path):
            if cell in positions:
                walked, caught = path[: k + 1], positions.index(cell)
                break
        if card == "breakthrough" and caught is not None and abilities[caught] == card:
            event = _gw_event(board, card, walked[:-1], gw, gw, None)
            yield (
                {**event, "blocked": True, "blocked_at": board.name_of(walked[-1])},
                tuple(positions),
            )
            continue
        end = walked[-1] if walked else gw
        yield (
            _gw_event(board, card, walked, gw, end, None if caught is None else pieces[caught]),
            tuple(positions),
        )
        gw = end
        if caught is not None:
            handcuffs[caught] += 1
            positions[caught] = JAIL
            yield (
                {
                    "type": "caught",
                    "piece": pieces[caught],
                    "cell": board.name_of(gw),
                    "handcuffs": handcuffs[caught],
                },
                tuple(positions),
            )
            if handcuffs[caught] >= 3:
                positions[caught] = OUT
                yield {"type": "out", "piece": pieces[caught]}, tuple(positions)
        if rng.random() < 0.1:
            target = rng.randrange(len(pieces))
            where = positions[target]
            if on_board(where):
                yield (
                    {
                        "type": "informed",
                        "informer": pieces[(target + 1) % len(pieces)],
                        "target": pieces[target],
                        "cell": board.name_of(where),  # type: ignore[arg-type]
                        "immune": False,
                    },
                    tuple(positions),
                )


def _gw_walk(board: Board, start: int, steps: int, rng: random.Random) -> list[int]:
    path = []
    here = start
    for _ in range(steps):
        here = rng.choice(board.neighbours[here])
        path.append(here)
    return path


def _gw_event(
    board: Board, kind: str, path: list[int], start: int, end: int, caught: str | None
) -> dict[str, Any]:
    return {
        "type": "gw_moved",
        "kind": kind,
        "path": [board.name_of(c) for c in path],
        "from": board.name_of(start),
        "to": board.name_of(end),
        "caught": caught,
        "blocked": False,
    }


def true_places(board: Board, joint: Joint, i: int) -> str | None:
    """The true place of piece ``i`` as ``cells()`` names it (None when out)."""
    where = joint[i]
    if where is JAIL:
        return "jail"
    if where == OUT:
        return None
    assert isinstance(where, int)
    return board.name_of(where)
