"""A simulated table in one object: board, hands and the board feed, stepped on one clock.

For tests and the sensing bench, which want the table's path from a scan to an
observation (:class:`~lawmaster.host.board_feed.BoardFeed`: sensing, tracker,
channel watch) without the firmware, the pty and the link's thread::

    rig = Rig.for_game("gw-brott", seed=7)
    rig.board.put("gw", "gw", "J12")
    rig.run(0.1)                                    # settle the initial board
    rig.tracker.expect(Expectation(...), rig.now)
    rest = rig.hands.slide("gw", ["J11", "J10"], rig.now)
    observations = rig.run_until(rest + 0.1)        # [(obs), ...]

Frames are stepped at ``rate`` scans per second on a :class:`SimClock`, so a
minute of play runs in well under a second of wall time, and one thread does
everything: a rig is deterministic for its seed, scan for scan. :class:`RigBoard`
hands the feed's observations to a real referee through the table's input
queue, pumped after every scan. ``simulated_person_calibration``
runs the real :class:`~lawmaster.host.sensing.Calibrator` flow with a simulated
person putting each magnet where it is asked.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.board_feed import BoardFeed, NoReferee
from lawmaster.host.inputs import Inputs
from lawmaster.host.link_scans import KeyScan
from lawmaster.host.referee import Referee
from lawmaster.host.sensing import Calibration, Calibrator, Prompt, Sensing
from lawmaster.host.sim.hands import Hands
from lawmaster.host.sim.physics import PhysicalBoard, SimClock
from lawmaster.host.tracker import Expectation, Observation, Tracker

CALIBRATION_PIECE = "_calibration_magnet"


def simulated_person_calibration(
    board: PhysicalBoard,
    clock: SimClock,
    *,
    rate: float = 200.0,
    on_prompt: Callable[[Prompt], None] | None = None,
    reaction_s: float = 0.3,
) -> Calibration:
    """Calibrate ``board`` through the guided flow, a simulated person doing as asked.

    The person reacts to each new prompt after ``reaction_s`` seconds: puts a magnet
    of the asked kind on the asked spot, or takes it off.
    """
    cal = Calibrator(board.map)
    spots = {s.channel: s for s in board.map.spots}
    last: Prompt | None = None
    act_at: float | None = 0.0
    while not cal.done:
        prompt = cal.prompt
        if prompt is not last:
            last = prompt
            act_at = clock.now + reaction_s
            if on_prompt is not None:
                on_prompt(prompt)
        if act_at is not None and clock.now >= act_at:
            act_at = None
            if prompt.step == "place" and prompt.channel is not None and prompt.kind:
                spot = spots[prompt.channel]
                board.put(CALIBRATION_PIECE, prompt.kind, (spot.x, spot.y))
            elif prompt.step == "remove":
                board.remove(CALIBRATION_PIECE)
        clock.advance(1.0 / rate)
        cal.feed(board.frame())
    if on_prompt is not None:
        on_prompt(cal.prompt)
    return cal.result()


def ideal_calibration(board: PhysicalBoard) -> Calibration:
    """What a perfect calibration of ``board`` would measure (noise-free readings, no flow).

    For large synthetic boards in benchmarks; tests use the guided flow.
    """
    saved = dict(board.pieces)
    for piece in saved:
        board.remove(piece)
    baseline = tuple(float(board.clean_reading(c)) for c in range(board.channels))
    levels: dict[str, tuple[float, ...]] = {}
    for kind in board.map.kinds:
        level = list(baseline)
        for spot in board.map.spots:
            board.put(CALIBRATION_PIECE, kind, (spot.x, spot.y))
            level[spot.channel] = float(board.clean_reading(spot.channel))
            board.remove(CALIBRATION_PIECE)
        levels[kind] = tuple(level)
    for piece, pose in saved.items():
        board.put(piece, pose.kind, (pose.x, pose.y))
    noise = (float(board.noise_counts),) * board.channels
    return Calibration(board.map.game, board.map.board, baseline, noise, levels)


@lru_cache(maxsize=8)
def calibration_for(game: str | SensorMap, seed: int = 0, rate: float = 200.0) -> Calibration:
    """The calibration a simulated person measures on a game's board built with ``seed``.

    Cached: a board's sensor spread depends only on its seed, so rigs with the same
    seed share it.
    """
    clock = SimClock()
    sensor_map = SensorMap.load(game) if isinstance(game, str) else game
    board = PhysicalBoard(sensor_map, seed=seed, clock=clock)
    return simulated_person_calibration(board, clock, rate=rate)


class Rig:
    """Board + hands + the board feed, stepped together on a simulated clock."""

    def __init__(
        self,
        sensor_map: SensorMap,
        *,
        seed: int = 0,
        rate: float = 200.0,
        calibration: Calibration | None = None,
        noise_counts: float | None = None,
        spike_rate: float = 0.0,
    ) -> None:
        self.map = sensor_map
        self.rate = rate
        self.clock = SimClock()
        self.board = PhysicalBoard(
            sensor_map,
            seed=seed,
            clock=self.clock,
            noise_counts=noise_counts,
            spike_rate=spike_rate,
        )
        if calibration is None:
            calibration = simulated_person_calibration(self.board, self.clock, rate=rate)
            self.clock.now = 0.0
        self.calibration = calibration
        self.hands = Hands(self.board, seed=seed + 1)
        # The table's feed as a table builds it, without the warm-up: a rig's script
        # puts its pieces and says what to expect itself.
        self.feed = BoardFeed.for_board(
            sensor_map, calibration, NoReferee(), self.clock, rate=rate, warmup=0
        )
        self.log: list[Observation] = []
        self.feed.on_observation.append(lambda observation, t: self.log.append(observation))

    @classmethod
    def for_game(cls, game: str, seed: int = 0, **kwargs: object) -> Rig:
        """A rig on a game's standard board, calibrated (cached per game and seed)."""
        kwargs.setdefault("calibration", calibration_for(game, seed))
        return cls(SensorMap.load(game), seed=seed, **kwargs)  # type: ignore[arg-type]

    @property
    def sensing(self) -> Sensing:
        return self.feed.sensing

    @property
    def tracker(self) -> Tracker:
        return self.feed.tracker

    @property
    def now(self) -> float:
        return self.clock.now

    def step(self) -> list[Observation]:
        """One scan: advance the clock one frame, read it, and feed it to the board feed."""
        t = self.clock.advance(1.0 / self.rate)
        # Every scan of the rig reads every sensor afresh, as a keyframe does.
        scan = KeyScan(self.feed.frames, round(t * 1e6), 0, self.board.frame())
        before = len(self.log)
        self.feed.on_scan(scan)
        return self.log[before:]

    def run_until(self, t_end: float) -> list[Observation]:
        """Step frames until the clock reaches ``t_end``; the observations made."""
        out: list[Observation] = []
        while self.clock.now < t_end:
            out.extend(self.step())
        return out

    def run(self, seconds: float) -> list[Observation]:
        """Step frames for ``seconds`` of simulated time."""
        return self.run_until(self.clock.now + seconds)


class RigBoard:
    """The referee's board seam on a stepped rig: the rig's board feed, through an input queue.

    :meth:`run` steps the rig; the feed hands each observation to the table's
    input queue (:class:`~lawmaster.host.inputs.Inputs`, without its thread),
    pumped after every scan, so the referee gets its inputs and its ticks the way
    a table's referee does, on the rig's clock. There is no channel watch's
    health to report to: nothing is ever held or rechecked for a fault.
    """

    def __init__(self, rig: Rig) -> None:
        self.rig = rig
        self._referee: Referee | None = None
        self._inputs: Inputs | None = None

    def run(self, referee: Referee, seconds: float) -> list[Observation]:
        """Step the rig for ``seconds``; every observation goes to ``referee`` as it is made."""
        inputs = self._inputs_for(referee)
        out: list[Observation] = []
        end = self.rig.now + seconds
        while self.rig.now < end:
            out.extend(self.rig.step())
            inputs.pump()
        return out

    def _inputs_for(self, referee: Referee) -> Inputs:
        if self._inputs is None or self._referee is not referee:
            self._referee = referee
            self._inputs = Inputs(lambda: referee.table, self.rig.clock, threaded=False)
            self.rig.feed.inputs = self._inputs
        return self._inputs

    def expect(self, expectation: Expectation) -> None:
        self.rig.feed.expect(expectation)

    def hold(self, on: bool) -> None:
        self.rig.feed.hold(on)

    def recheck(self, on: bool) -> None:
        self.rig.feed.recheck(on)
