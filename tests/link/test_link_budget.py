"""The scanner's time budget: the RP2040's hardware floor, and what the firmware reports."""

from __future__ import annotations

import pytest

from lawmaster.firmware import protocol as p
from lawmaster.host.bench.sensing import largest_standard_map
from lawmaster.host.sensing import rate


def test_the_rp2040s_own_share_of_a_scan_leaves_room_at_200_scans_per_second() -> None:
    assert rate.adc_conversion_us() == pytest.approx(2.0)  # 500 kS/s
    settle = rate.mux_settle_us()
    assert 0.5 < settle < 2.0  # switch-on plus ~9 time constants of a ~70 ns pole
    channels = largest_standard_map().channels
    # A full-frame scan of the largest board: two KEY parts, at most 2 × 256 bytes.
    floor = rate.hardware_scan_us(channels, 2 * p.MAX_FRAME)
    assert floor < 1e6 / 200 / 5  # the hardware takes under a fifth of the 5 ms
    # USB full speed carries a full-frame stream at 200 scans/s many times over.
    assert 200 * 2 * p.MAX_FRAME < rate.USB_FS_BULK_BYTES_PER_S / 10
