"""How the boards are cut into pieces: every spot on exactly one piece, inside it, the maps'
channels what the pieces' multiplexers make of them, identical pieces identical."""

from __future__ import annotations

import pytest

from lawmaster.hardware.electronics import pieces
from lawmaster.hardware.pcb.layout import layout
from lawmaster.hardware.sensor_map import SensorMap

BOARDS = ("gw-brott", "judge-dredd", "unamerican-graffiti")


@pytest.mark.parametrize("board", BOARDS)
def test_pcb_maps_number_their_channels_as_the_pieces_wire_them(board):
    made = pieces.plan(board)
    smap = SensorMap.load(board)
    assert pieces.map_disagreements(made, smap) == []
    # And so the channel count stays within the firmware's 8 multiplexers on one ADC pin.
    assert made.first_level <= 9 and smap.channels <= 16 * made.first_level


@pytest.mark.parametrize("board", BOARDS)
def test_pcb_each_sensor_sits_inside_its_piece(board):
    made = pieces.plan(board)
    for piece in made.pieces:
        lay = layout(board, piece.kind)
        xs = [x for x, _ in lay.outline]
        ys = [y for _, y in lay.outline]
        for s in piece.sensors:
            x, y = s.local
            assert min(xs) + 2 < x < max(xs) - 2 and min(ys) + 2 < y < max(ys) - 2, (piece, s)
            assert piece.to_board(x, y) == pytest.approx((s.spot.x, s.spot.y))


def test_pcb_gw_brott_cannot_give_every_multiplexer_its_own_tile():
    # 122 sensors in 8 multiplexers leave 6 inputs spare; a 100 mm tile holds at most 4 × 4
    # cells; the jail's two cells hold four slots: a 4 × 4 tile round the jail has 17.
    made = pieces.plan("gw-brott")
    assert len(made.pieces) == 9 and made.first_level == 8
    kinds = {p.kind for p in made.pieces}
    assert kinds == {"tile", "tile-jail", "strip", "strip-jail"}
    jail = made.piece("M2")
    assert len(jail.muxes) == 2 and len(jail.satellites) == 2


def test_pcb_a_piece_overflowing_its_multiplexer_is_refused():
    made = pieces.plan("judge-dredd")
    host = made.piece("power-tower")
    extra = [made.piece(n) for n, _, _ in host.satellites]
    with pytest.raises(ValueError, match="overflow"):
        pieces._chained(
            [host, *extra, made.piece("resyk")], [["power-tower"]],
            {"power-tower": [*(p.name for p in extra), "resyk"]},
        )  # fmt: skip


def test_pcb_the_bus_shifts_its_analog_lines_along_a_chain():
    assert pieces.bus_pins("in", 1)[12:] == ("MUXZ0", "ZPASS0", "ZPASS1")
    assert pieces.bus_pins("out", 1)[12:] == ("ZPASS0", "ZPASS1", "GND")
    assert pieces.bus_pins("in", 2, onwards=False)[12:] == ("MUXZ0", "MUXZ1", "GND")
    made = pieces.plan("judge-dredd")
    # Chain 3 holds two pods: the scanner's third line on it is read by nobody.
    assert pieces.slot_net(made, 2, 0) == "MUX7" and pieces.slot_net(made, 2, 1) == "MUX8"
    assert pieces.slot_net(made, 2, 2).startswith("BUS3_Z")
