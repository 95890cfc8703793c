"""Wiring the table's hardware stages to the referee, real or simulated.

Every hardware input (a tracker observation, an NFC card event, a button)
reaches the referee through one :class:`Inputs` queue drained by one thread,
so the stages' own threads (the serial link, the NFC readers, gpiozero's
callbacks) never wait for a journal commit, and inputs are refereed in the
order they happened. Inputs go to whatever table the host holds *now*, so a
new game set up from a tablet is refereed by the same stack.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from typing import Any

from .runtime import Runtime
from .table import Table, TableHost

log = logging.getLogger(__name__)


class Inputs:
    """One queue and one thread carrying hardware inputs to the current table's referee."""

    def __init__(self, host: TableHost) -> None:
        self.host = host
        self._queue: queue.Queue[Callable[[Table], None] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="referee-inputs", daemon=True)
        self.handled = 0
        self.errors: list[str] = []
        self._thread.start()

    def put(self, deliver: Callable[[Table], None]) -> None:
        """Queue one input; ``deliver(table)`` runs on the referee thread."""
        self._queue.put(deliver)

    def drain(self, timeout: float = 5.0) -> bool:
        """Wait until everything queued so far has been handled (tests, benches)."""
        done = threading.Event()
        self._queue.put(lambda _table: done.set())
        return done.wait(timeout)

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while True:
            deliver = self._queue.get()
            if deliver is None:
                return
            table = self.host.table
            if table is None:
                continue
            try:
                deliver(table)
            except Exception as exc:  # noqa: BLE001 - one bad input must not stop the table
                log.exception("input failed")
                self.errors.append(f"{type(exc).__name__}: {exc}")
            self.handled += 1


def inputs_of(runtime: Runtime) -> Inputs:
    """The runtime's input queue, created on first use."""
    existing = getattr(runtime, "inputs", None)
    if existing is None:
        existing = Inputs(runtime.host)
        runtime.inputs = existing  # type: ignore[attr-defined]
        runtime.closers.append(existing.close)
    return existing


def wire_nfc(
    runtime: Runtime,
    readers: Any,
    registry: Any,
    *,
    opener: Callable[[Any], Any] | None = None,
) -> Any:
    """Start the NFC readers; each card event goes to the referee."""
    from .nfc.table import TableReaders

    inputs = inputs_of(runtime)
    extra = {} if opener is None else {"opener": opener}
    table_readers = TableReaders(
        readers,
        registry,
        runtime.table.game,
        lambda event: inputs.put(lambda table: table.referee.nfc(event)),
        **extra,
    )
    table_readers.start()
    runtime.closers.append(table_readers.stop)
    return table_readers


def wire_panel(runtime: Runtime, pins: Any, pin_factory: Any = None) -> Any:
    """The panel on ``pins``: LED and buzzer show each verdict; buttons go to the referee."""
    from .panel import Panel

    inputs = inputs_of(runtime)
    panel = Panel(
        pins,
        lambda name: inputs.put(lambda table: table.referee.button(name)),
        pin_factory=pin_factory,
    )
    runtime.closers.append(panel.close)

    def attach(table: Table) -> None:
        table.referee.attach_panel(panel)

    attach(runtime.table)
    runtime.host.on_new_table.append(attach)
    return panel


def wire_real_panel(runtime: Runtime, config: Any) -> Any:
    """The panel with the pins and pin factory of the table config's ``[panel]``."""
    from .panel import PanelPins, panel_pin_factory

    pins = PanelPins.from_config(config)
    return wire_panel(runtime, pins, panel_pin_factory(False, config.pin_factory))


def wire_simulated_panel(runtime: Runtime) -> Any:
    """The panel on gpiozero's mock pins (the demo's LED, buzzer and buttons)."""
    from .panel import PanelPins, panel_pin_factory

    return wire_panel(runtime, PanelPins(), panel_pin_factory(True))


def wire_simulated_nfc(runtime: Runtime, seed: int) -> Any:
    """One emulated PN532 at the table (shared reader) with the whole deck enrolled."""
    from .nfc.simulated import SimulatedNfc

    inputs = inputs_of(runtime)
    nfc = SimulatedNfc(
        runtime.table.game,
        lambda event: inputs.put(lambda table: table.referee.nfc(event)),
        seed=seed,
    )
    nfc.__enter__()
    runtime.closers.append(nfc.close)
    return nfc


class SimulatedTable:
    """The demo's hands at the table: cards tapped on the emulated reader, tablets typed on.

    :meth:`act` carries out one :class:`~lawmaster.host.sim.players.Decision`
    the way a person would: evidence is handed in by tapping its card on the
    table's reader; everything else is typed on the seat's tablet. It waits
    until the referee has taken the input (or refused it) before returning.
    """

    def __init__(self, runtime: Runtime, nfc: Any = None, timeout: float = 10.0) -> None:
        self.runtime = runtime
        self.nfc = nfc
        self.timeout = timeout

    def act(self, table: Table, decision: Any) -> bool:
        action = decision.action
        before = table.last_seq
        if self.nfc is not None and action.get("act") == "destroy_evidence":
            self.nfc.tap(action["card"])
            return self._wait(table, before, decision)
        result = table.submit(decision.seat, action)
        if not result.get("ok"):
            raise RuntimeError(f"{decision.seat}: {action} refused: {result.get('error')}")
        return True

    def _wait(self, table: Table, before: int, decision: Any) -> bool:
        from .runtime import wait_until

        if not wait_until(lambda: table.last_seq > before, self.timeout):
            raise RuntimeError(
                f"{decision.seat}: {decision.action} was not taken: {table.status.message}"
            )
        return True


def wire_simulated_table(runtime: Runtime, seed: int) -> Callable[[Table, Any], bool]:
    """The simulated panel and NFC reader (and board, when wired); returns the players' hands."""
    wire_simulated_panel(runtime)
    nfc = wire_simulated_nfc(runtime, seed)
    return SimulatedTable(runtime, nfc).act
