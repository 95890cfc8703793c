"""Rewrite (or check) every file generated from the circuits.

``lawmaster hardware generate`` (:mod:`lawmaster.hardware.generate`, which also
writes the mechanical files first) writes from here, relative to the repository root:

* ``hardware/BOM.md`` (its magnets section from :mod:`lawmaster.hardware.magnetics.bomdoc`),
* the figures, warm-up and first-power sections of ``hardware/BUILD.md`` (the rest
  of it is hand-written),
* ``wiring.md``,
* ``hardware/schematic/scanner-<board>.net`` per board and ``host-i2c.net`` /
  ``host-uart.net``: KiCad netlists,
* ``hardware/schematic/<board>-overview.svg``: the block overview,
* the project's footprint library's own footprints and its ``fp-lib-table``
  (:mod:`.footprints`),
* every PCB's folder under ``hardware/pcb/`` (:mod:`lawmaster.hardware.pcb.generate`:
  board, Gerbers, drill and placement files, pictures, DRC report; rebuilt only
  when what a board is made from changed; ``force`` rebuilds them all), and the
  PCBs' README.

:func:`stale` compares texts; :func:`stale_pcbs` compares the PCB folders with
their manifests, which needs no KiCad.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from lawmaster.hardware.pcb import generate as pcb_generate
from lawmaster.hardware.pcb import readme as pcb_readme

from . import bom, bringup_doc, figures_doc, footprints, wiring
from .circuits import BOARDS, Design, host, scanner
from .erc import ErcResult, run_erc
from .netlist import kicad_netlist
from .overview import overview_svg

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Designs:
    """Every circuit of the project, built once."""

    scanners: dict[str, Design]
    host_i2c: Design
    host_uart: Design
    erc: dict[str, ErcResult] = field(default_factory=dict)

    def all(self) -> list[Design]:
        """The scanner designs, then the two host variants."""
        return [*self.scanners.values(), self.host_i2c, self.host_uart]


@cache
def scanner_design(board: str) -> Design:
    """One board's scanner, built once (a few seconds: hundreds of parts)."""
    return scanner(board)


@cache
def host_design(interface: str) -> Design:
    """The host side with its PN532 on ``"i2c"`` or ``"uart"``, built once."""
    return host(interface)


def designs() -> Designs:
    """Every circuit of the project."""
    return Designs(
        {board: scanner_design(board) for board in BOARDS}, host_design("i2c"), host_design("uart")
    )


@cache
def erc(name: str) -> ErcResult:
    """ERC of one design by name (``"scanner-gw-brott"``, ``"host-i2c"``…), run once."""
    if name.startswith("scanner-"):
        return run_erc(scanner_design(name.removeprefix("scanner-")).circuit)
    if name.startswith("host-"):
        return run_erc(host_design(name.removeprefix("host-")).circuit)
    raise KeyError(name)


def board_erc(board: str) -> ErcResult:
    """ERC of everything one table with this board is built from (scanner and both hosts)."""
    results = [erc(f"scanner-{board}"), erc("host-i2c"), erc("host-uart")]
    return ErcResult(
        sum(r.errors for r in results),
        sum(r.warnings for r in results),
        tuple(m for r in results for m in r.messages),
    )


def outputs(root: Path = ROOT) -> dict[Path, str]:
    """Every generated file and its content."""
    built = designs()
    per_board = {b: [built.scanners[b], built.host_i2c] for b in BOARDS}
    files = {
        root / "hardware" / "BOM.md": bom.render(per_board),
        root / "wiring.md": wiring.render(built.scanners, built.host_i2c, built.host_uart),
    }
    build_path = root / "hardware" / "BUILD.md"
    guide = build_path.read_text("utf-8") if build_path.exists() else ""
    guide = figures_doc.splice(guide, figures_doc.render(built.scanners))
    guide = figures_doc.splice(
        guide, figures_doc.warmup(built.scanners), figures_doc.WARMUP_BEGIN, figures_doc.WARMUP_END
    )
    files[build_path] = figures_doc.splice(
        guide, bringup_doc.render(), bringup_doc.BEGIN, bringup_doc.END
    )
    schematic = root / "hardware" / "schematic"
    for design in built.all():
        files[schematic / f"{design.name}.net"] = kicad_netlist(design.circuit)
    for board, design in built.scanners.items():
        assert design.tree is not None
        files[schematic / f"{board}-overview.svg"] = overview_svg(design.tree)
    files.update(footprints.outputs(root))
    files[root / "hardware" / "pcb" / "README.md"] = pcb_readme.render(root)
    return files


def stale(root: Path = ROOT) -> list[Path]:
    """Generated files whose committed text differs from the source's."""
    return [
        path
        for path, text in outputs(root).items()
        if not path.exists() or path.read_text("utf-8") != text
    ]


def write(root: Path = ROOT) -> list[Path]:
    """Write every generated file; returns those that changed."""
    changed = []
    for path, text in outputs(root).items():
        if not path.exists() or path.read_text("utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, "utf-8")
            changed.append(path)
    return changed


def write_footprints(root: Path = ROOT) -> list[Path]:
    """Write the footprint library (the PCBs load it); returns the files that changed.

    Raises ``RuntimeError`` when a stock footprint the library copies is missing.
    """
    missing = footprints.missing_stock()
    if missing:
        raise RuntimeError(f"the footprint library lacks {', '.join(missing)}")
    changed = []
    for path, text in footprints.outputs(root).items():
        if not path.exists() or path.read_text("utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, "utf-8")
            changed.append(path)
    return changed


def write_pcbs(force: bool = False) -> list[str]:
    """Rebuild every PCB whose sources changed (all with ``force``); returns their names.

    Raises ``RuntimeError`` without KiCad's ``pcbnew`` or when a board does not route.
    """
    return pcb_generate.write(force=force)


def stale_pcbs() -> list[str]:
    """Why committed PCB folders are not what the source makes (no KiCad needed)."""
    return pcb_generate.stale()
