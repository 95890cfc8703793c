"""The referee's input queue: every hardware input reaches the referee through it.

A tracker observation, a card on a reader, a button, a change of the table's
health: each is queued here and handled by one thread, so the stages' own
threads (the serial link, the NFC readers, gpiozero's callbacks) never wait for
a journal commit, and inputs are refereed in the order they happened. Inputs
go to whatever table is current *when they are handled*, so a new game set up
from a tablet is refereed by the same queue's successor without a restart.

The same thread keeps the referee's time: when the game's rules wait for a
moment (GW's magnet resting), it wakes then and ticks the referee with the
hardware's clock, the one the board's scans are timed by (``time.monotonic`` at
a real table, the simulated world's clock in a simulation).

A stepped simulation (:class:`~lawmaster.host.sim.rig.RigBoard`) runs the same
queue without its thread: :meth:`Inputs.pump` after each scan.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from typing import Any

from .table import Table

log = logging.getLogger(__name__)

Deliver = Callable[[Table], None]

#: The shortest wait for something due (a scan period at 200 scans/s).
MIN_WAIT_S = 0.005


class Inputs:
    """One queue carrying hardware inputs to the current table's referee.

    ``current()`` is the table being played now (``None``: none yet); ``clock``
    the hardware's clock. With ``threaded`` (the table) a thread of its own
    drains the queue and keeps the time; without, :meth:`pump` does (a stepped
    simulation, which must stay on one thread to be deterministic).
    """

    def __init__(
        self,
        current: Callable[[], Table | None],
        clock: Callable[[], float],
        *,
        threaded: bool = True,
    ) -> None:
        self.current = current
        self.clock = clock
        self._queue: queue.Queue[Deliver | None] = queue.Queue()
        self.handled = 0
        self.errors: list[str] = []
        self._thread: threading.Thread | None = None
        if threaded:
            self._thread = threading.Thread(target=self._run, name="referee-inputs", daemon=True)
            self._thread.start()

    # -- what the stages hand in (any thread) ------------------------------------
    def put(self, deliver: Deliver) -> None:
        """Queue one input; ``deliver(table)`` runs on the referee's thread."""
        self._queue.put(deliver)

    def observation(self, observation: Any, now: float) -> None:
        """A tracker observation made at ``now`` (the board feed)."""
        self.put(lambda table: table.referee.observation(observation, now))

    def board_matches(self) -> None:
        """The board, checked since it came back, stands as the game has it (the board feed)."""
        self.put(lambda table: table.referee.board_matches())

    def card(self, event: Any) -> None:
        """A card event from a reader."""
        self.put(lambda table: table.referee.nfc(event))

    def button(self, name: str) -> None:
        """A panel button."""
        self.put(lambda table: table.referee.button(name))

    def health_changed(self) -> None:
        """The table's health changed (the referee pauses while the board is blind)."""
        self.put(lambda table: table.referee.health_changed())

    # -- waiting and stopping ---------------------------------------------------------
    def drain(self, timeout: float = 5.0) -> bool:
        """Wait until everything queued so far has been handled (tests, benches)."""
        if self._thread is None:
            self.pump()
            return True
        done = threading.Event()
        self._queue.put(lambda _table: done.set())
        return done.wait(timeout)

    def close(self) -> None:
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout=5)

    # -- the referee's side ---------------------------------------------------------------
    def pump(self) -> None:
        """Handle everything queued, then tick the referee (a stepped simulation's turn)."""
        while True:
            try:
                deliver = self._queue.get_nowait()
            except queue.Empty:
                break
            if deliver is not None:
                self._handle(deliver)
        self._tick()

    def _run(self) -> None:
        while True:
            try:
                deliver = self._queue.get(timeout=self._until_due())
            except queue.Empty:
                self._tick()
                continue
            if deliver is None:
                return
            self._handle(deliver)
            self._tick()

    def _handle(self, deliver: Deliver) -> None:
        table = self.current()
        if table is None:
            return
        try:
            deliver(table)
        except Exception as exc:  # noqa: BLE001 - one bad input must not stop the table
            log.exception("input failed")
            self.errors.append(f"{type(exc).__name__}: {exc}")
        self.handled += 1

    def _until_due(self) -> float | None:
        """Seconds until the referee has something to do by the clock (``None``: nothing).

        The clock's seconds are taken as the wall's: a simulated world runs at the
        pace of the wall (its scanner is paced by it), and a wake too early only
        finds nothing due yet and waits again. Never less than :data:`MIN_WAIT_S`:
        a referee holding its inputs (paused) leaves what is due undone, and a
        simulated clock stands still while its scanner is unplugged; neither may
        make this thread spin.
        """
        table = self.current()
        due = None if table is None else table.referee.due_at()
        return None if due is None else max(MIN_WAIT_S, due - self.clock())

    def _tick(self) -> None:
        table = self.current()
        if table is not None and table.referee.due_at() is not None:
            try:
                table.referee.tick(self.clock())
            except Exception as exc:  # noqa: BLE001 - as for any input
                log.exception("tick failed")
                self.errors.append(f"{type(exc).__name__}: {exc}")
