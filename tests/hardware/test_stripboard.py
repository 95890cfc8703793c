"""The stripboard route: its figures come from the margin model, its plans are sound.

* the build differs from the SMD one only where the route changes the stack, and the
  SMD figures are unchanged by the ``build`` argument;
* the figures are the tolerance model's: a deeper element gives a smaller margin, the
  stripboard margin is lower than the SMD one where the element sits deeper, a board
  declared suitable meets both limits and one declared unsuitable really misses one
  (re-evaluated at its corner);
* every plan places every sensor of the map once, on the map's channel, with no two
  sensors on one output run, every supply run on its bus wire and every output wire on
  its own sensor's run (connectivity rebuilt here from the cuts alone);
* the committed ``hardware/STRIPBOARD.md`` and plans are what the code writes.
"""

from __future__ import annotations

import re
from collections import defaultdict

import numpy as np
import pytest

from lawmaster.hardware.magnetics import stack, tolerance
from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.hardware.stripboard import doc, margins, parts
from lawmaster.hardware.stripboard.plan import BOARDS, GND, VCC, PiecePlan, board_plan

# -- the build -------------------------------------------------------------------------------


@pytest.mark.parametrize("board", BOARDS)
def test_the_smd_build_is_the_default(board: str) -> None:
    sm = SensorMap.load(board)
    assert tolerance.inputs(sm) == tolerance.inputs(sm, tolerance.smd(board))


@pytest.mark.parametrize("board", BOARDS)
def test_the_stripboard_stack_changes_only_the_sensor_board_and_spacers(board: str) -> None:
    smd = {la.key: la for la in stack.STACKS[board]}
    strip = {la.key: la for la in margins.layers(board)}
    for key, la in smd.items():
        if key in ("pcb", "front_spacer"):
            continue
        assert strip[key] == la, key
    assert strip["pcb"].thickness_mm == parts.BOARD_MM
    b = margins.build(board)
    assert b.element_mm == pytest.approx(
        parts.BODY_THICK_MM - parts.ELEMENT_BELOW_FACE_MM + parts.BODY_LIFT_MM
    )
    assert b.sensor_offset_mm == pytest.approx(
        parts.HAND_OFFSET_MM + board_plan(board).worst_snap_mm, abs=1e-3
    )
    if stack.two_sided(board):
        assert strip["back_gap"].role == "gap"  # it moves GW's face: an input of the corners
        assert any(i.name == "board.back_gap" for i in tolerance.inputs(SensorMap.load(board), b))


def test_the_parts_fit_the_room_the_stack_leaves() -> None:
    for board in BOARDS:
        v = margins.verdict(board)
        assert v.fits
        assert v.front_room_mm > parts.SENSOR_TOP_MAX_MM
        assert v.front_room_mm >= parts.CAP_THICK_MAX_MM


# -- the figures -------------------------------------------------------------------------------


def test_a_deeper_element_lowers_the_margin() -> None:
    """The figures move with the element's depth: the model, not a table."""
    board = "judge-dredd"
    sm = SensorMap.load(board)
    b = margins.build(board)
    deeper = tolerance.Build(
        b.layers,
        b.element_mm - 0.5,
        b.element_tol_mm,
        b.element_source,
        b.sensor_offset_mm,
        b.sensor_offset_source,
    )
    near = tolerance.nominal_figures(sm, b)
    far = tolerance.nominal_figures(sm, deeper)
    assert far["enter.judge.cell"] < near["enter.judge.cell"]
    assert far["saturation.judge"] < near["saturation.judge"]


@pytest.mark.parametrize("board", ["judge-dredd", "unamerican-graffiti"])
def test_the_margin_is_lower_where_the_element_sits_deeper(board: str) -> None:
    v = margins.verdict(board)
    assert v.front_depth_mm > v.smd_front_depth_mm
    assert v.margin_counts < v.smd_margin_counts
    sm = SensorMap.load(board)
    assert v.margin_counts == tolerance.worst_corner_margin_counts(sm, margins.build(board))
    assert v.saturation == tolerance.worst_saturation_fraction(sm, margins.build(board))


@pytest.mark.parametrize("board", BOARDS)
def test_suitable_means_both_limits_hold_and_unsuitable_a_limit_really_fails(board: str) -> None:
    v = margins.verdict(board)
    sm = SensorMap.load(board)
    noise = v.noise_counts
    b = margins.build(board)
    if v.suitable:
        assert v.saturation <= 0.9
        assert v.margin_counts >= 5 * noise
        assert board_plan(board).sensors  # and it has a plan
        return
    assert v.reasons()
    corners = tolerance.worst_corners(sm, build=b)
    failing = [
        (k, c)
        for k, c in corners.items()
        if (k.startswith("saturation.") and c.value > 0.9)
        or (not k.startswith("saturation.") and c.value < 5 * noise)
    ]
    assert failing
    key, corner = failing[0]
    names = [i.name for i in tolerance.inputs(sm, b)]
    p = {n: np.array([corner.settings[n]]) for n in names}
    again = float(tolerance.figures(sm, p, b)[key][0])
    assert again == pytest.approx(corner.value)
    assert again > 0.9 if key.startswith("saturation.") else again < 5 * noise


def test_the_verdicts_are_the_expected_ones() -> None:
    """Which boards the route suits (a change in the model that flips one must be seen)."""
    assert {b: margins.verdict(b).suitable for b in BOARDS} == {
        "gw-brott": False,
        "judge-dredd": True,
        "unamerican-graffiti": False,
    }


# -- the plans ---------------------------------------------------------------------------------


@pytest.mark.parametrize("board", BOARDS)
def test_every_sensor_of_the_map_is_placed_once_on_its_channel(board: str) -> None:
    sm = SensorMap.load(board)
    placed = [(s.spot.x, s.spot.y, s.channel) for s in board_plan(board).sensors]
    assert len(placed) == len(set(placed)) == len(sm.spots)
    assert sorted(placed) == sorted((s.x, s.y, s.channel) for s in sm.spots)
    for s in board_plan(board).sensors:
        assert s.error_mm <= parts.PITCH_MM / 2 * 2**0.5


def _runs(p: PiecePlan) -> dict[tuple[int, int], tuple[int, int]]:
    """Each hole → (strip, run number), runs split at the cuts and the mounting holes."""
    breaks = defaultdict(set)
    for c, j in (*p.cuts, *p.severed):
        breaks[j].add(c)
    out = {}
    for j, (first, last) in enumerate(p.spans):
        run = 0
        for c in range(first, last + 1):
            if c in breaks[j]:
                run += 1
                continue
            out[(c, j)] = (j, run)
    return out


@pytest.mark.parametrize("board", BOARDS)
def test_no_two_sensors_share_an_output_run(board: str) -> None:
    for p in board_plan(board).pieces:
        runs = _runs(p)
        nets: dict[tuple[int, int], set[str]] = defaultdict(set)
        for s in p.sensors:
            for hole, net in s.leads().items():
                assert hole in runs, f"{p.name}: {s.spot.space} on a cut or off the board"
                nets[runs[hole]].add(net)
        for run, on in nets.items():
            assert len(on) == 1, f"{p.name}: run {run} joins {sorted(on)}"
        outs = [
            runs[hole] for s in p.sensors for hole, net in s.leads().items() if net == s.out_net
        ]
        assert len(set(outs)) == len(p.sensors)  # lead and wire on one run, one run each


@pytest.mark.parametrize("board", BOARDS)
def test_every_supply_run_reaches_its_bus_wire(board: str) -> None:
    for p in board_plan(board).pieces:
        runs = _runs(p)
        fed = {(bus.net, runs[h]) for bus in p.buses for h in bus.points}
        for s in p.sensors:
            for hole, net in s.leads().items():
                if net in (VCC, GND):
                    assert (net, runs[hole]) in fed, f"{p.name}: {s.spot.space} {net}"
        cols = [bus.points[0][0] for bus in p.buses]
        assert len(cols) == len(set(cols))  # one wire per column
        for bus in p.buses:
            assert len({c for c, _ in bus.points}) == 1


@pytest.mark.parametrize("board", BOARDS)
def test_no_hole_holds_two_things(board: str) -> None:
    for p in board_plan(board).pieces:
        taken = [h for s in p.sensors for h in s.leads()]
        taken += [h for bus in p.buses for h in bus.points]
        assert len(taken) == len(set(taken))
        assert not set(taken) & set(p.cuts)
        covered = {h for s in p.sensors for h in s.covered()}
        assert not set(taken) & covered


# -- the generated files -------------------------------------------------------------------------


def test_the_committed_files_are_what_the_code_writes() -> None:
    stale = [
        str(path.relative_to(doc.ROOT))
        for path, text in doc.outputs().items()
        if not path.exists() or path.read_text("utf-8") != text
    ]
    assert stale == [], f"regenerate with `lawmaster hardware generate`: {stale}"


def test_a_plan_is_drawn_for_exactly_the_suitable_boards() -> None:
    files = doc.outputs()
    for board in BOARDS:
        drawn = all(doc.plan_path(board, side) in files for side in doc.SIDES)
        assert drawn == margins.verdict(board).suitable
    text = files[doc.DOC]
    assert "GW:s brott: not suitable" in text
    assert "Judge Dredd: suitable" in text


def test_the_plans_are_1_to_1_with_a_scale_bar_and_every_channel() -> None:
    for board in BOARDS:
        if not margins.verdict(board).suitable:
            continue
        for side in doc.SIDES:
            text = doc.plan_path(board, side).read_text("utf-8")
            m = re.search(
                r'width="([\d.]+)mm" height="([\d.]+)mm" viewBox="0 0 ([\d.]+) ([\d.]+)"', text
            )
            assert m and m.group(1) == m.group(3) and m.group(2) == m.group(4)
            assert "100 mm: measure it on the print" in text
            labels = set(re.findall(r">ch(\d+)<", text))
            assert labels == {str(s.channel) for s in board_plan(board).sensors}
