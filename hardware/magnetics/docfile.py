"""Rewriting a generated section of a hand-written doc, or checking that it is current.

The docs' generators (:mod:`.bomdoc`, :mod:`.mapsdoc`) each know how to draw their
section; this is the one way they are run from the command line.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path


def rewrite(doc: Path, render: Callable[[str], str], argv: list[str] | None = None) -> int:
    """Write ``render(doc's text)`` back to ``doc`` (``--check`` in ``argv``: write nothing,
    exit 1 if the doc is out of date)."""
    argv = sys.argv[1:] if argv is None else argv
    text = doc.read_text("utf-8")
    new = render(text)
    if "--check" in argv:
        return 0 if new == text else 1
    doc.write_text(new, "utf-8")
    return 0
