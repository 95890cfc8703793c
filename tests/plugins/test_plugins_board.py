"""The race's board read by the real referee: magnets, hall sensors, sensing, tracker.

The stepped rig (:class:`~lawmaster.host.sim.rig.Rig`) runs the race's own
sensor map on a simulated clock and hands every observation to the referee of
a real table: a legal move on the board is the move, an illegal one is refused
and shown on the seats' pages until the piece is put back. The setup page
starts the race from its own fields.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from plugins_support import SLUG

from lawmaster.host import games
from lawmaster.host.journal import Journal
from lawmaster.host.sim.rig import Rig, RigBoard
from lawmaster.host.table import Table, TableHost
from lawmaster.host.web import create_app

HEADER = {"game": SLUG, "first": "red"}


@dataclass
class Board:
    rig: Rig
    host: TableHost
    table: Table
    run: Callable[[float], list]

    def move(self, piece: str, to: str) -> None:
        """A hand lifts ``piece`` and puts it down on ``to``; the board settles."""
        rest = self.rig.hands.lift_place(piece, to, self.rig.now)
        self.run(rest - self.rig.now + 0.4)

    def page(self, seat: str) -> str:
        """The seat's page as its tablet gets it."""
        client = create_app(self.host).test_client()
        response = client.get(f"/seat/{self.table.token(seat)}")
        assert response.status_code == 200
        return html.unescape(response.get_data(as_text=True))


@pytest.fixture(scope="module")
def calibration(toy: Path):
    return Rig(games.game(SLUG).sensor_map(), seed=5).calibration


@pytest.fixture
def board(toy: Path, calibration, tmp_path: Path) -> Iterator[Board]:
    rig = Rig(games.game(SLUG).sensor_map(), seed=5, calibration=calibration)
    rig.board.put("red", "red", "a1")
    rig.board.put("blue", "blue", "b1")
    rig.run(0.3)
    host = TableHost(Journal(tmp_path / "journal.db"), {"board": True})
    table = host.new_game(HEADER)
    feed = RigBoard(rig)
    table.referee.attach_board(feed)
    yield Board(rig, host, table, lambda seconds: feed.run(table.referee, seconds))
    host.journal.close()


def test_plugins_board_a_piece_put_down_one_cell_on_is_the_move(board: Board):
    board.move("red", "a2")
    assert board.table.actions == [{"act": "move", "by": "red", "to": "a2"}]
    entry = board.host.journal.open_game().entries[-1]
    assert (entry.source, entry.seat) == ("board", "red")
    assert board.table.status.state == "ok" and board.table.to_act() == ["blue"]


def test_plugins_board_an_illegal_move_is_refused_shown_and_cleared_when_put_back(board: Board):
    board.move("red", "a3")  # two cells on
    assert board.table.actions == []
    for seat in ("red", "blue", "table"):
        status = board.table.snapshot(seat)["status"]
        assert status["state"] == "illegal"
        assert "a piece moves one cell at a time, and a3 is not next to a1" in status["message"]
        assert "put red's piece back on a1" in status["message"]
    page = board.page("blue")
    assert "Illegal move." in page and "put red's piece back on a1" in page

    board.move("red", "a1")
    assert board.table.status.state == "ok" and board.table.actions == []
    assert "Illegal move." not in board.page("blue")
    board.move("red", "a2")
    assert board.table.actions == [{"act": "move", "by": "red", "to": "a2"}]


def test_plugins_board_the_piece_whose_turn_it_is_not_must_go_back(board: Board):
    board.move("blue", "b2")  # red's turn
    assert board.table.actions == []
    status = board.table.snapshot("red")["status"]
    assert status["state"] == "illegal" and "Move blue from b2 back to b1" in status["message"]
    board.move("blue", "b1")
    assert board.table.status.state == "ok"
    board.move("red", "a2")
    board.move("blue", "b2")
    assert [a["by"] for a in board.table.actions] == ["red", "blue"]


def test_plugins_board_the_setup_page_starts_the_race_from_its_fields(tmp_path: Path, toy: Path):
    host = TableHost(Journal(tmp_path / "journal.db"), {})
    client = create_app(host).test_client()
    page = client.get("/setup").get_data(as_text=True)
    assert "Toy race" in page and f'name="{SLUG}.first"' in page
    client.post("/setup", data={"game": SLUG, f"{SLUG}.first": "blue"})
    assert host.table is not None and host.table.header == {"game": SLUG, "first": "blue"}
    assert host.table.to_act() == ["blue"]
    host.journal.close()
