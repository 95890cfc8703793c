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

from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from . import generic


class SeatUI:
    """A game's seat pages; subclass it and override what the game draws itself."""

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
