"""The referee: every input of one table becomes an engine action and a verdict.

Inputs come from the tablets (:meth:`Referee.tablet`), the board through the
tracker (:meth:`Referee.observation`), the NFC readers (:meth:`Referee.nfc`)
and the buttons (:meth:`Referee.button`). The referee checks who may send
what, puts partial inputs together (a die said aloud on the tablet plus the
destination seen on the board), rolls digital dice when the table chose that,
applies the action through :class:`~lawmaster.host.table.Table` (which journals
it before anyone sees it) and shows the verdict: on every tablet via the
table's status, and on the LED and buzzer through the panel.

What is game-specific (who owns an action, how an observation reads as an
action, which prompts a seat gets) lives in a :class:`GameRules` per game.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from lawmaster.rules.core import IllegalAction, events_for

if TYPE_CHECKING:
    from .table import Table

TABLET = "tablet"
BOARD = "board"
NFC = "nfc"
BUTTON = "button"
DIGITAL = "digital-dice"


class Panel(Protocol):
    """The LED and buzzer (``host.panel.Panel`` on the Pi, its mock when simulated)."""

    def show(self, state: str) -> None: ...


class GameRules:
    """The referee's knowledge of one game: owners, sides, prompts, board readings.

    This base class is what any engine gets; a game refines it (see
    :mod:`lawmaster.host.referee_gw`).
    """

    def __init__(self, table: Table) -> None:
        self.table = table

    def owner(self, action: Mapping[str, Any], state: Any) -> str | None:
        """The seat allowed to send ``action`` now (``None``: any seat to act)."""
        by = action.get("by")
        return by if isinstance(by, str) else None

    def sides(self, state: Any) -> dict[str, str]:
        """Seat → side; an undo needs a confirmation from a seat of another side."""
        return {seat: seat for seat in self.table.engine.seats(state)}

    def prompts(self, seat: str, state: Any, view: Mapping[str, Any]) -> list[dict[str, Any]]:
        """What ``seat`` is asked for now, derived from its view only."""
        if seat in self.table.engine.to_act(state):
            return [{"kind": "your_turn"}]
        return []

    def complete(
        self, seat: str, action: dict[str, Any], state: Any, rng: random.Random | None
    ) -> dict[str, Any] | str:
        """Fill in what the table supplies (digital dice); or a waiting message.

        Returning a string means "hold this input until the board shows the
        rest" and is the message the seat sees.
        """
        return action

    def observation(self, observation: Any, state: Any) -> Reading:
        """How a tracker observation reads as input (see :class:`Reading`)."""
        return Reading(ignore=True)

    def detail_seats(self, action: Mapping[str, Any], state: Any) -> tuple[str, ...]:
        """Seats allowed to read the details of why a physical move was wrong."""
        return tuple(self.table.engine.seats(state))

    def physical_name(self, action: Mapping[str, Any]) -> str:
        """How a rejected physical move is named in public (no secret cells)."""
        return "that move"

    def card(self, card: Any, seat: str | None, state: Any) -> dict[str, Any] | str | None:
        """A tapped card as an action, a waiting message, or ``None`` (nothing to do)."""
        return None

    def end_turn(self, state: Any) -> dict[str, Any] | None:
        """What the panel's end-turn button means now, if anything."""
        return None

    def undone(self, state: Any) -> None:
        """The last input was taken back: forget any half-made input."""


class Reading:
    """What a board observation means: an action, a question, a correction or nothing."""

    def __init__(
        self,
        *,
        action: dict[str, Any] | None = None,
        seat: str | None = None,
        ask: dict[str, Any] | None = None,
        hold: str | None = None,
        ignore: bool = False,
        restored: bool = False,
        wrong: str | None = None,
    ) -> None:
        self.action = action
        self.seat = seat
        self.ask = ask
        self.hold = hold
        self.ignore = ignore
        self.restored = restored
        self.wrong = wrong


class Referee:
    """One per table; see the module docstring."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.rules = rules_for(table)
        settings = table.settings
        self.digital_dice = bool(settings.get("digital_dice", False))
        self.seed = settings.get("seed", 0)
        self.panel: Panel | None = None
        self._lock = threading.RLock()
        #: Called with (seq, action) after each accepted action is durable.
        self.on_accepted: list[Callable[[int, dict[str, Any]], None]] = []
        self.counts: dict[str, int] = {"accepted": 0, "rejected": 0, "illegal_physical": 0}

    # -- wiring ---------------------------------------------------------------
    def attach_panel(self, panel: Panel | None) -> None:
        self.panel = panel
        self._show_panel()

    # -- tablet ---------------------------------------------------------------
    def tablet(self, seat: str, action: Any) -> dict[str, Any]:
        """Input typed on ``seat``'s tablet."""
        with self._lock:
            try:
                action = self._checked_tablet(seat, action)
                completed = self.rules.complete(seat, action, self.table.state, self._rng())
                if isinstance(completed, str):
                    return {"ok": True, "events": [], "pending": completed}
                accepted = self._accept(
                    completed, seat=seat, source=self._source(action, completed)
                )
            except IllegalAction as exc:
                self.counts["rejected"] += 1
                return {"ok": False, "error": exc.reason}
            return {"ok": True, "events": events_for(accepted.events, seat), "seq": accepted.seq}

    def _checked_tablet(self, seat: str, action: Any) -> dict[str, Any]:
        if not isinstance(action, dict) or not isinstance(action.get("act"), str):
            raise IllegalAction('an input must be an object with an "act" field')
        state = self.table.state
        if seat not in self.table.engine.seats(state):
            raise IllegalAction("only a player's tablet can send moves")
        if self.table.engine.is_over(state):
            raise IllegalAction("the game is over")
        owner = self.rules.owner(action, state)
        if owner is None:
            if seat not in self.table.engine.to_act(state):
                raise IllegalAction("it is not your turn")
        elif owner != seat:
            raise IllegalAction(f"only {owner} can send '{action['act']}'")
        return dict(action)

    @staticmethod
    def _source(typed: Mapping[str, Any], applied: Mapping[str, Any]) -> str:
        return TABLET if typed == applied else DIGITAL

    # -- board ----------------------------------------------------------------
    def observation(self, observation: Any) -> None:
        """A tracker observation: a piece moved, slid, was lifted, or something odd."""
        from .table import Status

        with self._lock:
            reading = self.rules.observation(observation, self.table.state)
            if reading.ignore:
                return
            if reading.restored:
                self._set_prompts({})
                self.table.set_status(Status())
                self._show_panel()
                return
            if reading.wrong is not None:
                self.counts["illegal_physical"] += 1
                self.table.set_status(Status("illegal", reading.wrong))
                self._show_panel()
                return
            if reading.ask is not None and reading.seat is not None:
                self._set_prompts({reading.seat: [reading.ask]})
                self.table.set_status(
                    Status("waiting", f"waiting for {reading.seat} to say what happened")
                )
                self._show_panel()
                return
            if reading.hold is not None:
                self.table.set_status(Status("waiting", reading.hold))
                self._show_panel()
                return
            if reading.action is not None:
                self._physical(reading.action, reading.seat)

    def _physical(self, action: dict[str, Any], seat: str | None, *, source: str = BOARD) -> None:
        """Apply an input from the table's hardware, or flag it (a move to put back)."""
        from .table import Status

        state = self.table.state
        try:
            completed = self.rules.complete(seat or "", action, state, self._rng())
            if isinstance(completed, str):
                self.table.set_status(Status("waiting", completed))
                self._show_panel()
                return
            self._accept(completed, seat=seat, source=source)
        except IllegalAction as exc:
            self.counts["illegal_physical"] += 1
            name = self.rules.physical_name(action)
            self.table.set_status(
                Status(
                    "illegal",
                    f"{name} is not legal: waiting for the piece to be put back",
                    f"{exc.reason}. Put the piece back where it was.",
                    self.rules.detail_seats(action, state),
                )
            )
            self._show_panel()
            return
        self.table.set_status(Status())
        self._show_panel()

    # -- NFC and buttons ------------------------------------------------------
    def nfc(self, event: Any) -> None:
        """A card event from the NFC readers (:mod:`lawmaster.host.nfc.events`).

        A known card becomes an action through the game's rules (a criminal
        handing in evidence, GW playing a trump); an unknown tag is answered
        with the reader's reason and changes nothing.
        """
        from .table import Status

        kind = type(event).__name__
        with self._lock:
            if kind == "UnknownTag":
                self.counts["unknown_tag"] = self.counts.get("unknown_tag", 0) + 1
                self.table.set_status(Status("illegal", f"unknown card: {event.message}"))
                self._show_panel()
                return
            if kind != "CardTapped":
                return
            reading = self.rules.card(event.card, event.seat, self.table.state)
            if isinstance(reading, str):
                self.table.set_status(Status("waiting", reading))
                self._show_panel()
            elif reading is not None:
                self._physical(reading, self.rules.owner(reading, self.table.state), source=NFC)

    def button(self, name: str) -> None:
        """A panel button: ``"undo"`` asks for an undo, ``"confirm"`` confirms it,
        ``"end_turn"`` is the game's (e.g. a criminal who cannot move passes)."""
        with self._lock:
            if name == "undo":
                self.request_undo(None)
            elif name == "confirm" and self.table.undo is not None:
                self.confirm_undo(self.table.undo.confirmers[0])
            elif name == "end_turn":
                action = self.rules.end_turn(self.table.state)
                if action is not None:
                    self._physical(
                        action, self.rules.owner(action, self.table.state), source=BUTTON
                    )

    # -- undo -----------------------------------------------------------------
    def request_undo(self, seat: str | None) -> dict[str, Any]:
        """Ask to take back the last accepted input; the other side must confirm."""
        from .table import UndoRequest

        with self._lock:
            state = self.table.state
            if not self.table.actions:
                return {"ok": False, "error": "there is nothing to undo"}
            sides = self.rules.sides(state)
            if seat is not None and seat not in sides:
                return {"ok": False, "error": "only a player can ask for an undo"}
            mine = sides.get(seat) if seat is not None else None
            confirmers = tuple(s for s, side in sides.items() if side != mine)
            self.table.set_undo(UndoRequest(seat or "table", confirmers, len(self.table.actions)))
            return {"ok": True, "waiting_for": list(confirmers)}

    def confirm_undo(self, seat: str) -> dict[str, Any]:
        """The other side agrees: the last input is taken back (and journalled)."""
        with self._lock:
            request = self.table.undo
            if request is None:
                return {"ok": False, "error": "nobody asked for an undo"}
            if seat not in request.confirmers:
                return {"ok": False, "error": "the other side must confirm the undo"}
            if request.move != len(self.table.actions):
                self.table.set_undo(None)
                return {"ok": False, "error": "the game moved on; ask again"}
            try:
                seq = self.table.take_back(seat=seat, source=TABLET)
            except IllegalAction as exc:
                return {"ok": False, "error": exc.reason}
            self.rules.undone(self.table.state)
            self._show_panel()
            return {"ok": True, "seq": seq}

    # -- what seats see -------------------------------------------------------
    def prompts(self, seat: str, state: Any, view: Mapping[str, Any]) -> list[dict[str, Any]]:
        """What ``seat`` is asked for now, built from its own ``view``."""
        return self.rules.prompts(seat, state, view)

    # -- inside ---------------------------------------------------------------
    def _accept(self, action: dict[str, Any], *, seat: str | None, source: str) -> Any:
        accepted = self.table.accept(action, seat=seat, source=source)
        self.counts["accepted"] += 1
        self._set_prompts({})
        for listener in self.on_accepted:
            listener(accepted.seq, action)
        return accepted

    def _set_prompts(self, prompts: Mapping[str, list[dict[str, Any]]]) -> None:
        self.table.set_prompts(prompts)

    def _rng(self) -> random.Random | None:
        """Digital dice: seeded by table seed, game and next sequence number.

        Seeding per input (not one long stream) keeps a resumed game rolling the
        same dice it would have rolled without the restart.
        """
        if not self.digital_dice:
            return None
        return random.Random(f"{self.seed}:{self.table.record.id}:{self.table.last_seq + 1}")

    def _show_panel(self) -> None:
        if self.panel is None:
            return
        state = self.table.status.state
        # The panel knows ok / illegal / waiting / idle: a finished game leaves it dark.
        self.panel.show(_PANEL.get(state, "ok") if not self.table.is_over() else "idle")


_PANEL = {"ok": "ok", "illegal": "illegal", "waiting": "waiting"}


def rules_for(table: Table) -> GameRules:
    """The referee's rules for the table's game (the base class for unknown games)."""
    if table.game == "gw-brott":
        from .referee_gw import GwBrottRules

        return GwBrottRules(table)
    return GameRules(table)
