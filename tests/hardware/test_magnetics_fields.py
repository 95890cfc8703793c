"""Field tables and the keeper solver against magpylib and magpylib-material-response."""

import math

import magpylib as magpy
import numpy as np
from magpylib_material_response.demag import apply_demag

from lawmaster.hardware.magnetics import stack
from lawmaster.hardware.magnetics.fields import cylinder, field_table, remanence
from lawmaster.hardware.magnetics.softiron import Keepers, keeper_centres
from lawmaster.hardware.sensor_map import Keeper, Magnet, SensorMap, SensorSpec

BARE = SensorSpec("DRV5055A3", 15.0, 3.3, 6.0)


def test_issue_quick_check_of_the_tiny_disc():
    # Ø5 × 2 mm N42 at 1 mm lift, 6 mm deep: ~14 mT on axis, 5.6 at 5 mm, 0.4 at 10 mm.
    table = field_table(Magnet("front", "south", 5, 2, "N42", 1.0), BARE)
    assert abs(table.bz(0) - 14.2) < 0.3
    assert abs(table.bz(5) - 5.6) < 0.2
    assert abs(table.bz(10) - 0.4) < 0.1


def test_table_matches_magpylib_between_grid_points():
    m = Magnet("back", "north", 10, 3, "N42", 2.0)
    table = field_table(m, BARE)
    for rho, h in ((3.13, 0.0), (7.6, 0.37), (12.2, 5.3)):
        direct = cylinder(m, BARE, rho, 0.0, h).getB((0, 0, 0))[2] * 1000
        assert abs(table.bz(rho, h) - direct) < 0.01 * abs(table.bz(0)) + 0.02


def test_a_lifted_piece_vanishes():
    table = field_table(Magnet("front", "south", 12, 2, "N42", 1.0), BARE)
    assert abs(table.bz(0, 60.0)) < 0.005 * table.bz(0)


def test_keeper_solver_matches_magpylib_material_response():
    keeper = Keeper(10.0, 5.3, 1.0, 1.0)
    spec = SensorSpec("DRV5055A4", 7.5, 3.3, 6.9, keeper=keeper)
    mine = Keepers(keeper, keeper_centres(spec, [(0.0, 0.0)]))
    source = cylinder(Magnet("front", "north", 8, 2, "N42", 1.0), spec, 2.0, 1.0)
    cells = mine.induced([source])
    cell_copies = [c.copy(polarization=(0, 0, 0)) for c in mine.cells]
    for c in cell_copies:
        c.susceptibility = mine.chi
    magnet = source.copy()
    magnet.susceptibility = 0.0
    solved = apply_demag(magpy.Collection(magnet, *cell_copies), inplace=False)
    theirs = solved.children[1:]
    point = (0.0, 0.0, 0.0)
    b_mine = sum(c.getB(point) for c in cells)
    b_theirs = sum(c.getB(point) for c in theirs)
    assert np.allclose(b_mine, b_theirs, rtol=1e-4, atol=1e-9)
    assert np.linalg.norm(b_mine) > 1e-4  # the washer does change what the sensor reads


def test_stacks_add_up_to_the_maps_depths():
    for game in stack.STACKS:
        spec = SensorMap.load(game).sensor
        assert math.isclose(stack.depth(game), spec.depth_mm)
        if spec.back_depth_mm is not None:
            assert math.isclose(stack.depth(game, "back"), spec.back_depth_mm)


def test_remanence_ranges():
    assert remanence("N42", "low") == 1.28 and remanence("N42", "high") == 1.32
    assert math.isclose(remanence("N35"), 1.19)
