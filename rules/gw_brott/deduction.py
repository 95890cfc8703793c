"""GW's deduction map: where each criminal can be, given only what GW knows.

Interface (the engine relies on it):

* ``Deduction.start(board, criminals)`` — every criminal starts in jail.
* ``deduction.update(event)`` — a *new* ``Deduction`` after one event GW may see
  (the engine's public events and those routed to ``"gw"``), fed in order;
  events it does not know are ignored. Never mutates ``self``.
* ``deduction.cells(piece)`` — the cell names the piece can be on now, plus
  ``"jail"`` if it is in jail. A piece that is out of the game has the empty set.
* ``deduction.probabilities(piece)`` — place name -> probability (``probability.py``),
  worked out on demand from the chain of maps.

How it works (the full write-up, with the joint constraints used and not used,
is ``DEDUCTION.md`` next to this file): a set of cells is a Python ``int`` used
as a bitmask (bit ``row * width + col``). A step in one direction is a shift
masked by the column-edge masks, so a whole set of candidate cells moves at
once. Each criminal's set is pushed forward through every move GW hears about
(an exactly-n-step walk, or a slide in any of four directions) and cut down by
every observation (GW's paths, evidence handed in, informer, infiltrator,
passes). Jail status is never uncertain for GW: every piece starts there, a
catch is public and leaving the jail is said aloud (``from_jail``).

Soundness with several criminals: another criminal whose cell is uncertain is
treated as a *possible* blocker: a slide may stop just before any cell it might
be on, and a walk may still end on such a cell (it might be elsewhere). Only
cells that are *certainly* occupied (a Hall-tight group of pieces, e.g. one
piece known exactly) are used as real obstacles.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum, auto
from functools import lru_cache
from itertools import combinations

from .board import Board
from .probability import LIMIT, PARTICLES, Belief, Weight

JAIL = "jail"

# Direction numbers; ``_OPPOSITE[d]`` is the reverse direction.
UP, DOWN, LEFT, RIGHT = range(4)
_OPPOSITE = (DOWN, UP, RIGHT, LEFT)
_PIPS = {"1": 1, "2": 2, "3": 3, "4": 4}
_ARROW = "arrow"


class _Keep(Enum):
    """Leave this field as it is, in :meth:`Deduction._set` (where ``None`` is a value)."""

    KEEP = auto()


_KEEP = _Keep.KEEP


class Geometry:
    """Bitmask views of one board: masks, shifts and cell names.

    Built once per board (see :func:`geometry`) and shared by every deduction.
    """

    def __init__(self, board: Board) -> None:
        width, size = board.width, board.size
        self.width = width
        self.full = (1 << size) - 1
        first_col = sum(1 << (r * width) for r in range(board.height))
        last_col = first_col << (width - 1)
        #: Cells a shift to the right may land on (a right shift out of the last
        #: column would wrap into the first column of the next row).
        self.not_first_col = self.full & ~first_col
        self.not_last_col = self.full & ~last_col
        #: Every cell a piece may stand on (not a house, not a jail cell).
        self.open = mask_of(board.open_cells)
        self.exits = mask_of(board.jail_exits)
        self.names = tuple(board.name_of(c) for c in range(size))
        self.index = {name: c for c, name in enumerate(self.names)}

    def shift(self, cells: int, direction: int) -> int:
        """Every cell one step from ``cells`` in ``direction`` (edges respected)."""
        if direction == UP:
            return cells >> self.width
        if direction == DOWN:
            return (cells << self.width) & self.full
        if direction == LEFT:
            return (cells >> 1) & self.not_last_col
        return (cells << 1) & self.not_first_col

    def expand(self, cells: int) -> int:
        """Every orthogonal neighbour of ``cells`` (not the cells themselves)."""
        width = self.width
        return (
            (cells >> width)
            | ((cells << width) & self.full)
            | ((cells >> 1) & self.not_last_col)
            | ((cells << 1) & self.not_first_col)
        )

    def walk(self, starts: int, steps: int, walkable: int) -> int:
        """Ends of walks of exactly ``steps`` steps from ``starts`` through ``walkable``.

        Revisits are allowed, so the set after k steps is just the walkable
        neighbours of the set after k - 1 steps.
        """
        cells = starts
        for _ in range(steps):
            cells = self.expand(cells) & walkable
        return cells

    def slide(self, starts: int, walkable: int, maybe_blocked: int) -> int:
        """Where slides of at least one cell from ``starts`` can end, in any direction.

        ``walkable`` are the cells a slide certainly may enter; ``maybe_blocked``
        are walkable cells another piece might stand on. A slide ends just before
        the first cell that is not walkable, or possibly just before a
        ``maybe_blocked`` cell. Passing through ``maybe_blocked`` cells as if free
        over-approximates the cells reached, which keeps the answer sound.
        """
        surely_free = walkable & ~maybe_blocked
        ends = 0
        for direction in (UP, DOWN, LEFT, RIGHT):
            reached = 0
            front = self.shift(starts, direction) & walkable
            while front:
                reached |= front
                front = self.shift(front, direction) & walkable
            # A cell is a stop when the next cell on is not surely free.
            ends |= reached & ~self.shift(surely_free, _OPPOSITE[direction])
        return ends

    def stoppable(self, cells: int, surely_free: int) -> int:
        """The cells of ``cells`` with at least one neighbour that may not be free."""
        open_all_round = cells
        for direction in (UP, DOWN, LEFT, RIGHT):
            open_all_round &= self.shift(surely_free, _OPPOSITE[direction])
        return cells & ~open_all_round

    def names_in(self, cells: int) -> list[str]:
        """The names of the cells in a mask."""
        names = self.names
        result = []
        while cells:
            low = cells & -cells
            result.append(names[low.bit_length() - 1])
            cells ^= low
        return result

    def cells_in(self, cells: int) -> list[int]:
        """The cell numbers in a mask."""
        result = []
        while cells:
            low = cells & -cells
            result.append(low.bit_length() - 1)
            cells ^= low
        return result


@lru_cache(maxsize=32)
def geometry(board: Board) -> Geometry:
    """The (cached) bitmask geometry of a board."""
    return Geometry(board)


def mask_of(cells: Iterable[int]) -> int:
    """A bitmask holding the given cell numbers."""
    mask = 0
    for cell in cells:
        mask |= 1 << cell
    return mask


@dataclass(frozen=True)
class Deduction:
    """Per criminal piece, the places GW cannot rule out.

    ``pieces`` are the criminal piece ids in turn order; ``masks[i]`` is the
    bitmask of board cells piece ``i`` may be on (0 while in jail or out);
    ``jailed[i]`` and ``out[i]`` are certain for GW. ``gw`` is GW's cell.
    ``faces`` are the usable faces of the latest roll in the current turn
    (used to read a pass), or ``None`` when no roll was seen this turn.
    ``roller`` is the piece that rolled them. ``joint`` switches the joint
    constraints between pieces on (default) or off (each piece tracked alone:
    the others could be on any open cell). ``special_move_catches`` is the
    rule option of that name: when off, GW's special move passes over
    criminals, so only its end cell is known to be empty.
    """

    board: Board
    pieces: tuple[str, ...]
    masks: tuple[int, ...]
    jailed: tuple[bool, ...]
    out: tuple[bool, ...]
    gw: int
    faces: tuple[str, ...] | None = None
    roller: str | None = None
    joint: bool = True
    special_move_catches: bool = True
    #: The seed of the particle filter behind :meth:`probabilities` (an input:
    #: nothing here reads a clock or a global random source).
    seed: int = 0
    #: ``probabilities`` in exact fractions with no particle budget (small
    #: boards and tests) instead of floats.
    exact_probabilities: bool = False
    #: The board's bitmask geometry, carried along so no update looks it up.
    geo: Geometry = field(default=None, compare=False, repr=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.geo is None:
            object.__setattr__(self, "geo", geometry(self.board))

    # -- construction and queries -------------------------------------------
    @classmethod
    def start(
        cls,
        board: Board,
        criminals: Iterable[str],
        *,
        joint: bool = True,
        special_move_catches: bool = True,
        seed: int = 0,
        exact_probabilities: bool = False,
    ) -> Deduction:
        """The map at the start of a game: every criminal in jail, GW on its start.

        It carries the start of the probability map too (see :meth:`belief`).
        """
        pieces = tuple(criminals)
        start = cls.start_sets(
            board,
            pieces,
            joint=joint,
            special_move_catches=special_move_catches,
            seed=seed,
            exact_probabilities=exact_probabilities,
        )
        belief = start_belief(
            board,
            pieces,
            exact=exact_probabilities,
            seed=seed,
            special_move_catches=special_move_catches,
        )
        object.__setattr__(start, "_belief", belief)
        return start

    @classmethod
    def start_sets(
        cls,
        board: Board,
        criminals: Iterable[str],
        *,
        joint: bool = True,
        special_move_catches: bool = True,
        seed: int = 0,
        exact_probabilities: bool = False,
    ) -> Deduction:
        """The set map alone at the start of a game (no probabilities attached).

        Fed with :meth:`advanced`, this is the sound map the probability map
        keeps its support inside.
        """
        pieces = tuple(criminals)
        count = len(pieces)
        return cls(
            board,
            pieces,
            (0,) * count,
            (True,) * count,
            (False,) * count,
            board.gw_start,
            joint=joint,
            special_move_catches=special_move_catches,
            seed=seed,
            exact_probabilities=exact_probabilities,
        )

    def probabilities(self, piece: str) -> dict[str, Weight]:
        """Place name (a cell, or ``"jail"``) -> probability that ``piece`` is there.

        The values sum to 1 (exact :class:`~fractions.Fraction` with
        ``exact_probabilities``, floats otherwise); the mapping is empty once
        the piece is out. Every place GW cannot rule out is there with a
        positive probability, and none that :meth:`cells` rules out. The model
        and its limits are in ``DEDUCTION.md``.
        """
        return self.belief().probabilities(piece)

    def shares(self, piece: str, places: Sequence[str]) -> list[float]:
        """:meth:`probabilities` of ``places`` as floats, in their order (0 for a
        place the map rules out): what GW's view shows beside :meth:`cells`."""
        return self.belief().shares(piece, places)

    def belief(self) -> Belief:
        """The joint probabilities behind :meth:`probabilities` (``probability.py``).

        Computed on demand: :meth:`update` only links each map to the one before
        it and the event between them, so the engine pays nothing for it until
        someone asks. The answer is cached on the map asked, which then lets go
        of its link (the maps before it are no longer needed for it).
        """
        chain: list[tuple[Deduction, Mapping[str, object]]] = []
        node: Deduction = self
        while True:
            cached: Belief | None = node.__dict__.get("_belief")
            if cached is not None:
                break
            prior: tuple[Deduction, Mapping[str, object]] | None = node.__dict__.get("_prior")
            if prior is None:
                raise ValueError("this map was not built by Deduction.start and update")
            chain.append((node, prior[1]))
            node = prior[0]
        belief = cached
        for link, event in reversed(chain):
            # Each map of the chain is the set map after its event: the belief
            # keeps its support inside it (a joint map's; an alone map is
            # looser, so the belief then keeps its own joint one). It holds a
            # copy without the links, so it keeps neither the chain nor itself.
            belief = belief.update(event, link._unlinked() if link.joint else None)
        object.__setattr__(self, "_belief", belief)
        self.__dict__.pop("_prior", None)
        return belief

    def _unlinked(self) -> Deduction:
        """The same set map without the links :meth:`belief` follows."""
        bare = copy.copy(self)
        bare.__dict__.pop("_prior", None)
        bare.__dict__.pop("_belief", None)
        return bare

    def cells(self, piece: str) -> frozenset[str]:
        """The cell names ``piece`` can be on, plus ``"jail"`` when it is in jail."""
        i = self.pieces.index(piece)
        names = self.geo.names_in(self.masks[i])
        if self.jailed[i]:
            names.append(JAIL)
        return frozenset(names)

    def mask(self, piece: str) -> int:
        """The bitmask of board cells ``piece`` can be on (0 in jail or out)."""
        return self.masks[self.pieces.index(piece)]

    def is_out(self, piece: str) -> bool:
        """Whether ``piece`` has left the game (third handcuff)."""
        return self.out[self.pieces.index(piece)]

    # -- the one entry point ----------------------------------------------------
    def update(self, event: Mapping[str, object]) -> Deduction:
        """The map after one event GW sees; unknown events leave it as it is."""
        if event.get("type") not in _HANDLERS:
            return self
        result = self.advanced(event)
        if result is self:
            # A node of its own for the link; a shallow copy is cheaper than
            # ``replace`` and must not carry this map's cached belief along.
            result = copy.copy(self)
            result.__dict__.pop("_belief", None)
        # The probabilities follow lazily from this link (see ``belief``).
        object.__setattr__(result, "_prior", (self, event))
        return result

    def advanced(self, event: Mapping[str, object]) -> Deduction:
        """The set map after one event, not linked for :meth:`belief` (``self`` if unchanged).

        What :meth:`update` does to the sets; the probability map feeds its own
        copy of the set map through this.
        """
        kind = event.get("type")
        handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            return self
        return handler(self, event)

    # -- event handlers ---------------------------------------------------------
    def _on_setup(self, event: Mapping[str, object]) -> Deduction:
        gw = self._cell(event.get("gw_position"), self.gw)
        result = self
        criminals = event.get("criminals")
        if isinstance(criminals, list) and criminals and tuple(criminals) != self.pieces:
            result = Deduction.start_sets(
                self.board,
                criminals,
                joint=self.joint,
                special_move_catches=self.special_move_catches,
                seed=self.seed,
                exact_probabilities=self.exact_probabilities,
            )
        options = event.get("options")
        catches = result.special_move_catches
        if isinstance(options, Mapping) and isinstance(options.get("special_move_catches"), bool):
            catches = options["special_move_catches"]
        return replace(result, gw=gw, special_move_catches=catches)

    def _on_new_roll_context(self, event: Mapping[str, object]) -> Deduction:
        # A new turn or a dice reset: earlier rolls no longer describe the dice.
        return self if self.faces is None else replace(self, faces=None, roller=None)

    def _on_rolled(self, event: Mapping[str, object]) -> Deduction:
        dice = event.get("dice")
        if not isinstance(dice, list):
            dice = event.get("faces")
        if not isinstance(dice, list):
            return replace(self, faces=None, roller=None)
        usable = tuple(sorted({str(f) for f in dice if str(f) in _PIPS or str(f) == _ARROW}))
        roller = event.get("by")
        return replace(self, faces=usable, roller=roller if isinstance(roller, str) else None)

    def _on_evidence(self, event: Mapping[str, object]) -> Deduction:
        # The piece ended its previous turn on the card's space and has not moved.
        return self._pin(event.get("by"), event.get("cell"))

    def _on_moved(self, event: Mapping[str, object]) -> Deduction:
        i = self._index(event.get("by"))
        if i is None or self.out[i]:
            return self
        geo = self.geo
        die = str(event.get("die"))
        from_jail = bool(event.get("from_jail", self.jailed[i]))
        walkable = geo.open & ~(1 << self.gw)
        if from_jail:
            occupied, maybe = self._others(i)
            exits = geo.exits & walkable
            if die in _PIPS:
                # Step 1 is onto an exit (another piece there is passed through),
                # the remaining steps are an ordinary walk.
                ends = geo.walk(exits, _PIPS[die] - 1, walkable) & ~occupied
            elif die == _ARROW:
                # The piece steps onto a free exit and slides from there; stepping
                # out is already a move, so a slide of 0 cells (the exit itself)
                # counts when some direction is blocked.
                free = walkable & ~occupied
                exits &= free
                ends = geo.slide(exits, free, maybe) | geo.stoppable(exits, free & ~maybe)
            else:
                ends = walkable & ~occupied
            return self._set(i, ends, jailed=False, faces=None)
        ends = 0
        for starts, occupied, maybe in self._contexts(i):
            if die in _PIPS:
                ends |= geo.walk(starts, _PIPS[die], walkable) & ~occupied
            elif die == _ARROW:
                free = walkable & ~occupied
                ends |= geo.slide(starts, free, maybe)
            else:
                ends |= walkable & ~occupied
        return self._set(i, ends, jailed=False, faces=None)

    def _on_passed(self, event: Mapping[str, object]) -> Deduction:
        i = self._index(event.get("by"))
        if i is None or self.out[i] or not self.faces or self.roller != self.pieces[i]:
            return replace(self, faces=None) if self.faces is not None else self
        geo = self.geo
        walkable = geo.open & ~(1 << self.gw)
        if self.jailed[i]:
            # Walks from the exits pass through other criminals; the arrow needs
            # a free exit (then staying on it is a move).
            exits = geo.exits & walkable
            ends = exits if _ARROW in self.faces else 0
            for face in self.faces:
                if face in _PIPS:
                    ends |= geo.walk(exits, _PIPS[face] - 1, walkable)
            return replace(self._covered(ends), faces=None)
        result = self._set(i, self._without_moves(i, self.faces), faces=None)
        # Whichever cell the passer is on, all its ends were taken: so were the
        # ends common to every cell it can be on (exactly its ends when known).
        common = -1
        for cell in geo.cells_in(result.masks[i]):
            start = 1 << cell
            ends = geo.expand(start) & walkable if _ARROW in self.faces else 0
            for face in self.faces:
                if face in _PIPS:
                    ends |= geo.walk(start, _PIPS[face], walkable)
            common &= ends & ~start
            if not common:
                return result
        return result._covered(common) if common > 0 else result

    def _covered(self, ends: int) -> Deduction:
        """A piece passed that could only have moved to ``ends``: all were taken.

        Each of those cells held a different other criminal (GW's cell is never
        among them). A cell only one piece can be on pins that piece; when
        exactly as many pieces can be on those cells as there are cells, each of
        them is on one of them.
        """
        if not self.joint or not ends:
            return self
        geo = self.geo
        masks = list(self.masks)
        rivals = [j for j in self._on_board() if masks[j] & ends]
        if len(rivals) == ends.bit_count():
            for j in rivals:
                masks[j] &= ends
        changed = True
        while changed:
            changed = False
            for cell in geo.cells_in(ends):
                holders = [j for j in rivals if masks[j] >> cell & 1]
                if len(holders) == 1 and masks[holders[0]] != 1 << cell:
                    masks[holders[0]] = 1 << cell
                    changed = True
        return replace(self, masks=tuple(masks))._settled()

    def _on_gw_moved(self, event: Mapping[str, object]) -> Deduction:
        origin = self._cell(event.get("from"), self.gw)
        gw = self._cell(event.get("to"), origin)
        geo = self.geo
        path = event.get("path")
        names = path if isinstance(path, list) else []
        clear = mask_of(geo.index[n] for n in names if isinstance(n, str) and n in geo.index)
        if event.get("blocked"):
            return self._blocked_trump(event, origin, clear)
        if event.get("kind") == "special" and not self.special_move_catches:
            # GW passed over criminals; only the end is known to be empty.
            clear = 1 << gw
        caught = event.get("caught")
        if caught is None:
            # Nobody was caught: every cell passed, the end included, held no criminal.
            clear |= 1 << gw
        # A catch ends the path: the caught piece stood on its last cell (it goes to
        # jail with its own ``caught`` event) and no other piece was there.
        masks = tuple(
            1 << gw if self.pieces[j] == caught else m & ~clear for j, m in enumerate(self.masks)
        )
        return replace(self, gw=gw, masks=masks)._settled()

    def _blocked_trump(self, event: Mapping[str, object], origin: int, clear: int) -> Deduction:
        """A trump an immune criminal stopped; GW is back on ``origin``.

        Breakthrough: the spaces before ``blocked_at`` held nobody and some
        criminal stood on ``blocked_at``. Helicopter: some criminal stood on the
        ``target`` or next to it. GW does not know who is immune, so "some
        criminal" pins a piece only when it is the one piece that can be there.
        """
        if event.get("kind") == "helicopter":
            target = self._cell(event.get("target"), -1)
            near = mask_of(self.board.surrounding(target)) if target >= 0 else 0
        else:
            block = self._cell(event.get("blocked_at"), -1)
            near = 1 << block if block >= 0 else 0
        masks = [m & ~clear for m in self.masks]
        if near:
            suspects = [j for j in self._on_board() if masks[j] & near]
            if not self.joint and len(self._on_board()) > 1:
                suspects = []  # alone, any other piece on the board could be there
            if len(suspects) == 1:
                masks[suspects[0]] &= near
        return replace(self, gw=origin, masks=tuple(masks))._settled()

    def _on_caught(self, event: Mapping[str, object]) -> Deduction:
        i = self._index(event.get("piece"))
        if i is None:
            return self
        gw = self._cell(event.get("cell"), self.gw)
        return replace(self, gw=gw)._set(i, 0, jailed=True)

    def _on_informed(self, event: Mapping[str, object]) -> Deduction:
        if event.get("immune") or event.get("cell") in (None, JAIL):
            return self
        return self._pin(event.get("target"), event.get("cell"))

    def _on_infiltrated(self, event: Mapping[str, object]) -> Deduction:
        # Seen pieces are known exactly. Hidden pieces took their magnet off the
        # board, so the empty cells GW saw say nothing about them.
        result = self
        seen = event.get("seen") or {}
        if isinstance(seen, Mapping):
            for piece, cell in seen.items():
                if cell != JAIL:
                    result = result._pin(piece, cell)
        return result

    def _on_out(self, event: Mapping[str, object]) -> Deduction:
        i = self._index(event.get("piece"))
        if i is None:
            return self
        out = self.out[:i] + (True,) + self.out[i + 1 :]
        return replace(self, out=out)._set(i, 0, jailed=False)

    # -- helpers ---------------------------------------------------------------
    def _index(self, piece: object) -> int | None:
        if isinstance(piece, str) and piece in self.pieces:
            return self.pieces.index(piece)
        return None

    def _cell(self, name: object, default: int) -> int:
        if not isinstance(name, str):
            return default
        return self.geo.index.get(name, default)

    def _pin(self, piece: object, cell: object) -> Deduction:
        i = self._index(piece)
        if i is None or not isinstance(cell, str) or cell not in self.geo.index:
            return self
        return self._set(i, 1 << self.geo.index[cell], jailed=False)

    def _set(
        self,
        i: int,
        mask: int,
        *,
        jailed: bool | None = None,
        faces: tuple[str, ...] | None | _Keep = _KEEP,
    ) -> Deduction:
        """Replace piece ``i``'s mask (and maybe jail status and faces), then settle."""
        masks = self.masks[:i] + (mask,) + self.masks[i + 1 :]
        jail = self.jailed
        if jailed is not None and jailed != self.jailed[i]:
            jail = self.jailed[:i] + (jailed,) + self.jailed[i + 1 :]
        kept = self.faces if isinstance(faces, _Keep) else faces
        return replace(self, masks=masks, jailed=jail, faces=kept)._settled()

    def _on_board(self) -> list[int]:
        """Indices of the pieces that stand somewhere on the board."""
        return [j for j in range(len(self.pieces)) if not self.jailed[j] and not self.out[j]]

    def _others(self, i: int) -> tuple[int, int]:
        """Cells certainly and possibly occupied by pieces other than ``i``.

        Certainly occupied: the union of every Hall-tight group (k pieces whose
        sets together hold exactly k cells fill those cells). Possibly occupied:
        every other cell some other piece may be on. Tracked alone (``joint``
        off), nothing is certain and any open cell may hold another piece.
        """
        if not self.joint:
            return 0, self.geo.open
        return _occupancy([self.masks[j] for j in self._on_board() if j != i])

    def _contexts(self, i: int) -> list[tuple[int, int, int]]:
        """Piece ``i``'s cells grouped by what is known of the others from there.

        Returns ``(starts, certainly_occupied, possibly_occupied)`` triples whose
        ``starts`` cover piece ``i``'s set. Standing on cell ``s``, piece ``i``
        tells that no other piece is on ``s``; that matters only when dropping
        ``s`` makes a group of other pieces Hall-tight (a near-tight group: k
        pieces on k + 1 cells, ``s`` among them). Those few cells get their own
        triple; all other cells share the unconditioned one.
        """
        cells = self.masks[i]
        if not self.joint:
            return [(cells, 0, self.geo.open)]
        others = [self.masks[j] for j in self._on_board() if j != i]
        certain, maybe = _occupancy(others)
        sensitive = 0
        for size in range(1, len(others) + 1):
            for group in combinations(others, size):
                union = 0
                for m in group:
                    union |= m
                if union.bit_count() == size + 1:
                    sensitive |= union
        special = cells & sensitive & ~certain
        contexts = [(cells & ~special, certain, maybe)] if cells & ~special else []
        while special:
            low = special & -special
            special ^= low
            contexts.append((low, *_occupancy([m & ~low for m in others])))
        return contexts

    def _without_moves(self, i: int, faces: tuple[str, ...]) -> int:
        """Piece ``i``'s cells from which no usable face had a legal move for sure.

        A pass is only legal without any legal move, so a cell is ruled out when,
        wherever the other pieces stand (each on a cell of its own set, no two on
        one cell, none on the piece's own cell), some face still had a legal
        move: the other pieces cannot cover every end of every face at once.
        Ends: for pips the cells an exact walk reaches (they must be empty), for
        the arrow the first cell in each direction (a slide needs it empty).
        """
        geo = self.geo
        walkable = geo.open & ~(1 << self.gw)
        if self.joint:
            rivals = [self.masks[j] for j in self._on_board() if j != i]
        else:
            rivals = [geo.open] * (len(self.pieces) - 1)
        possible = 0
        for m in rivals:
            possible |= m
        pips = [_PIPS[f] for f in faces if f in _PIPS]
        arrow = _ARROW in faces
        # Walks are reversible, so the cells with a walk of n steps to a cell no
        # other piece can be on are the n-step walk ends from those cells.
        free = walkable & ~possible
        movable = 0
        for steps in pips:
            movable |= geo.walk(free, steps, walkable)
        if arrow:
            movable |= geo.expand(free)
        keep = 0
        for cell in geo.cells_in(self.masks[i] & ~movable):
            start = 1 << cell
            ends = geo.expand(start) & walkable if arrow else 0
            for steps in pips:
                ends |= geo.walk(start, steps, walkable)
            # The piece stands on ``start``, so no other piece does.
            blockers = [m & ends & ~start for m in rivals]
            if _can_cover(ends, [m for m in blockers if m]):
                keep |= start
        return keep

    def _settled(self) -> Deduction:
        """Apply the joint constraints until nothing changes.

        No two pieces share a cell, so when k pieces on the board have sets that
        together hold exactly k cells, those cells are theirs and no other piece
        is on them (a piece known exactly is the case k = 1). GW's cell needs no
        rule here: moves never end on it and GW's own moves clear it.
        """
        masks = list(self.masks)
        if self.joint:
            on_board = self._on_board()
            changed = True
            while changed and len(on_board) > 1:
                changed = False
                for size in range(1, len(on_board)):
                    for group in combinations(on_board, size):
                        union = 0
                        for j in group:
                            union |= masks[j]
                        if union.bit_count() != size:
                            continue
                        for j in on_board:
                            if j not in group and masks[j] & union:
                                masks[j] &= ~union
                                changed = True
        result = tuple(masks)
        return self if result == self.masks else replace(self, masks=result)


def _can_cover(cells: int, masks: list[int]) -> bool:
    """Whether every cell can hold a different piece, each on a cell of its mask."""
    if not cells:
        return True
    if cells.bit_count() > len(masks):
        return False
    low = cells & -cells
    for k, m in enumerate(masks):
        if m & low and _can_cover(cells ^ low, masks[:k] + masks[k + 1 :]):
            return True
    return False


def _occupancy(masks: list[int]) -> tuple[int, int]:
    """Cells certainly occupied and cells possibly (not certainly) occupied by these pieces."""
    possible = 0
    for m in masks:
        possible |= m
    certain = _tight_union(masks)
    return certain, possible & ~certain


def _tight_union(masks: list[int]) -> int:
    """Cells certainly occupied by the pieces with these masks (Hall-tight groups)."""
    certain = 0
    for size in range(1, len(masks) + 1):
        for group in combinations(masks, size):
            union = 0
            for m in group:
                union |= m
            if union.bit_count() == size:
                certain |= union
    return certain


_HANDLERS = {
    "setup": Deduction._on_setup,
    "turn": Deduction._on_new_roll_context,
    "reset": Deduction._on_new_roll_context,
    "dice_reset": Deduction._on_new_roll_context,
    "rolled": Deduction._on_rolled,
    "evidence_destroyed": Deduction._on_evidence,
    "criminal_moved": Deduction._on_moved,
    "passed": Deduction._on_passed,
    "gw_moved": Deduction._on_gw_moved,
    "caught": Deduction._on_caught,
    "informed": Deduction._on_informed,
    "infiltrated": Deduction._on_infiltrated,
    "out": Deduction._on_out,
}


def start_belief(
    board: Board,
    criminals: Iterable[str],
    *,
    exact: bool = False,
    seed: int = 0,
    limit: int = LIMIT,
    particles: int = PARTICLES,
    special_move_catches: bool = True,
) -> Belief:
    """A probability map at the start: everyone in jail, GW on its start.

    :meth:`Deduction.start` attaches one to its set map; tests and benches use
    one on its own.
    """
    pieces = tuple(criminals)
    # The probability map keeps its own set map (always the joint one, the
    # tightest sound map) to keep its support inside.
    sound = Deduction.start_sets(
        board, pieces, special_move_catches=special_move_catches, seed=seed
    )
    return Belief.start(
        board,
        pieces,
        exact=exact,
        seed=seed,
        limit=limit,
        particles=particles,
        special_move_catches=special_move_catches,
        sound=sound,
    )
