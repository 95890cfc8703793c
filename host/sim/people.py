"""The simulated people at a simulated table: hands on the board, cards on the readers, tablets.

:class:`SimulatedPeople` carries out what the simulated players decide
(:mod:`lawmaster.host.plugin.players`) on whatever the simulated hardware
(:class:`~lawmaster.host.sim.hardware.SimulatedHardware`) has opened for the
game wired now, the way people would; the table sees only what its devices
report and what the tablets send.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from ..nfc.simulated import EmulatedReaders
from ..runtime import wait_until
from ..stack import TableStages
from ..table import Table
from .hardware import SimulatedBoard, SimulatedHardware

#: Inputs the simulated players make by laying cards on the readers.
CARD_ACTS = frozenset({"place_crime", "reveal_perp", "draw", "commit", "discard_sector"})


class SimulatedPeople:
    """The people at a simulated table: hands on the board, cards on the readers, tablets.

    :meth:`act` carries out one :class:`~lawmaster.host.plugin.players.Intent`
    the way a person would: a criminal says its die on the tablet and moves
    its piece on the board; GW rolls on the tablet and slides its magnet
    (stopping where it clicks onto a criminal); a caught piece is put in the
    jail; evidence is handed in by tapping its card on the reader; everything
    else is typed on the seat's tablet. It waits until the referee has taken
    the input before returning.
    """

    def __init__(
        self, stages: TableStages, hardware: SimulatedHardware, timeout: float = 15.0
    ) -> None:
        self.stages = stages
        self.hardware = hardware
        self.timeout = timeout
        #: The devices of the game being acted on (set by :meth:`act`).
        self.board: SimulatedBoard | None = None
        self.nfc: EmulatedReaders | None = None
        #: When (wall clock) a simulated player answered a "which way" question on its tablet.
        self.answered: list[float] = []

    def act(self, table: Table, decision: Any) -> bool:
        """Carry a decision out; ``False`` if its game was replaced meanwhile."""
        with self.stages.lock:  # never a half-built set of stages
            current = self.stages.current
            self.board, self.nfc = self.hardware.board, self.hardware.nfc
        if current is None or current.table is not table:
            return False  # decided for a game that is no longer on the table
        try:
            return self._act(table, decision)
        except Exception:
            if table is not self.stages.runtime.host.table:
                return False  # the game was replaced while its hardware was in use
            raise

    def _act(self, table: Table, decision: Any) -> bool:
        # A person at a paused table waits until the referee says play goes on.
        wait_until(lambda: not table.referee.holding, self.timeout, 0.02)
        action = decision.action
        before = table.last_seq
        taps = decision.notes.get("taps") or []
        if self.nfc is not None and action.get("act") == "destroy_evidence":
            self._reader_clear(None)
            self.nfc.tap(action["card"])
            self._wait(table, before, decision)
        elif self.nfc is not None and taps and action.get("act") in CARD_ACTS:
            self._tap_cards(table, decision, taps)
        elif self.board is not None and decision.move is not None:
            self._on_board(table, decision, before)
        else:
            result = table.submit(decision.seat, action)
            if not result.get("ok"):
                raise RuntimeError(f"{decision.seat}: {action} refused: {result.get('error')}")
        self._tidy(table)
        return True

    def _tidy(self, table: Table) -> None:
        """Carry out what the game did to pieces by itself (a Judge sent to hospital).

        Like a person reading the table's status, the simulation moves every piece
        that may not move now but stands somewhere other than where the game has it.
        """
        if self.board is None:
            return
        expectation = table.referee.expectation()
        if expectation is None:
            return
        for piece, where in sorted(expectation.positions.items()):
            if where is None or piece in expectation.movers or piece in expectation.to_jail:
                continue
            if not self.board.is_on(piece, where):
                self.board.in_the_box(piece, expectation.kinds[piece])
                rest = self.board.lift_place(piece, where)
                self.board.wait_for(rest + 0.4, self.timeout)

    def _tap_cards(self, table: Table, decision: Any, taps: list[tuple[str, Any]]) -> bool:
        """Cards laid on the readers (Judge Dredd): each tap is an input, or part of one."""
        assert self.nfc is not None
        before = len(table.actions)
        expected = len(taps) if decision.action["act"] == "draw" else 1
        for card, seat in taps:
            self._reader_clear(seat)
            self.nfc.tap(card, seat)
        deadline = time.monotonic() + self.timeout
        while not wait_until(lambda: len(table.actions) >= before + expected, 0.1):
            # Several Judges fight: the seat's tablet asks which one the card is for.
            _answer(table, decision.seat, "commit_for", "for", decision.action.get("for"))
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"{decision.seat}: {decision.action} was not taken: {table.status.message}"
                    f" / {table.status.detail}"
                )
        return True

    def _reader_clear(self, seat: str | None) -> None:
        """Wait until the reader has noticed the last card was lifted off it.

        A reader reports a card once, however long it lies there: a card laid
        again before the reader saw it go would not be read again.
        """
        assert self.nfc is not None
        reader = self.nfc.reader(seat)
        wait_until(lambda: reader.present_uid is None, 2.0)

    def _on_board(self, table: Table, decision: Any, before: int) -> bool:
        assert self.board is not None
        piece, start, to, path = decision.move
        taken = decision.notes.get("take_off")
        if taken:
            # An arrest: the pawn comes off the board before the Judge goes on.
            rest = self.board.lift(taken)
            self.board.wait_for(rest + 0.05, self.timeout)
        if start == "hand":
            expectation = table.referee.expectation()
            assert expectation is not None, "the game reads no board"
            kinds = expectation.kinds
            self.board.in_the_box(piece, kinds.get(piece, next(iter(kinds.values()))))
        said = decision.said or (decision.action if decision.action.get("act") == "trump" else None)
        if said is not None:
            said = {k: v for k, v in said.items() if k not in ("to", "path", "direction", "exit")}
            result = table.submit(decision.seat, said)
            if not result.get("ok"):
                raise RuntimeError(f"{decision.seat}: {said} refused: {result.get('error')}")
        walked: list[str] = []
        if path and decision.action.get("card") != "helicopter":
            # GW's hand feels the click and stops where it catches a criminal.
            for cell in path:
                walked.append(cell)
                if self.board.criminal_at(cell) is not None:
                    break
            self.board.slide(piece, walked)
        else:
            self.board.lift_place(piece, to)
        self._wait(table, before, decision, walked)
        # The table's status says which caught pieces go to the jail; the hands put them there.
        for caught in sorted(_to_jail(table)):
            self.board.lift_place(caught, "jail")
        wait_until(lambda: not _to_jail(table), self.timeout)
        return True

    def _wait(
        self, table: Table, before: int, decision: Any, walked: list[str] | None = None
    ) -> bool:
        """Wait for the input to be taken, answering the tablet if it asks which way."""
        deadline = time.monotonic() + self.timeout
        while not wait_until(lambda: table.last_seq > before, 0.1):
            if walked:
                self._say_which_way(table, decision.seat, walked)
            self._say_who_moved(table, decision)
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"{decision.seat}: {decision.action} was not taken: {table.status.message}"
                )
        return True

    @staticmethod
    def _say_who_moved(table: Table, decision: Any) -> None:
        """The sensors cannot tell two pieces apart and the tablet asks: say which moved."""
        if decision.move is None:
            return
        # GW:s brott's options name the piece, Judge Dredd's the seat whose standee it is.
        if not _answer(table, decision.seat, "choose_reading", "piece", decision.move[0]):
            _answer(table, decision.seat, "choose_reading", "seat", decision.seat)

    def _say_which_way(self, table: Table, seat: str, walked: list[str]) -> None:
        """GW's tablet asks which way the magnet went: GW says the way it slid."""
        for prompt in table.snapshot(seat)["prompts"]:
            if prompt.get("kind") == "which_path" and walked in prompt["options"]:
                choice = {"act": "choose_path", "index": prompt["options"].index(walked)}
                table.submit(seat, choice)
                self.answered.append(time.monotonic())


def _answer(table: Table, seat: str, act: str, key: str, wanted: object) -> bool:
    """Answer a question on ``seat``'s tablet: the option whose ``key`` is ``wanted``."""
    for asked in table.snapshot(seat)["prompts"]:
        if asked.get("act") != act:
            continue
        options = [o.get(key) if isinstance(o, Mapping) else None for o in asked["options"]]
        if wanted in options:
            table.submit(seat, {"act": act, "index": options.index(wanted)})
            return True
    return False


def _to_jail(table: Table) -> frozenset[str]:
    """The caught pieces the table waits to see put in the jail."""
    expectation = table.referee.expectation()
    return frozenset() if expectation is None else expectation.to_jail
