"""Lawmaster: an automatic referee for crime-fighting board games on real boards.

The work is split the way the data flows (see ``DESIGN.md`` in the shared
folder): :mod:`lawmaster.rules` holds the pure game engines,
:mod:`lawmaster.host` what runs on the Raspberry Pi, :mod:`lawmaster.firmware`
the scanner's MicroPython code and :mod:`lawmaster.hardware` the sensor maps.
"""

__version__ = "0.1.0"
