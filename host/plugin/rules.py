"""What a game's host rules are given and what they give back: the referee's seam.

A game's host rules (:class:`GameRules`) read the table's inputs for their game:
a tracker observation, a card laid on a reader, a button, a tablet input that
needs the table's half (the board's square, digital dice). They never act on
the table themselves. Each reading is a **decision** returned to the referee,
which carries it out and tells the rules how it went:

* :class:`Play` — apply these actions, in order, as input of a seat;
* :class:`Ask` — put a :class:`Question` to one or more seats;
* :class:`Wait` — nothing to apply yet; show this message meanwhile;
* :class:`Expect` — tell the board again what to expect (what the rules want
  of it changed, e.g. a caught piece reached the jail);
* ``None`` — nothing to do (the rules may have noted something, e.g. a piece
  to put back, which their :meth:`GameRules.board_status` now says).

The referee answers with :meth:`GameRules.accepted` and :meth:`GameRules.refused`
after each :class:`Play`, and :meth:`GameRules.undone` after an undo. Time comes
in the same way: rules that want to act after a pause return
:meth:`GameRules.due_at` and are called at :meth:`GameRules.due` with the
table's clock, so a simulated table stays deterministic for its seed.

Everything here is game-independent; see ``docs/PLUGINS.md``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Required, TypeAlias, TypedDict, cast

from lawmaster.rules.core import Engine, IllegalAction, JsonValue

if TYPE_CHECKING:
    from lawmaster.host.nfc.cards import Card
    from lawmaster.host.tracker import Expectation

#: Where an input came from, as the journal records it.
TABLET = "tablet"
BOARD = "board"
NFC = "nfc"
BUTTON = "button"
DIGITAL = "digital-dice"

class Prompt(TypedDict, total=False):
    """What a seat is asked now, as its tablet draws it.

    ``kind`` names the form (a game's pages draw the kinds they know, the rest
    get generic buttons); ``action`` is the base of the input an answer sends,
    its fields also at the top level (``act``, ``by``…); the rest is what the
    form shows. Every value is JSON: prompts travel to the tablets as they are.
    """

    kind: Required[str]
    action: dict[str, JsonValue]
    act: str
    by: str
    #: What the seat reads: the question, or why it is asked.
    message: str
    label: str
    #: The choices, in the order an answer's ``index`` counts them.
    options: list[JsonValue]
    #: Dice to enter: how many, and the faces a die has.
    count: int
    faces: list[JsonValue]
    dice: list[JsonValue]
    digital: bool
    reroll: bool
    #: Whether the board shows the rest (the seat moves its piece rather than taps).
    on_board: bool
    die: JsonValue
    moves: JsonValue
    cards: list[JsonValue]
    targets: list[JsonValue]
    steps: JsonValue
    exactly: JsonValue
    move_kind: JsonValue
    required: JsonValue
    allowance: JsonValue
    field: str

#: An action or event as the engines take and give them (JSON objects).
Action: TypeAlias = dict[str, Any]


@dataclass(frozen=True)
class Status:
    """What the table is doing now, in words.

    ``state`` is ``"ok"``, ``"illegal"`` (a physical move must be put back),
    ``"waiting"`` (for the board or a seat), ``"blind"`` (the board cannot be
    read) or ``"over"``. Seats in ``detail_seats`` read ``detail`` (it may name
    secret cells); everyone else reads ``message``.
    """

    state: str = "ok"
    message: str = ""
    detail: str = ""
    detail_seats: tuple[str, ...] = ()

    def for_seat(self, seat: str) -> dict[str, str]:
        text = self.detail if self.detail and seat in self.detail_seats else self.message
        return {"state": self.state, "message": text}


@dataclass(frozen=True)
class Accepted:
    """One accepted action: its journal sequence number, its move number and events."""

    seq: int
    move: int
    events: list[dict[str, Any]] = field(default_factory=list)
    action: Action = field(default_factory=dict)
    source: str = TABLET


@dataclass(frozen=True)
class Completed:
    """An input made whole by the table, and where its content really came from.

    :meth:`GameRules.complete` returns one when the source is not the input's
    own: dice the referee rolled (``digital-dice``), a move whose square the
    board showed (``board``). A plain action keeps the input's own source.
    """

    action: Action
    source: str


# -- decisions --------------------------------------------------------------------


@dataclass(frozen=True)
class Play:
    """Apply ``actions`` in order as input of ``seat``; the first refused one stops it.

    ``about`` is whatever the rules want back in :meth:`GameRules.refused` or
    :meth:`GameRules.accepted` to know which reading this was (an observation).
    """

    actions: tuple[Action, ...]
    seat: str | None
    source: str = BOARD
    about: object = field(default=None, compare=False)

    @classmethod
    def one(
        cls, action: Action, seat: str | None, source: str = BOARD, about: object = None
    ) -> Play:
        return cls((action,), seat, source, about)


@dataclass(frozen=True)
class Wait:
    """Nothing to apply yet (half an input is held); ``message`` says what is awaited."""

    message: str


@dataclass(frozen=True)
class Expect:
    """Tell the board what to expect now, even if the position is unchanged.

    The tracker then compares the board with the game afresh: a piece that
    stands elsewhere is reported again, one put right is reported restored.
    """


@dataclass(frozen=True)
class Question:
    """A question for ``seats``, answered on a tablet with ``{"act": act, "index": i}``.

    ``prompt`` is what the tablets draw (its ``options`` in the order of
    ``answers``); ``answers[i]`` is what answer ``i`` means: a decision, or a
    function of the state at the moment of the answer that gives one. The
    referee carries it out like any other decision. ``waiting`` is what
    everyone else reads meanwhile.
    """

    seats: tuple[str, ...]
    act: str
    prompt: Prompt
    answers: tuple[Answer, ...]
    waiting: str

    def answer(self, seat: str, action: Mapping[str, Any]) -> Answer:
        """What an answer stands for; :class:`IllegalAction` if it is no answer."""
        if seat not in self.seats:
            raise IllegalAction("there is no question for you to answer")
        index = action.get("index")
        count = len(self.answers)
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < count:
            raise IllegalAction(f"'index' must be 0 to {count - 1}")
        return self.answers[index]


@dataclass(frozen=True)
class Ask:
    """Put ``question`` to its seats (it replaces any question still open)."""

    question: Question


Decision: TypeAlias = Play | Ask | Wait | Expect | None
#: What an answer to a :class:`Question` means: a decision, or one made when answered.
Answer: TypeAlias = Decision | Callable[[Any], Decision]


def prompt(kind: str, action: Mapping[str, Any], **extra: Any) -> Prompt:
    """A prompt: its kind, the base action its answer completes, and what to show."""
    # The base action's fields are spread at the top level too, which a TypedDict
    # cannot say of a dict display: the keys are the documented ones above.
    return cast(Prompt, {"kind": kind, **action, "action": dict(action), **extra})


@dataclass(frozen=True)
class RulesContext:
    """What a game's host rules may read of their table: the engine, setup and settings."""

    engine: Engine[Any]
    header: Mapping[str, Any]
    settings: Mapping[str, Any]

    @property
    def board_on(self) -> bool:
        """Whether the table reads its board (else every move is typed on a tablet)."""
        return bool(self.settings.get("board", False))

    @property
    def digital_dice(self) -> bool:
        return bool(self.settings.get("digital_dice", False))


class GameRules:
    """The referee's knowledge of one game: owners, sides, prompts, readings.

    This base class is what an engine gets with no host rules of its own
    (tablet input only); a game refines it. Methods receive the state they
    concern; none of them may change the table.
    """

    def __init__(self, context: RulesContext) -> None:
        self.context = context
        self.engine = context.engine

    @property
    def board_on(self) -> bool:
        """Whether this table reads its board (else every move is typed on a tablet)."""
        return self.context.board_on

    def start(self, state: Any) -> None:
        """The table's game stands at ``state`` (set up, or resumed from the journal)."""

    # -- tablets ----------------------------------------------------------------
    def owner(self, action: Mapping[str, Any], state: Any) -> str | None:
        """The seat allowed to send ``action`` now (``None``: any seat to act)."""
        by = action.get("by")
        return by if isinstance(by, str) else None

    def sides(self, state: Any) -> dict[str, str]:
        """Seat → side; an undo needs a confirmation from a seat of another side."""
        return {seat: seat for seat in self.engine.seats(state)}

    def prompts(self, seat: str, state: Any, view: Mapping[str, Any]) -> list[Prompt]:
        """What ``seat`` is asked for now, derived from its view only."""
        if seat in self.engine.to_act(state):
            return [{"kind": "your_turn"}]
        return []

    def complete(
        self, seat: str, action: Action, state: Any, rng: random.Random | None
    ) -> Action | Completed | Wait:
        """Fill in what the table supplies (digital dice, the board's half of a move).

        A :class:`Wait` holds this input until the rest arrives (its message is
        what the seat reads). A :class:`Completed` names the source the journal
        records when it is not the input's own (digital dice, the board).
        """
        return action

    #: Tablet acts meant for these rules, not the engine (e.g. "my move is done").
    tablet_acts: frozenset[str] = frozenset()

    #: Act → the fields that carry dice faces. With digital dice on, a seat's input
    #: with any of them is refused (the referee rolls), and the log says who entered
    #: each roll (see ``Referee.tablet`` and ``Table``).
    dice_fields: Mapping[str, frozenset[str]] = {}

    def tablet(self, seat: str, action: Mapping[str, Any], state: Any) -> Decision:
        """A tablet input whose act is one of :attr:`tablet_acts`.

        Raise :class:`IllegalAction` to refuse it. Answers to a :class:`Question`
        never come here; the referee matches them.
        """
        raise IllegalAction(f"'{action.get('act')}' is not an input of this game")

    # -- hardware -----------------------------------------------------------------
    def card(self, card: Card, seat: str | None, state: Any) -> Decision:
        """A card laid on a reader (``seat``: the reader's seat, ``None`` if shared)."""
        return None

    def button(self, name: str, state: Any) -> Decision:
        """A panel button the referee does not handle itself (``"end_turn"``)."""
        return None

    def expectation(self, state: Any) -> Expectation | None:
        """What the tracker should expect of the board now (``None``: no board here)."""
        return None

    def observe(self, observation: Any, state: Any, now: float) -> Decision:
        """A tracker observation at time ``now`` (the table's clock); the base reads none."""
        return None

    def due_at(self) -> float | None:
        """When these rules want :meth:`due` called (``None``: they wait for nothing)."""
        return None

    def due(self, state: Any, now: float) -> Decision:
        """The time :meth:`due_at` named has come."""
        return None

    def board_status(self, state: Any) -> Status | None:
        """The status the board's problems give (``None``: nothing wrong on the board)."""
        return None

    def detail_seats(self, action: Mapping[str, Any], state: Any) -> tuple[str, ...]:
        """Seats allowed to read the details of why a physical input was wrong."""
        return tuple(self.engine.seats(state))

    def physical_name(self, action: Mapping[str, Any]) -> str:
        """How a rejected physical input is named in public (no secret cells)."""
        return "that move"

    # -- what happened to a decision ----------------------------------------------
    def accepted(self, accepted: Accepted, state: Any) -> None:
        """An action was accepted (``state``: the state after it)."""

    def refused(self, play: Play, action: Action, reason: str, state: Any) -> Status | None:
        """``action`` of ``play`` was refused by the engine for ``reason``.

        Returns the notice the table shows. The default names the input in public
        and tells the reason to the seats that may read it; rules that read the
        board note the piece to put back instead (their :meth:`board_status` says
        it) and return ``None``.
        """
        return refusal(self, action, reason, state)

    def undone(self, state: Any) -> None:
        """The last input was taken back: forget any half-made input."""


def refusal(rules: GameRules, action: Mapping[str, Any], reason: str, state: Any) -> Status:
    """The status of a refused physical input: public name, private reason."""
    name = rules.physical_name(action)
    return Status(
        "illegal", f"{name} is not allowed now", reason, rules.detail_seats(action, state)
    )
