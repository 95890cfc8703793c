"""The scan rate a board's scanner can keep: from its channel count and the firmware's budget.

``firmware/README.md`` ("Time budget") budgets the RP2040 scanner at 200 scans/s
for 256 channels: 5.0 ms per scan, 19.5 µs per channel, with the worst measured
per-channel cost (16 µs at 200 MHz) and the per-scan extras (frame encode, USB
write, command poll: ≤ 0.35 ms) inside it. A board with fewer channels is
scanned faster at the same per-channel cost, and every scan sooner means every
debounce and stillness window (counted in scans) ends sooner.
"""

from __future__ import annotations

#: The firmware README's per-channel budget: 5.0 ms per scan / 256 channels.
CHANNEL_BUDGET_US = 1_000_000 / 200 / 256
#: Rates are rounded down to a multiple of this (scans/s), so a figure in a log reads plainly.
STEP = 50
#: Never slower than the README's reference; never faster than 400 scans/s, the rate the
#: stillness windows (counted in scans) were validated at on the simulated boards.
SLOWEST, FASTEST = 200, 400


def scan_rate(channels: int) -> int:
    """Scans per second for a board of ``channels`` channels (200 for 256; 400 for 122)."""
    if channels <= 0:
        raise ValueError(f"a board needs channels, not {channels}")
    rate = int(1_000_000 / (channels * CHANNEL_BUDGET_US)) // STEP * STEP
    return max(SLOWEST, min(FASTEST, rate))
