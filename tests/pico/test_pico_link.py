"""The host's commands on the emulated RP2040, and the pace the firmware keeps there.

The commands are checked by the very function that checks them on MicroPython's unix
port (``tests/link_checks.py``), here on the real ``RPI_PICO`` build with GW:s brott's
multiplexer tree on its pins. The pace is read off the busy pin in the emulated
Pico's own time (its cycle-counted clock, never the wall clock of this machine).
"""

from __future__ import annotations

from link_checks import check_commands
from pico_support import needs_emulator

from lawmaster.host.sim.rp2040.scanner import EmulatedScanner

pytestmark = needs_emulator


def test_the_host_commands_the_firmware_on_the_device() -> None:
    with EmulatedScanner("gw-brott") as scanner:
        link, pico = scanner.link, scanner.pico
        assert link is not None
        scanner.wait_scans(3)

        def let_run() -> None:
            # 50 ms of the Pico's own time: twenty scans at 400/s, had STOP been ignored.
            until = pico.stats()["ns"] + 50e6
            scanner.wait(lambda: pico.stats()["ns"] >= until)

        check_commands(
            link, lambda: list(scanner.scans), lambda c: scanner.wait(c), let_run, timeout=60.0
        )

        # RATE 40: a scan starts every 25 ms of the device's time, whatever each costs.
        first = len(pico.busy)
        scanner.wait_scans(5)
        starts = [window.start_ns for window in pico.busy[first:]]
        gaps_ms = [(b - a) / 1e6 for a, b in zip(starts, starts[1:], strict=False)]
        assert len(gaps_ms) >= 3
        assert all(abs(gap - 25.0) < 0.1 for gap in gaps_ms), gaps_ms
        # Every command was taken by the heap-locked loop without a reboot.
        assert link.stats.device_restarts == 0 and link.stats.device_errors == 0
