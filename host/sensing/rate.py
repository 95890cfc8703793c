"""The scan rate a board's scanner can keep: from the scan times measured on an emulated RP2040.

``pico_scan.json`` (beside this module) holds, for each standard board and clock, the
longest scan the firmware took on the emulated Pico (``lawmaster bench --json pico``,
``host/bench/pico.py``, which also rewrites the file): the busy pin's window from the
first select change to the last frame handed to USB, in change-only mode and in the
full-frame mode calibration uses. The host asks a board for the fastest rate, in steps
of ``STEP``, whose period leaves ``1 - HEADROOM`` of itself to spare over the longer of
the two at the clock the firmware sets (the emulator does not model the RP2040's flash
cache misses, so a real Pico is slower than it counts), and never more than
``FASTEST``. A map of another size is bounded by the measured boards
(:func:`scan_cost_ms`).

What the hardware itself takes (settling and conversions, the USB bus) is the floor
``lawmaster.hardware.electronics.budget.scan_floor_us`` computes from the datasheets;
the measured scan includes it. Every debounce and stillness window is counted in
scans, so a board scanned sooner settles sooner.

The figures do not depend on when the host's commands arrive: the firmware runs its
loop with MicroPython's heap locked (``firmware/app.py``), so no call's frame is
placed by a heap search whose length the last commands' allocations decided.
Before that lock the same scan of GW:s brott took 1.13 ms or 1.55 ms depending only
on that moment; ``tests/pico`` checks each board's scans against these figures from
both sides.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from lawmaster.hardware.sensor_map import SensorMap

#: The measured scan times (written by ``python -m lawmaster.host.bench.pico --write``).
DATA = Path(__file__).with_name("pico_scan.json")
#: A scan, frames and USB writes included, may take at most this share of the period.
HEADROOM = 0.75
#: Rates are rounded down to a multiple of this (scans/s), so a figure in a log reads plainly.
STEP = 50
#: Never faster than 400 scans/s, the rate the stillness windows (counted in scans) were
#: validated at on the simulated boards.
FASTEST = 400


def _data() -> dict:
    return json.loads(DATA.read_text("utf-8"))


def firmware_clock_mhz() -> float:
    """The clock the measured firmware set (``firmware/config.py`` ``cpu_hz``), MHz."""
    return float(_data()["firmware_clock_mhz"])


def measured(board: str, clock_mhz: float | None = None) -> tuple[float, float]:
    """(change-only, full-frame) longest scan of a standard board, ms, at ``clock_mhz``
    (default: the firmware's own clock)."""
    data = _data()
    mhz = data["firmware_clock_mhz"] if clock_mhz is None else clock_mhz
    entry = data["boards"][board][f"{mhz:g}"]
    return float(entry["changes_ms"]), float(entry["full_ms"])


def boards() -> list[str]:
    """The boards measured."""
    return list(_data()["boards"])


def clocks() -> list[float]:
    """The clocks (MHz) every board was measured at, the firmware's own first."""
    data = _data()
    own = float(data["firmware_clock_mhz"])
    others = {float(k) for entry in data["boards"].values() for k in entry} - {own}
    return [own, *sorted(others, reverse=True)]


def _channels(board: str) -> int:
    return SensorMap.load(board).channels


def scan_cost_ms(channels: int, data: dict | None = None) -> float:
    """The longest scan (ms) a board of ``channels`` channels is taken to need at the
    firmware's clock. More channels never cost less (more conversions, more frame
    bytes), so a measured board bounds every smaller one: the least of the measured
    boards with at least as many channels; past the largest, its time in proportion
    (the fixed part of a scan is spread over more channels, so this overestimates).
    ``data``: another measurement than ``pico_scan.json``."""
    data = data or _data()
    own = f"{data['firmware_clock_mhz']:g}"
    points = sorted(
        (_channels(b), max(entry[own]["changes_ms"], entry[own]["full_ms"]))
        for b, entry in data["boards"].items()
    )
    covering = [t for n, t in points if n >= channels]
    if covering:
        return min(covering)
    largest, worst = points[-1]
    return worst * channels / largest


def scan_rate(channels: int, data: dict | None = None) -> int:
    """Scans per second the host asks of a board of ``channels`` channels (from
    ``pico_scan.json``, or ``data`` of the same form)."""
    if channels <= 0:
        raise ValueError(f"a board needs channels, not {channels}")
    best = math.floor(HEADROOM * 1000 / scan_cost_ms(channels, data) / STEP) * STEP
    if best < STEP:
        raise ValueError(f"{channels} channels cannot be scanned at {STEP}/s with headroom")
    return min(FASTEST, best)


def table_rows() -> list[tuple[str, int, int, float, float, float, float, float]]:
    """(board, channels, rate, period ms, clock MHz, change-only ms, full ms, worst share
    of the period) for each board and clock, the firmware's clock first."""
    rows = []
    for board in boards():
        channels = _channels(board)
        rate = scan_rate(channels)
        period = 1000 / rate
        for mhz in clocks():
            changes, full = measured(board, mhz)
            rows.append((board, channels, rate, period, mhz, changes, full,
                         max(changes, full) / period))  # fmt: skip
    return rows


def markdown_table(titles: dict[str, str] | None = None) -> str:
    """The measured scan times as a markdown table (the docs print exactly this)."""
    own = firmware_clock_mhz()
    lines = [
        "| board | channels | rate asked | period | clock | change-only scan | full-frame scan"
        " | longest / period |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for board, channels, rate, period, mhz, changes, full, share in table_rows():
        name = (titles or {}).get(board, board)
        clock = f"**{mhz:g} MHz**" if mhz == own else f"{mhz:g} MHz"
        lines.append(
            f"| {name} | {channels} | {rate}/s | {period:.2f} ms | {clock} | {changes:.2f} ms"
            f" | {full:.2f} ms | {share:.0%} |"
        )
    return "\n".join(lines)
