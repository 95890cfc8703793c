"""GW's deduction map as probabilities: a weighted set of joint positions.

``Belief`` holds, for the criminals together, every *joint position* (one place
per piece: a cell, in jail or out) that some history consistent with GW's
events leads to, with the probability of those histories. The model (the full
write-up is ``DEDUCTION.md`` next to this file):

* What GW sees is fixed: the dice, which die a criminal moved with, resets,
  rerolls, passes, evidence, trumps and GW's own paths. Those visible
  decisions are taken to carry no information beyond being legal.
* The one hidden choice is where the moving piece ends: it picks uniformly
  among the distinct legal end cells of the die it moved with, given where
  every other piece and GW stand (from jail: over every free exit and
  direction for the arrow, every exit for pips). A history's weight is the
  product of ``1 / number of end cells`` over its moves.
* Every observation keeps exactly the joint positions it is possible in.

Moves are computed with the engine's own geometry (``geometry.py``): walks pass
through other criminals and must end on a free cell, slides stop before GW and
before any other criminal. So two pieces never share a cell and a slide stops
at a piece, exactly as the referee rules it.

Two modes:

* ``exact=True``: weights are :class:`fractions.Fraction` and every joint
  position is kept. The result is the exact posterior (tests, small boards).
* ``exact=False`` (default): weights are floats; every joint position is kept
  while there are at most ``limit`` of them, then the set is cut to at most
  ``particles`` by Fearnhead-Clifford resampling (keep heavy positions, draw
  the light ones systematically). Random numbers come only from
  ``random.Random`` seeded with ``seed`` and the update count, so the same
  events and seed always give the same map. Every kept position is a concrete
  consistent history, so no weight ever lands on an impossible cell. When an
  observation removes every kept position, the events so far are replayed
  with four times the budget (and again, up to three times) from a new seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from operator import itemgetter
from typing import Any

from lawmaster.rules.core import IllegalAction

from .board import Board
from .geometry import DIRECTION_NAMES, Geometry, geometry_of
from .smoothing import future_masks

JAIL = -1
OUT = -2
JAIL_NAME = "jail"
_PIPS = {"1": 1, "2": 2, "3": 3, "4": 4}
_ARROW = "arrow"
_RETRIES = 3
_GROWTH = 4
#: A replay follows an observation that leaves fewer than 1/_THIN of the budget.
_THIN = 8
#: Updates between two checkpoints.
_CHECKPOINT = 32

Joint = tuple[int, ...]
Weight = float | Fraction


class Inconsistent(ValueError):
    """No joint position is consistent with the events (exact mode only)."""


@dataclass(frozen=True)
class Belief:
    """A probability for every joint position of the criminals, given GW's events.

    ``weights`` maps a joint position (one entry per piece: a cell number,
    ``JAIL`` or ``OUT``) to its probability; they sum to 1. Build one with
    :meth:`start`, feed it every event GW may see with :meth:`update` (a new
    ``Belief``; this one never changes), read it with :meth:`probabilities`.
    """

    board: Board
    pieces: tuple[str, ...]
    weights: Mapping[Joint, Weight]
    gw: int
    faces: tuple[str, ...] = ()
    special_move_catches: bool = True
    exact: bool = True
    limit: int = 400
    particles: int = 400
    seed: int = 0
    #: How many updates this belief has seen (drives the seeded resampling).
    step: int = 0
    #: False once resampling cut the set: the support is then a subset of the
    #: possible positions, never more.
    complete: bool = True
    #: How many replays a collapse forced so far (reported by the bench).
    recoveries: int = 0
    #: During a replay only: per piece, the cells the rest of the log allows
    #: just after this event (applied to the mover's ends: the others' cells
    #: were checked at their own last move).
    guide: tuple[int, ...] | None = field(default=None, repr=False, compare=False)
    #: An earlier belief of this game (every ``_CHECKPOINT`` updates) that a
    #: replay tries to start from before it starts from the beginning.
    checkpoint: Belief | None = field(default=None, repr=False, compare=False)
    #: Every event so far, newest first, as a linked list (for replays).
    log: tuple[Any, ...] | None = field(default=None, repr=False, compare=False)
    geo: Geometry = field(default=None, repr=False, compare=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.geo is None:
            object.__setattr__(self, "geo", geometry_of(self.board))

    # -- construction and queries --------------------------------------------
    @classmethod
    def start(
        cls,
        board: Board,
        criminals: Iterable[str],
        *,
        exact: bool = False,
        seed: int = 0,
        limit: int = 400,
        particles: int = 400,
        special_move_catches: bool = True,
    ) -> Belief:
        """Everyone in jail, GW on its start: one joint position, probability 1."""
        pieces = tuple(criminals)
        one: Weight = Fraction(1) if exact else 1.0
        return cls(
            board,
            pieces,
            {(JAIL,) * len(pieces): one},
            board.gw_start,
            special_move_catches=special_move_catches,
            exact=exact,
            limit=limit,
            particles=particles,
            seed=seed,
        )

    def probabilities(self, piece: str) -> dict[str, Weight]:
        """Cell name (or ``"jail"``) -> probability for ``piece``; empty once it is out.

        Fractions in exact mode, floats otherwise; the values sum to 1. A new
        dict on every call (the caller may keep or change it).
        """
        return dict(self._marginals()[self.pieces.index(piece)])

    def _marginals(self) -> list[dict[str, Weight]]:
        """Every piece's probabilities, from one pass over the joint positions (cached)."""
        cached = getattr(self, "_cache", None)
        if cached is not None:
            return cached
        totals: list[dict[int, Weight]] = [{} for _ in self.pieces]
        for joint, weight in self.weights.items():
            for place, total in zip(joint, totals, strict=True):
                total[place] = total.get(place, 0) + weight
        names = _names(self.board)
        result = [
            {
                JAIL_NAME if place == JAIL else names[place]: weight
                for place, weight in sorted(total.items())
                if place != OUT
            }
            for total in totals
        ]
        object.__setattr__(self, "_cache", result)
        return result

    def cells(self, piece: str) -> frozenset[str]:
        """The places with positive probability (exact while ``complete``)."""
        return frozenset(self.probabilities(piece))

    # -- the one entry point ----------------------------------------------------
    def update(self, event: Mapping[str, Any]) -> Belief:
        """The belief after one event GW sees; unknown events change nothing."""
        handler = _HANDLERS.get(event.get("type"))  # type: ignore[arg-type]
        if handler is None:
            return self
        base = replace(self, step=self.step + 1, log=(event, self.log))
        result = handler(base, event)
        if not result.weights and (self.exact or not self.weights):
            raise Inconsistent(f"no position of the criminals is consistent with {event!r}")
        if not result.weights or (
            not result.complete
            and len(result.weights) * _THIN < self.particles <= len(self.weights) * 2
        ):
            # Every kept position died, or an observation thinned them so far that
            # the survivors would speak for the whole map: rebuild from the log.
            return self._recovered(result)
        if result.step % _CHECKPOINT == 0:
            result = replace(result, checkpoint=result)
        return result

    # -- event handlers -----------------------------------------------------------
    def _on_setup(self, event: Mapping[str, Any]) -> Belief:
        result = self
        criminals = event.get("criminals")
        if isinstance(criminals, list) and criminals and tuple(criminals) != self.pieces:
            one: Weight = Fraction(1) if self.exact else 1.0
            result = replace(self, pieces=tuple(criminals), weights={(JAIL,) * len(criminals): one})
        options = event.get("options")
        catches = result.special_move_catches
        if isinstance(options, Mapping) and isinstance(options.get("special_move_catches"), bool):
            catches = options["special_move_catches"]
        return replace(
            result, gw=self._cell(event.get("gw_position"), self.gw), special_move_catches=catches
        )

    def _on_rolled(self, event: Mapping[str, Any]) -> Belief:
        dice = event.get("dice")
        if not isinstance(dice, list):
            return replace(self, faces=())
        faces = tuple(sorted({str(f) for f in dice if str(f) in _PIPS or str(f) == _ARROW}))
        return replace(self, faces=faces)

    def _on_moved(self, event: Mapping[str, Any]) -> Belief:
        i = self._index(event.get("by"))
        die = str(event.get("die"))
        if i is None or (die not in _PIPS and die != _ARROW):
            return self
        from_jail = bool(event.get("from_jail"))
        moves = _Moves(self)
        # In a replay, ends from which the rest of the log is out of reach are
        # skipped (after the choice's probability is taken from all ends).
        allowed = -1 if self.guide is None else self.guide[i]
        result: dict[Joint, Weight] = {}
        for joint, weight in self.weights.items():
            if (joint[i] == JAIL) != from_jail or joint[i] == OUT:
                continue
            ends = moves.ends(joint, i, die)
            if not ends:
                continue
            share = weight / ends.bit_count()
            ends &= allowed
            head, tail = joint[:i], joint[i + 1 :]
            while ends:
                low = ends & -ends
                ends ^= low
                key = (*head, low.bit_length() - 1, *tail)
                result[key] = result.get(key, 0) + share
        return self._with(result)

    def _on_passed(self, event: Mapping[str, Any]) -> Belief:
        # Only "no legal move" is a choice the rules restrict; the other passes
        # (no die left, caught during the special move) say nothing of places.
        i = self._index(event.get("by"))
        if i is None or event.get("reason") != "no legal move" or not self.faces:
            return self
        moves = _Moves(self)
        faces = self.faces
        return self._keep(
            lambda joint: joint[i] != OUT and not any(moves.ends(joint, i, face) for face in faces)
        )

    def _on_gw_moved(self, event: Mapping[str, Any]) -> Belief:
        origin = self._cell(event.get("from"), self.gw)
        to = self._cell(event.get("to"), origin)
        index = self.geo.board.cell
        path = [index(n) for n in event.get("path") or [] if isinstance(n, str)]
        if event.get("blocked"):
            return self._blocked(event, origin, path)
        caught = self._index(event.get("caught"))
        if event.get("kind") == "special" and not self.special_move_catches:
            # GW passed over criminals; its end cell was empty.
            clear = {to}
        elif caught is None:
            clear = set(path) | {to}
        else:
            clear = set(path[:-1])
        moved = replace(self, gw=to)
        if caught is None:
            return moved._keep(lambda joint: not clear.intersection(joint))
        return moved._keep(lambda joint: joint[caught] == to and not clear.intersection(joint))

    def _blocked(self, event: Mapping[str, Any], origin: int, path: list[int]) -> Belief:
        # An immune criminal stopped a trump. GW does not know who is immune, so
        # all it learns is that *some* criminal stood there.
        clear = set(path)
        if event.get("kind") == "helicopter":
            target = self._cell(event.get("target"), -1)
            near = set(self.geo.board.surrounding(target)) if target >= 0 else set()
        else:
            block = self._cell(event.get("blocked_at"), -1)
            near = {block} if block >= 0 else set()
        moved = replace(self, gw=origin)
        return moved._keep(
            lambda joint: not clear.intersection(joint) and bool(near.intersection(joint))
        )

    def _on_caught(self, event: Mapping[str, Any]) -> Belief:
        i = self._index(event.get("piece"))
        if i is None:
            return self
        cell = self._cell(event.get("cell"), -1)
        gw = cell if cell >= 0 else self.gw
        return replace(self, gw=gw)._relocate(i, cell, JAIL)

    def _on_out(self, event: Mapping[str, Any]) -> Belief:
        i = self._index(event.get("piece"))
        return self if i is None else self._relocate(i, None, OUT)

    def _on_evidence(self, event: Mapping[str, Any]) -> Belief:
        return self._pinned(event.get("by"), event.get("cell"))

    def _on_informed(self, event: Mapping[str, Any]) -> Belief:
        if event.get("immune") or event.get("cell") is None:
            return self
        return self._pinned(event.get("target"), event.get("cell"))

    def _on_infiltrated(self, event: Mapping[str, Any]) -> Belief:
        result = self
        seen = event.get("seen") or {}
        if isinstance(seen, Mapping):
            for piece, cell in seen.items():
                result = result._pinned(piece, cell)
        return result

    # -- helpers ---------------------------------------------------------------
    def _index(self, piece: object) -> int | None:
        try:
            return self.pieces.index(piece)  # type: ignore[arg-type]
        except ValueError:
            return None

    def _cell(self, name: object, default: int) -> int:
        if not isinstance(name, str):
            return default
        try:
            return self.geo.board.cell(name)
        except IllegalAction:
            return default

    def _pinned(self, piece: object, cell: object) -> Belief:
        i = self._index(piece)
        if i is None or not isinstance(cell, str):
            return self
        place = JAIL if cell == JAIL_NAME else self._cell(cell, None)  # type: ignore[arg-type]
        if place is None:
            return self
        return self._keep(lambda joint: joint[i] == place)

    def _relocate(self, i: int, where: int | None, to: int) -> Belief:
        """Piece ``i`` goes to ``to`` (jail or out), from cell ``where`` when given."""
        result: dict[Joint, Weight] = {}
        for joint, weight in self.weights.items():
            if where is not None and where >= 0 and joint[i] != where:
                continue
            key = (*joint[:i], to, *joint[i + 1 :])
            result[key] = result.get(key, 0) + weight
        return self._with(result)

    def _keep(self, consistent: Callable[[Joint], bool]) -> Belief:
        kept = {j: w for j, w in self.weights.items() if consistent(j)}
        if len(kept) == len(self.weights):
            return self
        return self._with(kept)

    def _with(self, weights: dict[Joint, Weight]) -> Belief:
        """These weights, normalised, and cut to the particle budget when too many."""
        total = sum(weights.values())
        if not total:
            return replace(self, weights={})
        if total != 1:
            weights = {j: w / total for j, w in weights.items()}
        if self.exact or len(weights) <= self.limit:
            return replace(self, weights=weights)
        rng = random.Random(self.seed * 1_000_003 + self.step)
        # Only a float belief is ever cut (an exact one counts every history).
        floats = {j: float(w) for j, w in weights.items()}
        return replace(self, weights=_resample(floats, self.particles, rng), complete=False)

    def _recovered(self, collapsed: Belief) -> Belief:
        """Every kept position died, or nearly: replay, steered by the whole log.

        The replay knows every later event, so each step drops the positions
        from which a later observation is out of reach (``smoothing.py``) and
        spends its budget on histories that survive. It first starts from the
        latest checkpoint; when that fails or thins out again, from the
        beginning, with the budget growing fourfold on each retry.
        """
        events: list[Mapping[str, Any]] = []
        mark = self.checkpoint.log if self.checkpoint is not None else None
        suffix: list[Mapping[str, Any]] | None = None
        link = collapsed.log
        while link is not None:
            if suffix is None and mark is not None and link is mark:
                suffix = events[::-1]
            events.append(link[0])
            link = link[1]
        events.reverse()
        if suffix is not None and self.checkpoint is not None:
            # A replay from the checkpoint that thins out again is not trusted:
            # the checkpoint itself may have lost what is needed (measured: it
            # then misses the true cell about twice as often).
            recent = self._replayed(self.checkpoint, suffix)
            if recent is not None:
                return recent
        guides = future_masks(self.board, self.pieces, events)
        budget = self.particles
        for attempt in range(1, _RETRIES + 1):
            trial = Belief.start(
                self.board,
                self.pieces,
                exact=False,
                seed=self.seed * 7919 + attempt,
                limit=max(self.limit, budget),
                particles=budget,
                special_move_catches=self.special_move_catches,
            )
            try:
                for event, guide in zip(events, guides, strict=True):
                    trial = replace(trial, guide=guide).update_no_recovery(event)
            except Inconsistent:
                budget *= _GROWTH
                continue
            # Back to the normal budget and the live seed from here on.
            return replace(
                trial,
                limit=self.limit,
                particles=self.particles,
                seed=self.seed,
                step=self.step + 1,
                guide=None,
                recoveries=self.recoveries + attempt,
                complete=False,
            )
        raise Inconsistent("no consistent position found, even after replays")

    def _replayed(self, start: Belief, events: list[Mapping[str, Any]]) -> Belief | None:
        """``events`` replayed from the checkpoint ``start``; None if that dies or thins out."""
        guides = future_masks(self.board, self.pieces, events, gw=start.gw)
        trial = replace(start, seed=self.seed * 7919, checkpoint=start)
        try:
            for event, guide in zip(events, guides, strict=True):
                trial = replace(trial, guide=guide).update_no_recovery(event)
        except Inconsistent:
            return None
        if len(trial.weights) * _THIN < self.particles:
            return None
        return replace(
            trial,
            seed=self.seed,
            step=self.step + 1,
            guide=None,
            recoveries=self.recoveries + 1,
            complete=False,
        )

    def update_no_recovery(self, event: Mapping[str, Any]) -> Belief:
        """Like :meth:`update`, but a collapse raises :class:`Inconsistent`."""
        handler = _HANDLERS.get(event.get("type"))  # type: ignore[arg-type]
        if handler is None:
            return self
        result = handler(replace(self, step=self.step + 1, log=(event, self.log)), event)
        if not result.weights:
            raise Inconsistent(f"no position of the criminals is consistent with {event!r}")
        return result


class _Moves:
    """Legal end cells of one criminal move, by the engine's geometry, with caches."""

    def __init__(self, belief: Belief) -> None:
        geo = belief.geo
        self.geo = geo
        self.gw = belief.gw
        self.gw_bit = 1 << belief.gw
        self.passable = geo.open_mask & ~self.gw_bit
        self.exits = [e for e in belief.board.jail_exits if e != belief.gw]
        self.exits_mask = sum(1 << e for e in self.exits)
        self._walks: dict[tuple[int, int], int] = {}

    def _walk(self, place: int, steps: int) -> int:
        key = (place, steps)
        ends = self._walks.get(key)
        if ends is None:
            if place == JAIL:
                ends = self.geo.walk_ends(self.exits_mask, steps - 1, self.passable)
            else:
                ends = self.geo.walk_ends(1 << place, steps, self.passable)
            self._walks[key] = ends
        return ends

    def ends(self, joint: Joint, i: int, face: str) -> int:
        """The bitmask of cells piece ``i`` may end on moving with ``face``."""
        others = 0
        for j, place in enumerate(joint):
            if j != i and place >= 0:
                others |= 1 << place
        place = joint[i]
        if place == OUT:
            return 0
        steps = _PIPS.get(face)
        if steps is not None:
            return self._walk(place, steps) & ~others
        obstacles = others | self.gw_bit
        slide = self.geo.slide
        ends = 0
        if place == JAIL:
            # Stepping onto a free exit is already a move: staying there counts.
            for exit_cell in self.exits:
                if not obstacles >> exit_cell & 1:
                    for direction in DIRECTION_NAMES:
                        ends |= 1 << slide(exit_cell, direction, obstacles)
            return ends
        for direction in DIRECTION_NAMES:
            end = slide(place, direction, obstacles)
            if end != place:
                ends |= 1 << end
        return ends


@lru_cache(maxsize=32)
def _names(board: Board) -> tuple[str, ...]:
    return tuple(board.name_of(c) for c in range(board.size))


def _resample(weights: dict[Joint, float], count: int, rng: random.Random) -> dict[Joint, float]:
    """About ``count`` positions with the same expected weights, every place kept.

    First, for every piece and every place it has now, the heaviest joint
    position with the piece there is kept with its weight: a cut never takes a
    place off a piece's map (at most pieces x cells positions, so the budget
    can be exceeded on a crowded map). The rest is cut by Fearnhead-Clifford
    resampling: positions heavier than a threshold ``c`` keep their weight,
    the lighter ones are drawn by systematic resampling with probability
    ``w / c`` and then weigh ``c``. Keeping some positions as they are and
    resampling the others without bias is itself without bias. Nothing is
    duplicated, and no new position appears.
    """
    # Stable on the dict's (deterministic) order, so ties stay reproducible.
    ranked = sorted(weights.items(), key=itemgetter(1), reverse=True)
    forced: set[Joint] = set()
    seen: set[tuple[int, int]] = set()
    for joint, _ in ranked:
        for pair in enumerate(joint):
            if pair not in seen:
                seen.add(pair)
                forced.add(joint)
    result = {joint: weights[joint] for joint in forced}
    rest = [item for item in ranked if item[0] not in forced]
    room = max(count - len(result), count // 4)
    tail = sum(w for _, w in rest)
    keep = 0
    threshold = tail / room if room else 0.0
    while keep < len(rest) and keep < room:
        threshold = tail / (room - keep)
        if rest[keep][1] < threshold:
            break
        tail -= rest[keep][1]
        keep += 1
    result.update(rest[:keep])
    if keep < len(rest) and keep < room:
        point = rng.random() * threshold
        running = 0.0
        for joint, weight in rest[keep:]:
            running += weight
            if running > point:
                result[joint] = threshold
                point += threshold
    total = sum(result.values())
    return {j: w / total for j, w in result.items()}


_HANDLERS: dict[str, Callable[[Belief, Mapping[str, Any]], Belief]] = {
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
