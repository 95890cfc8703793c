"""What a game draws on its seat pages: the base every game's drawing refines.

Every method reads only the snapshot it is given (a seat's own view, prompts,
log and status), so a page can never hold more than its seat may know. The
defaults draw any game readably: the view as a list, the prompts as the
generic buttons, each event as a sentence of its fields.

**How a game provides its pages.** A game's drawing *is* a subclass of
:class:`SeatUI`, in its own ``pages.py``: it overrides the methods it draws
itself (``board``, ``extras``, ``controls``, ``describe``, and ``side`` for a
board with two sides), sets ``covered`` and ``sides``, and keeps everything else
as module helpers. An instance goes in the game's ``Game(ui=...)``. A method
that meets a snapshot it cannot draw (another game's view, a board it does not
know) returns ``super()``'s drawing, never ``None``::

    class RaceUI(SeatUI):
        covered = frozenset({"choose_cell"})

        def board(self, snapshot: Mapping[str, Any]) -> Markup:
            view = snapshot.get("view")
            if not isinstance(view, Mapping) or "lanes" not in view:
                return super().board(snapshot)
            return _lanes_svg(view)

    GAME = Game(slug="race", ..., ui=RaceUI())

The page script keeps what a player opened across live updates: give a
``<details>`` a player opens, or an element a player taps into focus or scrolls, a
stable ``id`` or ``data-key`` (the same in every drawing of it), and it stays
open, focused or scrolled when a push redraws its region.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from flask_babel import gettext as _
from markupsafe import Markup

from . import generic
from .look import CHOOSABLE


@dataclass(frozen=True)
class BarButton:
    """A button of the action bar: it submits a form of the page's prompts (``form``: its
    id) with ``value`` (JSON) as the pressed choice, or plays a die face."""

    label: str
    form: str
    value: str = ""
    secondary: bool = False
    #: A die face drawn as a die (its pips), instead of a word.
    face: int | None = None


@dataclass(frozen=True)
class Result:
    """How a game ended, as the game-over banner says it."""

    #: The seats that won (empty: nobody, or a draw).
    winners: Sequence[str] = ()
    draw: bool = False
    #: Why, in a sentence ("GW has no handcuffs left."), or empty.
    why: str = ""
    #: Final scores, one row per seat or side: (seat or "", what it is called, the score).
    scores: Sequence[tuple[str, str, str]] = field(default_factory=tuple)
    #: What the score column means ("Prestige", "Points").
    score_word: str = ""


class BarWords(Protocol):
    """A game's own words for the action bar and the end: a module of its plugin with
    these four functions (see :meth:`SeatUI.step` and the rest for what each says)."""

    def step(self, snapshot: Mapping[str, Any]) -> str: ...

    def doing(self, snapshot: Mapping[str, Any], seat: str) -> str: ...

    def buttons(self, snapshot: Mapping[str, Any]) -> list[BarButton]: ...

    def result(self, snapshot: Mapping[str, Any]) -> Result | None: ...


class SeatUI:
    """A game's seat pages; subclass it and override what the game draws itself."""

    #: The game's words for the action bar and the end, where it has its own (a
    #: module, see :class:`BarWords`); ``None``: the generic sentences below.
    bar_words: BarWords | None = None

    #: The board's sides a page may be drawn from, chosen with ``?side=``, each with
    #: how a player names it ("GW's side"); empty: the board has one side.
    sides: Mapping[str, str] = {}
    #: Prompt kinds :meth:`controls` draws itself (the rest get the generic buttons).
    covered: frozenset[str] = frozenset()

    def board(self, snapshot: Mapping[str, Any]) -> Markup:
        """The board (an inline SVG), or the view as a readable list."""
        return generic.board(snapshot)

    def extras(self, snapshot: Mapping[str, Any]) -> Markup:
        """What the view adds beside the board (a hand, combat odds); empty by default."""
        return Markup("")

    def controls(self, snapshot: Mapping[str, Any], token: str, digital_dice: bool) -> Markup:
        """The seat's own inputs, built from its prompts; empty: the generic buttons."""
        return Markup("")

    def seat_name(self, seat: str) -> str:
        """A seat as players name it on the page's top bar and in "to act" (default:
        as the game's header names it)."""
        return seat

    # -- how seats look (see :mod:`.look`) -------------------------------------------
    def seats_of(self, snapshot: Mapping[str, Any]) -> list[str]:
        """The player seats of the table a snapshot belongs to, in the table's order
        (for the default look of a snapshot drawn without its table)."""
        return [str(s) for s in snapshot.get("to_act") or []]

    def colour_slots(self) -> list[tuple[str, str, str]]:
        """The colours the setup page lets the host choose: (slot, label, default key).
        The default: one slot per player, "1" to "6", in seat order."""
        return [(str(i + 1), _("Player %(num)s", num=i + 1), CHOOSABLE[i]) for i in range(6)]

    def seat_colours(self, seats: Sequence[str], chosen: Mapping[str, Any]) -> dict[str, str]:
        """Seat → colour key, from the setup page's choice (slot → key) and the defaults:
        the n-th seat takes slot ``n``'s colour."""
        found = {}
        for i, seat in enumerate(seats):
            default = CHOOSABLE[i % len(CHOOSABLE)]
            found[seat] = str(chosen.get(str(i + 1)) or default)
        return found

    def mark(self, seat: str) -> str:
        """The letter (or two) drawn on a seat's piece and chips."""
        return str(seat)[:1].upper()

    def shape(self, seat: str) -> str:
        """The shape of a seat's piece and chips: "circle" or "square"."""
        return "circle"

    # -- the action bar and the end of the game -----------------------------------
    def step(self, snapshot: Mapping[str, Any]) -> str:
        """What this seat must do now, said after "Your turn:" (empty: the prompts say)."""
        if self.bar_words is not None:
            return self.bar_words.step(snapshot)
        prompts = [p for p in snapshot.get("prompts") or [] if isinstance(p, Mapping)]
        for p in prompts:
            if p.get("kind") == "enter_dice":
                return str(_("roll the dice and enter them"))
        if prompts:
            return str(_("answer the question below"))
        return str(_("make your move"))

    def doing(self, snapshot: Mapping[str, Any], seat: str) -> str:
        """What ``seat`` (one of those to act) is doing, as this snapshot's seat may know
        it: a sentence naming it ("Judge Hershey is moving")."""
        if self.bar_words is not None:
            return self.bar_words.doing(snapshot, seat)
        return str(_("%(who)s is to act", who=self.seat_name(seat)))

    def bar_buttons(self, snapshot: Mapping[str, Any]) -> list[BarButton]:
        """The buttons that finish this seat's step, shown in the action bar (each
        submits a form the controls draw). None by default: the prompts below have them."""
        if self.bar_words is not None:
            return self.bar_words.buttons(snapshot)
        return []

    def result(self, snapshot: Mapping[str, Any]) -> Result | None:
        """How the game ended (``None`` while it is on, or when the view does not say)."""
        if self.bar_words is not None:
            return self.bar_words.result(snapshot)
        view = snapshot.get("view")
        if not snapshot.get("over") or not isinstance(view, Mapping):
            return None
        winner = view.get("winner")
        if isinstance(winner, str) and winner:
            return Result(winners=(winner,))
        return Result()

    def actor(self, event: Mapping[str, Any]) -> str | None:
        """The seat an event is about (its log line shows that seat's chip), if any."""
        for key in ("by", "seat", "player", "judge"):
            value = event.get(key)
            if isinstance(value, str):
                return value
        return None

    def describe(self, event: Mapping[str, Any]) -> str:
        """One log line for an event, as a sentence.

        It must depend on the event and the page's language alone: the web says
        each line once and reuses it for every later push of the log.
        """
        return generic.describe(event)

    def side(self, snapshot: Mapping[str, Any], asked: str | None) -> str | None:
        """The side the page is drawn from (``asked``: the page's ``?side=``, if valid)."""
        return None


#: The drawing of a game with none of its own.
GENERIC = SeatUI()
