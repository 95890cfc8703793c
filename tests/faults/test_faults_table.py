"""Faults on the simulated table: detected, shown to everyone concerned, and the referee pauses.

Each test runs the demo's whole stack (real firmware on a pty, link, sensing,
channel watch, tracker, referee, journal, emulated PN532, dashboard on
waitress), breaks one piece of hardware, and checks that the table screen and
the seats' pages say so, that no move is accepted or refused while the board
is blind, and that play resumes afterwards with the journal intact.
"""

from __future__ import annotations

import re
import time

import pytest
from faults_support import fault_table, simulated  # noqa: F401 - the fixture

from lawmaster.hardware.sensor_map import SensorMap

FACES = ["1", "2", "3", "4", "arrow"]
SEATS = ("gw", "red", "green")


def _roll_and_say(ft, die: str = "2") -> str:
    """Red rolls and says a die on its tablet; returns a cell that die reaches."""
    table = ft.table
    assert table.submit("red", {"act": "roll", "by": "red", "faces": FACES})["ok"]
    to = table.snapshot("red")["view"]["asked"]["moves"][die][0]
    assert table.submit("red", {"act": "move", "by": "red", "die": die}).get("pending")
    return to


def _place(ft, piece: str, space: str) -> None:
    rest = ft.board.lift_place(piece, space)
    time.sleep(max(0.0, rest - ft.board.now()) + 0.05)


def _everyone_sees_blind(ft, words: str) -> None:
    """Every seat's snapshot and page, and the table screen, say the board is blind and why."""
    for seat in (*SEATS, "table"):
        snapshot = ft.table.snapshot(seat)
        assert snapshot["status"]["state"] == "blind", (seat, snapshot["status"])
        assert "Paused: no move is accepted or refused" in snapshot["status"]["message"]
    assert words[1:] in ft.table.snapshot("table")["status"]["message"]  # (capitalised there)
    for seat in SEATS:
        banner = ft.table.snapshot(seat)["health"]["banner"]
        assert any("The board is blind" in line and words in line for line in banner)
    for seat in SEATS:
        page = ft.seat_page(seat)
        assert "The board is blind" in page and words in page and "Paused:" in page
    screen = ft.page("/table")
    assert "Table health" in screen and words[1:] in screen
    assert _led(ft) == (0.0, 0.0, 1.0)  # the panel's LED is blue: paused


def _panel(ft) -> dict[str, str]:
    return _rows(ft.table.snapshot("table")["health"]["panel"])


def _led(ft) -> tuple[float, float, float]:
    return ft.table.referee.panel.colour


def _nothing_decided(ft, before: int) -> None:
    """Inputs while blind are held: neither accepted (no journal entry) nor refused."""
    rejected = ft.table.referee.counts["rejected"]
    answer = ft.table.submit("green", {"act": "roll", "by": "green", "faces": FACES})
    assert answer.get("paused") and "paused" in answer["error"]
    ft.settled()
    assert len(ft.entries()) == before
    assert ft.table.referee.counts["rejected"] == rejected
    assert ft.table.referee.counts["illegal_physical"] == 0


@pytest.mark.timeout(90)
def test_faults_scanner_unplugged_and_replugged_mid_move(simulated):  # noqa: F811
    ft = simulated
    to = _roll_and_say(ft)
    before = list(ft.entries())
    lifted = ft.board.lift("red")  # the piece is in the hand when the cable comes out
    time.sleep(max(0.0, lifted - ft.board.now()) + 0.05)
    ft.board.unplug()
    ft.wait(lambda: ft.table.referee.paused is not None)
    assert ft.health.scanner == "lost"
    _everyone_sees_blind(ft, "the scanner under the board is lost")
    # The move is finished while nobody can see it: nothing is accepted or refused.
    _place(ft, "red", to)
    _nothing_decided(ft, len(before))
    ft.board.replug()
    ft.wait(lambda: ft.table.referee.paused is None)
    assert ft.health.scanner == "back"
    # Back, the board is compared with the game: red must go back where the game has it.
    ft.wait(lambda: ft.table.snapshot("red")["status"]["state"] == "illegal")
    # Whichever notices first says it: the tracker ("Move red from C5 back to jail") or
    # the referee comparing the board with the game ("put red back in the jail").
    said = ft.table.snapshot("red")["status"]["message"]
    assert re.search(r"back (to|in the) jail", said), said
    assert to not in ft.table.snapshot("gw")["status"]["message"]  # GW still learns nothing
    assert ft.table.referee.holding
    _place(ft, "red", "jail")
    ft.wait(lambda: not ft.table.referee.holding)
    assert ft.entries() == before  # nothing lost, nothing added
    # Play goes on: the said die still stands, and the move made again is taken.
    _place(ft, "red", to)
    ft.wait(lambda: len(ft.entries()) > len(before))
    assert ft.entries()[-1].body == {"act": "move", "by": "red", "die": "2", "to": to}
    assert ft.entries()[: len(before)] == before
    panel = _rows(ft.table.snapshot("table")["health"]["panel"])
    assert panel["Scanner"].startswith("back") and "reconnected 1 times" in panel["Scanner link"]


@pytest.mark.timeout(180)
def test_faults_a_sensor_stuck_during_play(simulated):  # noqa: F811
    ft = simulated
    to = _roll_and_say(ft)
    channel = ft.channel_of(to)
    before = list(ft.entries())
    ft.overrides[channel] = lambda value: 33000  # the sensor's output freezes
    # A change-only scanner shows a sensor's noise only in its keyframes (every 2 s):
    # ten alike are needed, so this takes some 20 s of play (more on a loaded machine).
    ft.wait(lambda: ft.table.referee.paused is not None, timeout=120)
    words = f"the sensor under {to} reads exactly the same value"
    assert words in ft.table.referee.paused
    _everyone_sees_blind(ft, f"the sensor under {to}")
    screen = ft.page("/table")
    assert "found during play" in screen
    _nothing_decided(ft, len(before))
    del ft.overrides[channel]  # reseated: the reading is alive again
    ft.wait(lambda: not ft.table.referee.holding)
    assert ft.entries() == before
    _place(ft, "red", to)
    ft.wait(lambda: len(ft.entries()) > len(before))
    assert ft.entries()[-1].body["to"] == to


@pytest.mark.timeout(90)
def test_faults_a_dead_channel_at_boot(tmp_path):
    dead_space = "A1"
    dead = SensorMap.load("gw-brott").spots_of(dead_space)[0].channel

    def patch(overrides: dict) -> None:
        overrides[dead] = lambda value: 0  # A1's sensor input shorted to ground

    ft = fault_table(tmp_path, patch)
    try:
        assert ft.channel_of(dead_space) == dead
        ft.wait(lambda: ft.table.referee.paused is not None)
        assert f"the sensor under {dead_space} reads at the edge of its range" in (
            ft.table.referee.paused
        )
        _everyone_sees_blind(ft, f"the sensor under {dead_space}")
        assert "found at start-up" in ft.page("/table")
        _nothing_decided(ft, len(ft.entries()))
        del ft.overrides[dead]  # the wire is mended
        ft.wait(lambda: not ft.table.referee.holding)
        assert ft.table.submit("red", {"act": "roll", "by": "red", "faces": FACES})["ok"]
    finally:
        ft.runtime.close()


@pytest.mark.timeout(90)
def test_faults_a_reader_going_offline(simulated):  # noqa: F811
    ft = simulated
    emulator = ft.nfc.emulators[None]
    emulator.silent = True
    label = "Card reader at the table"
    ft.wait(lambda: _panel(ft)[label].startswith("offline"))
    for seat in SEATS:  # the shared reader concerns every seat
        banner = ft.table.snapshot(seat)["health"]["banner"]
        assert any("card reader at the table is offline" in line for line in banner)
        assert "card reader at the table is offline" in ft.seat_page(seat)
    assert "offline" in ft.page("/table")
    # A reader is not the board: the board's moves are still refereed.
    assert ft.table.referee.paused is None
    assert ft.table.submit("red", {"act": "roll", "by": "red", "faces": FACES})["ok"]
    emulator.silent = False
    ft.wait(lambda: _panel(ft)[label] == "online")
    assert ft.table.snapshot("red")["health"]["banner"] == []


def _rows(panel) -> dict[str, str]:
    """The health panel's rows as label -> words (the last row of a label wins)."""
    return {label: words for label, words, _ in panel}
