"""The state of a GW:s brott game: one immutable value, plus a scratch copy to build the next.

Everything a player decides changes a :class:`Draft` (lists, cheap to edit), which
is frozen back into a new :class:`State`; the state an action was applied to is
never touched, so a rejected action leaves nothing behind.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from .board import Board
from .deduction import Deduction
from .geometry import Geometry

#: A criminal piece's position while it is in jail (cells are 0 and up).
JAIL = -1
#: The five criminal dice.
DICE = 5
#: The face of a criminal die showing GW.
GW_FACE = "gw"
#: Handcuffs GW takes against 2, 3 and 4 criminals; three in the two-player game.
HANDCUFFS = {2: 4, 3: 6, 4: 7}
TWO_PLAYER_HANDCUFFS = 3
#: The third handcuff puts a criminal out of the game.
HANDCUFFS_TO_OUT = 3
#: The steps GW moves after its ordinary move when all five dice show GW.
EXTRA_STEPS = 5
#: A breakthrough is a move of 8 steps.
BREAKTHROUGH_STEPS = 8
TRUMPS = ("helicopter", "informer", "breakthrough", "infiltrator")


class Phase:
    """What the game waits for. Plain strings, so views can show them."""

    CRIMINAL = "criminal"  # a criminal's turn before its (first) roll
    SPECIAL = "special_move"  # GW's special move after a reset
    ROLLED = "rolled"  # a criminal has rolled: reroll, move or pass
    GW = "gw"  # GW's turn: roll its die or play a trump
    GW_MOVE = "gw_move"  # GW moves the steps it rolled
    GW_EXTRA = "gw_extra"  # the five extra steps (all five dice showed GW)
    INFORMING = "informing"  # the informer names whom it informs on
    OVER = "over"


@dataclass(frozen=True)
class Options:
    """Rule readings a scenario header may choose (see the README)."""

    gw_steps: str = "up_to"
    special_move_catches: bool = True
    caught_resetter: str = "ends_turn"


# Flags of what the current criminal has done this turn.
DID_RESET = 1
DID_DESTROY = 2
DID_ROLL = 4


@dataclass(frozen=True)
class State:
    """The whole true state. Per-piece tuples follow ``pieces`` (the turn order)."""

    board: Board
    geo: Geometry
    options: Options
    two_player: bool
    pieces: tuple[str, ...]
    abilities: tuple[str | None, ...]
    #: The criminal card each piece was dealt, when the header named one.
    criminal_cards: tuple[str | None, ...]
    dealt: tuple[tuple[str, ...], ...]
    held: tuple[tuple[str, ...], ...]
    positions: tuple[int, ...]
    handcuffs: tuple[int, ...]
    out: tuple[bool, ...]
    gw_pos: int
    handcuffs_left: int
    trumps: tuple[str, ...]
    trumps_left: tuple[str, ...]
    #: (piece, card, how) for every card GW got: how is "destroyed" or "out".
    handed_in: tuple[tuple[str, str, str], ...]
    dice: tuple[str | None, ...]
    #: Index into ``pieces`` of whose turn it is; ``len(pieces)`` means GW.
    turn: int
    phase: str
    did: int
    #: Steps of the GW move awaited (special, ordinary, extra or breakthrough).
    pending_steps: int
    pending_kind: str
    informer: str | None
    #: What trumps showed GW: (round, card, piece, place or None, immune).
    revealed: tuple[tuple[int, str, str, str | None, bool], ...]
    round: int
    winner: str | None
    deduction: Deduction
    #: Per piece, every place it stood on after a move or a catch, in order (JAIL for
    #: jail): what the end of the game reveals of where the criminals went.
    trails: tuple[tuple[int, ...], ...] = ()

    @property
    def gw_turn(self) -> bool:
        return self.turn == len(self.pieces)

    def seat_of_turn(self) -> str:
        return "gw" if self.gw_turn else self.pieces[self.turn]

    def index(self, piece: str) -> int:
        return self.pieces.index(piece)

    def gw_dice(self) -> int:
        """How many criminal dice show GW now."""
        return sum(1 for d in self.dice if d == GW_FACE)


_LIST_FIELDS = ("held", "positions", "handcuffs", "out", "dice")


class Draft:
    """A mutable copy of a :class:`State`; ``freeze()`` gives the next state.

    The per-piece tuples and the dice are lists here; every other field is the
    state's own (immutable) value, replaced rather than edited.
    """

    board: Board
    geo: Geometry
    options: Options
    two_player: bool
    pieces: tuple[str, ...]
    abilities: tuple[str | None, ...]
    criminal_cards: tuple[str | None, ...]
    dealt: tuple[tuple[str, ...], ...]
    held: list[tuple[str, ...]]
    positions: list[int]
    handcuffs: list[int]
    out: list[bool]
    gw_pos: int
    handcuffs_left: int
    trumps: tuple[str, ...]
    trumps_left: tuple[str, ...]
    handed_in: tuple[tuple[str, str, str], ...]
    dice: list[str | None]
    turn: int
    phase: str
    did: int
    pending_steps: int
    pending_kind: str
    informer: str | None
    revealed: tuple[tuple[int, str, str, str | None, bool], ...]
    round: int
    winner: str | None
    deduction: Deduction
    trails: tuple[tuple[int, ...], ...]

    def __init__(self, state: State) -> None:
        for f in _FIELD_NAMES:
            setattr(self, f, getattr(state, f))
        for name in _LIST_FIELDS:
            setattr(self, name, list(getattr(state, name)))

    def walked(self, index: int, place: int) -> None:
        """Piece ``index`` now stands on ``place``: its trail gets it."""
        trails = list(self.trails)
        trails[index] = (*trails[index], place)
        self.trails = tuple(trails)

    def freeze(self) -> State:
        values = {f: getattr(self, f) for f in _FIELD_NAMES}
        for name in _LIST_FIELDS:
            values[name] = tuple(values[name])
        return State(**values)


_FIELD_NAMES = tuple(f.name for f in fields(State))
