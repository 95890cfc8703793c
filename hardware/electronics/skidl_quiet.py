"""Import SKiDL without its start-up noise and its per-part stack walk.

SKiDL warns at import that no KiCad symbol libraries are configured: this
project defines every part itself (:mod:`.parts`), so those warnings say
nothing. SKiDL also records, for every part and net, the Python call stack that
made it (``inspect.stack()``, some 50 ms a part): a 122-sensor board would take
most of a minute to describe. The netlists are written without source lines,
so the trace is replaced by an empty one.
"""

from __future__ import annotations

import logging
import os
import shutil
import sys
import tempfile
import warnings

# SKiDL writes log files (<script>.log, <script>_erc.log) into the working
# directory unless told otherwise; nothing here wants them.
os.environ.setdefault("SKIDL_NO_FILES", "1")

_quiet = logging.getLogger("skidl_quiet")


def _load():  # noqa: ANN202 - returns the skidl module
    # SKiDL opens its log files (skidl_REPL.log, ...) in the working directory at import,
    # whatever SKIDL_NO_FILES says; several processes importing it from one directory (the
    # test workers) would delete each other's files. Import it from a folder of our own.
    here = os.getcwd()
    scratch = tempfile.mkdtemp(prefix="lawmaster-skidl-")
    os.chdir(scratch)
    try:
        return _import_quietly()
    finally:
        os.chdir(here)
        shutil.rmtree(scratch, ignore_errors=True)


def _import_quietly():  # noqa: ANN202 - returns the skidl module
    previous = logging.root.manager.disable
    logging.disable(logging.WARNING)
    # SKiDL's SPICE tool imports InSpice when it can (about 4 s); nothing here simulates,
    # so that import is made to fail the way SKiDL already handles.
    blocked = "InSpice" not in sys.modules
    if blocked:
        sys.modules["InSpice"] = None  # type: ignore[assignment]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import skidl
            import skidl.circuit
            import skidl.node
    finally:
        logging.disable(previous)
        if blocked:
            del sys.modules["InSpice"]
    skidl.circuit.get_skidl_trace = lambda: []
    skidl.node.get_skidl_trace = lambda: []
    _no_log_files()
    return skidl


def _no_log_files() -> None:
    # The loggers opened <script>.log / <script>.erc at import; close and delete them.
    from skidl.logger import erc_logger, rt_logger

    for logger in (rt_logger, erc_logger):
        logger.stop_file_output()


skidl = _load()
