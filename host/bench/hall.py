"""Bench group ``hall``: eight tables on one broker, the hall screen, and a broker that dies.

Debian's ``mosquitto`` runs on 127.0.0.1 (a free port, a config of the bench's own).
Eight tables (the three games in turn) each publish through their own
:class:`~lawmaster.host.mqtt.TablePublisher`, wired by ``lawmaster run``'s own
:func:`~lawmaster.host.stack.publish`; their simulated players play on the tablets,
each table on its own thread, an input every :data:`PACE_S`. The hall
(:class:`~lawmaster.host.hall.Listener`, the Flask app under waitress) is read by an
HTTP client on its SSE stream.

* ``hall_update_p99_ms``: an input handed to a table's referee (its journal commit
  included) → the hall page's SSE ``tile`` event showing that table at that move or
  later (the publisher and the hall send the newest state, so a quick second input
  may be shown by the same update). ``hall_update_samples`` inputs.
* ``referee_stall_p99_ms_broker_down``: the referee's added wait per input while the
  broker is down. Tables play the same game input for input: :data:`COPIES`
  publishing to a broker that was killed (their publishers keep retrying it), as
  many publishing nothing; each has its table screen open, as a table has (a reader
  drains its stream as the SSE generator would). A table is alone on its Pi, so
  each play of the game is a process of its own holding one table (another table's
  threads in the same interpreter would take turns with this one's referee), its
  inputs :data:`STALL_PACE_S` apart. The game is played :data:`COPIES` times over on
  each side, the plays one after the other, alternating sides; an input's time on
  each side is the least ``Table.submit`` time of its plays. A wait the publisher
  causes (a lock, a socket, the broker, its thread's turn at the interpreter) is
  there in every play and stays; another process taking the CPU in the middle of
  one play's input (the machine is shared) is not there in every play. The figure
  is the p99 of the per-input difference (publishing minus none), over
  ``referee_stall_samples`` inputs; ``referee_stall_one_copy_p99_ms_broker_down``
  is the same from the first plays alone (every bit of the machine's noise in it),
  ``referee_stall_p99_ms_broker_up`` the same with a live broker, and
  ``referee_stall_p99_ms_control`` the same between two sets of plays that both
  publish nothing: the floor the machine's noise puts under these figures, measured
  in the same run.
  The journals lie on ``/dev/shm`` when there is one, so the disk's fsync noise does
  not swamp a difference of microseconds.

Wall-clock figures: on a machine shared with other work they are noisy.
"""

from __future__ import annotations

import gc
import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lawmaster.host.bench import percentile
from lawmaster.host.config import MqttConfig
from lawmaster.host.hall import Hall, Listener, create_app
from lawmaster.host.journal import Journal
from lawmaster.host.runtime import Runtime, demo_header, players_for, wait_until
from lawmaster.host.stack import publish
from lawmaster.host.table import TableHost
from lawmaster.host.web import make_server

TABLES = 8
GAMES = ("gw-brott", "judge-dredd", "unamerican-graffiti")
#: Inputs per table for the hall figure (8 × 30 = 240 samples).
INPUTS_PER_TABLE = 30
#: Seconds between two inputs at one table (a brisk table; eight of them at once).
PACE_S = 0.15
#: Paired inputs for the stall figures, the seconds between two, and how many times
#: the game is played over.
STALL_INPUTS = 200
STALL_PACE_S = 0.015
COPIES = 3


class BenchError(RuntimeError):
    """The bench cannot run here (no broker program)."""


@dataclass
class Broker:
    """Debian's mosquitto on 127.0.0.1, anonymous, from a config in ``folder``."""

    folder: Path
    port: int = 0
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> Broker:
        binary = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
        if not os.access(binary, os.X_OK):
            raise BenchError("the hall bench needs Debian's mosquitto (scripts/dev-setup)")
        if not self.port:
            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))
                self.port = int(s.getsockname()[1])
        lines = [f"listener {self.port} 127.0.0.1", "allow_anonymous true", "persistence false"]
        if os.geteuid() == 0:
            lines.append("user root")  # else it drops to a user that cannot read our folder
        config = self.folder / f"mosquitto-{self.port}.conf"
        config.write_text("\n".join(lines) + "\n")
        self.process = subprocess.Popen(
            [binary, "-c", str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        if not wait_until(self._listening, 20, 0.02):
            raise BenchError("mosquitto did not start listening")
        return self

    def _listening(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), 1):
                return True
        except OSError:
            return False

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


@dataclass
class Seat:
    """One bench table: its runtime, its players, and when each input went in."""

    name: str
    runtime: Runtime
    players: Any
    #: (game id, move after the input) → perf_counter when the input was handed over.
    sent: dict[tuple[int, int], float] = field(default_factory=dict)

    @property
    def table(self) -> Any:
        return self.runtime.table

    def play_one(self, seed: int) -> float | None:
        """One input from the simulated players; seconds ``Table.submit`` took, or ``None``
        when nobody had anything to do. A finished game is followed by a new one."""
        table = self.table
        if table.is_over():
            self.runtime.host.new_game(table.header)
            self.players = players_for(self.table, seed)
            table = self.table
        decision = self.players.decide()
        if decision is None:
            return None
        start = time.perf_counter()
        answer = table.submit(decision.seat, decision.action)
        took = time.perf_counter() - start
        if not answer.get("ok"):
            raise RuntimeError(f"{self.name}: {decision.action} refused: {answer.get('error')}")
        self.sent[(table.record.id, len(table.actions))] = start
        return took


def _seat(name: str, folder: Path, game: str, seed: int, mqtt: MqttConfig | None) -> Seat:
    host = TableHost(Journal(folder / f"{name}.db"), {"board": False, "seed": seed})
    host.new_game(demo_header(game, seed))
    runtime = Runtime(host)
    if mqtt is not None:
        publish(runtime, mqtt)
    return Seat(name, runtime, players_for(host.table, seed))  # type: ignore[arg-type]


class TableScreen(threading.Thread):
    """A table screen left open: its stream's snapshots read as they come, like the SSE
    generator reads them (a new game is followed)."""

    def __init__(self, host: Any) -> None:
        super().__init__(name="bench-table-screen", daemon=True)
        self.host = host
        self.stop = threading.Event()
        self.start()

    def run(self) -> None:
        table: Any = None
        subscription: Any = None
        while not self.stop.is_set():
            if self.host.table is not table:
                if subscription is not None:
                    subscription.close()
                table = self.host.table
                subscription = table.subscribe("table")
            subscription.get(timeout=0.1)
        if subscription is not None:
            subscription.close()

    def close(self) -> None:
        self.stop.set()
        self.join(timeout=5)


class HallStream(threading.Thread):
    """The hall page's SSE stream read by an HTTP client: when each tile update came."""

    def __init__(self, port: int) -> None:
        super().__init__(name="bench-hall-sse", daemon=True)
        self.port = port
        self.updates: list[tuple[float, str, int, int]] = []  # (arrival, table, game, move)
        self.lock = threading.Lock()
        self.ready = threading.Event()

    def run(self) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        connection.request("GET", "/events", headers={"Accept": "text/event-stream"})
        response = connection.getresponse()
        kind = ""
        while True:
            raw = response.readline()
            if not raw:
                return
            line = raw.decode("utf-8").rstrip("\r\n")
            if line.startswith(":"):
                self.ready.set()
            elif line.startswith("event:"):
                kind = line[6:].strip()
            elif line.startswith("data:") and kind == "tile":
                arrived = time.perf_counter()
                data = json.loads(line[5:])
                if isinstance(data.get("move"), int) and isinstance(data.get("game_id"), int):
                    with self.lock:
                        self.updates.append(
                            (arrived, data["table"], data["game_id"], data["move"])
                        )

    def first_showing(self, table: str, game: int, move: int, after: float) -> float | None:
        with self.lock:
            for arrived, name, shown_game, shown in self.updates:
                if name == table and shown_game == game and shown >= move and arrived >= after:
                    return arrived
        return None


def hall_update_ms(
    folder: Path, broker: Broker, tables: int = TABLES, inputs: int = INPUTS_PER_TABLE
) -> list[float]:
    """Milliseconds from each input at ``tables`` publishing tables to the hall's SSE update."""
    hall = Hall()
    config = MqttConfig(host="127.0.0.1", port=broker.port, keepalive=10)
    listener = Listener(hall, config).start()
    app = create_app(hall)
    server = make_server(app, "127.0.0.1", 0)
    threading.Thread(target=server.run, name="bench-hall", daemon=True).start()
    stream = HallStream(int(server.effective_port))
    stream.start()
    seats = [
        _seat(
            f"table-{i + 1}",
            folder,
            GAMES[i % len(GAMES)],
            i + 1,
            MqttConfig(host="127.0.0.1", port=broker.port, table=f"table-{i + 1}", keepalive=10),
        )
        for i in range(tables)
    ]
    try:
        stream.ready.wait(10)
        # Every table on the page before timing starts.
        wait_until(lambda: len(hall.view().tables) == tables, 30)
        time.sleep(0.5)
        began = time.perf_counter()

        def play(seat: Seat, seed: int) -> None:
            done = 0
            while done < inputs:
                if seat.play_one(seed) is not None:
                    done += 1
                time.sleep(PACE_S)

        threads = [
            threading.Thread(target=play, args=(seat, i + 1), daemon=True)
            for i, seat in enumerate(seats)
        ]
        for thread in threads:
            thread.start()
            time.sleep(PACE_S / tables)  # staggered, as tables are
        for thread in threads:
            thread.join()
        samples: list[float] = []
        for seat in seats:
            for (game, move), sent in seat.sent.items():
                if sent < began:
                    continue
                arrived = None
                deadline = time.monotonic() + 10
                while arrived is None and time.monotonic() < deadline:
                    arrived = stream.first_showing(seat.name, game, move, sent)
                    if arrived is None:
                        time.sleep(0.01)
                if arrived is None:
                    raise RuntimeError(f"{seat.name} move {move}: the hall never showed it")
                samples.append((arrived - sent) * 1000)
        return samples
    finally:
        for seat in seats:
            seat.runtime.close()
            seat.table.journal.close()
        server.close()
        listener.close()


def referee_stall_ms(
    folder: Path, broker_up: Broker, inputs: int = STALL_INPUTS, copies: int = COPIES
) -> dict[str, list[float]]:
    """Per input, ``Table.submit``'s time at a publishing table minus that at a table that
    publishes nothing, playing the same game: with the broker killed, and with it up.

    Each play is a process of its own (see the module docstring); ``"<case>-one"`` keeps
    the first plays' differences alone.
    """
    plays: dict[str, list[list[float]]] = {"none": [], "down": [], "control": [], "up": []}
    for _ in range(copies):
        for case in plays:
            kind = "none" if case == "control" else case
            plays[case].append(_stall_play(folder, kind, broker_up.port, inputs))
    quiet = [min(times) for times in zip(*plays["none"], strict=True)]
    found: dict[str, list[float]] = {}
    for case in ("down", "up", "control"):
        least = [min(times) for times in zip(*plays[case], strict=True)]
        found[case] = [(a - b) * 1000 for a, b in zip(least, quiet, strict=True)]
        found[f"{case}-one"] = [
            (a - b) * 1000 for a, b in zip(plays[case][0], plays["none"][0], strict=True)
        ]
    return found


def _stall_play(folder: Path, case: str, up_port: int, inputs: int) -> list[float]:
    """One play in a process of its own: the seconds each ``Table.submit`` took."""
    args = json.dumps([str(folder), case, up_port, inputs])
    code = "import sys; from lawmaster.host.bench.hall import stall_play; stall_play(sys.argv[1])"
    done = subprocess.run(
        [sys.executable, "-c", code, args], capture_output=True, text=True, timeout=600
    )
    if done.returncode != 0:
        raise RuntimeError(f"a stall play ({case}) failed: {done.stderr[-2000:]}")
    times = json.loads(done.stdout.strip().splitlines()[-1])
    return [float(t) for t in times]


def stall_play(raw: str) -> None:
    """The body of one stall play (a process of its own): one table, as on its Pi, with
    its table screen open, publishing to a broker it then kills (``down``), to the live
    broker (``up``), or to none (``none``); prints the seconds of each ``Table.submit``."""
    folder_name, case, up_port, inputs = json.loads(raw)
    folder = Path(tempfile.mkdtemp(prefix=f"stall-{case}-", dir=folder_name))
    game, seed = "unamerican-graffiti", 5
    dead = Broker(folder).start() if case == "down" else None
    port = dead.port if dead is not None else up_port
    mqtt = None if case == "none" else MqttConfig(
        host="127.0.0.1", port=port, table=f"stall-{case}", keepalive=10
    )
    seat = _seat(f"stall-{case}", folder, game, seed, mqtt)
    screen = TableScreen(seat.runtime.host)
    try:
        health = seat.runtime.health
        def state() -> str:
            return str(getattr(health.broker, "state", ""))

        if mqtt is not None and not wait_until(lambda: state() == "connected", 20):
            raise BenchError(f"the {case} table never reached its broker")
        if dead is not None:
            dead.stop()  # killed: the publisher loses it and keeps trying
            if not wait_until(lambda: state() == "lost", 20):
                raise BenchError("the table never saw its broker go")
        # What start-up built is kept out of the collector, as the runtime does.
        gc.collect()
        gc.freeze()
        times: list[float] = []
        while len(times) < inputs:
            took = seat.play_one(seed)
            if took is not None:
                times.append(took)
            time.sleep(STALL_PACE_S)
        print(json.dumps(times))
    finally:
        screen.close()
        seat.runtime.close()
        seat.table.journal.close()
        if dead is not None:
            dead.stop()


def run() -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="lawmaster-bench-hall-") as scratch:
        folder = Path(scratch)
        quick = Path(tempfile.mkdtemp(prefix="lawmaster-bench-hall-", dir=_fast_folder()))
        broker = Broker(folder).start()
        try:
            updates = hall_update_ms(folder, broker)
            stall = referee_stall_ms(quick, broker)
        finally:
            broker.stop()
            shutil.rmtree(quick, ignore_errors=True)
    return {
        "hall_update_p99_ms": percentile(updates, 99),
        "hall_update_median_ms": percentile(updates, 50),
        "hall_update_samples": float(len(updates)),
        "referee_stall_p99_ms_broker_down": percentile(stall["down"], 99),
        "referee_stall_median_ms_broker_down": percentile(stall["down"], 50),
        "referee_stall_p99_ms_broker_up": percentile(stall["up"], 99),
        "referee_stall_one_copy_p99_ms_broker_down": percentile(stall["down-one"], 99),
        "referee_stall_p99_ms_control": percentile(stall["control"], 99),
        "referee_stall_samples": float(len(stall["down"])),
    }


def _fast_folder() -> str | None:
    """``/dev/shm`` when there is one (see the module docstring), else the usual place."""
    shm = Path("/dev/shm")
    return str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None
