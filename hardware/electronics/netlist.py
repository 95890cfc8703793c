"""KiCad netlists of the circuits, byte-for-byte reproducible.

SKiDL stamps a netlist with the date and the running script's name; both are
replaced by fixed text so a regenerated netlist differs only when the circuit
does. Part tags are the reference designators (set in :mod:`.circuits`).
"""

from __future__ import annotations

import logging
import re
from typing import Any

from .skidl_quiet import skidl

SOURCE = "hardware/electronics/circuits.py"


def kicad_netlist(circuit: Any) -> str:
    """The circuit as a KiCad (version 8 "D" format) netlist."""
    previous = logging.root.manager.disable
    # SKiDL logs a summary and a "missing tag" line for its internal no-connect net on
    # every netlist; neither says anything about the circuit (ERC is run separately).
    logging.disable(logging.WARNING)
    try:
        text = str(circuit.generate_netlist(tool=skidl.KICAD8, track_src=False))
    finally:
        logging.disable(previous)
    text = re.sub(r'\(date "[^"]*"\)', '(date "")', text)
    text = re.sub(r'\(source "[^"]*"\)', f'(source "{SOURCE}")', text)
    return text if text.endswith("\n") else text + "\n"
