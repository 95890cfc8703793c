"""The scan rate follows the board's channel count and the firmware's per-channel budget."""

import pytest

from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.sensing.rate import CHANNEL_BUDGET_US, scan_rate


def test_the_readme_reference_board_is_scanned_at_200():
    assert scan_rate(256) == 200
    assert round(CHANNEL_BUDGET_US * 256, 6) == 5000.0  # 5.0 ms per scan


def test_gw_brotts_board_is_scanned_twice_as_fast():
    assert scan_rate(SensorMap.load("gw-brott").channels) == 400


def test_every_scan_fits_the_per_channel_budget():
    for channels in range(1, 400):
        rate = scan_rate(channels)
        assert 200 <= rate <= 400
        assert rate % 50 == 0
        if channels <= 256:
            assert channels * CHANNEL_BUDGET_US <= 1_000_000 / rate
        assert scan_rate(channels + 1) <= rate  # more channels never scan faster


def test_a_board_without_channels_is_refused():
    with pytest.raises(ValueError, match="channels"):
        scan_rate(0)
