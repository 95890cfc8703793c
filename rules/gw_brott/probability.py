"""GW's deduction map as probabilities: weighted joint positions, held in numpy arrays.

``Belief`` holds *joint positions* of the criminals (one place per piece: a
cell, in jail or out), each with the probability of the histories consistent
with GW's events that end in it. The model (the full write-up is
``DEDUCTION.md`` next to this file):

* What GW sees is fixed: the dice, which die a criminal moved with, resets,
  rerolls, passes, evidence, trumps and GW's own paths. Those visible
  decisions are taken to carry no information beyond being legal.
* The one hidden choice is where the moving piece ends: it picks uniformly
  among the distinct legal end cells of the die it moved with, given where
  every other piece and GW stand. A history's weight is the product of
  ``1 / number of end cells`` over its moves.
* Every observation keeps exactly the joint positions it is possible in.

Moves follow the engine's own geometry (``geometry.py``): walks pass through
other criminals and must end on a free cell, slides stop before GW and before
any other criminal. So two pieces never share a cell and a slide stops at a
piece, exactly as the referee rules it.

Representation: ``places`` is an ``(rows, pieces)`` array of place codes (cell
numbers; ``jail`` and ``out`` codes after the last cell, see :class:`_Layout`),
``weights`` a ``(rows,)`` array. The legal ends of a move, for all rows at
once, are a padded ``(rows, candidates)`` array with a legal mask (walk ends
from tables precomputed per GW cell, slide stops from precomputed rays and
the rows' occupancy).

Two modes:

* ``exact=True``: weights are :class:`fractions.Fraction` (an object array) and
  every joint position is kept: the exact posterior (tests, small boards).
* ``exact=False`` (default): float weights. Every joint position is kept while
  there are at most ``limit`` of them: an exact count, up to rounding
  (``complete``). Beyond that, a particle filter of ``particles`` rows: the
  first cut is Fearnhead-Clifford resampling that keeps, for every piece and
  place, the heaviest row with the piece there; then every move draws
  ``particles`` rows in proportion to their weight and moves each to one of
  its legal ends, drawn uniformly (the model's own choice), so a move costs a
  few array operations on ``particles`` rows. Rows are concrete consistent
  histories, and the belief keeps GW's set map (``deduction.py``, sound) after
  the same events: rows outside it are dropped, and every place it allows but
  no row holds gets a small floor probability, so the true place never has
  probability 0 and no place outside the set map ever has any. When an
  observation kills or nearly kills the rows, they are rebuilt from the rows
  before it (each piece the set map now rules out where a row has it is
  redrawn inside the set map) rather than by replaying the game, so every
  update does bounded work. Random numbers come only from generators seeded
  with ``seed`` and the update count: the same events and seed always give
  the same map.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, TypeAlias

import numpy as np
import numpy.typing as npt
from numpy.random import Generator, default_rng

from lawmaster.rules.core import IllegalAction

from .board import Board
from .geometry import DIRECTION_NAMES, geometry_of

if TYPE_CHECKING:
    from .deduction import Deduction

JAIL_NAME = "jail"
_PIPS = {"1": 1, "2": 2, "3": 3, "4": 4}
_ARROW = "arrow"

#: Joint positions counted exactly (floats) before the first cut.
LIMIT = 2000
#: Rows of the particle filter: every particle move draws this many (the first
#: cut keeps about this many, plus the heaviest row for every piece and place).
PARTICLES = 1000
#: An event that leaves a cut map fewer than ``particles / THIN`` rows and fewer
#: than 1/THIN of the rows it found has outrun the sample: the rows are rebuilt.
THIN = 8
#: After a cut, the places the set map allows but no row holds share this much
#: of a piece's probability, in proportion to how many of its places they are.
FLOOR = 0.05
#: Candidates drawn per redrawn piece when rows are rebuilt (the first that
#: lands on a free cell is taken).
_CANDIDATES = 8
#: The four directions, as an index row.
_FOUR = np.arange(len(DIRECTION_NAMES))
#: What a belief caches about itself (valid while its rows and set map stay).
_CACHES = ("_cache", "_float_cache", "_allowed_cache")
#: Events that only observe (no piece moves): a thinned map is rebuilt by
#: redrawing the pieces they rule out and applying them again.
_OBSERVATIONS = frozenset({"gw_moved", "passed", "evidence_destroyed", "informed", "infiltrated"})

Event: TypeAlias = Mapping[str, object]
Places: TypeAlias = npt.NDArray[np.int16]
Mask: TypeAlias = npt.NDArray[np.bool_]
Indices: TypeAlias = npt.NDArray[np.intp]
Floats: TypeAlias = npt.NDArray[np.float64]
#: Float weights, or exact ones (an object array of ``Fraction``).
Weights: TypeAlias = npt.NDArray[np.float64] | npt.NDArray[np.object_]
Weight: TypeAlias = float | Fraction


class Inconsistent(ValueError):
    """No joint position is consistent with the events (exact mode only)."""


@dataclass(frozen=True)
class _Layout:
    """Place codes and slide rays of one board, as arrays.

    Codes: ``0 .. size - 1`` the cells, then ``jail``, ``out`` and ``wall`` (a
    code no piece has; it pads the rays and is always an obstacle).
    """

    size: int
    jail: int
    out: int
    wall: int
    #: ``(codes, 4, longest ray + 1)``: the cells a slide from each code passes
    #: in each direction, padded with ``wall``. Jail, out and blocked cells have
    #: empty rays.
    rays: Indices
    #: ``(codes, 4)``: how many cells each ray has.
    reach: Indices
    #: ``(codes, 4, codes)``: where a place code stands on each ray (0 for the
    #: first cell), or the ray's length when it is not on it. A slide from
    #: ``s`` in direction ``d`` stops before the nearest obstacle ``o``: it moves
    #: ``min(reach[s, d], at[s, d, o] for every o)`` cells.
    at: npt.NDArray[np.int16]
    names: tuple[str, ...]

    @property
    def codes(self) -> int:
        return self.wall + 1


@lru_cache(maxsize=32)
def _layout(board: Board) -> _Layout:
    geo = geometry_of(board)
    size = board.size
    wall = size + 2
    longest = max(board.width, board.height)
    directions = len(DIRECTION_NAMES)
    rays = np.full((wall + 1, directions, longest), wall, dtype=np.intp)
    reach = np.zeros((wall + 1, directions), dtype=np.intp)
    at = np.zeros((wall + 1, directions, wall + 1), dtype=np.int16)
    for cell in board.open_cells:
        for d, direction in enumerate(DIRECTION_NAMES):
            ray = geo.rays[cell][direction]
            rays[cell, d, : len(ray)] = ray
            reach[cell, d] = len(ray)
            at[cell, d, :] = len(ray)
            at[cell, d, list(ray)] = np.arange(len(ray))
    names = (*(board.name_of(c) for c in range(size)), JAIL_NAME, "out", "wall")
    return _Layout(size, size, size + 1, wall, rays, reach, at, names)


def _bits(masks: list[int], size: int) -> Mask:
    """Bitmask ints as a ``(len(masks), size)`` boolean array."""
    width = (size + 7) // 8
    raw = b"".join(m.to_bytes(width, "little") for m in masks)
    table = np.frombuffer(raw, dtype=np.uint8).reshape(len(masks), width)
    bits: Mask = np.unpackbits(table, axis=1, bitorder="little")[:, :size].astype(bool)
    return bits


@lru_cache(maxsize=1024)
def _walk_table(board: Board, gw: int, steps: int) -> Places:
    """``(codes, longest)``: the cells a walk of exactly ``steps`` steps can end on,
    per place code, padded with -1.

    The walk passes through other criminals (they are taken off the ends
    later) but not GW. The ``jail`` row is a walk whose first step is onto an
    exit not under GW. Rows of codes no piece can be on are empty.
    """
    geo = geometry_of(board)
    layout = _layout(board)
    passable = geo.open_mask & ~(1 << gw)
    masks = [0] * layout.codes
    for cell in board.open_cells:
        if cell != gw:
            masks[cell] = geo.walk_ends(1 << cell, steps, passable)
    exits = sum(1 << e for e in board.jail_exits if e != gw)
    masks[layout.jail] = geo.walk_ends(exits, steps - 1, passable)
    return _padded(_bits(masks, layout.size))


def _padded(table: Mask) -> Places:
    """The True columns of each row of ``table``, left-aligned, padded with -1."""
    counts = table.sum(axis=1)
    result = np.full((len(table), max(int(counts.max()), 1)), -1, dtype=np.int16)
    row, col = np.nonzero(table)
    slot = np.arange(len(row)) - np.repeat(np.cumsum(counts) - counts, counts)
    result[row, slot] = col
    return result


@lru_cache(maxsize=32)
def _place_index(board: Board) -> dict[str, int]:
    """Place name -> place code (cells and ``jail``)."""
    layout = _layout(board)
    return {name: code for code, name in enumerate(layout.names[: layout.out])}


@dataclass(frozen=True, eq=False)
class Belief:
    """A probability for every kept joint position of the criminals, given GW's events.

    Row ``r`` of ``places`` is a joint position (one place code per piece, see
    :class:`_Layout`), ``weights[r]`` its probability; the weights sum to 1.
    Build one with :meth:`start`, feed it every event GW may see with
    :meth:`update` (a new ``Belief``; this one never changes), read it with
    :meth:`probabilities`. ``sound`` is GW's set map (``deduction.py``) after
    the same events: after a cut the support is kept inside it and fills it.
    """

    board: Board
    pieces: tuple[str, ...]
    places: Places
    weights: Weights
    sound: Deduction
    gw: int
    faces: tuple[str, ...] = ()
    special_move_catches: bool = True
    exact: bool = False
    limit: int = LIMIT
    particles: int = PARTICLES
    seed: int = 0
    #: How many updates this belief has seen (drives the seeded resampling).
    step: int = 0
    #: True while every consistent joint position is kept (no cut yet): the
    #: support is then exactly the set of possible places.
    complete: bool = True
    #: How many times the rows had to be rebuilt (reported by the bench).
    rebuilds: int = 0

    # -- construction and queries --------------------------------------------
    @classmethod
    def start(
        cls,
        board: Board,
        criminals: Iterable[str],
        *,
        exact: bool = False,
        seed: int = 0,
        limit: int = LIMIT,
        particles: int = PARTICLES,
        special_move_catches: bool = True,
        sound: Deduction,
    ) -> Belief:
        """Everyone in jail, GW on its start: one joint position, probability 1.

        ``sound`` is the set map the rows are kept inside (a
        :class:`~lawmaster.rules.gw_brott.deduction.Deduction` of the same start;
        :func:`~lawmaster.rules.gw_brott.deduction.start_belief` makes both).
        """
        pieces = tuple(criminals)
        layout = _layout(board)
        return cls(
            board,
            pieces,
            np.full((1, len(pieces)), layout.jail, dtype=np.int16),
            _ones(1, exact),
            sound,
            board.gw_start,
            special_move_catches=special_move_catches,
            exact=exact,
            limit=limit,
            particles=particles,
            seed=seed,
        )

    def probabilities(self, piece: str) -> dict[str, Weight]:
        """Cell name (or ``"jail"``) -> probability for ``piece``; empty once it is out.

        Fractions in exact mode, floats otherwise; the values sum to 1 and
        every value is positive. A new dict on every call.
        """
        return dict(self._marginals()[self.pieces.index(piece)])

    def shares(self, piece: str, places: Sequence[str]) -> list[float]:
        """The probability (a float) of each of ``places`` for ``piece``, in order.

        Places the map does not hold (or does not know) get 0.
        """
        if self.exact:
            found = self.probabilities(piece)
            return [float(found.get(place, 0)) for place in places]
        layout = _layout(self.board)
        index = _place_index(self.board)
        codes = np.array([index.get(place, layout.wall) for place in places], dtype=np.intp)
        result: list[float] = self._float_marginals()[self.pieces.index(piece)][codes].tolist()
        return result

    def cells(self, piece: str) -> frozenset[str]:
        """The places with positive probability (exactly the possible ones while
        ``complete``; the set map's places after a cut)."""
        return frozenset(self.probabilities(piece))

    def _marginals(self) -> list[dict[str, Weight]]:
        """Every piece's probabilities (cached)."""
        cached: list[dict[str, Weight]] | None = self.__dict__.get("_cache")
        if cached is not None:
            return cached
        layout = _layout(self.board)
        names = layout.names
        result: list[dict[str, Weight]] = []
        floats = None if self.exact else self._float_marginals()
        for i in range(len(self.pieces)):
            if floats is None:
                totals: dict[int, Weight] = {}
                for code, weight in zip(
                    self.places[:, i].tolist(), self.weights.tolist(), strict=True
                ):
                    totals[code] = totals.get(code, 0) + weight
                result.append(
                    {names[c]: w for c, w in sorted(totals.items()) if c != layout.out and w}
                )
                continue
            shares = floats[i, : layout.out]
            found = np.flatnonzero(shares)
            listed = [names[c] for c in found.tolist()]
            result.append(dict(zip(listed, shares[found].tolist(), strict=True)))
        object.__setattr__(self, "_cache", result)
        return result

    def _float_marginal(self, i: int) -> Floats:
        """Piece ``i``'s probability per place code (floats), floors included."""
        row: Floats = self._float_marginals()[i]
        return row

    def _float_marginals(self) -> Floats:
        """``(pieces, codes)``: every piece's probability per place code, floors included.

        While ``complete``, the rows' own sums. After a cut, every place the set
        map allows but no row holds gets ``FLOOR / (the piece's allowed places)``
        and the rows' sums are scaled to the rest; with no row at all, the
        allowed places share evenly.
        """
        cached: Floats | None = self.__dict__.get("_float_cache")
        if cached is not None:
            return cached
        layout = _layout(self.board)
        codes = layout.codes
        pieces = len(self.pieces)
        keys = (self.places.astype(np.intp) + np.arange(pieces) * codes).reshape(-1)
        spread = np.repeat(self.weights.astype(np.float64), pieces)
        counted = np.bincount(keys, weights=spread, minlength=pieces * codes)
        shares: Floats = np.asarray(counted, dtype=np.float64).reshape(pieces, codes)
        if self.complete:
            object.__setattr__(self, "_float_cache", shares)
            return shares
        allowed = self._allowed_table()
        count = allowed.sum(axis=1, keepdims=True)
        missing = allowed & (shares <= 0)
        unheld = missing.sum(axis=1, keepdims=True)
        held = shares.sum(axis=1, keepdims=True)
        floor = FLOOR / np.maximum(count, 1)
        # Rows' sums scaled to what the floors leave; a piece with no row at
        # all: its allowed places share evenly.
        scale = np.where(held > 0, (1 - floor * unheld) / np.where(held > 0, held, 1), 0.0)
        result: Floats = np.where(missing, np.where(held > 0, floor, 1 / np.maximum(count, 1)), 0.0)
        result += shares * scale
        object.__setattr__(self, "_float_cache", result)
        return result

    # -- the one entry point ----------------------------------------------------
    def update(self, event: Event, sound: Deduction | None = None) -> Belief:
        """The belief after one event GW sees; unknown events change nothing but the set map.

        ``sound`` is GW's set map after the same event when the caller has it
        (``Deduction.belief`` walks a chain of them); otherwise the belief
        advances its own.
        """
        if sound is None:
            sound = self.sound.advanced(event)
        handler = _HANDLERS.get(str(event.get("type")))
        if handler is None:
            result = self if sound is self.sound else replace(self, sound=sound)
        else:
            result = handler(replace(self, sound=sound, step=self.step + 1), event)
            result = result._settled(self, event)
        if (
            result is not self
            and result.places is self.places
            and result.weights is self.weights
            and _same_sets(result.sound, self.sound)
        ):
            # Same rows, same set map: the same probabilities.
            for key in _CACHES:
                if key in self.__dict__:
                    object.__setattr__(result, key, self.__dict__[key])
        return result

    def _settled(self, before: Belief, event: Event) -> Belief:
        """Merge, normalise, cut or rebuild the rows a handler left."""
        unchanged = self.places is before.places and self.weights is before.weights
        if self.exact:
            if unchanged:
                return self
            if not len(self.weights):
                raise Inconsistent(f"no position of the criminals is consistent with {event!r}")
            return self._merged()._normalised()
        if unchanged and (self.complete or _same_sets(self.sound, before.sound)):
            return self
        result = self
        rows = len(result.weights)
        if not result.complete:
            # Rows of a cut map are particles: a repeated joint position is
            # harmless (the marginals and the next cut add them up), so they
            # are merged only when there are too many.
            if rows > result.limit:
                result = result._cut()
        elif rows > 4 * result.limit:
            # Far too many to count exactly (rows of several events): cut.
            result = result._cut()
        else:
            result = result._merged()
            if len(result.weights) > result.limit:
                result = result._cut()
        if not result.complete:
            result = result._inside_sound()
        rows = len(result.weights)
        if rows and (
            result.complete or rows * THIN >= result.particles or rows * THIN >= len(before.weights)
        ):
            return result._normalised()
        # Every row died, or an observation thinned the rows of a cut map so far
        # (by more than 1 - 1/THIN, to fewer than particles / THIN) that the few
        # left would speak for the whole map.
        return result._rebuilt(before, event)

    # -- event handlers -----------------------------------------------------------
    def _on_setup(self, event: Event) -> Belief:
        result = self
        criminals = event.get("criminals")
        if isinstance(criminals, list) and criminals and tuple(criminals) != self.pieces:
            pieces = tuple(str(c) for c in criminals)
            layout = _layout(self.board)
            result = replace(
                self,
                pieces=pieces,
                places=np.full((1, len(pieces)), layout.jail, dtype=np.int16),
                weights=_ones(1, self.exact),
                complete=True,
            )
        options = event.get("options")
        catches = result.special_move_catches
        if isinstance(options, Mapping) and isinstance(options.get("special_move_catches"), bool):
            catches = bool(options["special_move_catches"])
        return replace(
            result, gw=self._cell(event.get("gw_position"), self.gw), special_move_catches=catches
        )

    def _on_rolled(self, event: Event) -> Belief:
        dice = event.get("dice")
        if not isinstance(dice, list):
            return replace(self, faces=())
        faces = tuple(sorted({str(f) for f in dice if str(f) in _PIPS or str(f) == _ARROW}))
        return replace(self, faces=faces)

    def _on_moved(self, event: Event) -> Belief:
        i = self._index(event.get("by"))
        die = str(event.get("die"))
        if i is None or (die not in _PIPS and die != _ARROW):
            return self
        layout = _layout(self.board)
        codes = self.places[:, i]
        if event.get("from_jail"):
            rows = self._rows(codes == layout.jail)
        else:
            rows = self._rows(codes < layout.size)
        ends, legal = rows._ends(i, die)
        counts = legal.sum(axis=1)
        if not self.exact and (not self.complete or int(counts.sum()) > 4 * self.limit):
            # Too many rows to count: a particle filter. Draw the rows to keep,
            # then one end for each.
            places, weights = _resample_move(
                rows.places,
                rows.weights.astype(np.float64),
                ends,
                legal,
                i,
                self.particles,
                self._rng(),
                counts,
            )
            return replace(self._with_rows(places, weights), complete=False)
        width = ends.shape[1]
        flat = np.flatnonzero(legal)
        source = flat // width
        places = rows.places[source]
        places[:, i] = ends.reshape(-1)[flat]
        return self._with_rows(places, _divide(rows.weights[source], counts[source]))

    def _on_passed(self, event: Event) -> Belief:
        # Only "no legal move" is a choice the rules restrict; the other passes
        # (no die left, caught during the special move) say nothing of places.
        i = self._index(event.get("by"))
        if i is None or event.get("reason") != "no legal move" or not self.faces:
            return self
        stuck = self.places[:, i] != _layout(self.board).out
        for face in self.faces:
            stuck &= ~self._ends(i, face)[1].any(axis=1)
        return self._rows(stuck)

    def _on_gw_moved(self, event: Event) -> Belief:
        origin = self._cell(event.get("from"), self.gw)
        to = self._cell(event.get("to"), origin)
        path = [self._cell(n, -1) for n in _list(event.get("path"))]
        path = [c for c in path if c >= 0]
        if event.get("blocked"):
            return self._blocked(event, origin, path)
        caught = self._index(event.get("caught"))
        if event.get("kind") == "special" and not self.special_move_catches:
            # GW passed over criminals; its end cell was empty.
            clear = [to]
        elif caught is None:
            clear = [*path, to]
        else:
            clear = path[:-1]
        moved = replace(self, gw=to)
        keep = ~moved._any_on(clear)
        if caught is not None:
            keep &= moved.places[:, caught] == to
        return moved._rows(keep)

    def _blocked(self, event: Event, origin: int, path: list[int]) -> Belief:
        # An immune criminal stopped a trump. GW does not know who is immune, so
        # all it learns is that *some* criminal stood there.
        if event.get("kind") == "helicopter":
            target = self._cell(event.get("target"), -1)
            near = sorted(self.board.surrounding(target)) if target >= 0 else []
        else:
            block = self._cell(event.get("blocked_at"), -1)
            near = [block] if block >= 0 else []
        moved = replace(self, gw=origin)
        return moved._rows(~moved._any_on(path) & moved._any_on(near))

    def _on_caught(self, event: Event) -> Belief:
        i = self._index(event.get("piece"))
        if i is None:
            return self
        cell = self._cell(event.get("cell"), -1)
        result = replace(self, gw=cell if cell >= 0 else self.gw)
        if cell >= 0:
            result = result._rows(result.places[:, i] == cell)
        return result._moved_to(i, _layout(self.board).jail)

    def _on_out(self, event: Event) -> Belief:
        i = self._index(event.get("piece"))
        return self if i is None else self._moved_to(i, _layout(self.board).out)

    def _on_evidence(self, event: Event) -> Belief:
        return self._pinned(event.get("by"), event.get("cell"))

    def _on_informed(self, event: Event) -> Belief:
        if event.get("immune") or event.get("cell") is None:
            return self
        return self._pinned(event.get("target"), event.get("cell"))

    def _on_infiltrated(self, event: Event) -> Belief:
        result = self
        seen = event.get("seen") or {}
        if isinstance(seen, Mapping):
            for piece, cell in seen.items():
                result = result._pinned(piece, cell)
        return result

    # -- moves ---------------------------------------------------------------
    def _ends(self, i: int, face: str) -> tuple[Places, Mask]:
        """Where piece ``i`` may end with ``face``, per row: ``(ends, legal)``.

        ``ends[r]`` lists candidate cells for row ``r``; ``legal[r]`` says which
        of them are legal ends, each distinct cell at most once. The engine's
        rules, row by row: a walk of exactly n steps through anything but GW
        (from jail, its first step onto an exit not under GW) ending on a cell
        no other piece holds; a slide stopping before GW, another piece, a
        house, the jail or the edge, at least one cell long (from jail: onto
        any free exit, then a slide of any length, none included).
        """
        layout = _layout(self.board)
        places = self.places
        others = [j for j in range(places.shape[1]) if j != i]
        steps = _PIPS.get(face)
        if steps is not None:
            ends = _walk_table(self.board, self.gw, steps)[places[:, i]]
            legal = ends >= 0
            for j in others:
                legal &= ends != places[:, j : j + 1]
            return ends, legal
        rows = len(places)
        codes = places[:, i]
        blockers = [places[:, j] for j in others]
        if not (codes == layout.jail).any():
            # On the board: one slide per direction, as far as the nearest
            # obstacle (GW, another piece, the ray's end); distinct directions
            # end on distinct cells.
            # Flat indices into the (code, direction) rows of the tables.
            ray = codes.astype(np.intp)[:, None] * 4 + _FOUR  # (rows, 4)
            at = layout.at.reshape(-1)
            line = ray * layout.codes
            run = np.minimum(layout.reach.reshape(-1).take(ray), at.take(line + self.gw))
            for other in blockers:
                run = np.minimum(run, at.take(line + other[:, None]))
            longest = layout.rays.shape[2]
            stop = layout.rays.reshape(-1).take(ray * longest + np.maximum(run - 1, 0))
            return stop.astype(np.int16), run > 0
        exits = np.array([e for e in self.board.jail_exits if e != self.gw], dtype=np.intp)
        # (exits, 4) for every row: a slide from each exit, stopping as on the board.
        run = np.broadcast_to(
            np.minimum(layout.reach[exits], layout.at[exits, :, self.gw]), (rows, len(exits), 4)
        )
        free = np.ones((rows, len(exits)), dtype=bool)
        for other in blockers:
            run = np.minimum(run, layout.at[exits[:, None], _FOUR, other[:, None, None]])
            free &= exits != other[:, None]
        stop = layout.rays[exits[:, None], _FOUR, np.maximum(run - 1, 0)]
        # A slide of no cells leaves the piece on the exit: stepping out is a move.
        stop = np.where(run > 0, stop, exits[:, None]).reshape(rows, -1)
        usable = np.repeat(free, 4, axis=1) & (codes == layout.jail)[:, None]
        # Each distinct end once: sort the row, drop repeats.
        ends = np.sort(np.where(usable, stop, layout.wall), axis=1)
        legal = ends != layout.wall
        legal[:, 1:] &= ends[:, 1:] != ends[:, :-1]
        return ends.astype(np.int16), legal

    # -- helpers ---------------------------------------------------------------
    def _index(self, piece: object) -> int | None:
        return self.pieces.index(piece) if isinstance(piece, str) and piece in self.pieces else None

    def _cell(self, name: object, default: int) -> int:
        if not isinstance(name, str):
            return default
        try:
            return self.board.cell(name)
        except IllegalAction:
            return default

    def _with_rows(self, places: Places, weights: Weights) -> Belief:
        """This belief with other rows (``dataclasses.replace`` without its cost)."""
        result = copy.copy(self)
        result.__dict__.pop("_cache", None)
        result.__dict__.pop("_float_cache", None)
        object.__setattr__(result, "places", places)
        object.__setattr__(result, "weights", weights)
        return result

    def _rows(self, keep: Mask) -> Belief:
        """Only the rows where ``keep`` holds (not normalised)."""
        if keep.all():
            return self
        return self._with_rows(self.places[keep], self.weights[keep])

    def _any_on(self, cells: list[int]) -> Mask:
        """Per row: whether some piece stands on one of ``cells``."""
        layout = _layout(self.board)
        marked = np.zeros(layout.codes, dtype=bool)
        marked[cells] = True
        hit: Mask = marked[self.places[:, 0]]
        for j in range(1, self.places.shape[1]):
            hit = hit | marked[self.places[:, j]]
        return hit

    def _pinned(self, piece: object, cell: object) -> Belief:
        i = self._index(piece)
        if i is None or not isinstance(cell, str):
            return self
        place = _layout(self.board).jail if cell == JAIL_NAME else self._cell(cell, -1)
        return self if place < 0 else self._rows(self.places[:, i] == place)

    def _moved_to(self, i: int, code: int) -> Belief:
        """Piece ``i`` goes to ``code`` (jail or out) in every row."""
        places = self.places.copy()
        places[:, i] = code
        return self._with_rows(places, self.weights)

    def _allowed(self, i: int) -> Mask:
        """Per place code: whether the set map allows piece ``i`` there."""
        row: Mask = self._allowed_table()[i]
        return row

    def _allowed_table(self) -> Mask:
        """``(pieces, codes)``: whether the set map allows each piece on each place (cached)."""
        table: Mask | None = self.__dict__.get("_allowed_cache")
        if table is None:
            layout = _layout(self.board)
            sound = self.sound
            table = np.zeros((len(self.pieces), layout.codes), dtype=bool)
            table[:, : layout.size] = _bits(list(sound.masks), layout.size)
            for j in range(len(self.pieces)):
                if sound.out[j]:
                    table[j] = False
                    table[j, layout.out] = True
                elif sound.jailed[j]:
                    table[j, layout.jail] = True
            object.__setattr__(self, "_allowed_cache", table)
        return table

    def _inside_sound(self) -> Belief:
        """Only the rows the set map allows (after a cut or a rebuild)."""
        table = self._allowed_table()
        keep = table[0][self.places[:, 0]]
        for i in range(1, len(self.pieces)):
            keep = keep & table[i][self.places[:, i]]
        return self._rows(keep)

    def _merged(self) -> Belief:
        """One row per joint position (weights added), ordered by position."""
        rows = len(self.weights)
        if rows < 2:
            return self
        keys = _keys(self.places, _layout(self.board).codes)
        order = np.argsort(keys)
        keys = keys[order]
        starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
        if len(starts) == rows:
            return self._with_rows(self.places[order], self.weights[order])
        summed: Weights = np.add.reduceat(self.weights[order], starts)
        return self._with_rows(self.places[order[starts]], summed)

    def _normalised(self) -> Belief:
        total = self.weights.sum()
        if total == 1:
            return self
        return self._with_rows(self.places, self.weights / total)

    def _rng(self) -> Generator:
        return default_rng([self.seed & 0xFFFFFFFF, self.step])

    def _cut(self) -> Belief:
        """About ``particles`` rows with the same expected weights; see :func:`_resample`."""
        offset = random.Random(self.seed * 1_000_003 + self.step).random()
        keep, weights = _resample(
            self.places, self.weights.astype(np.float64), self.particles, offset
        )
        cut = replace(self, places=self.places[keep], weights=weights, complete=False)
        return cut._merged()

    def _rebuilt(self, before: Belief, event: Event) -> Belief:
        """Rows for a cut map that an event killed or nearly killed, in bounded work.

        The rows before the event are taken again. Every piece that the set map
        now rules out where a row has it is redrawn, inside the set map, from
        that piece's probabilities before the event (its floor places included)
        onto a cell no other piece of the row holds; then the event is applied
        to those rows. This treats the redrawn piece as independent of the
        others, which the lost rows could no longer tell anyway. If that leaves
        nothing either (a move, or a pass or blocked trump that needs the
        pieces in a joint position the rows never had), fresh rows are drawn
        from the product of the pieces' probabilities inside the set map.
        Either way the rows stay inside the set map, so no place outside it
        ever gets weight and every place in it keeps some (see ``_marginals``).
        """
        rng = self._rng()
        kind = event.get("type")
        mover = self._index(event.get("by")) if kind == "criminal_moved" else None
        proposals = [self._proposal(before, i, i == mover) for i in range(len(self.pieces))]
        result: Belief | None = None
        handler = _HANDLERS.get(str(kind))
        if len(before.weights) and kind in _OBSERVATIONS and handler is not None:
            places, weights = _redrawn(before, self, proposals, rng)
            if len(weights):
                base = replace(before, sound=self.sound, step=self.step, places=places)
                result = handler(replace(base, weights=weights), event)._inside_sound()
                if not len(result.weights):
                    result = None
        if result is None:
            places, counts = _drawn(self, proposals, self.particles, rng)
            result = replace(self, places=places, weights=counts)
        result = replace(result, complete=False, rebuilds=self.rebuilds + 1)
        return result._normalised()

    def _proposal(self, before: Belief, i: int, moved: bool) -> Floats:
        """Where to redraw piece ``i``: its probabilities before the event, inside the
        set map after it; evenly over the set map when those have nothing there or
        when the event moved the piece."""
        allowed = self._allowed(i)
        if moved or not len(before.weights):
            shares = np.zeros(len(allowed))
        else:
            shares = np.where(allowed, before._float_marginal(i), 0.0)
        total = shares.sum()
        if total <= 0:
            count = allowed.sum()
            return allowed / count if count else allowed.astype(np.float64)
        result: Floats = shares / total
        return result


def _same_sets(a: Deduction, b: Deduction) -> bool:
    """Whether two set maps allow the same places."""
    return a is b or (a.masks == b.masks and a.jailed == b.jailed and a.out == b.out)


def _ones(rows: int, exact: bool) -> Weights:
    if exact:
        ones: Weights = np.empty(rows, dtype=object)
        ones[:] = [Fraction(1)] * rows
        return ones
    return np.ones(rows, dtype=np.float64)


def _divide(weights: Weights, counts: npt.NDArray[np.intp]) -> Weights:
    """``weights / counts`` elementwise, exactly for Fractions."""
    if weights.dtype == object:
        shares: Weights = np.empty(len(weights), dtype=object)
        shares[:] = [w / int(c) for w, c in zip(weights.tolist(), counts.tolist(), strict=True)]
        return shares
    result: Weights = weights / counts
    return result


def _list(value: object) -> list[object]:
    return list(value) if isinstance(value, list | tuple) else []


def _keys(places: Places, codes: int) -> npt.NDArray[np.int64]:
    """One integer per joint position."""
    keys = np.zeros(len(places), dtype=np.int64)
    for j in range(places.shape[1]):
        keys = keys * codes + places[:, j]
    return keys


def _resample(places: Places, weights: Floats, count: int, offset: float) -> tuple[Indices, Floats]:
    """About ``count`` rows (indices and new weights) with the same expected weights.

    First, for every piece and every place it has, the heaviest row with the
    piece there is kept with its weight (the first such row on a tie): a cut
    never takes a place off a piece's map (at most pieces x places rows, so
    the budget can be exceeded). The rest is cut by Fearnhead-Clifford
    resampling: rows at least as heavy as a threshold ``c`` keep their weight,
    the lighter ones are drawn by systematic resampling (``offset`` in [0, 1)
    places the first point) with probability ``w / c`` and then weigh ``c``.
    Nothing is duplicated and no new row appears.
    """
    rows, pieces = places.shape
    codes = int(places.max()) + 1
    # Piece j on place p is key j * codes + p; one entry per row and piece.
    keys = (places.astype(np.intp) + np.arange(pieces) * codes).reshape(-1)
    spread = np.repeat(weights, pieces)
    heaviest = np.full(pieces * codes, -1.0)
    np.maximum.at(heaviest, keys, spread)
    best = spread == heaviest[keys]
    first = np.full(pieces * codes, rows, dtype=np.intp)
    np.minimum.at(first, keys[best], np.repeat(np.arange(rows), pieces)[best])
    forced = np.zeros(rows, dtype=bool)
    forced[first[first < rows]] = True
    rest = np.flatnonzero(~forced)
    room = max(count - int(forced.sum()), count // 4)
    if len(rest) <= room:
        return np.arange(rows), weights
    light = weights[rest]
    # The threshold c solves sum(min(w / c, 1)) = room over the rest: with the
    # weights in falling order, the first k at or above c keep their weight.
    ranked = np.sort(light)[::-1]
    tail = np.cumsum(ranked[::-1])[::-1]
    head = np.arange(room)
    below = ranked[:room] < tail[:room] / (room - head)
    heavy = int(np.argmax(below)) if below.any() else room - 1
    threshold = tail[heavy] / (room - heavy)
    keep = light >= threshold
    small = np.flatnonzero(~keep)
    running = np.cumsum(light[small])
    points = threshold * (offset + np.arange(room - heavy + 1))
    drawn = np.searchsorted(running, points, side="right")
    drawn = np.unique(drawn[drawn < len(small)])
    chosen = np.concatenate((np.flatnonzero(forced), rest[keep], rest[small[drawn]]))
    new = np.concatenate((weights[forced], light[keep], np.full(len(drawn), threshold)))
    return chosen, new


def _resample_move(
    places: Places,
    weights: Floats,
    ends: Places,
    legal: Mask,
    mover: int,
    count: int,
    rng: Generator,
    children: Indices | None = None,
) -> tuple[Places, Floats]:
    """``count`` rows after piece ``mover`` moved, drawn from its children: a particle step.

    Row ``r`` (weight ``w``) has a child for every legal end in ``ends[r]``,
    each weighing ``w / (its number of ends)``. Rows are drawn by systematic
    resampling in proportion to ``w`` (a row with no legal end cannot have
    made the move), and each drawn row moves to one of its legal ends chosen
    uniformly. So each child is drawn with probability proportional to its
    weight, and the new rows weigh the same. The work is a few array
    operations on ``count`` rows, however many children there are.
    ``children`` is ``legal.sum(axis=1)`` when the caller has it.
    """
    if children is None:
        children = legal.sum(axis=1)
    running = np.cumsum(np.where(children > 0, weights, 0.0))
    total = float(running[-1]) if len(running) else 0.0
    if total <= 0:
        return places[:0], weights[:0]
    points = (rng.random() + np.arange(count)) * (total / count)
    parent = np.minimum(np.searchsorted(running, points, side="right"), len(running) - 1)
    # The pick-th legal end of each drawn row, in the row-major list of them.
    pick = np.minimum((rng.random(count) * children[parent]).astype(np.intp), children[parent] - 1)
    listed = np.flatnonzero(legal)
    chosen = listed[(np.cumsum(children) - children)[parent] + pick]
    result = places[parent]
    result[:, mover] = ends.reshape(-1)[chosen]
    return result, np.full(count, 1.0 / count)


def _redrawn(
    before: Belief, after: Belief, proposals: list[Floats], rng: Generator
) -> tuple[Places, Weights]:
    """``before``'s rows with every piece the set map of ``after`` rules out redrawn.

    A redrawn piece takes the first of a few candidates from its proposal that
    no other piece of the row stands on; a row with none is dropped.
    """
    layout = _layout(after.board)
    places = before.places.copy()
    keep = np.ones(len(places), dtype=bool)
    for i in range(places.shape[1]):
        wrong = ~after._allowed(i)[places[:, i]]
        if not wrong.any():
            continue
        rows = np.flatnonzero(wrong & keep)
        candidates = _sample(proposals[i], (len(rows), _CANDIDATES), rng)
        clash = np.zeros(candidates.shape, dtype=bool)
        for j in range(places.shape[1]):
            if j != i:
                clash |= candidates == places[rows, j : j + 1]
        fits = ~clash | (candidates >= layout.size)  # jail and out hold any number
        found = fits.any(axis=1)
        pick = candidates[np.arange(len(rows)), fits.argmax(axis=1)]
        places[rows[found], i] = pick[found]
        keep[rows[~found]] = False
    return places[keep], before.weights.astype(np.float64)[keep]


def _sample(proposal: Floats, shape: tuple[int, ...], rng: Generator) -> Places:
    """Place codes drawn from ``proposal`` (a probability per code)."""
    support = np.flatnonzero(proposal).astype(np.int16)
    if len(support) == 1:
        return np.full(shape, support[0], dtype=np.int16)
    cumulative = np.cumsum(proposal[support])
    drawn = np.searchsorted(cumulative, rng.random(shape) * cumulative[-1], side="right")
    result: Places = support[np.minimum(drawn, len(support) - 1)]
    return result


def _drawn(
    after: Belief, proposals: list[Floats], count: int, rng: Generator
) -> tuple[Places, Floats]:
    """``count`` rows drawn piece by piece from the proposals; rows where two
    pieces share a cell are dropped, the rest weigh one each."""
    layout = _layout(after.board)
    pieces = len(proposals)
    places = np.empty((count, pieces), dtype=np.int16)
    for i, proposal in enumerate(proposals):
        places[:, i] = _sample(proposal, (count,), rng)
    ok = np.ones(count, dtype=bool)
    for a in range(pieces):
        for b in range(a + 1, pieces):
            ok &= (places[:, a] != places[:, b]) | (places[:, a] >= layout.size)
    return places[ok], np.ones(int(ok.sum()), dtype=np.float64)


_HANDLERS: dict[str, Callable[[Belief, Event], Belief]] = {
    "setup": Belief._on_setup,
    "rolled": Belief._on_rolled,
    "criminal_moved": Belief._on_moved,
    "passed": Belief._on_passed,
    "gw_moved": Belief._on_gw_moved,
    "caught": Belief._on_caught,
    "out": Belief._on_out,
    "evidence_destroyed": Belief._on_evidence,
    "informed": Belief._on_informed,
    "infiltrated": Belief._on_infiltrated,
}
