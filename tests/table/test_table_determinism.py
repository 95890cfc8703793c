"""A simulated game is the same game for its seed, as far as the simulation can make it.

The stepped rig runs the table's own path from a scan to the referee (board
feed, input queue, referee's ticks) on one thread and one simulated clock: two
runs with one seed are the same scan for scan. The simulated hardware's board
moves its clock one scan period per scan, so what each scan reads is the same
for a seed whenever the scan is made on the wall.
"""

from __future__ import annotations

from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.games.gw_brott.setup import DEMO_HEADER
from lawmaster.host.journal import Journal
from lawmaster.host.sim.hardware import SimulatedBoard
from lawmaster.host.sim.physics import SimClock
from lawmaster.host.sim.rig import Rig, RigBoard, calibration_for
from lawmaster.host.table import Table

SEED = 4


def _game(path) -> tuple[list[tuple[str, float]], list[dict]]:
    """Red leaves the jail, green plays, GW slides and catches red (its pause on the clock)."""
    rig = Rig.for_game("gw-brott", seed=SEED, calibration=calibration_for("gw-brott", SEED))
    rig.board.put("gw", "gw", "J12")
    rig.board.put("red", "criminal", "jail")
    rig.board.put("green", "criminal", "jail")
    rig.run(0.3)
    table = Table.start(Journal(path), DEMO_HEADER, {"board": True, "gw_pause": 0.2})
    board = RigBoard(rig)
    table.referee.attach_board(board)
    seen: list[tuple[str, float]] = []
    rig.feed.on_observation.append(lambda o, t: seen.append((repr(o), t)))

    def run(until: float) -> None:
        board.run(table.referee, until - rig.now)

    faces = ["1", "2", "3", "4", "arrow"]
    assert table.submit("red", {"act": "roll", "by": "red", "faces": faces})["ok"]
    moves = table.snapshot("red")["view"]["asked"]["moves"]
    table.submit("red", {"act": "move", "by": "red", "die": "arrow"})
    to = next(m["to"] for m in moves["arrow"] if m["exit"] == "F6" and m["direction"] == "right")
    run(rig.hands.lift_place("red", to, rig.now) + 0.3)
    assert table.submit("green", {"act": "roll", "by": "green", "faces": faces})["ok"]
    table.submit("green", {"act": "pass", "by": "green"})
    if table.to_act() != ["gw"]:
        green_moves = table.snapshot("green")["view"]["asked"]["moves"]
        table.submit("green", {"act": "move", "by": "green", "die": "1"})
        run(rig.hands.lift_place("green", green_moves["1"][0], rig.now) + 0.3)
    assert table.submit("gw", {"act": "gw_roll", "face": 6})["ok"]
    run(rig.hands.slide("gw", ["J11", "J10", "J9", "J8", "J7", "J6"], rig.now) + 0.6)
    run(rig.hands.lift_place("red", "jail", rig.now) + 0.4)
    actions = list(table.actions)
    table.journal.close()
    return seen, actions


def test_table_determinism_a_stepped_game_is_the_same_scan_for_scan(tmp_path):
    first = _game(tmp_path / "first.db")
    again = _game(tmp_path / "again.db")
    seen, actions = first
    assert any(a["act"] == "gw_move" for a in actions)  # the pause ran out on the rig's clock
    assert len(seen) >= 3
    assert again == first


def test_table_determinism_a_simulated_boards_scans_do_not_depend_on_the_wall():
    gw = SensorMap.load("gw-brott")

    def scans() -> list[list[int]]:
        board = SimulatedBoard(gw, seed=SEED, clock=SimClock(), rate=400)
        try:
            board.board.put("red", "criminal", "C7")
            frames = [board.scan() for _ in range(10)]
            board.lift_place("red", "D4")  # a gesture from the simulated now, whenever that is
            return frames + [board.scan() for _ in range(400)]
        finally:
            board.stop()

    first = scans()
    assert first[0] != first[-1]  # the piece moved
    assert scans() == first
