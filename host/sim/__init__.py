"""Simulated hardware for the demo and the tests.

``pico.SimulatedPico`` runs the real scanner firmware on stand-in multiplexers
behind a pty; other modules here stand in for the rest of the table.
"""
