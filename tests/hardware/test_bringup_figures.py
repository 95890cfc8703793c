"""First power, ripple and warm-up: each figure the guide gives is recomputed here from the
datasheet figures, and the committed BUILD.md / wiring.md say the same."""

from __future__ import annotations

import dataclasses
import math
import re
from pathlib import Path

import pytest

from lawmaster.hardware.electronics import bringup
from lawmaster.hardware.electronics.budget import copper, heat, rails, ripple
from lawmaster.hardware.electronics.datasheet import figure as f
from lawmaster.hardware.electronics.tree import tree_of
from lawmaster.hardware.sensor_map import SensorMap

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "hardware" / "BUILD.md"
WIRING = ROOT / "wiring.md"
BOARDS = ("gw-brott", "judge-dredd", "unamerican-graffiti")


def _section(text: str, begin: str, end: str) -> str:
    return text.split(begin, 1)[1].split(end, 1)[0]


@pytest.mark.parametrize("board", BOARDS)
def test_bringup_windows_follow_the_datasheets(board):
    sensor_map = SensorMap.load(board)
    tree = tree_of(board, sensor_map)
    w = bringup.windows(board)
    # TP2: 3.3 V ± 4 % (Pololu's stated accuracy), less the rail filter's drop at the rail's
    # worst current (the lead to L1 and its DCR).
    drop = rails(tree)[0].worst_a * f("filter.l_dcr")
    assert copper(board).filter_drop_v >= drop
    assert w["TP2"].low == pytest.approx(3.3 * 0.96 - copper(board).filter_drop_v)
    assert w["TP2"].high == pytest.approx(3.3 * 1.04)
    # TP5: TP2 less the copper to the far piece.
    far = copper(board).drop.test_pads["TP5"]
    assert w["TP5"].low == pytest.approx(w["TP2"].low - far) and w["TP5"].high == w["TP2"].high
    # TP1 from a 12.0 V bench supply: never above it; below it by at most the worst-case
    # input current through the warm fuse and the Schottky's VF max: a diode's drop, no
    # MOSFET's.
    worst = rails(tree)[1].worst_a
    assert w["TP1"].high == 12.0
    assert w["TP1"].low == pytest.approx(12.0 - worst * f("fuse.r_hot") - f("schottky.vf_max"))
    assert 12.0 - w["TP1"].low > 0.5
    assert w["TP1"].holds(w["TP1"].nominal)
    # TP4: channel 0 at VCC/2; the window holds the datasheet's VQ range at 3.3 V
    # (1.59-1.71 V) and stays far inside the output's 0.2 V rails.
    assert 0 in tree.used
    assert w["TP4"].low < 1.59 and w["TP4"].high > 1.71
    assert w["TP4"].low > 0.2 + 1.0 and w["TP4"].high < 3.3 - 0.2 - 1.0
    assert w["TP4"].holds(1.65)
    # The bench limit sits above the worst case and below what the fuse carries warm.
    limit = bringup.current_limit(tree)
    assert worst < limit <= worst * bringup.LIMIT_MARGIN + 0.05
    assert bringup.fuse(tree).ok


def test_bringup_a_fuse_too_small_or_too_large_is_not_ok():
    good = bringup.Fuse(i_carry_warm=0.6, i_open=2.0, i_worst=0.43, i_supply=2.08)
    assert good.ok
    assert not bringup.Fuse(0.5, 2.0, 0.43, 2.08).ok  # opens under a full board
    assert not bringup.Fuse(0.6, 2.5, 0.43, 2.08).ok  # the adapter gives out first
    # The 1 A chip fuse the circuit carries: 75 % of its rating for good, ~90 % of that warm.
    tree = tree_of("gw-brott", SensorMap.load("gw-brott"))
    fuse = bringup.fuse(tree)
    assert fuse.i_carry_warm == pytest.approx(1.0 * 0.75 * 0.90)
    assert fuse.i_open == 2.0 and fuse.ok


def test_bringup_idle_window_in_counts_is_ratiometric():
    sensor_map = SensorMap.load("judge-dredd")
    low, high = bringup.idle_window_counts(sensor_map)
    half = (0.060 + 0.033 + 65e-6 * 1e3 * 15.0 * 1e-3) / 3.3 * 65536
    assert low == math.floor(32768 - half) and high == math.ceil(32768 + half)
    # A less sensitive sensor feels the Earth's field less.
    gw_low, gw_high = bringup.idle_window_counts(SensorMap.load("gw-brott"))
    assert gw_high - gw_low < high - low


def test_bringup_section_of_build_md_gives_the_computed_windows():
    text = BUILD.read_text("utf-8")
    section = _section(
        text, "<!-- generated: first power (begin)", "<!-- generated: first power (end)"
    )
    gw = bringup.windows("gw-brott")
    for point in ("TP1", "TP2", "TP5"):
        assert f"{gw[point].low:.2f} V" in section and f"{gw[point].high:.2f} V" in section
    for board in BOARDS:
        low, high = bringup.idle_window_counts(SensorMap.load(board))
        assert f"{low}-{high} counts" in section
    assert "`lawmaster selftest --game GAME --port /dev/ttyACM0`" in section
    assert "reversed" in section and "current limit" in section


def test_ripple_through_the_pico_reference_filter():
    bare = dataclasses.replace(ripple(), filter=None)
    r7, r9, c = 200.0, 1.0, 2.2e-6
    assert bare.corner_hz == pytest.approx(1 / (2 * math.pi * (r7 + r9) * c))
    # At 500 kHz only R9's share is left, 1/201, a hair above it.
    assert bare.vref_gain == pytest.approx(
        math.hypot(1, 1 / (2 * math.pi * 500e3 * r9 * c)) / 201, 1e-3
    )
    assert 1 / 201 < bare.vref_gain < 1.02 / 201
    # Worst case, straight off the buck: the sensor's output follows its supply, the
    # reference does not; summed over the triangle's harmonics it is the triangle's RMS
    # (the reference's share a little larger at the higher harmonics).
    k = (3.3 - 0.2) / 3.3
    triangle = k * (1 - bare.vref_gain) * 0.033 / 3.3 * 65536 / (2 * math.sqrt(3))
    assert bare.worst_rms == pytest.approx(triangle, rel=2e-3)
    assert 170 < bare.worst_rms < 180
    assert bare.sensor_bw_rms < bare.idle_rms < bare.worst_rms


def test_ripple_through_the_rail_filter():
    r = ripple()
    lf = r.filter
    assert lf is not None, "the scanner board carries the rail filter"
    # 10 µH at its −20 % end into four 10 µF ceramics at half their value.
    assert lf.l_h == pytest.approx(8e-6) and lf.caps == 4 and lf.c_each_f == pytest.approx(5e-6)
    w = 2 * math.pi * 500e3
    z_l = complex(0.018, w * 8e-6)
    z_c = complex(0.010, -1 / (w * 5e-6)) / 4
    assert r.filter_gain == pytest.approx(abs(z_c / (z_l + z_c)))
    assert r.filter_gain < 1e-3
    # What is left is a small part of a reading's noise (46 counts).
    assert r.worst_rms < 0.5
    bare = dataclasses.replace(r, filter=None)
    assert r.worst_rms == pytest.approx(bare.worst_rms * r.filter_gain, rel=0.05)


def test_wiring_md_no_longer_says_ripple_cancels():
    text = WIRING.read_text("utf-8")
    assert "supply ripple moves sensor\noutputs and reference together" not in text
    r = ripple()
    bare = dataclasses.replace(r, filter=None)
    assert f"corner {r.corner_hz:.0f} Hz" in text
    assert f"up to {bare.worst_rms:.0f} counts RMS" in text
    assert f"{r.worst_rms:.2f} counts after the rail filter" in text
    build = BUILD.read_text("utf-8")
    assert "### Supply ripple at the ADC" in build
    assert f"{bare.worst_rms:.0f}" in build and f"{r.worst_rms:.2f}" in build


def test_warm_up_prose_comes_from_the_heat_table():
    text = BUILD.read_text("utf-8")
    sentence = _section(
        text, "<!-- generated: warm-up (begin) -->", "<!-- generated: warm-up (end) -->"
    )
    taus = [heat(SensorMap.load(b), tree_of(b, SensorMap.load(b))).tau_s / 60 for b in BOARDS]
    assert f"{min(taus):.0f}-{max(taus):.0f} minutes" in sentence
    wait = int(re.search(r"so about (\d+) minutes", sentence).group(1))
    assert 2 * max(taus) <= wait < 2 * max(taus) + 10
    # The heat table's time constants are the same numbers.
    for tau in taus:
        assert f"| {tau:.0f} min |" in text
    assert "26-42" not in text
