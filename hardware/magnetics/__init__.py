"""The magnetics of the boards: real cylinder magnets computed with magpylib.

* :mod:`.fields` — field tables Bz(ρ, h) at a sensor per magnet, through the
  board's stack and its soft-steel keepers (:mod:`.softiron`); the simulator
  reads them (``lawmaster.host.sim.physics``).
* :mod:`.margins` — readings at the centre, at the worst placement
  (:mod:`.placement`) and at the neighbour spot, and their margins in counts.
* :mod:`.holding` — holding forces (magpylib-force, :mod:`.forces`).
* :mod:`.tolerance` — every figure at every tolerance corner (layers, sensor
  spread, magnets, lifts, placement, temperature) and a seeded Monte Carlo.
* :mod:`.stack` — the layers of each board, their tolerances and the room they
  leave for parts (``part_space_mm``); :mod:`.report` writes
  ``hardware/MAGNETICS.md`` from all of it, :mod:`.mapsdoc` the example in
  ``hardware/SENSOR-MAPS.md`` and :mod:`.bomdoc` the BOM's magnets section.
* :func:`.check.check` — the figures ``lawmaster hardware check`` prints.

The package itself imports nothing: its low-level modules (:mod:`.stack`, :mod:`.data`)
are read by the PCB layouts, which the tolerance corners' heat budget reaches in turn.
"""
