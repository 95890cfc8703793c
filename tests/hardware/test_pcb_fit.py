"""Every part fits the room on its PCB face (``parts_fit``): heights from the parts' data
sheets against the room the layer stack leaves (`stack.part_space_mm`)."""

from __future__ import annotations

import pytest

from lawmaster.hardware.electronics.parts import SPECS
from lawmaster.hardware.magnetics.stack import part_space_mm
from lawmaster.hardware.pcb import fit

BOARDS = ("gw-brott", "judge-dredd", "unamerican-graffiti")


def test_pcb_room_on_each_face_comes_from_the_stack():
    # GW:s brott: the brass standoffs (5.0 − 0.1 mm) less the print film inside them
    # (0.25 mm at its thickest) and 0.1 mm clearance; the back is glued to GW's acrylic.
    assert part_space_mm("gw-brott", "front") == pytest.approx(4.55)
    assert part_space_mm("gw-brott", "back") == 0.0
    for board in ("judge-dredd", "unamerican-graffiti"):
        # Under the cover: the FR-4 spacer pads (1.6 − 0.16 mm) less 0.1 mm; under the
        # pieces the nylon standoffs (12 − 0.3 mm) less 0.1 mm.
        assert part_space_mm(board, "front") == pytest.approx(1.34)
        assert part_space_mm(board, "back") == pytest.approx(11.6)


@pytest.mark.parametrize("board", BOARDS)
def test_pcb_every_part_fits_its_face(board):
    assert fit.misfits(board) == []
    figures = fit.figures(board)
    assert figures["parts_fit"] is True
    assert figures["sensor_piece_tallest_front_mm"] <= figures["sensor_piece_room_front_mm"]


def test_pcb_every_part_has_a_height_with_a_source():
    for spec in SPECS.values():
        assert spec.height.above_mm >= 0 and spec.height.source, spec.key
    # On our own boards a through-hole or wired part's leads stick out of the other face.
    used = {f.key for board in BOARDS for f in fit.fits(board)}
    for key in used:
        spec = SPECS[key]
        assert (spec.height.leads_mm > 0) == (spec.mount in ("tht", "wired")), key


def test_pcb_the_old_so24_multiplexer_would_not_fit_under_the_map():
    # SO-24W (2.65 mm, Nexperia SOT137-1) on a flat board's front face: 1.34 mm of room.
    wide = fit.Fit("judge-dredd/pod-mux", "U1", "hc4067", "front", 2.65, 1.34, 0.0, 11.6)
    assert not wide.ok and wide.margin_mm < 0
    # A through-hole part on GW's front: its leads would poke into the glued back.
    tht = fit.Fit("gw-brott/tile", "J9", "jumper", "front", 8.5, 4.55, 1.5, 0.0)
    assert not tht.ok
