"""The PCBs carry the circuit: every pad's net, named through its piece's references, is the
net the SKiDL circuit's KiCad netlist gives it; every part of the netlist sits on a PCB; every
cable joins pins of one net."""

from __future__ import annotations

import shutil

import pytest

from lawmaster.hardware.pcb import drc, kicad
from lawmaster.hardware.pcb.drc import ROOT, netlist_mismatches, netlist_nodes

BOARDS = ("gw-brott", "judge-dredd", "unamerican-graffiti")
needs_kicad = pytest.mark.skipif(kicad.pcbnew() is None, reason=kicad.MISSING)


@needs_kicad
@pytest.mark.parametrize("board", BOARDS)
def test_pcb_every_net_of_the_circuit_is_on_the_boards(board):
    assert netlist_mismatches(board) == []


@needs_kicad
def test_pcb_a_pin_on_the_wrong_net_is_found(tmp_path):
    # A copy of the repository's hardware folder with one sensor output moved to another net
    # in the netlist: the boards no longer carry what it says.
    shutil.copytree(ROOT / "hardware" / "pcb", tmp_path / "hardware" / "pcb")
    schematic = tmp_path / "hardware" / "schematic"
    schematic.mkdir(parents=True)
    source = ROOT / "hardware" / "schematic" / "scanner-unamerican-graffiti.net"
    text = source.read_text("utf-8")
    assert '(name "CH0_OUT")' in text
    (schematic / source.name).write_text(text.replace('(name "CH0_OUT")', '(name "CH1_OUT")', 1))
    problems = netlist_mismatches("unamerican-graffiti", tmp_path)
    assert problems and any("CH0_OUT" in p for p in problems)


def test_pcb_netlist_reader_reads_skidls_format():
    nodes = netlist_nodes(ROOT / "hardware" / "schematic" / "host-i2c.net")
    assert nodes[("U40", "JP3-11")] == "PN532_RSTPD_N"
    assert nodes[("J10", "1")] == "+3V3"
    assert drc.ROOT == ROOT
