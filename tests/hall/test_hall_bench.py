"""The ``hall`` bench group measures what it says, on a small scale (figures are not judged
here: speed is what ``lawmaster bench --json hall`` reports)."""

from __future__ import annotations

import math

from hall_support import mosquitto_binary

from lawmaster.host.bench import available_groups
from lawmaster.host.bench import hall as bench


def test_hall_bench_measures_every_input_and_every_pair(tmp_path):
    mosquitto_binary()  # skips, saying so, where Debian's mosquitto is missing
    assert "hall" in available_groups()
    broker = bench.Broker(tmp_path).start()
    try:
        updates = bench.hall_update_ms(tmp_path, broker, tables=2, inputs=3)
        stall = bench.referee_stall_ms(tmp_path, broker, inputs=5, copies=1)
    finally:
        broker.stop()
    # One figure per input at each table, each from the input to the hall's update.
    assert len(updates) == 2 * 3
    assert all(math.isfinite(u) and u > 0 for u in updates)
    for case in ("down", "up", "control", "down-one", "up-one", "control-one"):
        assert len(stall[case]) == 5, case
        assert all(math.isfinite(s) for s in stall[case])
