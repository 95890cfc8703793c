"""Margins at every tolerance corner (``hardware/magnetics/tolerance.py``)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from lawmaster.hardware.magnetics import margins, stack, tolerance
from lawmaster.hardware.magnetics.data import DRV5055
from lawmaster.hardware.magnetics.fields import field_table, remanence
from lawmaster.hardware.sensor_map import SensorMap

BOARDS = ("gw-brott", "judge-dredd", "unamerican-graffiti")


def _nominal(sm: SensorMap, **over: float) -> dict[str, np.ndarray]:
    row = {i.name: i.nominal for i in tolerance.inputs(sm)}
    row.update(over)
    return {k: np.array([v]) for k, v in row.items()}


@pytest.mark.parametrize("board", BOARDS)
def test_every_input_has_an_interval_around_its_nominal_and_a_source(board):
    ins = tolerance.inputs(SensorMap.load(board))
    assert len({i.name for i in ins}) == len(ins)
    for i in ins:
        assert i.low <= i.nominal <= i.high, i.name
        assert i.source.strip(), i.name
        assert i.group in ("board", "cal", "play", "room"), i.name
    names = {i.name for i in ins}
    # The issue's list: layers, magnet grade and angle, placement, sensor spread, temperature.
    assert {"board.sens", "board.vq", "board.sensor_off", "room.t_cal", "room.t_play"} <= names
    for suffix in ("br", "tilt", "lift", "off", "dia", "thick"):
        assert any(n.startswith("play.") and n.endswith("." + suffix) for n in names), suffix


@pytest.mark.parametrize("board", BOARDS)
def test_at_the_nominal_inputs_the_fields_are_the_tables(board):
    # The vectorised magpylib fields (magnets and keeper) equal the field tables the
    # simulator and the margins read, at every kind's centre and at an offset.
    sm = SensorMap.load(board)
    p = _nominal(sm)
    g = tolerance.geometry(sm, p)
    for name, kind in sm.kinds.items():
        for offset in (0.0, 4.0):
            placed = [
                tolerance.Placed(m, f"play.{name}.{i}.", np.array([offset]), np.array([1.0]))
                for i, m in enumerate(kind.magnets)
            ]
            mine = float(tolerance.bz_mt(sm.sensor.keeper, placed, p, g)[0])
            table = sum(
                m.sign * field_table(m, sm.sensor, remanence(m.grade)).bz(offset)
                for m in kind.magnets
            )
            assert mine == pytest.approx(table, rel=0.01, abs=0.05), (name, offset)


def test_the_stack_gives_the_maps_depths():
    for board in BOARDS:
        spec = SensorMap.load(board).sensor
        assert math.isclose(stack.depth(board), spec.depth_mm)
        if stack.two_sided(board):
            assert math.isclose(stack.depth(board, "back"), spec.back_depth_mm)


@pytest.mark.parametrize("board", BOARDS)
def test_saturation_is_the_field_over_the_data_sheet_range_at_its_worst_part(board):
    # At 25 °C with the sensitivity and the quiescent voltage at their data-sheet worst,
    # the fraction is |B| over BL: the data sheet's BL is taken at exactly those ends.
    sm = SensorMap.load(board)
    ctx = tolerance.context(sm)
    t_room = 25.0 - ctx.rise_k
    p = _nominal(sm, **{"board.sens": 1.05, "board.vq": 1.71, "room.t_play": t_room})
    kind = next(name for name, k in sm.kinds.items() if k.polarity == "south")
    g = tolerance.geometry(sm, p)
    placed = tolerance._kind_placed(sm.kinds[kind], "play", np.zeros(1), p, "play")
    b = tolerance.bz_mt(sm.sensor.keeper, placed, p, g)[0]
    assert b > 0  # a south kind raises the output towards VCC − VL
    fraction = tolerance.figures(sm, p)[f"saturation.{kind}"][0]
    bl = DRV5055[sm.sensor.part].linear_range_mt
    assert fraction == pytest.approx(b / bl, rel=0.005)


@pytest.mark.parametrize("board", BOARDS)
def test_no_sampled_corner_is_worse_than_the_worst_corner(board):
    # The Monte Carlo (seeded) draws every input anywhere in its interval: none of its
    # samples may beat the corner search, or the corners missed a worse combination.
    sm = SensorMap.load(board)
    corners = tolerance.worst_corners(sm)
    mc = tolerance.monte_carlo(sm)
    assert set(corners) == set(mc)
    for key, c in corners.items():
        if key.startswith("saturation."):
            assert c.value >= mc[key] - 1e-9, key
        else:
            assert c.value <= mc[key] + 1e-9, key


@pytest.mark.parametrize("board", BOARDS)
def test_the_design_holds_at_every_corner(board):
    sm = SensorMap.load(board)
    assert tolerance.worst_saturation_fraction(sm) <= tolerance.SATURATION_LIMIT
    assert tolerance.worst_corner_margin_counts(sm) >= 5 * margins.noise(sm)


def _gw_with(sm: SensorMap, side: str, **changes) -> SensorMap:
    kind = sm.kinds["gw"]
    mags = tuple(dataclasses.replace(m, **changes) if m.side == side else m for m in kind.magnets)
    gw = dataclasses.replace(kind, magnets=mags)
    return dataclasses.replace(sm, kinds={**sm.kinds, "gw": gw})


def test_the_issue_s_gw_pair_saturates_at_its_worst_corner():
    # The design the issue found: the wooden piece 2.5 mm up on rubber, the blue magnet
    # Ø10 × 3. Nominally 83 % of the range; at the worst corner past the 90 % limit.
    sm = SensorMap.load("gw-brott")
    old = _gw_with(sm, "back", lift_mm=2.5, lift_kind="")
    old = _gw_with(old, "front", thickness_mm=3.0)
    assert tolerance.worst_saturation_fraction(old) > tolerance.SATURATION_LIMIT
    assert tolerance.worst_saturation_fraction(sm) <= tolerance.SATURATION_LIMIT


def test_a_placement_error_at_a_cells_corner_is_what_undid_the_small_criminal():
    # The former Ø12 criminal in a corner of its 25 mm cell: its magnet's edge over the
    # sensor, where tolerance takes the margin under five times the noise.
    sm = SensorMap.load("gw-brott")
    kind = sm.kinds["criminal"]
    small = dataclasses.replace(
        kind, magnets=(dataclasses.replace(kind.magnets[0], diameter_mm=12.0),)
    )
    old = dataclasses.replace(sm, kinds={**sm.kinds, "criminal": small})
    worst = tolerance.worst_corners(old)["enter.criminal.cell"].value
    assert worst < 5 * margins.noise(sm)


def test_a_room_temperature_change_moves_the_baseline_against_every_margin():
    sm = SensorMap.load("judge-dredd")
    same = tolerance.figures(sm, _nominal(sm, **{"room.t_cal": 20.0, "room.t_play": 20.0}))
    apart = tolerance.figures(sm, _nominal(sm, **{"room.t_cal": 15.0, "room.t_play": 30.0}))
    assert apart["neighbour.judge.cell"][0] < same["neighbour.judge.cell"][0]


def test_rubber_under_a_piece_squashes_by_microns():
    for board in BOARDS:
        for part, mm in tolerance.rubber_compression_mm(SensorMap.load(board)).items():
            assert 0 < mm < 0.02, (board, part)


def test_the_room_for_parts_on_each_face():
    # GW's back face is glued: no part at all. Its front has the standoffs' air less the
    # criminals' print on the face's back; the flat boards' cover sits 1.6 mm over the
    # tiles, their underside on 12 mm standoffs.
    assert stack.part_space_mm("gw-brott", "back") == 0.0
    assert stack.part_space_mm("gw-brott", "front") == pytest.approx(5.0 - 0.1 - 0.25 - 0.1)
    for board in ("judge-dredd", "unamerican-graffiti"):
        assert stack.part_space_mm(board, "front") == pytest.approx(1.6 - 0.16 - 0.1)
        assert stack.part_space_mm(board, "back") == pytest.approx(12.0 - 0.3 - 0.1)
        # The tallest DRV5055 stays clear of the cover at the thinnest spacer.
        assert stack.sensor_clearance_mm(board) > 0
    with pytest.raises(ValueError):
        stack.part_space_mm("gw-brott", "top")
