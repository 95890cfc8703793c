"""Wiring a table's hardware to its referee: one function for every table, real or simulated.

:func:`wire` takes a :class:`~lawmaster.host.devices.Hardware` (the real one of
``lawmaster run``, or the simulated one of ``lawmaster demo``, the bench and the
tests) and wires what it opens for the current game::

    scanner ─► Link ─► BoardFeed (sensing, tracker, channel watch) ─┐
    NFC readers ─► TableReaders ────────────────────────────────────┼─► Inputs ─► Referee
    panel buttons ─► Panel ─────────────────────────────────────────┘      (one thread)
    Referee ─► Panel (LED, buzzer); Referee ─► BoardFeed (what to expect)

The hardware's clock times the board's scans and the input queue's ticks.
:class:`TableStages` keeps the current game wired: a new game set up from a
tablet gets its own stages (its board, deck and pieces), the old ones stopped.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from lawmaster.firmware import protocol

from .board_feed import BoardFeed, sensor_faults
from .devices import Hardware
from .inputs import Inputs
from .link import Link, LinkError
from .nfc.cards import NoCardList, card_list
from .nfc.events import ReaderStatus
from .nfc.table import TableReaders
from .panel import Panel
from .progress import DeckProgress
from .runtime import Runtime
from .sensing.rate import scan_rate
from .table import Table

log = logging.getLogger(__name__)

#: What the wiring catches from a device that cannot be opened: it is said, not fatal.
CANNOT_OPEN = (OSError, ValueError, LookupError)


@dataclass
class Stages:
    """One game's wired stages; :meth:`close` stops them in reverse order."""

    table: Table
    inputs: Inputs
    link: Link | None = None
    feed: BoardFeed | None = None
    readers: TableReaders | None = None
    panel: Panel | None = None
    closers: list[Callable[[], None]] = field(default_factory=list)

    def close(self) -> None:
        for closer in reversed(self.closers):
            # One stage failing to close must not keep the others open.
            with contextlib.suppress(Exception):
                closer()
        self.closers.clear()

    def pipeline(self) -> dict[str, tuple[type, ...]]:
        """The classes each kind of input passes through, device to referee.

        What the tests compare between ``lawmaster run``'s stages and the bench's.
        """
        to_referee = (type(self.inputs), type(self.table.referee))
        found: dict[str, tuple[type, ...]] = {}
        if self.feed is not None:
            feed = self.feed
            found["board"] = (
                type(self.link),
                type(feed),
                type(feed.sensing),
                type(feed.tracker),
                type(feed.watch),
                *to_referee,
            )
        if self.readers is not None:
            kinds = {type(reader) for reader in self.readers.readers.values()}
            found["readers"] = (type(self.readers), *sorted(kinds, key=str), *to_referee)
        if self.panel is not None:
            found["panel"] = (type(self.panel), *to_referee)
        return found


def wire(runtime: Runtime, hardware: Hardware) -> Stages:
    """The current game's board, readers and panel from ``hardware``, wired to its referee.

    A device that cannot be opened is said in ``runtime.missing`` and the rest
    is wired: a table without its scanner still plays from the tablets.
    """
    host = runtime.host
    table = runtime.table
    inputs = Inputs(lambda: host.table, hardware.clock)
    stages = Stages(table, inputs, closers=[inputs.close])
    # The health's changes reach the referee in order with the board's inputs, so it
    # pauses while the board is blind (the scanner's first answer is one of them).
    health = runtime.health
    health.on_change.append(inputs.health_changed)
    stages.closers.append(lambda: health.on_change.remove(inputs.health_changed))
    host.calibration = host.enrollment = None
    try:
        if hardware.has_board:
            _wire_board(runtime, hardware, stages)
        _wire_readers(runtime, hardware, stages)
        _wire_panel(runtime, hardware, stages)
    except BaseException:
        stages.close()
        raise
    return stages


def _wire_board(runtime: Runtime, hardware: Hardware, stages: Stages) -> None:
    """Link → sensing → tracker → referee; the referee tells the feed what to expect.

    The scanner is told to scan at the board's rate (default: what the firmware's
    per-channel budget allows for the map's channels) once it answers; the link
    repeats it after every reconnect.
    """
    try:
        board = hardware.open_board(runtime.host, stages.table)
    except CANNOT_OPEN as exc:
        runtime.missing.append(f"board ({exc}); moves are entered on the tablets")
        return
    stages.closers.append(board.close)
    sensor_map = board.sensor_map
    rate = board.rate or scan_rate(sensor_map.channels)
    health = runtime.health
    health.map = sensor_map
    feed = BoardFeed.for_board(
        sensor_map, board.calibration, stages.inputs, hardware.clock, rate=rate, health=health
    )
    link = Link(
        board.port,
        feed.on_scan,
        on_status=health.link_status,
        expect_channels=sensor_map.channels,
        # The scanner's own self-test report (channel -> reason), at boot and on demand.
        on_selftest=lambda report: health.channel_faults_reported(
            source="self-test", failed=sensor_faults(report.failed)
        ),
    )
    health.watch_link(lambda: link.stats)
    stages.link, stages.feed = link, feed
    link.start()
    stages.closers.append(link.stop)
    stages.table.referee.attach_board(feed)
    stages.table.referee.health_changed()
    closed = threading.Event()
    stages.closers.append(closed.set)

    def set_rate() -> None:
        # A scanner not plugged in yet gets the rate when it first answers.
        while not closed.is_set():
            if link.wait_ready(0.5):
                try:
                    link.send_command(protocol.RATE, rate)
                except LinkError:
                    log.warning("could not set the scan rate to %d/s", rate)
                return

    threading.Thread(target=set_rate, name="scan-rate", daemon=True).start()
    if not link.wait_ready(hardware.link_wait):
        runtime.missing.append(
            f"the scanner on {board.port} has not answered yet (the link keeps trying)"
        )


def _wire_readers(runtime: Runtime, hardware: Hardware, stages: Stages) -> None:
    """The NFC readers; each card event goes to the referee, each reader's state to the health."""
    table = stages.table
    try:
        devices = hardware.open_readers(table)
    except CANNOT_OPEN as exc:
        runtime.missing.append(f"NFC readers ({exc})")
        return
    if devices is None:
        return
    stages.closers.append(devices.close)
    health, inputs = runtime.health, stages.inputs

    def deliver(event: Any) -> None:
        if isinstance(event, ReaderStatus):
            health.reader_status(event)
        else:
            inputs.card(event)

    try:
        readers = TableReaders(devices.configs, devices.registry, table.game, deliver)
    except CANNOT_OPEN as exc:
        runtime.missing.append(f"NFC readers ({exc})")
        return
    for name, reader in readers.readers.items():
        health.add_reader(name, reader.config.seat)
    readers.start()
    stages.closers.append(readers.stop)
    stages.readers = readers
    devices.watched_by(readers.readers)
    try:
        cards = card_list(table.game)
    except NoCardList:
        return  # a game without cards has nothing to enrol
    # The enrollment page counts the game's cards the registry knows (live: it is SQLite).
    runtime.host.enrollment = DeckProgress(devices.registry, table.game, cards)


def _wire_panel(runtime: Runtime, hardware: Hardware, stages: Stages) -> None:
    """The panel: LED and buzzer show each verdict; buttons go to the referee.

    Confirm first grants what waits for someone at the table: a device asking to be
    host, or a seat moving to another tablet (see :mod:`lawmaster.host.web.access`);
    only a press that granted nothing reaches the referee.
    """
    inputs = stages.inputs

    def pressed(name: str) -> None:
        access = getattr(runtime.web, "access", None)
        if name == "confirm" and access is not None and access.confirm_pressed():
            return
        inputs.button(name)

    try:
        pins, pin_factory = hardware.panel_pins()
        panel = Panel(pins, pressed, pin_factory=pin_factory)
    except Exception as exc:  # noqa: BLE001 - gpiozero raises its own zoo without pins
        runtime.missing.append(f"panel ({type(exc).__name__}: {exc})")
        return
    stages.closers.append(panel.close)
    stages.panel = panel
    stages.table.referee.attach_panel(panel)


class TableStages:
    """The stages of whatever game the host holds: wired at :meth:`start`, rewired per game.

    A game set up from the web's setup page has its own pieces, and maybe another
    board and deck: the old game's stages are stopped and the new game's wired.
    """

    def __init__(self, runtime: Runtime, hardware: Hardware) -> None:
        self.runtime = runtime
        self.hardware = hardware
        #: Held while the stages are rebuilt, so nobody uses half of them.
        self.lock = threading.RLock()
        self.current: Stages | None = None

    def start(self) -> TableStages:
        """Wire the current game's stages, and rebuild them for every new game."""
        runtime = self.runtime
        with self.lock:
            self.current = wire(runtime, self.hardware)
        runtime.stages = self
        runtime.host.on_new_table.append(self._renew)
        runtime.closers.append(self.close)
        return self

    @property
    def inputs(self) -> Inputs:
        """The input queue of the stages wired now."""
        assert self.current is not None, "the stages are not wired"
        return self.current.inputs

    def close(self) -> None:
        """Stop the stages of the current game; later games are not wired."""
        with contextlib.suppress(ValueError):
            self.runtime.host.on_new_table.remove(self._renew)
        with self.lock:
            if self.current is not None:
                self.current.close()
            self.current = None

    def _renew(self, table: Table) -> None:
        with self.lock:
            if self.current is not None:
                self.current.close()
            self.current = None
            self.current = wire(self.runtime, self.hardware)
