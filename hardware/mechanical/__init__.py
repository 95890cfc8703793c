"""The mechanical drawings a builder cuts from, generated from the same source as the figures.

``python -m lawmaster.hardware.mechanical`` writes ``hardware/mechanical/drawings/``
(SVG, mm units) and ``hardware/mechanical/parts.json``; ``python -m
lawmaster.hardware.mechanical.render`` makes the PNG renders beside them. A test
regenerates the SVGs and the parts list and compares them with the committed files.

* :mod:`.section` — the layer stack of each board through one sensor (5:1).
* :mod:`.supports` — where the covers rest on their spacers, and their sag.
* :mod:`.plans` — each board's spacer frame: supports, screws, cut-outs, pockets.
* :mod:`.stand` — GW:s brott's stand and the flat boards' scanner box.
* :mod:`.parts` — every mechanical part per board (``parts.json``).
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
DRAWINGS = HERE / "drawings"
RENDERS = HERE / "renders"
PARTS = HERE / "parts.json"


def outputs() -> dict[Path, str]:
    """Every generated file and its text (the drawings and the parts list)."""
    from lawmaster.hardware.mechanical import parts, plans, section, stand

    out = {DRAWINGS / "section-gw-brott.svg": section.gw_section()}
    for board in ("judge-dredd", "unamerican-graffiti"):
        out[DRAWINGS / f"section-{board}.svg"] = section.flat_section(board)
    for board in ("gw-brott", "judge-dredd", "unamerican-graffiti"):
        out[DRAWINGS / f"plan-{board}.svg"] = plans.plan(board)
    out[DRAWINGS / "stand-gw-brott.svg"] = stand.gw_stand_drawing()
    out[DRAWINGS / "scanner-box.svg"] = stand.scanner_box_drawing()
    out[PARTS] = parts.text()
    return out


def main() -> int:
    """Write every drawing and the parts list."""
    DRAWINGS.mkdir(exist_ok=True)
    for path, text in outputs().items():
        path.write_text(text, "utf-8")
        print(f"wrote {path.relative_to(HERE.parent.parent)}")
    return 0
