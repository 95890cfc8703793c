"""The Judges' threat, shown on a scrawler's tablet (beyond the rulebook).

For each hex the scrawler could end its move on: the exact chance, as a
:class:`~fractions.Fraction`, that the opponent's roll lets him arrest the
scrawler there, if he moves the Judges as well as he can.

The model: the scrawler walks the shortest way to the hex, as the engine takes
a move named by its end. Every outcome of the ``n`` fair dice (``6**n`` of
them) is counted; an outcome is a hit when some order of its dice and some
legal move for each die ends with the scrawler arrested. Moves are found with
:func:`movement.judge_moves` and played with :func:`resolve.judge_die`, the
code the referee itself runs, so a Judge can step aside for another, clean a
scrawl on his first die and walk on with his second, and Dredd takes his extra
hex only to arrest.

The search is exhaustive but skips what provably cannot matter:

- standing still: a die may as well be spent after the arrest;
- a Judge too far away: a Judge needs at least his board distance in hexes;
- a Judge who cannot make the arrest himself (this die is his last and did
  not, or all his dice cannot carry him there), unless taking him and his dice
  off the board would open a way: a Judge elsewhere only blocks, and a
  cleaning only takes away a scrawl a Judge could have entered;
- a cleaning die that is a Judge's last (it only takes a scrawl away).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import combinations_with_replacement
from math import factorial, prod
from typing import TypeAlias, TypedDict

from lawmaster.rules.core import steps_from

from . import movement, resolve
from .state import State

#: What a Judge's moves depend on, beyond the board and the options: the Judges'
#: hexes, who is cleaning, the scrawled hexes and the pawns' hexes.
Key: TypeAlias = tuple[
    tuple[tuple[int, str], ...], frozenset[int], frozenset[str], tuple[str | None, ...]
]


class ThreatView(TypedDict):
    """One end hex in a scrawler's view: dice it costs, Judges' allowance, arrest chance."""

    hexes: int
    judges_move: int
    arrest_chance: float
    arrest_odds: str


@dataclass(frozen=True)
class Threat:
    """The threat at one end hex: dice the move costs, Judges' allowance, arrest chance."""

    hexes: int
    judges_move: int
    chance: Fraction

    def to_json(self) -> ThreatView:
        """The view's shape: the chance as a float and as an exact fraction string."""
        return {
            "hexes": self.hexes,
            "judges_move": self.judges_move,
            "arrest_chance": float(self.chance),
            "arrest_odds": str(self.chance),
        }


def threat_map(state: State, player: str) -> dict[str, Threat]:
    """Per end hex ``player`` may reach this move: its :class:`Threat`."""
    if state.scrawlers[player].position is None:
        return {}
    return {
        end: _threat(state, player, path)
        for end, path in movement.scrawler_moves(state, player).items()
    }


def threat_for(state: State, player: str) -> dict[str, ThreatView]:
    """:func:`threat_map` as JSON for the scrawler's view."""
    return {end: threat.to_json() for end, threat in threat_map(state, player).items()}


def arrest_chance(state: State, player: str, path: list[str]) -> Fraction:
    """Chance that ``player``, walking ``path`` now, is arrested by the Judges' roll."""
    return _threat(state, player, path).chance


def _threat(state: State, player: str, path: list[str]) -> Threat:
    # The roll belongs to ``player``'s turn; the opponent moves the Judges (and
    # may not turn them on his own pawn, unless option self_arrest allows it).
    landed, _ = resolve.land(replace(state, turn=player), player, path)
    allowance = resolve.allowance(landed)
    return Threat(len(path), allowance, _chance(landed, player, len(path), allowance))


def _chance(state: State, player: str, dice: int, allowance: int) -> Fraction:
    end = state.scrawlers[player].position
    if dice == 0 or end is None:
        return Fraction(0)
    search = _Search(player, end, allowance, _distances(state, end))
    hits = 0
    # Each multiset of faces stands for all the orders it can be rolled in.
    for faces in combinations_with_replacement(range(1, 7), dice):
        if search.can_arrest(state, faces):
            hits += factorial(dice) // prod(factorial(c) for c in Counter(faces).values())
    return Fraction(hits, 6**dice)


def _distances(state: State, target: str) -> dict[str, int]:
    """Hexes from each hex to ``target`` on the bare map: no Judge needs fewer."""
    return steps_from(target, state.board.neighbours.__getitem__)


def _key(state: State) -> Key:
    """What a Judge's moves depend on, beyond the board and the options."""
    return (
        tuple(sorted(state.judges.items())),
        state.cleaning,
        frozenset(state.scrawls),
        tuple(pawn.position for pawn in state.scrawlers.values()),
    )


class _Search:
    """Can the Judges arrest ``player`` on ``end``? Memoised over positions and dice."""

    def __init__(self, player: str, end: str, allowance: int, distance: dict[str, int]):
        self.player = player
        self.end = end
        self.allowance = allowance
        self.distance = distance
        self.memo: dict[tuple[Key, tuple[int, ...]], bool] = {}
        self.moves: dict[tuple[Key, int], dict[str, list[str]]] = {}

    def judge_moves(self, state: State, key: Key, judge: int) -> dict[str, list[str]]:
        # The same position comes back under many rolls: find its moves once.
        found = self.moves.get((key, judge))
        if found is None:
            found = movement.judge_moves(state, judge, self.allowance)
            self.moves[(key, judge)] = found
        return found

    def reaches(self, state: State, judge: int, faces: tuple[int, ...]) -> bool:
        """Whether ``judge`` could cover his distance to the scrawler with all his dice."""
        moves = faces.count(judge) - (1 if judge in state.cleaning else 0)
        if moves <= 0:
            return False
        # Dredd's extra hex comes on a move that ends in an arrest: the one that arrests
        # this scrawler, and, where option self_arrest lets the roller arrest his own
        # pawn, one more on the way (that move ends in an arrest too).
        extra = 0
        if judge == 1:
            extra = min(moves, 1 + (1 if self._other_pawn_arrestable(state) else 0))
        reach = moves * self.allowance + extra
        return self.distance.get(state.judges[judge], reach + 1) <= reach

    def _other_pawn_arrestable(self, state: State) -> bool:
        """Whether a Judge may arrest a pawn other than this scrawler's now."""
        return state.options.self_arrest == "allow" and any(
            pawn.position is not None
            for who, pawn in state.scrawlers.items()
            if who != self.player
        )

    def can_arrest(self, state: State, faces: tuple[int, ...]) -> bool:
        """Whether some order and choice of moves for ``faces`` makes the arrest."""
        key = _key(state)
        if (key, faces) not in self.memo:
            self.memo[(key, faces)] = self._search(state, key, faces)
        return self.memo[(key, faces)]

    def _search(self, state: State, key: Key, faces: tuple[int, ...]) -> bool:
        judges = sorted(set(faces))
        if not any(self.reaches(state, judge, faces) for judge in judges):
            return False
        for judge in judges:
            if judge in state.cleaning:
                continue
            path = self.judge_moves(state, key, judge).get(self.end)
            if path is not None and self._arrested(resolve.judge_die(state, judge, path)[0]):
                return True
        for judge in judges:
            rest = list(faces)
            rest.remove(judge)
            left = tuple(rest)
            if not left or (judge not in left and judge in state.cleaning):
                continue
            if judge not in left or not self.reaches(state, judge, faces):
                # He cannot arrest (his last die did not), so his only use is
                # the hex he leaves: with him and his dice gone altogether,
                # at least as open as anywhere he could go, is there a way?
                gone = state.evolve(judges={n: h for n, h in state.judges.items() if n != judge})
                if not self.can_arrest(gone, tuple(f for f in faces if f != judge)):
                    continue
            for after in self._helper_moves(state, key, judge):
                if self._arrested(after) or self.can_arrest(after, left):
                    return True
        return False

    def _arrested(self, state: State) -> bool:
        return state.scrawlers[self.player].position is None

    def _helper_moves(self, state: State, key: Key, judge: int) -> Iterator[State]:
        """The states one die of ``judge`` leaves, other than arresting or standing still."""
        if judge in state.cleaning:
            yield resolve.judge_die(state, judge, [])[0]
            return
        for where, path in self.judge_moves(state, key, judge).items():
            if path and where != self.end:
                yield resolve.judge_die(state, judge, path)[0]
