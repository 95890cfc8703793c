"""Copy to the Pico as ``/main.py``: starts the scanner at power-up.

mpremote cp firmware/pico_boot.py :main.py

Ctrl-C goes off first, before the firmware's modules load: the host may already be
sending commands, whose bytes can hold 0x03, and one of those would otherwise stop the
start-up for a REPL (``firmware.main.run`` turns it back on in safe mode).
"""

if __name__ == "__main__":
    import micropython

    micropython.kbd_intr(-1)
    from firmware.main import run

    run()
