"""Bench group ``sensing``: host pipeline throughput, settle latency, and a long simulated game.

Figures:

* ``host_frames_per_s`` — SCAN frames of 256 channels per second of wall time through
  the real protocol decoder (``firmware.protocol.Decoder``: COBS, CRC, parse) and the
  board feed a table runs (``BoardFeed.for_board``: sensing, tracker, channel watch),
  on frames recorded from the simulated board with pieces sliding about (so the slow
  paths run too). Median of five runs.
* ``host_realtime_ratio`` — that over the scanner's 200 scans/s (target ≥ 50).
* ``settle_to_observation_p99_ms`` — simulated time from a magnet coming to rest to
  its ``Moved``/``Jailed`` observation, 99th percentile (target ≤ 40), at the scan
  rate the GW:s brott board is scanned at (``lawmaster.host.sensing.rate``: 400/s).
  "At rest" is the simulated hand's planned end, after a dropped piece's bounce; a
  placed piece that is only bobbing counts as landed, so this can be negative.
* ``sim_moves``, ``sim_moves_recognised``, ``sim_false_observations`` — a seeded
  game on the GW:s brott board: lifted and slid criminal moves, GW's slides with
  captures and the caught piece carried to jail, pieces leaving jail, noise and
  spikes on every sensor, dropped pieces bouncing, bumps inside a cell (must stay
  silent) and out of it, and the wrong piece moved (each must give an anomaly and,
  once put back, a ``Restored``). A move is recognised when the tracker reports
  exactly the move made (piece, from, to, and for slides every cell passed); any
  observation the script did not call for counts as false.
* ``sim_anomalies``, ``sim_anomalies_recognised`` — the bumps out of a cell and
  wrong-piece moves, and how many were reported and then cleared.
* ``link_bytes_per_s_full``, ``link_bytes_per_s_changes`` — bytes per second on the
  scanner's link during a simulated game on the largest standard board (the
  shipped sensor map with the most channels) at 200 scans/s: the real firmware
  (``firmware.app.Firmware``) in full-frame mode (a keyframe every scan) and in
  change-only mode (its defaults: dead-band 96 counts, a keyframe every 2 s),
  fed the same simulated sensor readings (noise, spikes, pieces lifted and slid).
  ``link_bytes_per_s_full_at_rest`` and ``link_bytes_per_s_changes_at_rest``: the
  same with nobody touching the board. ``max_frame_bytes``: the longest frame
  either mode sent, delimiter included (TinyUSB's CDC buffer is 256).
  ``link_max_error_counts``: the largest difference, over every channel of every
  scan, between what the sensor read and what the host rebuilt from the
  change-only stream (at most four times the dead-band, ``link_deadband_counts``).
"""

from __future__ import annotations

import array
import random
import statistics
import time
from importlib import resources
from typing import Any

from lawmaster.firmware import protocol
from lawmaster.firmware.app import DEADBAND, Firmware
from lawmaster.firmware.standin import rp2040_u16
from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.bench import percentile
from lawmaster.host.board_feed import BoardFeed, NoReferee
from lawmaster.host.link_scans import ScanAssembler
from lawmaster.host.sensing.rate import scan_rate
from lawmaster.host.sim.hands import Hands
from lawmaster.host.sim.physics import PhysicalBoard, SimClock
from lawmaster.host.sim.rig import Rig, ideal_calibration
from lawmaster.host.tracker import (
    Anomaly,
    Captured,
    Expectation,
    InHand,
    Jailed,
    Moved,
    Observation,
    Restored,
)
from lawmaster.rules.gw_brott.board import DIRECTIONS, Board

RATE = 200.0
CHANNELS = 256
GAME_MOVES = 1000


# ----------------------------------------------------------------- throughput
def _grid_map(side: int = 16) -> SensorMap:
    """A 16×16 board (256 channels) with GW:s brott's magnets, for the throughput run."""
    gw = SensorMap.load("gw-brott")
    spots = [
        {
            "channel": r * side + c,
            "space": f"R{r}C{c}",
            "x_mm": 25 * c + 12.5,
            "y_mm": 25 * r + 12.5,
        }
        for r in range(side)
        for c in range(side)
    ]
    kinds = {
        name: {
            "polarity": k.polarity,
            "magnets": [m.__dict__ for m in k.magnets],
        }
        for name, k in gw.kinds.items()
    }
    sensor = dict(gw.sensor.__dict__)
    return SensorMap.from_data(
        {"game": "grid", "board": "16x16", "sensor": sensor, "kinds": kinds, "spots": spots}
    )


def _recorded_stream(frames: int = 3000) -> tuple[SensorMap, Any, bytes, dict[str, str]]:
    sensor_map = _grid_map()
    clock = SimClock()
    board = PhysicalBoard(sensor_map, seed=3, clock=clock, spike_rate=1e-4)
    calibration = ideal_calibration(board)
    hands = Hands(board, seed=4)
    kinds = {"gw": "gw", "a": "criminal", "b": "criminal", "c": "criminal"}
    for piece, space in (("gw", "R0C0"), ("a", "R5C5"), ("b", "R9C2"), ("c", "R12C12")):
        board.put(piece, kinds[piece], space)
    rng = random.Random(5)
    stream = bytearray()
    next_move = 0.1
    for seq in range(frames):
        t = clock.advance(1 / RATE)
        if t >= next_move:
            piece = rng.choice(list(kinds))
            r, c = rng.randrange(16), rng.randrange(16)
            next_move = hands.slide(piece, [f"R{r}C{c}"], t) + 0.2
        stream += protocol.encode_scan(seq, round(t * 1e6), 4000, board.frame())
    return sensor_map, calibration, bytes(stream), kinds


def throughput(repeat: int = 5) -> dict[str, float]:
    """Frames per second through decode + the board feed, median of ``repeat`` runs."""
    sensor_map, calibration, stream, kinds = _recorded_stream()
    settle = 40 * len(stream) // 3000  # the first 40 frames: pieces appear, untimed
    rates = []
    for _ in range(repeat):
        clock = SimClock()
        feed = BoardFeed.for_board(sensor_map, calibration, NoReferee(), clock, rate=RATE)
        decoder = protocol.Decoder()
        for frame in decoder.feed(stream[:settle]):
            clock.advance(1 / RATE)
            feed.on_scan(frame)
        positions = {"gw": "R0C0", "a": "R5C5", "b": "R9C2", "c": "R12C12"}
        feed.expect(Expectation(kinds, positions, frozenset(kinds)))
        start = time.perf_counter()
        count = 0
        for i in range(settle, len(stream), 4096):
            for frame in decoder.feed(stream[i : i + 4096]):
                clock.advance(1 / RATE)  # the scan's time, as the hardware's clock gives it
                feed.on_scan(frame)
                count += 1
        rates.append(count / (time.perf_counter() - start))
    rate = statistics.median(rates)
    return {"host_frames_per_s": round(rate, 1), "host_realtime_ratio": round(rate / RATE, 2)}


# ----------------------------------------------------------------- the long game
KINDS = {"gw": "gw", "c1": "criminal", "c2": "criminal", "c3": "criminal", "c4": "criminal"}


class _Game:
    """A scripted GW:s brott game on a rig; the script plays referee and keeps score."""

    def __init__(self, seed: int, via_link: bool = False) -> None:
        self.rng = random.Random(seed)
        rate = scan_rate(SensorMap.load("gw-brott").channels)  # what the table scans it at
        # The rig steps the board feed a table runs at that rate.
        self.rig = Rig.for_game("gw-brott", seed=seed, spike_rate=2e-4, rate=rate)
        if via_link:  # the sensing sees each scan as the host rebuilds it from the link
            board = self.rig.board
            board.frame = _ThroughLink(board.frame, board.channels, board.clock)  # type: ignore[method-assign]
        self.board = Board.load("standard")
        self.pos: dict[str, str | None] = {"gw": "J12"}
        cells = [self.board.name_of(c) for c in self.board.open_cells]
        for piece, cell in zip(
            ("c1", "c2", "c3", "c4"), self.rng.sample(cells[:60], 4), strict=True
        ):
            self.pos[piece] = cell
        for piece, where in self.pos.items():
            assert where is not None
            self.rig.board.put(piece, KINDS[piece], where)
        self.rig.run(0.3)
        self.moves = self.recognised = self.false = 0
        self.anomalies = self.anomalies_recognised = 0
        self.latencies: list[float] = []

    # -- helpers -------------------------------------------------------------
    def expect(self, movers: set[str] = frozenset(), to_jail: set[str] = frozenset()) -> None:
        self.rig.tracker.expect(
            Expectation(
                KINDS,
                dict(self.pos),
                frozenset(movers),
                jail="jail",
                to_jail=frozenset(to_jail),
                captures={("gw", "criminal")},
            ),
            self.rig.now,
        )

    def occupant(self, name: str) -> str | None:
        return next((p for p, c in self.pos.items() if c == name), None)

    def free(self, name: str) -> bool:
        return self.occupant(name) is None

    def straight(self, start: str, longest: int, catch: bool) -> list[str]:
        """A straight run of free open cells from ``start`` (GW stops on a criminal)."""
        direction = self.rng.choice(list(DIRECTIONS))
        path: list[str] = []
        cell = self.board.cell(start)
        for _ in range(self.rng.randint(1, longest)):
            nxt = self.board.step(cell, direction)
            if nxt is None or self.board.is_blocked(nxt):
                break
            name = self.board.name_of(nxt)
            occupant = self.occupant(name)
            if occupant is not None:
                if catch and occupant != "gw":
                    path.append(name)
                break
            path.append(name)
            cell = nxt
        return path

    def random_free_cell(self) -> str:
        while True:
            name = self.board.name_of(self.rng.choice(self.board.open_cells))
            if self.free(name):
                return name

    def run(self, rest: float, settle: float = 0.6) -> list[Observation]:
        return self.rig.run_until(rest + settle)

    def score_move(
        self,
        obs: list[Observation],
        piece: str,
        start: str | None,
        to: str,
        path: list[str] | None,
        rest: float,
        also: tuple[type, ...] = (),
    ) -> list[Observation]:
        """Count one move; returns the observations other than the move itself."""
        self.moves += 1
        moved = [o for o in obs if isinstance(o, Moved) and o.piece == piece]
        rest_obs = [o for o in obs if o not in moved]
        allowed = [o for o in rest_obs if isinstance(o, InHand) and o.piece == piece]
        rest_obs = [o for o in rest_obs if o not in allowed and not isinstance(o, also)]
        good = (
            len(moved) == 1
            and moved[0].from_ == start
            and moved[0].to == to
            and (path is None or moved[0].path == tuple(path))
        )
        if good:
            self.recognised += 1
            self.latencies.append((moved[0].t - rest) * 1000)
        self.false += len(moved) - (1 if good else 0)
        return rest_obs

    # -- the steps -----------------------------------------------------------
    def criminal_move(self, piece: str) -> None:
        self.expect({piece})
        start = self.pos[piece]
        assert start is not None
        if start == "jail":
            to = self.random_free_cell()
            rest = self.rig.hands.lift_place(piece, to, self.rig.now)
            path = None
        elif self.rng.random() < 0.55:
            path = self.straight(start, 4, catch=False)
            if not path:
                return
            to = path[-1]
            rest = self.rig.hands.slide(piece, path, self.rig.now)
        else:
            to = self.random_free_cell()
            rest = self.rig.hands.lift_place(piece, to, self.rig.now)
            path = None
        obs = self.run(rest)
        self.false += len(self.score_move(obs, piece, start, to, path, rest))
        self.pos[piece] = to

    def gw_move(self) -> None:
        start = self.pos["gw"]
        assert start is not None
        path = self.straight(start, 6, catch=True)
        if not path:
            return
        self.expect({"gw"})
        victim = self.occupant(path[-1])
        rest = self.rig.hands.slide("gw", path, self.rig.now)
        obs = self.run(rest)
        left = self.score_move(obs, "gw", start, path[-1], path, rest, also=(Captured,))
        captured = [o for o in obs if isinstance(o, Captured)]
        if victim is None:
            self.false += len(left) + len(captured)
            self.pos["gw"] = path[-1]
            return
        ok = [c for c in captured if (c.piece, c.at, c.by) == (victim, path[-1], "gw")]
        self.false += len(left) + len(captured) - len(ok)
        self.pos["gw"] = path[-1]
        self.pos[victim] = None
        # The caught criminal takes its piece off GW's magnet and puts it in jail.
        self.expect(set(), {victim})
        rest = self.rig.hands.lift_place(victim, "jail", self.rig.now + 0.3)
        obs = self.run(rest)
        self.moves += 1
        jailed = [o for o in obs if isinstance(o, Jailed) and o.piece == victim]
        if len(jailed) == 1:
            self.recognised += 1
            self.latencies.append((jailed[0].t - rest) * 1000)
        self.false += len(obs) - min(1, len(jailed))
        self.pos[victim] = "jail"

    def bump(self) -> None:
        on_cells = [p for p, c in self.pos.items() if c not in (None, "jail") and p != "gw"]
        piece = self.rng.choice(on_cells)
        mover = self.rng.choice([p for p in KINDS if p != piece])
        self.expect({mover})
        start = self.pos[piece]
        assert start is not None
        if self.rng.random() < 0.5:  # a nudge inside the cell: must stay silent
            rest = self.rig.hands.bump(piece, self.rig.now, self.rng.uniform(0.5, 2.0))
            self.false += len(self.run(rest, 0.8))
            return
        cell = self.board.cell(start)
        for name, (dx, dy) in DIRECTIONS.items():  # noqa: B007 - dx, dy used after the loop
            nxt = self.board.step(cell, name)
            if (
                nxt is not None
                and not self.board.is_blocked(nxt)
                and self.free(self.board.name_of(nxt))
            ):
                break
        else:
            return
        angle = {(1, 0): 0.0, (0, 1): 1.5708, (-1, 0): 3.1416, (0, -1): -1.5708}[(dx, dy)]
        self.anomalies += 1
        rest = self.rig.hands.bump(piece, self.rig.now, 25.0, angle)
        obs = self.run(rest, 0.8)
        flagged = [o for o in obs if isinstance(o, Anomaly) and o.piece == piece]
        self.false += len(obs) - len(flagged)
        rest = self.rig.hands.slide(piece, [start], self.rig.now + 0.3)
        obs = self.run(rest)
        restored = [o for o in obs if isinstance(o, Restored) and o.piece == piece]
        self.false += len(obs) - len(restored)
        if flagged and len(restored) == 1:
            self.anomalies_recognised += 1

    def wrong_piece(self) -> None:
        on_cells = [p for p, c in self.pos.items() if c not in (None, "jail") and p != "gw"]
        piece = self.rng.choice(on_cells)
        mover = self.rng.choice([p for p in KINDS if p != piece])
        self.expect({mover})
        self.rig.run(1.2)  # nobody else is moving: this is the wrong piece, not a bump
        start = self.pos[piece]
        self.anomalies += 1
        rest = self.rig.hands.lift_place(piece, self.random_free_cell(), self.rig.now)
        obs = self.run(rest, 0.8)
        flagged = [o for o in obs if isinstance(o, Anomaly) and o.piece == piece]
        self.false += len(obs) - len(flagged)
        rest = self.rig.hands.lift_place(piece, start, self.rig.now + 0.3)
        obs = self.run(rest)
        restored = [o for o in obs if isinstance(o, Restored) and o.piece == piece]
        self.false += len(obs) - len(restored)
        if flagged and len(restored) == 1:
            self.anomalies_recognised += 1

    def play(self, moves: int) -> None:
        while self.moves < moves:
            r = self.rng.random()
            if r < 0.06:
                self.bump()
            elif r < 0.09:
                self.wrong_piece()
            elif r < 0.35:
                self.gw_move()
            else:
                self.criminal_move(self.rng.choice(["c1", "c2", "c3", "c4"]))


def simulated_game(
    moves: int = GAME_MOVES, seed: int = 2026, via_link: bool = False
) -> dict[str, float]:
    """The long scripted game's figures; ``via_link``: through the change-only link."""
    game = _Game(seed, via_link)
    game.play(moves)
    if via_link:
        return {
            "sim_moves_recognised_via_link": game.recognised,
            "sim_false_observations_via_link": game.false,
            "settle_to_observation_p99_ms_via_link": round(percentile(game.latencies, 99), 1),
        }
    return {
        "sim_moves": game.moves,
        "sim_moves_recognised": game.recognised,
        "sim_false_observations": game.false,
        "sim_anomalies": game.anomalies,
        "sim_anomalies_recognised": game.anomalies_recognised,
        # Not clamped: a negative figure means the observation came while the
        # dropped piece was still bobbing, before the hand's planned end.
        "settle_to_observation_p99_ms": round(percentile(game.latencies, 99), 1),
        "sim_seconds": round(game.rig.now, 1),
    }


# ----------------------------------------------------------------- link traffic
class _FrameScanner:
    """What the firmware needs of a scanner, reading a simulated board's frame.

    ``quantise``: through the RP2040's 12-bit ADC, as a real scan would be.
    """

    inputs = 16

    def __init__(self, channels: int, quantise: bool = True) -> None:
        self.channels = self.capacity = channels
        self.muxes = (channels + 15) // 16
        self.quantise = quantise
        self.frame: list[int] = [0x8000] * channels

    def new_buffer(self) -> array.array:
        return array.array("H", [0] * self.channels)

    def scan_into(self, buffer: array.array) -> array.array:
        if self.quantise:
            for channel, value in enumerate(self.frame):
                buffer[channel] = rp2040_u16(value)
        else:
            buffer[:] = array.array("H", self.frame)
        return buffer


class _SimTicks:
    """MicroPython's ticks API on a :class:`SimClock` (µs, wrapping at 2**30)."""

    def __init__(self, clock: SimClock) -> None:
        self.clock = clock

    def ticks_us(self) -> int:
        return round(self.clock.now * 1e6) & protocol.SEQ_MASK

    def ticks_diff(self, a: int, b: int) -> int:
        return ((a - b + (1 << 29)) & protocol.SEQ_MASK) - (1 << 29)

    def ticks_add(self, a: int, delta: int) -> int:
        return (a + delta) & protocol.SEQ_MASK

    def sleep_us(self, us: int) -> None:
        pass


class _CountingPort:
    def __init__(self) -> None:
        self.bytes = 0
        self.longest = 0
        self.stream = bytearray()

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.bytes += len(data)
        self.longest = max(self.longest, len(data))
        self.stream += data

    def read(self) -> None:
        return None


class _ThroughLink:
    """A frame source as the host sees it: firmware (change-only) → bytes → rebuilt scan."""

    def __init__(self, frame: Any, channels: int, clock: SimClock) -> None:
        self._frame = frame
        self._scanner = _FrameScanner(channels, quantise=False)
        self._port = _CountingPort()
        self._firmware = Firmware(self._scanner, self._port, _SimTicks(clock), 0, True)
        self._decoder = protocol.Decoder()
        self._assembler = ScanAssembler()

    def __call__(self) -> list[int]:
        self._scanner.frame = self._frame()
        self._firmware.scan_once()
        stream = self._port.stream
        frames = self._decoder.feed(bytes(stream))
        stream.clear()
        scans = [s for f in frames if (s := self._assembler.feed(f)) is not None]
        if len(scans) != 1:
            raise AssertionError(f"one scan sent, {len(scans)} rebuilt")
        return list(scans[0].readings)


def largest_standard_map() -> SensorMap:
    """The shipped standard sensor map with the most channels."""
    names = resources.files("lawmaster.hardware").joinpath("maps").iterdir()
    games = [n.name.removesuffix("-standard.json") for n in names if "-standard" in n.name]
    return max((SensorMap.load(g) for g in games), key=lambda m: m.channels)


def link_traffic(rest_s: float = 10.0, play_s: float = 60.0, seed: int = 11) -> dict[str, float]:
    """Bytes per second of full and change-only frames, at rest and in play (200 scans/s)."""
    sensor_map = largest_standard_map()
    clock = SimClock()
    board = PhysicalBoard(sensor_map, seed=seed, clock=clock, spike_rate=2e-4)
    hands = Hands(board, seed=seed + 1)
    rng = random.Random(seed)
    spaces = [s for s in sensor_map.spaces if s != sensor_map.jail]
    kinds = sorted(sensor_map.kinds)
    pieces = {f"p{i}": kinds[i % len(kinds)] for i in range(5)}
    for piece, space in zip(pieces, rng.sample(spaces, len(pieces)), strict=True):
        board.put(piece, pieces[piece], space)
    scanner = _FrameScanner(sensor_map.channels)
    ticks = _SimTicks(clock)
    ports = {"full": _CountingPort(), "changes": _CountingPort()}
    firmwares = {name: Firmware(scanner, port, ticks, RATE, True) for name, port in ports.items()}
    firmwares["full"].mode = protocol.MODE_FULL
    truth: list[tuple[int, ...]] = []

    def scan_for(seconds: float, move: bool) -> dict[str, int]:
        before = {name: port.bytes for name, port in ports.items()}
        end = clock.now + seconds
        next_move = clock.now + 0.2
        while clock.now < end:
            clock.advance(1 / RATE)
            if move and clock.now >= next_move:
                piece = rng.choice(list(pieces))
                to = rng.choice(spaces)
                if rng.random() < 0.5:
                    rest = hands.slide(piece, [to], clock.now)
                else:
                    rest = hands.lift_place(piece, to, clock.now)
                next_move = rest + rng.uniform(0.3, 1.5)
            scanner.frame = board.frame()
            truth.append(tuple(rp2040_u16(v) for v in scanner.frame))
            for firmware in firmwares.values():
                firmware.scan_once()
        return {name: port.bytes - before[name] for name, port in ports.items()}

    at_rest = scan_for(rest_s, move=False)
    in_play = scan_for(play_s, move=True)
    # The host's side: every scan rebuilt from the change-only stream, to 4 × the band.
    assembler = ScanAssembler()
    rebuilt = [
        scan
        for frame in protocol.Decoder().feed(bytes(ports["changes"].stream))
        if (scan := assembler.feed(frame)) is not None
    ]
    if len(rebuilt) != len(truth):
        raise AssertionError(f"{len(rebuilt)} scans rebuilt of {len(truth)} sent")
    error = max(
        abs(a - b)
        for scan, real in zip(rebuilt, truth, strict=True)
        for a, b in zip(scan.readings, real, strict=True)
    )
    return {
        "link_channels": sensor_map.channels,
        "link_bytes_per_s_full": round(in_play["full"] / play_s),
        "link_bytes_per_s_changes": round(in_play["changes"] / play_s),
        "link_bytes_per_s_full_at_rest": round(at_rest["full"] / rest_s),
        "link_bytes_per_s_changes_at_rest": round(at_rest["changes"] / rest_s),
        "max_frame_bytes": max(port.longest for port in ports.values()),
        "link_max_error_counts": error,
        "link_deadband_counts": DEADBAND,
    }


def run() -> dict[str, float]:
    """All figures of the group."""
    return {
        **throughput(),
        **simulated_game(),
        **simulated_game(via_link=True),
        **link_traffic(),
    }
