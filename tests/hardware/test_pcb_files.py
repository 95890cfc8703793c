"""What `lawmaster hardware generate` writes for the PCBs is committed and up to date, and it
is what a fab and KiCad need: Gerbers of every layer, drill files, a placement file, pictures
of both faces, a footprint library every netlist's footprint fields resolve in."""

from __future__ import annotations

import re
import zipfile

import pytest

from lawmaster.hardware.electronics.footprints import CUSTOM, LIBRARY, NICKNAME, STOCK
from lawmaster.hardware.electronics.pieces import MAX_PIECE_MM
from lawmaster.hardware.pcb import fab, pcbs, render
from lawmaster.hardware.pcb.generate import ROOT, stale, targets

BOARDS = ("gw-brott", "judge-dredd", "unamerican-graffiti")


def test_pcb_committed_files_match_their_sources():
    assert stale() == [], "regenerate with `lawmaster hardware generate`"


@pytest.mark.parametrize("target", targets(), ids=lambda t: t.name)
def test_pcb_folder_holds_what_a_fab_and_kicad_need(target):
    folder = target.folder()
    name = target.name
    for suffix in (".kicad_pcb", ".kicad_pro", "-pos.csv", "-top.png", "-bottom.png",
                   "-drc.rpt", "-gerbers.zip", "-supply.json"):  # fmt: skip
        assert (folder / f"{name}{suffix}").is_file(), suffix
    gerbers = {p.name for p in (folder / "gerbers").iterdir()}
    wanted = {f"{name}-{suffix}.gbr" for _, suffix in fab.LAYERS}
    wanted |= {f"{name}-PTH.drl", f"{name}-NPTH.drl"}
    assert gerbers == wanted
    with zipfile.ZipFile(folder / f"{name}-gerbers.zip") as archive:
        assert set(archive.namelist()) == wanted
    # The pictures were drawn from this very board file.
    pcb = folder / f"{name}.kicad_pcb"
    for face in ("top", "bottom"):
        assert render.recorded_hash(folder / f"{name}-{face}.png") == render.source_hash(pcb)
    # Every part to fit is in the placement file, with a side and a position.
    rows = (folder / f"{name}-pos.csv").read_text("utf-8").splitlines()
    assert rows[0] == "Ref,Val,Package,PosX,PosY,Rot,Side"
    assert all(row.endswith((",top", ",bottom")) for row in rows[1:])
    assert len(rows) - 1 == target.layout().parts.__len__() - sum(
        1 for p in target.layout().parts if p.key == "testpoint"
    )


@pytest.mark.parametrize("board", BOARDS)
def test_pcb_every_piece_is_a_cheap_fab_size_and_the_list_adds_up(board):
    specs = pcbs(board)
    assert specs[0].kind == "scanner" and specs[0].quantity == 1
    for spec in specs:
        assert spec.width_mm <= MAX_PIECE_MM and spec.height_mm <= MAX_PIECE_MM, spec
        assert spec.layers == 2 and spec.parts > 0
        assert (ROOT / spec.folder / f"{spec.name}.kicad_pcb").is_file()
    from lawmaster.hardware.electronics.pieces import plan

    assert sum(s.quantity for s in specs[1:]) == len(plan(board).pieces)


def test_pcb_every_netlist_footprint_resolves_in_the_shipped_library():
    fields = set()
    for net in (ROOT / "hardware" / "schematic").glob("*.net"):
        fields |= set(re.findall(r'\(footprint "([^"]*)"\)', net.read_text("utf-8")))
    assert fields
    for field in fields:
        nickname, _, name = field.partition(":")
        assert nickname == NICKNAME, field
        assert (LIBRARY / f"{name}.kicad_mod").is_file(), field
    # The three that are no stock KiCad footprint are there too.
    assert {"Lawmaster:Pololu_D36V50Fx", "Lawmaster:Adafruit_PN532_Breakout",
            "Lawmaster:RPi_Pico_SMD_TH"} <= fields  # fmt: skip
    assert set(CUSTOM) | set(STOCK) >= {f.split(":", 1)[1] for f in fields}
    table = (ROOT / "hardware" / "schematic" / "fp-lib-table").read_text("utf-8")
    assert f'(name "{NICKNAME}")' in table and "footprints/Lawmaster.pretty" in table
