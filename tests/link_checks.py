"""End-to-end checks that run on every build of the firmware there is.

The same function drives the firmware on MicroPython's unix port
(``tests/link/test_firmware_micropython.py``) and on the real ``RPI_PICO`` build in an
emulated RP2040 (``tests/pico/test_pico_link.py``), through the host's own
:class:`lawmaster.host.link.Link`, so a command that works on one and not the other
fails by name. (``tests/`` is on ``sys.path`` because its ``conftest.py`` is there.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from lawmaster.firmware import protocol as p
from lawmaster.host.link import Link


def check_commands(
    link: Link,
    scans: Callable[[], Sequence[p.ScanFrame]],
    wait_for: Callable[[Callable[[], object]], None],
    let_run: Callable[[], None],
    timeout: float,
) -> None:
    """PING answers; RATE 40 is acknowledged; after STOP's acknowledgement no scan is sent
    while the firmware runs on (``let_run``); START brings scans back, and the HELLO the
    link holds says the new rate. ``scans()``: every scan the link has decoded so far."""
    assert link.ping(timeout) is not None
    assert isinstance(link.request(p.RATE, 40, timeout=timeout), p.AckFrame)
    stop = link.request(p.STOP, timeout=timeout)
    assert isinstance(stop, p.AckFrame)
    let_run()
    assert all(frame.seq < stop.seq for frame in scans())
    start = link.request(p.START, timeout=timeout)
    assert isinstance(start, p.AckFrame)
    wait_for(lambda: scans()[-1].seq > start.seq)
    assert link.hello is not None and link.hello.rate == 40
