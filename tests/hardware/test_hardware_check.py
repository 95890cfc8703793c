"""``lawmaster hardware check --json`` for each standard board: the agreed keys, every pass
condition met, exit status 0. Needs ``lawmaster.hardware.magnetics`` (the magnetics half)."""

from __future__ import annotations

import json
import math

import pytest
from click.testing import CliRunner

from lawmaster.host.cli import main

KEYS = (
    "erc_errors",
    "supply_worst_a",
    "supply_capacity_a",
    "settle_us",
    "dwell_us",
    "min_margin_counts",
    "noise_counts",
    "min_hold_safety",
    "cost_eur",
    "cost_estimated_eur",
    "ripple_counts_rms",
    "heat_tau_min",
    "worst_saturation_fraction",
    "worst_corner_margin_counts",
    "noise_with_ripple_counts",
    "z_line_cable_pf",
    "rail_sensor_min_v",
    "parts_worst_margin_mm",
)


@pytest.mark.parametrize("board", ["gw-brott", "judge-dredd", "unamerican-graffiti"])
def test_hardware_check_json_meets_every_budget_and_margin(board):
    result = CliRunner().invoke(main, ["hardware", "check", "--board", board, "--json"])
    figures = json.loads(result.output)[board]
    assert result.exit_code == 0, result.output
    for key in KEYS:
        assert isinstance(figures[key], float | int) and math.isfinite(figures[key]), key
    assert figures["erc_errors"] == 0
    assert figures["supply_capacity_a"] >= 1.25 * figures["supply_worst_a"]
    assert figures["settle_us"] <= figures["dwell_us"] / 2
    # The margins are judged against the noise with the rail filter's remaining ripple.
    noise = math.hypot(figures["noise_counts"], figures["ripple_counts_rms"])
    assert figures["noise_with_ripple_counts"] == pytest.approx(noise)
    assert figures["min_margin_counts"] >= 5 * noise
    assert figures["min_hold_safety"] >= 2
    assert 0 < figures["cost_estimated_eur"] <= figures["cost_eur"]
    assert figures["worst_saturation_fraction"] <= 0.9
    assert figures["worst_corner_margin_counts"] >= 5 * noise
    # Every part fits the room on its PCB face (lawmaster.hardware.pcb.fit), and the farthest
    # sensor still gets the DRV5055's minimum supply after the copper of the routed boards.
    assert figures["parts_fit"] is True
    assert figures["rail_sensor_min_v"] >= figures["rail_sensor_vcc_min_v"]
    assert 0 < figures["rail_drop_mv"] < 3300 - 1000 * figures["rail_sensor_vcc_min_v"]
    if board == "gw-brott":
        # GW's pair walks: the blue magnet follows the wooden piece even when its glide
        # is at the sticky end of PTFE's friction range.
        assert figures["gw_follow_ratio_high_friction"] >= 1
        assert figures["gw_follow_ratio"] >= figures["gw_follow_ratio_high_friction"]


def test_hardware_check_fails_when_a_figure_misses_its_requirement():
    from lawmaster.hardware.checks import failures

    good = {
        "erc_errors": 0.0,
        "supply_worst_a": 1.3,
        "supply_capacity_a": 5.5,
        "supply_min_margin": 3.0,
        "buck_headroom_v": 7.2,
        "settle_us": 2.0,
        "dwell_us": 20.0,
        "min_margin_counts": 500.0,
        "noise_counts": 20.0,
        "min_hold_safety": 2.5,
        "worst_saturation_fraction": 0.85,
        "worst_corner_margin_counts": 300.0,
    }
    assert failures(good) == []
    for key, bad in [
        ("erc_errors", 1.0),
        ("supply_capacity_a", 1.5),
        ("supply_min_margin", 1.1),
        ("buck_headroom_v", -0.1),
        ("settle_us", 10.5),
        ("min_margin_counts", 99.0),
        ("min_hold_safety", 1.9),
        ("worst_saturation_fraction", 0.91),
        ("worst_corner_margin_counts", 99.0),
        ("gw_follow_ratio_high_friction", 0.9),
        ("parts_fit", False),
    ]:
        assert len(failures({**good, key: bad})) == 1, key
    rail = {"rail_drop_mv": 320.0, "rail_sensor_vcc_min_v": 3.0}
    assert failures({**good, **rail, "rail_sensor_min_v": 3.05}) == []
    (words,) = failures({**good, **rail, "rail_sensor_min_v": 2.98})
    assert "2.980 V" in words and "320 mV" in words


def test_hardware_check_counts_the_ripple_and_fails_without_the_rail_filter():
    from lawmaster.hardware.checks import failures
    from lawmaster.hardware.electronics.budget import ripple
    from lawmaster.hardware.electronics.pieces import KindCircuit, scanner_kind

    kind = scanner_kind()
    unfiltered = KindCircuit(
        kind.kind,
        tuple(p for p in kind.parts if p.key != "inductor"),
        kind.sensors,
        kind.muxes,
        kind.connectors,
    )
    bare = ripple(unfiltered)
    assert bare.filter is None and bare.worst_rms > 170
    assert ripple().worst_rms < 1
    base = {
        "erc_errors": 0.0,
        "supply_worst_a": 1.3,
        "supply_capacity_a": 5.5,
        "supply_min_margin": 3.0,
        "buck_headroom_v": 6.7,
        "settle_us": 2.3,
        "dwell_us": 20.5,
        "min_margin_counts": 1622.0,
        "noise_counts": 45.7,
        "min_hold_safety": 2.5,
        "worst_saturation_fraction": 0.85,
    }
    # GW:s brott's and Unamerican Graffiti's worst-corner margins hold against 5 × the
    # noise with the filtered ripple, and would not with the buck's ripple unfiltered.
    for margin in (358.0, 426.0):
        good = {**base, "worst_corner_margin_counts": margin}
        assert failures({**good, "ripple_counts_rms": ripple().worst_rms}) == []
        (words,) = failures({**good, "ripple_counts_rms": bare.worst_rms})
        assert "worst tolerance corner" in words and "ripple" in words
