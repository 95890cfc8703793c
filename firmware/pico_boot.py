"""Copy to the Pico as ``/main.py``: starts the scanner at power-up.

mpremote cp firmware/pico_boot.py :main.py
"""

if __name__ == "__main__":
    from firmware.main import run

    run()
