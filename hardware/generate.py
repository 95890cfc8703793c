"""Every text file generated from the hardware design, written or checked at once.

``lawmaster hardware generate [--check]`` runs this: one command for every file a
builder reads that the design's code writes, so none of them can drift from the
others:

* from the circuits (:mod:`lawmaster.hardware.electronics.generate`): ``BOM.md``
  (with the magnets section of :mod:`lawmaster.hardware.magnetics.bomdoc` and the
  mechanical parts of ``mechanical/parts.json``), ``wiring.md``, the figures, warm-up
  and first-power sections of ``BUILD.md``, the netlists and overviews;
* from the stack (:mod:`lawmaster.hardware.mechanical`): the drawings and
  ``mechanical/parts.json``;
* from the magnetics: ``MAGNETICS.md`` (:mod:`lawmaster.hardware.magnetics.report`)
  and ``SENSOR-MAPS.md``'s example (:mod:`lawmaster.hardware.magnetics.mapsdoc`);
* from the maps and the stack: the 1:1 templates and their page sets
  (:mod:`lawmaster.hardware.templates`);
* from the maps, the PCB pieces and the magnetics: the stripboard route's
  ``STRIPBOARD.md`` and its 1:1 strip plans (:mod:`lawmaster.hardware.stripboard.doc`);
* from the pieces and the circuits: the footprint library and every PCB's folder
  under ``hardware/pcb/`` (KiCad board, Gerbers, drill, placement, renders, DRC
  report; :mod:`lawmaster.hardware.pcb.generate`), rebuilt only when what a PCB is
  made from changed, every one with ``--force``.

The order is the order things are read in: the mechanical parts list before the BOM
built from it; the footprints before the PCBs that load them; the PCBs before the
tables that read their copper (the supply graphs). The PNG renders
(``python -m lawmaster.hardware.mechanical.render``, headless Chromium) are pictures,
not text, and are not part of this.
"""

from __future__ import annotations

import sys
from pathlib import Path

from lawmaster.hardware import mechanical, templates
from lawmaster.hardware.electronics import generate as electronics
from lawmaster.hardware.magnetics import mapsdoc, report
from lawmaster.hardware.sensor_map import SensorMap
from lawmaster.hardware.stripboard import doc as stripboard

ROOT = electronics.ROOT


def _design_outputs() -> dict[Path, str]:
    """The files that come before the BOM: the mechanical parts, drawings, docs, templates."""
    files = dict(mechanical.outputs())
    files[report.DOC] = report.render()
    files[mapsdoc.DOC] = mapsdoc.render(mapsdoc.DOC.read_text("utf-8"))
    for game in templates.BOARDS:
        sm = SensorMap.load(game)
        files[templates.path_of(game)] = templates.render(sm)
        for paper in templates.PAPERS:
            files[templates.pages_path(game, paper)] = templates.pages_html(sm, paper)
    files.update(stripboard.outputs())
    return files


def _differs(path: Path, text: str) -> bool:
    return not path.exists() or path.read_text("utf-8") != text


def stale() -> list[Path]:
    """Every generated file whose committed text differs from what the design gives."""
    first = _design_outputs()
    old = [path for path, text in first.items() if _differs(path, text)]
    if mechanical.PARTS in old:
        # The BOM is built from the committed parts list; with that stale, say so alone.
        return old
    return old + electronics.stale()


def write() -> list[Path]:
    """Write every generated text file (not the PCBs); returns those that changed."""
    changed = []
    for path, text in _design_outputs().items():
        if _differs(path, text):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, "utf-8")
            changed.append(path)
    return changed + electronics.write()


def main(argv: list[str] | None = None) -> int:
    """Command line: ``[--check] [--force]``."""
    args = sys.argv[1:] if argv is None else argv
    if "--check" in args:
        old = stale()
        for path in old:
            print(f"out of date: {path.relative_to(ROOT)}")
        boards = electronics.stale_pcbs()
        for problem in boards:
            print(f"out of date: {problem}")
        return 1 if old or boards else 0
    try:
        for path in electronics.write_footprints():
            print(f"wrote {path.relative_to(ROOT)}")
        rebuilt: list[str] | None = electronics.write_pcbs(force="--force" in args)
    except RuntimeError as why:
        print(f"PCBs not regenerated: {why}")
        rebuilt = None
    for name in rebuilt or ():
        print(f"wrote hardware/pcb/ files of {name}")
    for path in write():
        print(f"wrote {path.relative_to(ROOT)}")
    return 0 if rebuilt is not None else 1


if __name__ == "__main__":
    raise SystemExit(main())
