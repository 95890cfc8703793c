"""The printed circuit boards: every kind of PCB the boards are cut into, generated from code.

* :mod:`.specs` — :func:`pcbs` and :func:`cables`: what a table with a board
  needs (sizes, layers, counts, cable lengths), for the BOM and the prices.
* :mod:`.layout` — where each part of a kind of piece goes, by rule.
* :mod:`.router` — a two-layer grid router (A*), clearances kept by construction.
* :mod:`.board` — the KiCad board: footprints from the project's library,
  routed copper, ground pours, design rules (``pcbnew``).
* :mod:`.fab` — Gerbers, drill files, the pick-and-place file.
* :mod:`.render` — pictures of both faces.
* :mod:`.drc` — KiCad's own design-rule check, and the boards' pads against
  the circuit's netlist.
* :mod:`.generate` — writes (or checks) everything under ``hardware/pcb/``.

The circuit itself, and how each board is cut into pieces, is
:mod:`lawmaster.hardware.electronics` (``pieces``, ``circuits``).
"""

from __future__ import annotations

from lawmaster.hardware.pcb.specs import CableSpec, PcbSpec, cables, pcbs

__all__ = ["CableSpec", "PcbSpec", "cables", "pcbs"]
