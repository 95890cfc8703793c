"""The scan rate follows the scan times measured on the emulated RP2040, with headroom."""

import pytest

from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.sensing import rate
from lawmaster.host.sensing.rate import HEADROOM, scan_cost_ms, scan_rate

BOARDS = ("gw-brott", "judge-dredd", "unamerican-graffiti")


def test_every_standard_board_is_measured_and_asked_for_a_rate_its_scan_fits():
    assert sorted(rate.boards()) == sorted(BOARDS)
    for board in BOARDS:
        channels = SensorMap.load(board).channels
        period_ms = 1000 / scan_rate(channels)
        changes, full = rate.measured(board)
        assert max(changes, full) <= HEADROOM * period_ms


def test_the_standard_boards_keep_400_scans_per_second():
    # The stillness windows (counted in scans) were validated at 400/s.
    for board in BOARDS:
        assert scan_rate(SensorMap.load(board).channels) == 400


def test_every_channel_count_gets_a_rate_that_fits_its_bound():
    for channels in range(1, 400):
        r = scan_rate(channels)
        assert 50 <= r <= rate.FASTEST and r % rate.STEP == 0
        assert scan_cost_ms(channels) <= HEADROOM * 1000 / r
        assert scan_rate(channels + 1) <= r  # more channels never scan faster
        assert scan_cost_ms(channels + 1) >= scan_cost_ms(channels)


def test_a_board_without_channels_is_refused():
    with pytest.raises(ValueError, match="channels"):
        scan_rate(0)
