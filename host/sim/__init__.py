"""Simulated hardware for the demo and the tests.

Each module stands in for one part of the table: ``pico.SimulatedPico`` runs the
real scanner firmware on stand-in multiplexers behind a pty (what
``host.link.Link`` opens), fed by a field model such as ``physics.PhysicalBoard``;
the other modules stand in for the people and devices around it.
"""
