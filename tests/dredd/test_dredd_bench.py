"""The ``dredd`` bench group runs its scripted game and reports both figures."""

from __future__ import annotations

from lawmaster.host.bench import available_groups
from lawmaster.host.bench.dredd import run


def test_dredd_bench_reports_odds_and_apply_figures():
    assert "dredd" in available_groups()
    figures = run()
    assert set(figures) == {
        "dredd_odds_ms",
        "dredd_odds_p99_ms",
        "dredd_odds_p99_cpu_ms",
        "dredd_odds_samples",
        "dredd_odds_competing_ms",
        "dredd_odds_worst_ms",
        "dredd_apply_us",
    }
    assert figures["dredd_odds_samples"] >= 200
    assert all(isinstance(v, float) and v > 0 for v in figures.values())
