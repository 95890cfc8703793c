"""KiCad's ``pcbnew`` Python module, from Debian's ``kicad`` package, if it is installed.

Debian's kicad (6.0.11) puts ``pcbnew`` under the system Python
(``/usr/lib/python3/dist-packages``); the project's own virtual environment
runs the same CPython 3.11, so that folder is appended to ``sys.path`` (after
everything else, so it shadows nothing) when ``pcbnew`` is not importable
already. ``scripts/dev-setup`` installs kicad; where it is missing, the
boards' files cannot be regenerated or checked and the callers say so.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType

DEBIAN_DIST_PACKAGES = "/usr/lib/python3/dist-packages"
MISSING = (
    "KiCad's pcbnew Python module is not installed (Debian: apt-get install"
    " --no-install-recommends kicad; scripts/dev-setup does it)"
)


def pcbnew() -> ModuleType | None:
    """The ``pcbnew`` module, or None when KiCad is not installed."""
    try:
        return importlib.import_module("pcbnew")
    except ImportError:
        pass
    if DEBIAN_DIST_PACKAGES not in sys.path:
        sys.path.append(DEBIAN_DIST_PACKAGES)
    try:
        return importlib.import_module("pcbnew")
    except ImportError:
        return None


def require() -> ModuleType:
    """The ``pcbnew`` module; ``RuntimeError`` saying what is missing when it is not there."""
    module = pcbnew()
    if module is None:
        raise RuntimeError(MISSING)
    return module
