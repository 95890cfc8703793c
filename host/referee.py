"""The referee: every input of one table becomes an engine action and a verdict.

Inputs come from the tablets (:meth:`Referee.tablet`), the board through the
tracker (:meth:`Referee.observation`), the NFC readers (:meth:`Referee.nfc`)
and the buttons (:meth:`Referee.button`). The referee checks who may send
what, puts partial inputs together (a die said aloud on the tablet plus the
destination seen on the board), rolls digital dice when the table chose that,
applies the action through :class:`~lawmaster.host.table.Table` (which journals
it before anyone sees it) and shows the verdict: on every tablet via the
table's status, and on the LED and buzzer through the panel.

After every change it tells the board (the tracker) what to expect next:
where each piece stands, which may move, which must go to jail. An illegal
physical move is not applied: the tablets say what is wrong and the referee
waits until the tracker reports the piece back where the game has it.

What is game-specific (who owns an action, how an observation reads as an
action, which prompts a seat gets) lives in a :class:`GameRules` per game.

While the board is blind (:meth:`lawmaster.host.health.Health.blind`: the
scanner lost, a flagged sensor under the board) the referee pauses: no move is
accepted or refused, from the board, the tablets, the cards or the buttons;
the tablets and the LED say why. When the board comes back it is checked
against the game first: the tracker is told that no piece may move, so every
piece that stands elsewhere is reported and shown to be put back, and play
resumes only when the board (:meth:`Board.recheck`) reports that it matches.
The journal holds everything accepted before the pause, so nothing is lost.
"""

from __future__ import annotations

import dataclasses
import random
import secrets
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from lawmaster.rules.core import IllegalAction, events_for

if TYPE_CHECKING:
    from .table import Accepted, Status, Table

TABLET = "tablet"
BOARD = "board"
#: The table screen's seat (``table.TABLE_SEAT``; not imported: table imports this module).
TABLE = "table"
NFC = "nfc"
BUTTON = "button"
DIGITAL = "digital-dice"
_SYSTEM_DICE = secrets.SystemRandom()


@dataclass(frozen=True)
class Completed:
    """An input made whole by the table, and where its content really came from.

    :meth:`GameRules.complete` returns one when the source is not the input's
    own: dice the referee rolled (``digital-dice``), a move whose square the
    board showed (``board``). A plain dict keeps the input's own source, however
    much it was filled in (dice typed by several players are still typed).
    """

    action: dict[str, Any]
    source: str


def completed_action(result: dict[str, Any] | Completed, source: str) -> tuple[dict[str, Any], str]:
    """The action and its source from what :meth:`GameRules.complete` returned."""
    if isinstance(result, Completed):
        return result.action, result.source
    return result, source


class Panel(Protocol):
    """The LED and buzzer (:class:`lawmaster.host.panel.Panel`, mock pins when simulated)."""

    def show(self, status: str) -> None: ...


class Board(Protocol):
    """The tracker's side of the board feed: told what to expect after every change.

    A board may also offer ``recheck(on: bool)``: while on, it compares what it
    sees with the expectation and calls :meth:`Referee.board_matches` (through
    the input queue) once they agree; and ``hold(on: bool)``: while on, the
    referee holds its inputs (pieces astray are then no sign of a bad sensor).
    """

    def expect(self, expectation: Any) -> None: ...


class GameRules:
    """The referee's knowledge of one game: owners, sides, prompts, board readings.

    This base class is what any engine gets (tablet input only); a game refines
    it (see :mod:`lawmaster.host.referee_gw`).
    """

    def __init__(self, table: Table) -> None:
        self.table = table

    # -- tablets ----------------------------------------------------------------
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
    ) -> dict[str, Any] | Completed | str:
        """Fill in what the table supplies (digital dice, the board's half of a move).

        Returning a string means "hold this input until the rest arrives" and is
        the message the seat sees. A :class:`Completed` names the source the
        journal records when it is not the input's own (e.g. digital dice).
        """
        return action

    def referee_input(self, seat: str, action: Mapping[str, Any], referee: Referee) -> bool:
        """Handle a tablet input meant for the referee, not the engine; ``False``: not one."""
        return False

    # -- hardware -----------------------------------------------------------------
    def card(self, card: Any, seat: str | None, state: Any) -> dict[str, Any] | str | None:
        """A tapped card as an action, a waiting message, or ``None`` (nothing to do)."""
        return None

    def end_turn(self, state: Any, referee: Referee) -> dict[str, Any] | None:
        """What the panel's end-turn button means now, if anything."""
        return None

    def expectation(self, state: Any) -> Any:
        """What the tracker should expect of the board now (``None``: no board here)."""
        return None

    def observe(self, observation: Any, referee: Referee) -> None:
        """A tracker observation; the base game reads none."""

    def board_status(self, state: Any) -> Status | None:
        """The status the board's problems give (``None``: nothing wrong on the board)."""
        return None

    def detail_seats(self, action: Mapping[str, Any], state: Any) -> tuple[str, ...]:
        """Seats allowed to read the details of why a physical input was wrong."""
        return tuple(self.table.engine.seats(state))

    def physical_name(self, action: Mapping[str, Any]) -> str:
        """How a rejected physical input is named in public (no secret cells)."""
        return "that move"

    def undone(self, state: Any) -> None:
        """The last input was taken back: forget any half-made input."""

    def accepted(self, accepted: Accepted) -> None:
        """An action was accepted (e.g. note who was caught and must go to jail)."""


class Referee:
    """One per table; see the module docstring."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.rules = rules_for(table)
        settings = table.settings
        self.digital_dice = bool(settings.get("digital_dice", False))
        self.seed = settings.get("seed")
        self.panel: Panel | None = None
        self.board: Board | None = None
        self.lock = threading.RLock()
        #: A passing message (an unknown card, a refused tap) until the next change.
        self.notice: Status | None = None
        #: Called with (seq, action) after each accepted action is durable.
        self.on_accepted: list[Callable[[int, dict[str, Any]], None]] = []
        self.counts: dict[str, int] = {
            "accepted": 0,
            "rejected": 0,
            "illegal_physical": 0,
            "unknown_tag": 0,
            "held": 0,
        }
        #: The table's health (:class:`~lawmaster.host.health.Health`), if wired.
        self.health: Any = None
        #: Why the board is blind, while the referee is paused (``None``: not paused).
        self.paused: str | None = None
        #: The board came back and is being compared with the game.
        self.rechecking = False

    # -- wiring ---------------------------------------------------------------
    def attach_panel(self, panel: Panel | None) -> None:
        self.panel = panel
        self.refresh()

    def attach_board(self, board: Board | None) -> None:
        """Read the board through ``board`` (it is told at once what to expect)."""
        with self.lock:
            self.board = board
            self.expect()
            self.refresh()

    def attach_health(self, health: Any) -> None:
        """Pause whenever ``health`` says the board is blind (call :meth:`health_changed`)."""
        with self.lock:
            self.health = health
            self.health_changed()

    # -- blindness --------------------------------------------------------------
    @property
    def holding(self) -> bool:
        """Whether inputs are held now (the board is blind or being checked)."""
        return self.paused is not None or self.rechecking

    def health_changed(self) -> None:
        """The table's health changed: pause, or start checking the board that came back."""
        with self.lock:
            reason = None
            if self.health is not None and self.board is not None:
                reason = self.health.blind()
            if reason is not None:
                entering = not self.holding
                self.paused = reason
                if entering:
                    self.expect()
            elif self.paused is not None:
                self.paused = None
                self.rechecking = True
                self.expect()
            self.refresh()

    def board_matches(self) -> None:
        """The board (checked since it came back) stands as the game has it: play on."""
        with self.lock:
            if not self.rechecking or self.paused is not None:
                return
            self.rechecking = False
            self.notice = None
            self.expect()
            self.refresh()

    def _held(self) -> dict[str, Any]:
        self.counts["held"] += 1
        why = self.paused or "the board is being checked against the game"
        return {
            "ok": False,
            "paused": True,
            "error": f"The referee is paused ({why}). Nothing was decided: send it again"
            " when play goes on.",
        }

    def _pause_status(self) -> Status | None:
        from .table import Status

        if self.paused is not None:
            # The seats' banners say why (each in the words it may read); the table
            # screen, which has no banner for it, reads the reason in its status.
            short = "Paused: no move is accepted or refused until the board can be read again."
            why = self.paused[:1].upper() + self.paused[1:]
            return Status("blind", short, f"{why}. {short}", (TABLE,))
        if self.rechecking:
            asked = self.rules.board_status(self.table.state)
            if asked is not None and asked.state == "illegal":
                back = "The board is back, but it differs from the game: "
                detail = back + asked.detail if asked.detail else ""
                return dataclasses.replace(asked, message=back + asked.message, detail=detail)
            return Status(
                "waiting",
                "The board is back. Put every piece where the game has it: play goes on"
                " when the board matches the game.",
            )
        return None

    # -- tablet ---------------------------------------------------------------
    def tablet(self, seat: str, action: Any) -> dict[str, Any]:
        """Input typed on ``seat``'s tablet."""
        with self.lock:
            if self.holding:
                return self._held()
            try:
                if isinstance(action, dict) and self.rules.referee_input(seat, action, self):
                    return {"ok": True, "events": []}
                action = self._checked_tablet(seat, action)
                completed = self.rules.complete(seat, action, self.table.state, self._rng())
                if isinstance(completed, str):
                    self.refresh()
                    return {"ok": True, "events": [], "pending": completed}
                whole, source = completed_action(completed, TABLET)
                accepted = self._accept(whole, seat=seat, source=source)
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

    # -- board ----------------------------------------------------------------
    def observation(self, observation: Any) -> None:
        """A tracker observation: a piece moved, was caught, jailed, misplaced, restored."""
        with self.lock:
            if self.paused is not None:
                self.counts["held"] += 1
                return  # nothing seen on a blind board is judged
            if self.rechecking and getattr(observation, "TYPE", "") not in (
                "anomaly",
                "restored",
            ):
                self.counts["held"] += 1
                return  # while checking, only "put it back" and "put back" count
            self.rules.observe(observation, self)
            self.refresh()

    def apply_physical(
        self, action: dict[str, Any], seat: str | None, *, source: str = BOARD
    ) -> str | None:
        """Apply an input from the table's hardware; the reason in words if it is illegal."""
        if self.holding:
            self.counts["held"] += 1
            return None  # a paused referee neither accepts nor refuses
        state = self.table.state
        try:
            completed = self.rules.complete(seat or "", action, state, self._rng())
            if isinstance(completed, str):
                return None
            whole, whence = completed_action(completed, source)
            self._accept(whole, seat=seat, source=whence)
        except IllegalAction as exc:
            self.counts["illegal_physical"] += 1
            return exc.reason
        return None

    def expect(self) -> None:
        """Tell the board what to expect now (after a change of the game or the board)."""
        if self.board is None:
            return
        expectation = self.rules.expectation(self.table.state)
        if expectation is None:
            return
        if self.holding:
            # Blind or being checked: no piece may move, so any piece that stands
            # elsewhere is reported, to be put back where the game has it.
            expectation = dataclasses.replace(expectation, movers=frozenset())
        self.board.expect(expectation)
        hold = getattr(self.board, "hold", None)
        if hold is not None:
            hold(self.holding)
        recheck = getattr(self.board, "recheck", None)
        if recheck is not None:
            recheck(self.rechecking and self.paused is None)

    def refresh(self) -> None:
        """Show the table's status now: the board's problems, a notice, or all well."""
        from .table import Status

        with self.lock:
            status = (
                self._pause_status()
                or self.rules.board_status(self.table.state)
                or self.notice
                or Status()
            )
            self.table.set_status(status)
            if self.panel is not None:
                # The panel knows ok / illegal / waiting / idle: a finished game leaves it dark.
                over = self.table.is_over() and status.state == "ok"
                self.panel.show("idle" if over else status.state)

    # -- NFC and buttons ------------------------------------------------------
    def nfc(self, event: Any) -> None:
        """A card event from the NFC readers (:mod:`lawmaster.host.nfc.events`).

        A known card becomes an action through the game's rules (a criminal
        handing in evidence, GW playing a trump); an unknown tag is answered
        with the reader's reason and changes nothing.
        """
        from .table import Status

        kind = type(event).__name__
        with self.lock:
            if self.holding and kind in ("UnknownTag", "CardTapped"):
                self.counts["held"] += 1
                return
            if kind == "UnknownTag":
                self.counts["unknown_tag"] += 1
                self.notice = Status("illegal", f"unknown card: {event.message}")
            elif kind == "CardTapped":
                state = self.table.state
                reading = self.rules.card(event.card, event.seat, state)
                if isinstance(reading, str):
                    self.notice = Status("waiting", reading)
                elif reading is not None:
                    reason = self.apply_physical(
                        reading, self.rules.owner(reading, state), source=NFC
                    )
                    if reason is not None:
                        self.notice = self._refused(reading, reason, state)
            self.refresh()

    def button(self, name: str) -> None:
        """A panel button: ``"undo"`` asks for an undo, ``"confirm"`` confirms it,
        ``"end_turn"`` is the game's (e.g. a criminal who cannot move passes)."""
        with self.lock:
            if self.holding:
                self.counts["held"] += 1
                return
            if name == "undo":
                self.request_undo(None)
            elif name == "confirm" and self.table.undo is not None:
                self.confirm_undo(self.table.undo.confirmers[0])
            elif name == "end_turn":
                state = self.table.state
                action = self.rules.end_turn(state, self)
                if action is not None:
                    reason = self.apply_physical(
                        action, self.rules.owner(action, state), source=BUTTON
                    )
                    if reason is not None:
                        self.notice = self._refused(action, reason, state)
                self.refresh()

    def _refused(self, action: Mapping[str, Any], reason: str, state: Any) -> Status:
        from .table import Status

        name = self.rules.physical_name(action)
        return Status(
            "illegal", f"{name} is not allowed now", reason, self.rules.detail_seats(action, state)
        )

    # -- undo -----------------------------------------------------------------
    def request_undo(self, seat: str | None) -> dict[str, Any]:
        """Ask to take back the last accepted input; the other side must confirm."""
        from .table import UndoRequest

        with self.lock:
            if self.holding:
                return self._held()
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
        with self.lock:
            if self.holding:
                return self._held()
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
            self.table.journal.backup()
            self.rules.undone(self.table.state)
            self.notice = None
            # The board must go back too: the tracker now expects the earlier position
            # and reports every piece that stands elsewhere until it is put back.
            self.expect()
            self.refresh()
            return {"ok": True, "seq": seq}

    # -- what seats see -------------------------------------------------------
    def prompts(self, seat: str, state: Any, view: Mapping[str, Any]) -> list[dict[str, Any]]:
        """What ``seat`` is asked for now, built from its own ``view``."""
        return self.rules.prompts(seat, state, view)

    # -- inside ---------------------------------------------------------------
    def _accept(self, action: dict[str, Any], *, seat: str | None, source: str) -> Accepted:
        turn = self.table.to_act()
        accepted = self.table.accept(action, seat=seat, source=source)
        if self.table.to_act() != turn:
            # A turn ended: the journal's copy now bounds what damage could cost.
            self.table.journal.backup()
        self.counts["accepted"] += 1
        self.notice = None
        self.rules.accepted(accepted)
        self.table.set_prompts({})
        self.expect()
        self.refresh()
        for listener in self.on_accepted:
            listener(accepted.seq, action)
        return accepted

    def _rng(self) -> random.Random | None:
        """Digital dice: the operating system's randomness, which no copy of this
        program can predict; a table seed (the simulator's, the tests') instead
        seeds them by game and next sequence number, so such a game replays."""
        if not self.digital_dice:
            return None
        if self.seed is None:
            return _SYSTEM_DICE
        return random.Random(f"{self.seed}:{self.table.record.id}:{self.table.last_seq + 1}")


#: Game → module and class of the referee's rules for it (tablet-only GameRules otherwise).
_RULES = {
    "gw-brott": ("lawmaster.host.referee_gw", "GwBrottRules"),
    "unamerican-graffiti": ("lawmaster.host.referee_graffiti", "GraffitiRules"),
    "judge-dredd": ("lawmaster.host.referee_dredd", "DreddRules"),
}


def rules_for(table: Table) -> GameRules:
    """The referee's rules for the table's game (the base class for other games)."""
    import importlib

    found = _RULES.get(table.game)
    if found is None:
        return GameRules(table)
    module, name = found
    rules: GameRules = getattr(importlib.import_module(module), name)(table)
    return rules
