"""End to end: simulated physics → the real firmware (SimulatedPico) → pty → Link → the
table's board feed (sensing, tracker). Slow-ish (real time at 200 scans/s), so it plays
one short sequence."""

import queue
import time

from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.board_feed import BoardFeed
from lawmaster.host.link import Link
from lawmaster.host.sim.hands import Hands
from lawmaster.host.sim.physics import PhysicalBoard, SimClock
from lawmaster.host.sim.pico import SimulatedPico
from lawmaster.host.sim.rig import calibration_for
from lawmaster.host.tracker import Captured, Expectation, Moved, Observation

KINDS = {"gw": "gw", "c1": "criminal", "c2": "criminal"}


class Observations(queue.SimpleQueue):
    """The referee's side of the feed, for this test: observations queued as they come."""

    def observation(self, observation: Observation, now: float) -> None:
        self.put(observation)

    def board_matches(self) -> None:
        """Nothing is rechecked here."""


def _next(observations: queue.SimpleQueue, kind: type, timeout: float = 5.0):
    while True:
        observation = observations.get(timeout=timeout)
        if isinstance(observation, kind):
            return observation


def test_moves_seen_through_the_firmware_and_the_serial_link():
    sensor_map = SensorMap.load("gw-brott")
    clock = SimClock()
    board = PhysicalBoard(sensor_map, seed=0, clock=clock)
    hands = Hands(board, seed=1)
    for piece, space in (("gw", "J12"), ("c1", "C7"), ("c2", "H9")):
        board.put(piece, KINDS[piece], space)

    def scan() -> list[int]:
        # Each scan the firmware takes is one 5 ms step of simulated time.
        clock.advance(0.005)
        return board.frame()

    observations = Observations()
    feed = BoardFeed.for_board(
        sensor_map, calibration_for("gw-brott", 0), observations, clock, rate=200
    )
    positions = {"gw": "J12", "c1": "C7", "c2": "H9"}

    def expect(movers):
        feed.expect(
            Expectation(
                KINDS, dict(positions), frozenset(movers), "jail", captures={("gw", "criminal")}
            )
        )

    with SimulatedPico(frame=scan, channels=sensor_map.channels) as pico:
        link = Link(pico.port, feed.on_scan).start()
        try:
            assert link.wait_ready(timeout=10)
            deadline = time.monotonic() + 10
            while feed.frames < 30 and time.monotonic() < deadline:
                time.sleep(0.01)  # the board as it stands is seen and settles
            assert observations.empty()
            expect({"c1"})
            hands.slide("c1", ["C8", "C9"], clock.now)
            moved = _next(observations, Moved)
            assert (moved.piece, moved.from_, moved.to, moved.path) == (
                "c1",
                "C7",
                "C9",
                ("C8", "C9"),
            )
            positions["c1"] = "C9"
            expect({"gw"})
            hands.slide("gw", ["J11", "J10", "J9", "I9", "H9"], clock.now)
            moved = _next(observations, Moved)
            assert (moved.piece, moved.to, moved.path[-1]) == ("gw", "H9", "H9")
            captured = _next(observations, Captured)
            assert (captured.piece, captured.at, captured.by) == ("c2", "H9", "gw")
            assert link.stats.frames_bad == 0
        finally:
            link.stop()
