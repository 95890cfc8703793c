"""The scanner's MicroPython firmware (Raspberry Pi Pico) and the wire protocol.

Installed as ``lawmaster.firmware`` under CPython (the host imports
``protocol``; the simulator runs ``app``/``scanner`` on ``standin`` hardware) and
copied to the Pico as the package ``firmware``. See ``README.md`` here.
"""
