from __future__ import annotations

import dataclasses
import random
import secrets
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from lawmaster.host.plugin import (
    TABLET,
    Accepted,
    Answer,
    Ask,
    Completed,
    Expect,
    GameRules,
    Play,
    Prompt,
    Question,
    Status,
    Wait,
)
from lawmaster.host.ui.text import sentence, told
from lawmaster.rules.core import IllegalAction, events_for

if TYPE_CHECKING:
    from .health import Health
    from .table import Table

#: The table screen's seat.
TABLE = "table"
_SYSTEM_DICE = secrets.SystemRandom()


def completed_action(result: dict[str, Any] | Completed, source: str) -> tuple[dict[str, Any], str]:
    """The action and its source from what :meth:`GameRules.complete` returned."""
    if isinstance(result, Completed):
        return result.action, result.source
    return result, source


@dataclass
class UndoRequest:
    """An undo asked for by one seat, waiting for the other side to confirm."""

    by: str
    confirmers: tuple[str, ...]
    move: int


class Panel(Protocol):
    """The LED and buzzer (:class:`lawmaster.host.panel.Panel`, mock pins when simulated)."""

    def show(self, status: str) -> None: ...


class Board(Protocol):
    """The tracker's side of the board feed: told what to expect after every change.

    ``hold(on)``: while on, the referee holds its inputs (pieces astray are then
    no sign of a bad sensor); ``recheck(on)``: while on, the board compares what
    it sees with the expectation and reports :meth:`Referee.board_matches` (through
    the input queue) once they agree.
    """

    def expect(self, expectation: Any) -> None: ...

    def hold(self, on: bool) -> None: ...

    def recheck(self, on: bool) -> None: ...


class Referee:
    """One per table; see the module docstring."""

    def __init__(self, table: Table, rules: GameRules) -> None:
        self.table = table
        self.rules = rules
        settings = table.settings
        self.digital_dice = bool(settings.get("digital_dice", False))
        self.seed = settings.get("seed")
        self.panel: Panel | None = None
        self.board: Board | None = None
        self.lock = threading.RLock()
        #: A passing message (an unknown card, a refused tap) until the next change.
        self.notice: Status | None = None
        #: The question put to some seats, until it is answered or the game moves on.
        self.question: Question | None = None
        #: Called with (seq, action) after each accepted action is durable.
        self.on_accepted: list[Callable[[int, dict[str, Any]], None]] = []
        self.counts: dict[str, int] = {
            "accepted": 0,
            "rejected": 0,
            "illegal_physical": 0,
            "unknown_tag": 0,
            "held": 0,
        }
        #: The table's health, if wired.
        self.health: Health | None = None
        #: Why the board is blind, while the referee is paused (``None``: not paused).
        self.paused: str | None = None
        #: The board came back and is being compared with the game.
        self.rechecking = False
        rules.start(table.state)

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

    def attach_health(self, health: Health) -> None:
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
        why = self.paused or told("the board is being checked against the game")
        return {
            "ok": False,
            "paused": True,
            "error": told(
                "The referee is paused (%(why)s). Nothing was decided: send it again"
                " when play goes on.",
                why=why,
            ),
        }

    def _pause_status(self) -> Status | None:
        if self.paused is not None:
            # The seats' banners say why (each in the words it may read); the table
            # screen, which has no banner for it, reads the reason in its status.
            short = told(
                "Paused: no move is accepted or refused until the board can be read again."
            )
            why = sentence(self.paused)
            return Status(
                "blind", short, told("%(why)s. %(short)s", why=why, short=short), (TABLE,)
            )
        if self.rechecking:
            asked = self.rules.board_status(self.table.state)
            if asked is not None and asked.state == "illegal":
                back = "The board is back, but it differs from the game: %(problem)s"
                detail = told(back, problem=asked.detail) if asked.detail else ""
                message = told(back, problem=asked.message)
                return dataclasses.replace(asked, message=message, detail=detail)
            return Status(
                "waiting",
                told(
                    "The board is back. Put every piece where the game has it: play goes on"
                    " when the board matches the game."
                ),
            )
        return None

    # -- tablet ---------------------------------------------------------------
    def tablet(self, seat: str, action: Any, source: str = TABLET) -> dict[str, Any]:
        """Input typed on ``seat``'s tablet (``source``: ``"console"`` when the host typed it)."""
        with self.lock:
            if self.holding:
                return self._held()
            try:
                answered = self._answer(seat, action)
                if answered is not None:
                    self.carry_out(answered, seat)
                    self.refresh()
                    return {"ok": True, "events": []}
                if isinstance(action, dict) and action.get("act") in self.rules.tablet_acts:
                    self.carry_out(self.rules.tablet(seat, action, self.table.state), seat)
                    self.refresh()
                    return {"ok": True, "events": []}
                action = self._checked_tablet(seat, action)
                self._no_chosen_dice(action)
                completed = self.rules.complete(seat, action, self.table.state, self._rng())
                if isinstance(completed, Wait):
                    self.refresh()
                    return {"ok": True, "events": [], "pending": completed.message}
                whole, source = completed_action(completed, source)
                accepted = self._accept(whole, seat=seat, source=source)
            except IllegalAction as exc:
                self.counts["rejected"] += 1
                return {"ok": False, "error": exc.reason}
            return {"ok": True, "events": events_for(accepted.events, seat), "seq": accepted.seq}

    def _answer(self, seat: str, action: Any) -> Answer | None:
        """The meaning of an answer to the open question, if ``action`` is one."""
        question = self.question
        if question is None or not isinstance(action, dict):
            return None
        if action.get("act") != question.act:
            return None
        answer = question.answer(seat, action)
        self.question = None
        self.table.set_prompts({})
        return answer

    def _checked_tablet(self, seat: str, action: Any) -> dict[str, Any]:
        if not isinstance(action, dict) or not isinstance(action.get("act"), str):
            raise IllegalAction(told('an input must be an object with an "act" field'))
        state = self.table.state
        if seat not in self.table.engine.seats(state):
            raise IllegalAction(told("only a player's tablet can send moves"))
        if self.table.engine.is_over(state):
            raise IllegalAction(told("the game is over"))
        owner = self.rules.owner(action, state)
        if owner is None:
            if seat not in self.table.engine.to_act(state):
                raise IllegalAction(told("it is not your turn"))
        elif owner != seat:
            raise IllegalAction(
                told("only %(who)s can send '%(act)s'", who=owner, act=action["act"])
            )
        return dict(action)

    def _no_chosen_dice(self, action: Mapping[str, Any]) -> None:
        """With digital dice on, the dice come from the referee's generator only: an input
        that carries faces of its own (a seat's, or the host's console) is refused."""
        if not self.digital_dice:
            return
        fields = self.rules.dice_fields.get(str(action.get("act")), frozenset())
        if any(name in action for name in fields):
            raise IllegalAction(
                told(
                    "This table rolls its dice itself (digital dice are on): press Roll and"
                    " the referee rolls for you. Dice typed in are not taken."
                )
            )

    # -- board ----------------------------------------------------------------
    def observation(self, observation: Any, now: float = 0.0) -> None:
        """A tracker observation made at ``now`` (the table's clock): a piece moved,
        was caught, jailed, misplaced, restored."""
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
            self.carry_out(self.rules.observe(observation, self.table.state, now))
            self.refresh()

    def due_at(self) -> float | None:
        """When :meth:`tick` has something to do (the rules wait for a pause to end)."""
        return self.rules.due_at()

    def tick(self, now: float) -> None:
        """The table's clock reads ``now``: what the rules waited for may be due."""
        with self.lock:
            due = self.rules.due_at()
            if due is None or now < due or self.holding:
                return
            self.carry_out(self.rules.due(self.table.state, now))
            self.refresh()

    def carry_out(self, decision: Answer, seat: str | None = None) -> None:
        """Carry out what the rules decided (see :mod:`lawmaster.host.plugin.rules`)."""
        if callable(decision):
            decision = decision(self.table.state)
        if decision is None:
            return
        if isinstance(decision, Wait):
            self.notice = Status("waiting", decision.message)
        elif isinstance(decision, Expect):
            self.expect()
        elif isinstance(decision, Ask):
            self.question = decision.question
            prompts = {s: [decision.question.prompt] for s in decision.question.seats}
            self.table.set_prompts(prompts)
        elif isinstance(decision, Play):
            self._play(decision)
        else:  # pragma: no cover - a rules bug, not a player's mistake
            raise TypeError(f"not a decision: {decision!r}")

    def _play(self, play: Play) -> None:
        for action in play.actions:
            if self.holding:
                self.counts["held"] += 1
                return  # a paused referee neither accepts nor refuses
            state = self.table.state
            try:
                completed = self.rules.complete(play.seat or "", dict(action), state, self._rng())
                if isinstance(completed, Wait):
                    self.notice = Status("waiting", completed.message)
                    return
                whole, source = completed_action(completed, play.source)
                self._accept(whole, seat=play.seat, source=source)
            except IllegalAction as exc:
                self.counts["illegal_physical"] += 1
                notice = self.rules.refused(play, dict(action), exc.reason, state)
                if notice is not None:
                    self.notice = notice
                return

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
        self.board.hold(self.holding)
        self.board.recheck(self.rechecking and self.paused is None)

    def expectation(self) -> Any:
        """What the board should show now (``None``: this game does not read the board).

        Public, as the table's status is: a person at the table reads from the
        screen where every piece belongs.
        """
        with self.lock:
            return self.rules.expectation(self.table.state)

    def detail_seats(self, action: Mapping[str, Any]) -> tuple[str, ...]:
        """Seats that may read the details of why an input like ``action`` was wrong."""
        with self.lock:
            return self.rules.detail_seats(action, self.table.state)

    def refresh(self) -> None:
        """Show the table's status now: the board's problems, a notice, or all well."""
        with self.lock:
            question = self.question
            status = (
                self._pause_status()
                or self.rules.board_status(self.table.state)
                or self.notice
                or (Status("waiting", question.waiting) if question is not None else None)
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

        A known card becomes a decision of the game's rules (a criminal handing
        in evidence, GW playing a trump); an unknown tag is answered with the
        reader's reason and changes nothing.
        """
        kind = type(event).__name__
        with self.lock:
            if self.holding and kind in ("UnknownTag", "CardTapped"):
                self.counts["held"] += 1
                return
            if kind == "UnknownTag":
                self.counts["unknown_tag"] += 1
                self.notice = Status("illegal", told("unknown card: %(why)s", why=event.message))
            elif kind == "CardTapped":
                self.carry_out(self.rules.card(event.card, event.seat, self.table.state))
            self.refresh()

    def button(self, name: str) -> None:
        """A panel button: ``"undo"`` asks for an undo, ``"confirm"`` confirms it; any
        other (``"end_turn"``) is the game's (e.g. a criminal who cannot move passes)."""
        with self.lock:
            if self.holding:
                self.counts["held"] += 1
                return
            if name == "undo":
                self.request_undo(None)
            elif name == "confirm":
                if self.table.undo is not None:
                    self.confirm_undo(self.table.undo.confirmers[0])
            else:
                self.carry_out(self.rules.button(name, self.table.state))
                self.refresh()

    # -- undo -----------------------------------------------------------------
    def request_undo(self, seat: str | None) -> dict[str, Any]:
        """Ask to take back the last accepted input; the other side must confirm."""
        with self.lock:
            if self.holding:
                return self._held()
            state = self.table.state
            if not self.table.actions:
                return {"ok": False, "error": told("there is nothing to undo")}
            sides = self.rules.sides(state)
            if seat is not None and seat not in sides:
                return {"ok": False, "error": told("only a player can ask for an undo")}
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
                return {"ok": False, "error": told("nobody asked for an undo")}
            if seat not in request.confirmers:
                return {"ok": False, "error": told("the other side must confirm the undo")}
            if request.move != len(self.table.actions):
                self.table.set_undo(None)
                return {"ok": False, "error": told("the game moved on; ask again")}
            try:
                seq = self.table.take_back(seat=seat, source=TABLET)
            except IllegalAction as exc:
                return {"ok": False, "error": exc.reason}
            self.table.journal.backup()
            self.rules.undone(self.table.state)
            self._forget_question()
            self.notice = None
            # The board must go back too: the tracker now expects the earlier position
            # and reports every piece that stands elsewhere until it is put back.
            self.expect()
            self.refresh()
            return {"ok": True, "seq": seq}

    # -- what seats see -------------------------------------------------------
    def prompts(self, seat: str, state: Any, view: Mapping[str, Any]) -> list[Prompt]:
        """What ``seat`` is asked for now, built from its own ``view``."""
        return self.rules.prompts(seat, state, view)

    # -- inside ---------------------------------------------------------------
    def _forget_question(self) -> None:
        if self.question is not None:
            self.question = None
            self.table.set_prompts({})

    def _accept(self, action: dict[str, Any], *, seat: str | None, source: str) -> Accepted:
        turn = self.table.to_act()
        accepted = self.table.accept(action, seat=seat, source=source)
        if self.table.to_act() != turn:
            # A turn ended: the journal's copy now bounds what damage could cost.
            self.table.journal.backup()
        self.counts["accepted"] += 1
        self.notice = None
        # An open question was about the game before this input: it no longer stands.
        self._forget_question()
        self.rules.accepted(accepted, self.table.state)
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
