"""The magnetics of the boards: real cylinder magnets computed with magpylib.

* :mod:`.fields` — field tables Bz(ρ, h) at a sensor per magnet, through the
  board's stack and its soft-steel keepers (:mod:`.softiron`); the simulator
  reads them (``lawmaster.host.sim.physics``).
* :mod:`.margins` — readings at the centre, at the worst placement
  (:mod:`.placement`) and at the neighbour spot, and their margins in counts.
* :mod:`.holding` — holding forces (magpylib-force, :mod:`.forces`).
* :mod:`.stack` — the layers of each board; :mod:`.report` writes
  ``hardware/MAGNETICS.md`` from all of it.
* :func:`check` — the figures ``lawmaster hardware check`` prints.
"""

from __future__ import annotations

from lawmaster.hardware.magnetics.check import check

__all__ = ["check"]
