"""Simulated hardware for the demo, the bench and the tests.

Each module stands in for one part of the table: ``pico.SimulatedPico`` runs the
real scanner firmware on stand-in multiplexers behind a pty (what
``host.link.Link`` opens), fed by a field model such as ``physics.PhysicalBoard``
moved by ``hands.Hands``; ``hardware.SimulatedHardware`` is the simulated
hardware factory that opens them (and emulated NFC readers and mock pins) for a
table's wiring; ``people.SimulatedPeople`` are the people at that table;
``rig.Rig`` steps a board and the table's board feed on one clock, without threads.
"""
