"""The scanner's time budget: the hardware's floor under the scan measured on an emulated Pico."""

from __future__ import annotations

from pathlib import Path

import pytest

from lawmaster.firmware import config as firmware_config
from lawmaster.firmware import protocol as p
from lawmaster.hardware.electronics.bringup import idle_window_counts
from lawmaster.hardware.electronics.budget import scan_floor_us, settling
from lawmaster.hardware.electronics.datasheet import figure
from lawmaster.hardware.electronics.tree import tree_for
from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.host.sensing import rate

BOARDS = ("gw-brott", "judge-dredd", "unamerican-graffiti")


def test_the_measured_scan_stands_on_the_hardwares_floor() -> None:
    for board in BOARDS:
        tree = tree_for(board)
        # A full-frame scan: its KEY parts, at most MAX_FRAME bytes each.
        parts = -(-tree.channels // p.KEY_PART)
        floor_ms = scan_floor_us(tree, parts * p.MAX_FRAME) / 1000
        changes_ms, full_ms = rate.measured(board)
        assert floor_ms < full_ms  # nothing measured beats settling and conversions
        assert floor_ms <= rate.HEADROOM * 1000 / rate.scan_rate(tree.channels)


def test_the_firmware_waits_at_least_the_settling_the_budget_computes() -> None:
    """One settling figure: ``budget.settling`` (the docs print it); the firmware's
    ``settle_us`` must cover it on every standard board."""
    worst = max(settling(tree_for(board)).settle_us for board in BOARDS)
    assert firmware_config.CONFIG["settle_us"] >= worst


def test_usb_carries_a_full_frame_stream_many_times_over() -> None:
    for board in BOARDS:
        channels = tree_for(board).channels
        parts = -(-channels // p.KEY_PART)
        per_s = rate.scan_rate(channels) * parts * p.MAX_FRAME
        assert per_s < figure("usb.fs_bulk_bytes_per_s") / 5


def test_the_measured_clock_is_the_one_the_firmware_sets() -> None:
    assert rate.firmware_clock_mhz() * 1e6 == firmware_config.CONFIG["cpu_hz"]


def test_the_docs_print_the_measured_scan_times() -> None:
    """One source: firmware/README.md prints ``pico_scan.json`` as ``rate`` renders it
    (hardware/BUILD.md and wiring.md are generated from it: test_electronics_generated)."""
    readme = (Path(firmware_config.__file__).parent / "README.md").read_text("utf-8")
    assert rate.markdown_table() in readme


def test_the_heat_budget_takes_the_self_tests_offset_drift() -> None:
    """DRV5055 VQΔT, ±1 % of VCC over the temperature range: one figure, which the
    self-test's idle window takes whole and the heat budget spreads over 65 K."""
    assert figure("drv5055.vq_drift") * 65 == pytest.approx(
        figure("drv5055.vq_temp") * firmware_config.SUPPLY_V
    )


def test_the_firmwares_default_idle_window_is_bringups_widest() -> None:
    """One computation of the idle window (``bringup.idle_window_counts``): the host sends
    its board's; the firmware's default, used until it does, is the widest of them."""
    windows = [idle_window_counts(SensorMap.load(board)) for board in BOARDS]
    widest = (min(low for low, _ in windows), max(high for _, high in windows))
    assert widest == firmware_config.IDLE_WINDOW
    limits = firmware_config.selftest_limits()
    assert (limits["idle_low"], limits["idle_high"]) == widest
    # The rails lie well outside it: a reading at a rail is never a sensor at rest.
    assert limits["rail_low"] < widest[0] and widest[1] < limits["rail_high"]
