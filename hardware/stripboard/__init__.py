"""The no-fab route: TO-92 DRV5055s on stripboard instead of the fab-made sensor PCBs.

Issue 23 asks for a route a builder who prefers through-hole parts can take with
no PCB fab, *if it keeps the margins*. This package computes whether it does and,
for each board where it does, how to build it, from the same sources as the PCBs:

* :mod:`.parts`: the TO-92 (TI "LPG") DRV5055 and the stripboard, every value with
  its source, and how the sensor is mounted (lying flat, branded face up);
* :mod:`.plan`: each board's stripboard pieces (the PCB pieces' outlines and holes,
  :mod:`lawmaster.hardware.electronics.pieces` / :mod:`lawmaster.hardware.pcb.layout`),
  where every sensor of the sensor map goes on the 2.54 mm grid, which strips carry
  the supply, ground and each output, where to cut them and where the wires go;
* :mod:`.margins`: the board's stack with the stripboard and the TO-92's element
  height, and the margins at every tolerance corner with the same code as the SMD
  route (:mod:`lawmaster.hardware.magnetics.tolerance`; no threshold changed): a
  board whose figures miss a limit is reported as *not suitable* for this route;
* :mod:`.svg` and :mod:`.doc`: the 1:1 strip plans and ``hardware/STRIPBOARD.md``,
  written by ``lawmaster hardware generate``.
"""
