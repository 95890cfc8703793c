"""Figures for the dashboard (not a test): page times and input-to-SSE latency.

Run: ``python tests/web/web_measure.py``. A 3-criminal GW game is played 60
random inputs in; then median times of the main pages (Flask test client),
and the time from a tablet input to its SSE event arriving at a reader on the
table screen's stream through waitress on 127.0.0.1.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from web_support import SseReader, gw_header, live_server, make_host, play_random  # noqa: E402

from lawmaster.host.web import create_app  # noqa: E402


def median_ms(call: Callable[[], object], runs: int = 50) -> float:
    """Median wall time of ``call`` in milliseconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return round(statistics.median(times) * 1000, 2)


def main() -> None:
    host = make_host(Path(tempfile.mkdtemp()))
    table = host.new_game(gw_header(3, ["red", "green", "yellow"]))
    rng = random.Random(3)
    for _ in range(60):
        play_random(table, rng)
    client = create_app(host).test_client()
    gw = table.token("gw")
    print("GET /table ms", median_ms(lambda: client.get("/table")))
    print("GET /seat/<gw> ms", median_ms(lambda: client.get(f"/seat/{gw}")))
    print("GET /seat/<gw>.json?html=1 ms", median_ms(lambda: client.get(f"/seat/{gw}.json?html=1")))
    latencies = []
    with live_server(host) as live:
        reader = SseReader(live.port, "/events/table")
        reader.next_block()
        for _ in range(40):
            if table.is_over():
                break
            start = time.perf_counter()
            _, _, result = play_random(table, rng)
            if result["ok"]:
                reader.next_event()
                latencies.append(time.perf_counter() - start)
        reader.close()
    print(
        "input -> SSE event at reader ms: median",
        round(statistics.median(latencies) * 1000, 2),
        "max",
        round(max(latencies) * 1000, 2),
        "n",
        len(latencies),
    )


if __name__ == "__main__":
    main()
