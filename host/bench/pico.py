"""Bench group ``pico``: what a scan costs the firmware on an emulated RP2040, per board.

Each standard board's scanner runs on the emulated Pico
(:class:`lawmaster.host.sim.rp2040.scanner.EmulatedScanner`: rp2040js, the MicroPython
v1.28.0 ``RPI_PICO`` image, the firmware of this repository compiled by ``mpy-cross``,
the board's multiplexer tree and sensors), connected to the host's own link, which
asks for the rate ``lawmaster run`` asks for. The firmware holds its busy pin (GP25)
high from the start of a scan until its last frame is handed to USB
(``Firmware.scan_once``: the scan, the change finding, the frames' encoding and the
writes); the emulator counts the core's cycles in each such window, at the clock
the firmware set itself (``firmware/config.py`` ``cpu_hz``).

Figures, per board (``<board>.`` before each name):

* ``pico_scan_ms_changes``: the longest scan in change-only mode (``SCANS`` scans with
  a piece put down and one keyframe asked for among them), ms;
* ``pico_scan_ms_full``: the longest scan in the full-frame mode calibration uses, ms;
* ``pico_period_ms``: 1000 / the rate the host asks of the board
  (:func:`lawmaster.host.sensing.rate.scan_rate`); both scan figures must stay at or
  under ``rate.HEADROOM`` (0.75) of it;
* ``pico_clock_mhz``: the clock the firmware runs at;
* ``pico_scan_ms_changes_125mhz``, ``pico_scan_ms_full_125mhz``: the same at the
  RP2040's default 125 MHz (the firmware told to leave the clock alone);
* ``pico_scans``: scans measured in each mode (``ROUNDS`` rounds of ``SCANS``, each
  round started by the host's commands at another moment of the scan period; the
  firmware runs its loop with the heap locked, so the moment should not matter, and the
  rounds are there to show it).

The emulator counts approximate Cortex-M0+ cycles and does not model flash cache
misses, so a real Pico is somewhat slower: hence the headroom.

``python -m lawmaster.host.bench.pico --write`` measures and rewrites
``host/sensing/pico_scan.json``, the one source of the scan times the rate, the
firmware README, ``hardware/BUILD.md`` and ``wiring.md`` state.
"""

from __future__ import annotations

import json
import sys

from lawmaster.firmware import config as firmware_config
from lawmaster.firmware import protocol
from lawmaster.firmware.app import DEADBAND, KEYFRAME_MS
from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.sensing import rate
from lawmaster.host.sim.rp2040.emulator import missing
from lawmaster.host.sim.rp2040.scanner import STANDARD_BOARDS, EmulatedScanner

SCANS = 24
#: Rounds of both modes per board, each started by commands arriving at another moment.
ROUNDS = 3
SLOW_HZ = 125_000_000


def measure(board: str, cpu_hz: int | None = None, scans: int = SCANS) -> dict[str, float]:
    """Longest change-only and full-frame scan (ms) of ``board`` at ``cpu_hz`` (None: the
    firmware's own clock), and the clock and rate it ran at."""
    overrides = None if cpu_hz is None else {"cpu_hz": cpu_hz}
    # Measured at the fastest rate the host ever asks: the scan itself does not depend on
    # it, and the rate the host then asks follows from what is measured here.
    with EmulatedScanner(board, overrides=overrides, rate=rate.FASTEST) as scanner:
        pico, link = scanner.pico, scanner.link
        assert link is not None
        scanner.wait_scans(3)
        spot = scanner.map.spots[len(scanner.map.spots) // 2]
        kind = next(iter(scanner.map.kinds))
        changes: list[float] = []
        full: list[float] = []
        for round_ in range(ROUNDS):
            # Each round's commands reach the scan loop at a moment wall time decides.
            if round_:
                link.request(
                    protocol.MODE, args=(protocol.MODE_CHANGES, DEADBAND, KEYFRAME_MS), timeout=300
                )
                scanner.remove("bench")
                scanner.wait_scans(2)
            scanner.place("bench", kind, spot.space)
            first = len(pico.busy)
            scanner.wait_scans(scans // 2)
            link.request(protocol.KEYFRAME, timeout=300)
            scanner.wait_scans(scans - scans // 2)
            changes += [b.cycle_ms for b in pico.busy[first:]]
            link.request(
                protocol.MODE, args=(protocol.MODE_FULL, DEADBAND, KEYFRAME_MS), timeout=300
            )
            scanner.wait_scans(2)
            first = len(pico.busy)
            scanner.wait_scans(scans)
            full += [b.cycle_ms for b in pico.busy[first:]]
        return {
            "changes_ms": max(changes),
            "full_ms": max(full),
            "clock_mhz": pico.hz / 1e6,
            "scans": float(min(len(changes), len(full))),
        }


def unavailable() -> str | None:
    """What this group needs and this machine lacks (None: it can run)."""
    reason = missing()
    return None if reason is None else f"it needs the emulated Pico: {reason}"


def run() -> dict[str, float]:
    reason = unavailable()
    if reason is not None:
        raise RuntimeError(f"bench pico: {reason}")
    figures: dict[str, float] = {}
    for board in STANDARD_BOARDS:
        own = measure(board)
        slow = measure(board, SLOW_HZ)
        figures[f"{board}.pico_scan_ms_changes"] = round(own["changes_ms"], 3)
        figures[f"{board}.pico_scan_ms_full"] = round(own["full_ms"], 3)
        figures[f"{board}.pico_clock_mhz"] = own["clock_mhz"]
        figures[f"{board}.pico_scan_ms_changes_125mhz"] = round(slow["changes_ms"], 3)
        figures[f"{board}.pico_scan_ms_full_125mhz"] = round(slow["full_ms"], 3)
        figures[f"{board}.pico_scans"] = min(own["scans"], slow["scans"])
    measured = data(figures)  # the rate the host asks follows from these very figures
    for board in STANDARD_BOARDS:
        asked = rate.scan_rate(SensorMap.load(board).channels, measured)
        figures[f"{board}.pico_period_ms"] = round(1000 / asked, 3)
    return figures


def data(figures: dict[str, float]) -> dict:
    """The content of ``host/sensing/pico_scan.json`` from the bench's figures."""
    own_mhz = firmware_config.CONFIG["cpu_hz"] / 1e6
    boards = {}
    for board in STANDARD_BOARDS:
        boards[board] = {
            f"{own_mhz:g}": {
                "changes_ms": figures[f"{board}.pico_scan_ms_changes"],
                "full_ms": figures[f"{board}.pico_scan_ms_full"],
            },
            f"{SLOW_HZ / 1e6:g}": {
                "changes_ms": figures[f"{board}.pico_scan_ms_changes_125mhz"],
                "full_ms": figures[f"{board}.pico_scan_ms_full_125mhz"],
            },
        }
    return {
        "about": (
            "Longest scan (busy pin high: scan, change finding, frames, USB writes) of"
            " each standard board's firmware on the emulated RP2040, by clock in MHz."
            " Written by `python -m lawmaster.host.bench.pico --write`; read by"
            " lawmaster.host.sensing.rate. The emulator does not model flash cache misses."
        ),
        "firmware_clock_mhz": own_mhz,
        "scans": min(figures[f"{b}.pico_scans"] for b in STANDARD_BOARDS),
        "boards": boards,
    }


def main(argv: list[str]) -> int:
    figures = run()
    print(json.dumps(figures, sort_keys=True))
    if "--write" in argv:
        rate.DATA.write_text(json.dumps(data(figures), indent=2) + "\n", "utf-8")
        print(f"wrote {rate.DATA}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
