"""The committed BOM, wiring tables, netlists and overviews are what the SKiDL source generates,
and the circuits pass SKiDL's electrical rules check."""

from __future__ import annotations

import pytest

from lawmaster.hardware.electronics import generate
from lawmaster.hardware.electronics.erc import run_erc
from lawmaster.hardware.electronics.parts import template
from lawmaster.hardware.electronics.skidl_quiet import skidl


def test_electronics_generated_files_match_the_source():
    stale = [str(p.relative_to(generate.ROOT)) for p in generate.stale()]
    assert stale == [], f"regenerate with `lawmaster hardware generate`: {stale}"


def test_electronics_generated_bom_and_wiring_are_among_the_checked_files():
    paths = {p.relative_to(generate.ROOT).as_posix() for p in generate.outputs()}
    assert {"hardware/BOM.md", "wiring.md", "hardware/schematic/scanner-gw-brott.net"} <= paths


@pytest.mark.parametrize(
    "name",
    [
        "scanner-gw-brott",
        "scanner-judge-dredd",
        "scanner-unamerican-graffiti",
        "host-i2c",
        "host-uart",
    ],
)
def test_electronics_erc_finds_no_error_nor_warning(name):
    result = generate.erc(name)
    assert (result.errors, result.warnings) == (0, 0), result.messages


def test_electronics_erc_counts_a_wiring_mistake():
    circuit = skidl.Circuit()
    circuit.no_files = True
    first = template("drv5055")(ref="H1", circuit=circuit)
    second = template("drv5055")(ref="H2", circuit=circuit)
    gnd = skidl.Net("GND", circuit=circuit)
    gnd.drive = skidl.POWER
    vcc = skidl.Net("+3V3", circuit=circuit)
    vcc.drive = skidl.POWER
    for sensor in (first, second):
        gnd += sensor.n["GND"]
        vcc += sensor.n["VCC"]
    first.n["OUT"] & second.n["OUT"]  # two outputs fighting on one net
    result = run_erc(circuit)
    assert result.errors == 1
    assert "OUTPUT connected to OUTPUT" in result.messages[0]


def test_electronics_bom_holds_the_magnets_section_of_the_maps():
    from lawmaster.hardware.magnetics import bomdoc

    text = (generate.ROOT / "hardware" / "BOM.md").read_text("utf-8")
    magnets = bomdoc.section()
    assert magnets in text
    assert "north-down" in magnets and "| GW:s brott | criminal piece |" in magnets
