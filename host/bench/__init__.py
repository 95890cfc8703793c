"""Benchmark groups for ``lawmaster bench``.

Each module here is one group (``gw``, ``sensing``, ``nfc``, ``table``, ...) and
defines ``run() -> dict[str, float]``, the figures under the key names the
issues give. Figures that compare with a baseline measure both in one run.
"""

from __future__ import annotations

import importlib
import pkgutil
import statistics
import time
from collections.abc import Callable


def available_groups() -> list[str]:
    """The names of all bench groups."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))


def run_groups(groups: list[str]) -> dict[str, float]:
    """Run the named groups and merge their figures."""
    figures: dict[str, float] = {}
    for name in groups:
        module = importlib.import_module(f"{__name__}.{name}")
        figures.update(module.run())
    return figures


def median_seconds(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``fn()`` over ``repeat`` calls."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def percentile(values: list[float], pct: float) -> float:
    """The ``pct``-th percentile (nearest rank) of ``values``."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = max(0, min(len(ordered) - 1, round(pct / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]
