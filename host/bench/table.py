"""Bench group ``table``: how fast the table takes an input and shows it.

* ``journal_append_p99_ms``: one accepted input stored durably (SQLite WAL,
  ``synchronous=FULL``, a file on disk) — the wait before any verdict shows.
* ``settle_to_tablet_p99_ms``: a magnet coming to rest on the simulated board
  (the moment the simulated hand lets go) → the SSE ``update`` carrying the
  accepted move, read by an HTTP client from waitress on 127.0.0.1 (GW's
  tablet stream). The whole stack, wired by ``lawmaster run``'s own wiring
  (:class:`~lawmaster.host.stack.TableStages`) from the simulated hardware
  factory: the real firmware code on a pty at the board's scan rate (400
  scans/s for GW:s brott's 122 channels, see ``lawmaster.host.sensing.rate``),
  the link, the board feed (sensing, tracker, channel watch), the input queue,
  referee, journal commit and the web app. Every board move of simulated games is timed
  (criminals placing their piece after saying the die, GW sliding its magnet);
  GW's "the move is over"
  pause is set to 0 so its moves count from rest too; a slide whose corner the
  sensors missed (GW then says on its tablet which way it went) is not timed.
  "At rest" is the wall time of the first scan from which the magnet stays
  within 0.5 mm of where it ends (the board's own record of every piece at
  every scan). Each scan reads the board at a moment of its own, one scan
  period after the last on the simulated clock, as a real scanner samples it;
  figures from before that clock (a board read at the wall's time rounded to
  the scan period: some scans saw a moment twice, some skipped one) are some
  10 ms lower in the median, not in the pipeline.
"""

from __future__ import annotations

import http.client
import json
import math
import tempfile
import threading
import time
from functools import partial
from pathlib import Path
from typing import Any

from lawmaster.host.bench import _pushes, percentile
from lawmaster.host.journal import ACTION, Journal
from lawmaster.host.runtime import Autoplay, Runtime, demo_header, open_host, start_web, wait_until
from lawmaster.host.sim.hardware import SimulatedHardware
from lawmaster.host.sim.people import SimulatedPeople
from lawmaster.host.stack import TableStages
from lawmaster.host.tracker import Moved, Observation

APPENDS = 400
SETTLE_SAMPLES = 40


def journal_append_ms(appends: int = APPENDS) -> list[float]:
    """Milliseconds per durable append, on a journal file in a fresh temporary folder."""
    with tempfile.TemporaryDirectory(prefix="lawmaster-bench-") as folder:
        journal = Journal(Path(folder) / "journal.db")
        game = journal.start_game({"game": "gw-brott"}, {}, {"gw": "t"})
        action = {"act": "move", "by": "red", "die": "3", "to": "C7"}
        times = []
        for _ in range(appends):
            start = time.perf_counter()
            journal.append(game.id, ACTION, action, seat="red", source="board")
            times.append((time.perf_counter() - start) * 1000)
        journal.close()
    return times


class _Stream(threading.Thread):
    """An HTTP client reading one SSE stream; notes when each update arrives."""

    def __init__(self, port: int, path: str) -> None:
        super().__init__(name="bench-sse", daemon=True)
        self.port = port
        self.path = path
        self.updates: list[tuple[float, int]] = []  # (arrival, accepted moves in the snapshot)
        self.ready = threading.Event()
        self._lock = threading.Lock()

    def _join(self) -> dict[str, str]:
        """A seat's stream opens only on the device that holds the seat: join it first,
        as GW's tablet does when it opens its code (the cookie it is given)."""
        token = self.path.rsplit("/", 1)[-1]
        if self.path == "/events/table":
            return {}
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.request("GET", f"/join/{token}", headers={"Sec-Fetch-Site": "none"})
            response = connection.getresponse()
            response.read()
            for raw in response.headers.get_all("Set-Cookie") or []:
                if raw.startswith("lawmaster_device="):
                    return {"Cookie": raw.split(";", 1)[0]}
        finally:
            connection.close()
        return {}

    def run(self) -> None:
        cookie = self._join()
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        connection.request("GET", self.path, headers={"Accept": "text/event-stream", **cookie})
        response = connection.getresponse()
        self.ready.set()
        kind = ""
        while True:
            line = response.fp.readline()
            if not line:
                return
            text = line.decode().rstrip("\n")
            if text.startswith("event: "):
                kind = text[7:]
            elif text.startswith("data: ") and kind == "update":
                arrived = time.monotonic()
                moves = int(json.loads(text[6:])["snapshot"]["move"])
                with self._lock:
                    self.updates.append((arrived, moves))

    def arrived(self, moves: int, after: float) -> bool:
        """Whether an update carrying ``moves`` accepted moves has come since ``after``."""
        return self.first_with(moves, after) is not None

    def first_with(self, moves: int, after: float) -> float | None:
        with self._lock:
            for arrived, seen in self.updates:
                if seen >= moves and arrived >= after:
                    return arrived
        return None


def start_table(
    runtime: Runtime, seed: int
) -> tuple[TableStages, SimulatedHardware, SimulatedPeople]:
    """The stages the bench times: ``lawmaster run``'s wiring, from the simulated factory."""
    hardware = SimulatedHardware(seed)
    stages = TableStages(runtime, hardware).start()
    return stages, hardware, SimulatedPeople(stages, hardware)


def settle_to_tablet_ms(samples: int = SETTLE_SAMPLES, seed: int = 21) -> list[tuple[float, float]]:
    """Per board move, milliseconds to GW's tablet stream carrying it: from the magnet at
    rest, and from the tracker's observation."""
    results: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory(prefix="lawmaster-bench-") as folder:
        while len(results) < samples:
            settings = {"board": True, "seed": seed, "gw_pause": 0.0}
            header = demo_header("gw-brott", seed)
            host = open_host(str(Path(folder) / f"settle-{seed}.db"), settings, header)
            runtime = Runtime(host)
            try:
                results += _one_game(runtime, seed, samples - len(results))
            finally:
                runtime.close()
            seed += 1
    return results


def _one_game(runtime: Runtime, seed: int, wanted: int) -> list[tuple[float, float]]:
    stages, hardware, people = start_table(runtime, seed)
    runtime.web = start_web(runtime.host, "127.0.0.1", 0)
    table = runtime.table
    port = int(runtime.web.url.rsplit(":", 1)[1])
    stream = _Stream(port, f"/events/{table.token('gw')}")
    stream.start()
    stream.ready.wait(10)
    board, feed = hardware.board, stages.current.feed if stages.current else None
    if board is None or feed is None:
        raise RuntimeError(f"the simulated board is not wired: {runtime.missing}")
    # Times on the wall (what the tablet's reader waits through) and on the simulated
    # clock (where the board's own record of every scan says the magnet came to rest).
    gestures: list[tuple[str, float, float, int]] = []  # piece, simulated, wall, moves after
    board.trace = []
    moved: list[tuple[str, float]] = []  # piece, wall time of the observation

    def note_move(observation: Observation, t: float) -> None:
        if isinstance(observation, Moved):
            moved.append((observation.piece, time.monotonic()))

    feed.on_observation.append(note_move)

    def noted(piece: str, rest: float) -> None:
        # Only a move of the piece whose turn it is makes an input; a caught piece
        # carried to the jail does not.
        if piece in table.to_act():
            gestures.append((piece, board.now(), time.monotonic(), len(table.actions) + 1))

    board.on_gesture.append(noted)
    done = threading.Event()
    autoplay = Autoplay(
        runtime.host, people.act, seed=seed, pace=0.0, on_over=lambda _t: done.set()
    )
    autoplay.start()
    while not done.is_set() and autoplay.is_alive() and len(gestures) < wanted + 1:
        time.sleep(0.05)
    autoplay.stop()
    autoplay.join(30)
    if autoplay.error is not None:
        raise RuntimeError(f"the simulated game stopped: {autoplay.error}")
    found = []
    ends = [(start, wall) for _, start, wall, _ in gestures[1:]] + [(math.inf, math.inf)]
    for (piece, start, wall, moves), (end, wall_end) in list(zip(gestures, ends, strict=True))[
        :wanted
    ]:
        wait_until(partial(stream.arrived, moves, wall), 2.0)
        arrived = stream.first_with(moves, wall)
        rest = _came_to_rest(board.trace, piece, start, end)
        seen = next((t for p, t in moved if p == piece and wall <= t < wall_end), None)
        # A slide whose corner the sensors missed waits for GW to say which way it went:
        # that is a person answering, not the pipeline.
        asked = any(wall <= t < min(wall_end, arrived or wall_end) for t in people.answered)
        if arrived is not None and rest is not None and seen is not None and not asked:
            found.append(((arrived - rest) * 1000, (arrived - seen) * 1000))
    return found


def _came_to_rest(trace: list[Any], piece: str, start: float, end: float) -> float | None:
    """When on the wall the scan was made from which ``piece`` stays within 0.5 mm of
    where it ends, of the scans in [start, end) of simulated time.

    The simulated hand's motion ends in a slow tail (minimum jerk); the magnet is
    at rest, as a person would say, once it no longer moves by a hair.
    """
    samples = [
        (wall, poses[piece]) for t, wall, poses in trace if start <= t < end and piece in poses
    ]
    if not samples:
        return None
    end_x, end_y, end_h = samples[-1][1]
    rest = None
    for wall, (x, y, h) in reversed(samples):
        if abs(x - end_x) > 0.5 or abs(y - end_y) > 0.5 or abs(h - end_h) > 0.5:
            break
        rest = wall
    return rest


def run() -> dict[str, float]:
    """The table group's figures.

    ``update_bytes_p50``/``_p99``, ``update_bytes_full_page_p99``,
    ``update_bytes_samples`` and ``page_bytes_first_load``: what a tablet receives per
    live push and per first load, over whole simulated games (see :mod:`._pushes`).

    ``observation_to_tablet_p99_ms`` is the referee's and the web's share of
    ``settle_to_tablet``: from the frame in which the tracker reported the move
    to the SSE event at the client (the rest is the sensing and tracker stages
    deciding that the magnet is still).
    """
    settle = settle_to_tablet_ms()
    pushes = _pushes.summary(_pushes.measure(), percentile)
    return {
        **pushes,
        "journal_append_p99_ms": round(percentile(journal_append_ms(), 99), 3),
        "settle_to_tablet_p99_ms": round(percentile([s for s, _ in settle], 99), 3),
        "settle_to_tablet_median_ms": round(percentile([s for s, _ in settle], 50), 3),
        "observation_to_tablet_p99_ms": round(percentile([o for _, o in settle], 99), 3),
    }
