"""One table's game as the tablets see it: state, journal, secrecy, subscriptions.

:class:`Table` is the object the web app is given (see the table contract). It
holds the engine state after every accepted input (so undo and history are
cheap), writes each input to the :class:`~lawmaster.host.journal.Journal`
before anyone sees its verdict, and builds everything a seat receives from
``engine.view(state, seat)`` and ``events_for(events, seat)`` only.

Inputs reach it through its :class:`~lawmaster.host.referee.Referee`: tablet
input via :meth:`Table.submit`, and the board, NFC reader and buttons via the
referee's own entry points. The referee calls :meth:`Table.accept` for each
action it has checked and put together. The game comes from the registry of
games (:mod:`lawmaster.host.games`) by the header's slug.
"""

from __future__ import annotations

import hmac
import queue
import secrets
import threading
from collections.abc import Callable, Mapping
from typing import Any

from lawmaster.host import games
from lawmaster.host.plugin import Accepted, Game, Prompt, Status
from lawmaster.rules.core import Engine, IllegalAction, Outcome, events_for
from lawmaster.rules.core.export import scenario_lines
from lawmaster.rules.core.refusals import refusal_for

from .journal import ACTION, UNDO, GameRecord, Journal
from .referee import Referee, UndoRequest

TABLE_SEAT = "table"

__all__ = ["TABLE_SEAT", "Accepted", "Status", "Subscription", "Table", "TableHost"]


class ReplayFailed(Exception):
    """A journalled input the engine refuses on replay (a record changed, or an older engine's
    game): the table resumes at the input before it (see :meth:`TableHost.__init__`)."""

    def __init__(self, game_id: int, seq: int, reason: str) -> None:
        super().__init__(f"input {seq} cannot be replayed: {reason}")
        self.game_id = game_id
        self.seq = seq
        self.reason = reason


class Subscription:
    """A seat's stream of snapshot messages; one message per change."""

    def __init__(self, table: Table, seat: str) -> None:
        self.seat = seat
        self._table = table
        self._queue: queue.Queue[dict[str, Any]] = queue.Queue()
        self.closed = False

    def get(self, timeout: float | None = None) -> dict[str, Any] | None:
        """The next message, or ``None`` after ``timeout`` seconds (or when closed)."""
        if self.closed:
            return None
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def put(self, message: dict[str, Any]) -> None:
        if not self.closed:
            self._queue.put(message)

    def close(self) -> None:
        self.closed = True
        self._table._unsubscribe(self)


class Table:
    """A game in progress at one table (see ``docs/TABLE.md``)."""

    def __init__(self, journal: Journal, record: GameRecord) -> None:
        self.journal = journal
        self.record = record
        self.header: dict[str, Any] = dict(record.header)
        self.settings: dict[str, Any] = dict(record.settings)
        #: The game being played (its plugin: engine, rules, pages, players…).
        self.plugin: Game = games.game(self.header.get("game"))
        self.engine: Engine[Any] = self.plugin.engine
        self.game: str = self.plugin.slug
        self._lock = threading.RLock()
        outcome = self.engine.new_game(self.header)
        # _states[i] / _events[i]: the state and events after i accepted actions.
        self._states: list[Any] = [outcome.state]
        self._events: list[list[dict[str, Any]]] = [list(outcome.events)]
        self._actions: list[dict[str, Any]] = []
        #: Who entered each action in force and how (seat, journal source): the log says
        #: who entered each roll of dice.
        self._entered: list[tuple[str | None, str]] = []
        #: Per seat, each accepted batch's log lines and dice notes as that seat sees
        #: them: a batch never changes once accepted (an undo drops its own), so a
        #: snapshot need not filter the whole game's events again.
        self._seen: dict[str, list[tuple[list[dict[str, Any]], list[dict[str, Any]]]]] = {}
        for entry in record.in_force():
            try:
                outcome = self.engine.apply(self._states[-1], entry.body)
            except Exception as exc:  # noqa: BLE001 - any record the engine cannot take
                reason = exc.reason if isinstance(exc, IllegalAction) else repr(exc)
                raise ReplayFailed(record.id, entry.seq, str(reason)) from None
            self._push(entry.body, outcome)
            self._entered.append((entry.seat, entry.source))
        self.last_seq = record.last_seq
        self.status = Status()
        self.undo: UndoRequest | None = None
        self.version = self.last_seq
        self._subscribers: list[Subscription] = []
        self._prompts: dict[str, list[Prompt]] = {}
        #: The table's hardware health (:class:`~lawmaster.host.health.Health`), if wired.
        self.health: Any = None
        self.referee = Referee(self, self.plugin.new_rules(self.header, self.settings))

    # -- construction -------------------------------------------------------
    @classmethod
    def start(
        cls, journal: Journal, header: Mapping[str, Any], settings: Mapping[str, Any] | None = None
    ) -> Table:
        """Set up a new game (checked by the engine first) and journal it."""
        engine = games.engine_for(header.get("game"))
        state = engine.new_game(header).state
        tokens = {seat: secrets.token_urlsafe(24) for seat in [*engine.seats(state), TABLE_SEAT]}
        record = journal.start_game(header, settings or {}, tokens)
        return cls(journal, record)

    @classmethod
    def resume(cls, journal: Journal) -> Table | None:
        """The journal's open game rebuilt by replay, or ``None`` if there is none."""
        record = journal.open_game()
        return None if record is None else cls(journal, record)

    # -- what the web app reads ---------------------------------------------
    @property
    def state(self) -> Any:
        return self._states[-1]

    @property
    def actions(self) -> list[dict[str, Any]]:
        return list(self._actions)

    def seats(self) -> list[str]:
        return list(self.engine.seats(self.state))

    def token(self, seat: str) -> str:
        return self.record.tokens[seat]

    def seat_for_token(self, token: str) -> str | None:
        found = None
        for seat, known in self.record.tokens.items():
            # Compare against every token so the time taken says nothing.
            if hmac.compare_digest(known.encode(), str(token).encode()):
                found = seat
        return found

    def is_over(self) -> bool:
        return self.engine.is_over(self.state)

    @property
    def game_key(self) -> str:
        """This game and its input count: what seeds a simulated player's next choice."""
        return f"{self.record.id}:{self.last_seq}"

    def to_act(self) -> list[str]:
        return list(self.engine.to_act(self.state))

    def snapshot(self, seat: str) -> dict[str, Any]:
        with self._lock:
            return self._snapshot_at(len(self._actions), seat, live=True)

    def history(self, seat: str) -> list[dict[str, Any]]:
        """That seat's snapshot after each accepted input (setup first)."""
        with self._lock:
            return [self._snapshot_at(i, seat, live=False) for i in range(len(self._states))]

    def export_scenario(self, seat: str | None = None) -> list[str] | None:
        """The finished game as scenario lines (header first); ``None`` until it is over.

        ``seat=None`` is the whole file, every secret in it (the journal's
        copy); a seat gets only the inputs it saw happen, the rest as comments
        (see :func:`lawmaster.rules.core.export.scenario_lines`).
        """
        with self._lock:
            if not self.is_over():
                return None
            first_view = None
            if seat is not None:
                if seat not in [*self.seats(), TABLE_SEAT]:
                    raise IllegalAction(f"there is no seat {seat!r} in this game")
                first_view = self.engine.view(self._states[0], seat)
            return scenario_lines(self.header, self._actions, self._events, seat, first_view)

    # -- input --------------------------------------------------------------
    def submit(self, seat: str, action: Any, source: str = "tablet") -> dict[str, Any]:
        """Tablet input from ``seat`` (``source``: ``"console"`` when the host typed it for
        the seat); never raises."""
        try:
            return self.referee.tablet(seat, action, source)
        except Exception as exc:  # noqa: BLE001 - a tablet never sees a traceback
            return {"ok": False, "error": f"the referee could not take that input ({exc})"}

    def request_undo(self, seat: str) -> dict[str, Any]:
        return self.referee.request_undo(seat)

    def confirm_undo(self, seat: str) -> dict[str, Any]:
        return self.referee.confirm_undo(seat)

    def subscribe(self, seat: str) -> Subscription:
        subscription = Subscription(self, seat)
        with self._lock:
            self._subscribers.append(subscription)
        return subscription

    def refusal(self, seat: str, action: Mapping[str, Any]) -> str | None:
        """What ``seat`` would read if it sent ``action`` now (``None``: it would be taken).

        A careful player counting squares before moving: the answer is the refusal
        that seat would read anyway (:func:`~lawmaster.rules.core.refusals.refusal_for`),
        so it tells it nothing more than trying would.
        """
        with self._lock:
            try:
                self.engine.apply(self.state, dict(action))
            except IllegalAction as exc:
                return refusal_for(self.engine, dict(action), exc.reason, seat)
            return None

    # -- what the referee calls ---------------------------------------------

    def accept(self, action: Mapping[str, Any], *, seat: str | None, source: str) -> Accepted:
        """Apply, journal (durably), then publish one action; :class:`IllegalAction` if illegal.

        The state only changes after the journal commit, so nothing is shown
        that a crash could lose.
        """
        action = dict(action)
        with self._lock:
            outcome = self.engine.apply(self.state, action)
            seq = self.journal.append(self.record.id, ACTION, action, seat=seat, source=source)
            self.last_seq = seq
            self._push(action, outcome)
            self._entered.append((seat, source))
            self.undo = None
            accepted = Accepted(seq, len(self._actions), list(outcome.events), action, source)
            self._changed()
        return accepted

    def take_back(self, *, seat: str | None, source: str) -> int:
        """Undo the last accepted action, durably; returns the journal sequence number."""
        with self._lock:
            if not self._actions:
                raise IllegalAction("there is nothing to undo")
            undone = self._actions[-1]
            seq = self.journal.append(
                self.record.id,
                UNDO,
                {"undo": len(self._actions), "action": undone},
                seat=seat,
                source=source,
            )
            self.last_seq = seq
            self._states.pop()
            self._events.pop()
            self._actions.pop()
            self._entered.pop()
            for seen in self._seen.values():
                del seen[len(self._events) :]
            self.undo = None
            self._changed()
            return seq

    def events_since(self, move: int) -> list[dict[str, Any]]:
        """Every event (omniscient) of the actions after the first ``move``."""
        with self._lock:
            return [e for batch in self._events[move + 1 :] for e in batch]

    def set_status(self, status: Status) -> None:
        with self._lock:
            if status != self.status:
                self.status = status
                self._changed()

    def set_prompts(self, prompts: Mapping[str, list[Prompt]]) -> None:
        """Extra prompts per seat from the referee (e.g. which of two readings happened)."""
        with self._lock:
            cleaned = {seat: list(p) for seat, p in prompts.items() if p}
            if cleaned != self._prompts:
                self._prompts = cleaned
                self._changed()

    def touch(self, only: str | None = None) -> None:
        """Send every open page a fresh snapshot: something beside the game changed (the
        table's health). ``only``: the pages of that seat alone (``"table"``: the table
        screens, whose join panel says who joined)."""
        with self._lock:
            self._changed(only)

    def set_undo(self, request: UndoRequest | None) -> None:
        with self._lock:
            self.undo = request
            self._changed()

    # -- inside -------------------------------------------------------------
    def _push(self, action: dict[str, Any], outcome: Outcome) -> None:
        self._actions.append(action)
        self._events.append(list(outcome.events))
        self._states.append(outcome.state)

    def _snapshot_at(self, move: int, seat: str, *, live: bool) -> dict[str, Any]:
        state = self._states[move]
        batches = self._seen_by(seat, move)
        # Fresh dicts for each snapshot, as before: no page can edit another's lines.
        log = [dict(line) for lines, _ in batches for line in lines]
        entered = [dict(note) for _, notes in batches for note in notes]
        over = self.engine.is_over(state)
        view = self.engine.view(state, seat)
        snapshot: dict[str, Any] = {
            "seat": seat,
            "game": self.game,
            "view": view,
            "log": log,
            # Who entered each roll of dice (by move), beside the game's own events.
            "entered": entered,
            "move": move,
            "to_act": list(self.engine.to_act(state)),
            "over": over,
            "version": self.version,
        }
        if live:
            status = self.status if not over or self.status.state != "ok" else _OVER
            snapshot["status"] = status.for_seat(seat)
            snapshot["prompts"] = (
                [] if seat == TABLE_SEAT else self.referee.prompts(seat, state, view)
            ) + self._prompts.get(seat, [])
            snapshot["undo"] = _undo_view(self.undo, seat)
            if self.health is not None:
                snapshot["health"] = self.health.for_seat(seat)
        else:
            snapshot["status"] = (_OVER if over else Status()).for_seat(seat)
            snapshot["prompts"] = []
            snapshot["undo"] = None
        return snapshot

    def _seen_by(
        self, seat: str, move: int
    ) -> list[tuple[list[dict[str, Any]], list[dict[str, Any]]]]:
        """Batches ``0..move`` as ``seat`` sees them: its log lines and who entered the dice."""
        memo = self._seen.setdefault(seat, [])
        for number in range(len(memo), move + 1):
            seen = events_for(self._events[number], seat)
            lines = [{"move": number, **event} for event in seen]
            notes: list[dict[str, Any]] = []
            if seen and number:
                note = self._entered_note(number - 1)
                if note is not None:
                    notes.append({"move": number, **note})
            memo.append((lines, notes))
        return memo[: move + 1]

    def _entered_note(self, index: int) -> dict[str, Any] | None:
        """Who entered the dice of the ``index``-th action, if it was a roll (else ``None``).

        Shown to whoever sees that action's events: a roll typed on a tablet never
        reads like one the referee made.
        """
        action = self._actions[index]
        fields = self.referee.rules.dice_fields.get(str(action.get("act")), frozenset())
        if not fields or not any(name in action for name in fields):
            return None
        seat, source = self._entered[index]
        return {"by": seat, "source": source}

    def _changed(self, only: str | None = None) -> None:
        if only is None:
            # The game's pages change: a page that reconnects with an older version
            # is sent what it missed. A push to one seat's pages alone (the table
            # screens' join panel) is no change of the game's.
            self.version += 1
        cache: dict[str, dict[str, Any]] = {}
        for subscription in list(self._subscribers):
            if only is not None and subscription.seat != only:
                continue
            if subscription.seat not in cache:
                cache[subscription.seat] = self._snapshot_at(
                    len(self._actions), subscription.seat, live=True
                )
            subscription.put({"type": "update", "snapshot": cache[subscription.seat]})

    def _unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            if subscription in self._subscribers:
                self._subscribers.remove(subscription)


_OVER = Status("over", "the game is over")


def _undo_view(request: UndoRequest | None, seat: str) -> dict[str, Any] | None:
    if request is None:
        return None
    return {
        "by": request.by,
        "move": request.move,
        "can_confirm": seat in request.confirmers,
    }


def _resume(journal: Journal) -> Table | None:
    """The open game by replay; an input the engine refuses is cut with the inputs after it,
    and the journal's damage report says which (never a traceback at start)."""
    while True:
        try:
            return Table.resume(journal)
        except ReplayFailed as failed:
            journal.cut(failed.game_id, failed.seq, failed.reason)


class TableHost:
    """What the web app's setup pages hold: the current table (``None`` before setup).

    Board, NFC and button inputs are routed through the host, not a fixed
    table, so a new game started from a tablet is refereed by the same stack.
    """

    def __init__(self, journal: Journal, settings: Mapping[str, Any] | None = None) -> None:
        self.journal = journal
        journal.claim()  # one host per table: a second one is refused at start
        self.settings: dict[str, Any] = dict(settings or {})
        self.table: Table | None = _resume(journal)
        #: Called with each new :class:`Table` (the runtime rewires panel and board).
        self.on_new_table: list[Callable[[Table], None]] = []
        #: Optional progress objects (``progress() -> dict``) for the setup pages.
        self.calibration: Any = None
        self.enrollment: Any = None

    def new_game(self, header: Mapping[str, Any]) -> Table:
        """Start a new game (the old one is closed in the journal)."""
        table = Table.start(self.journal, header, self.settings)
        self.table = table
        for listener in self.on_new_table:
            listener(table)
        return table
