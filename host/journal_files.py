"""Where a journal keeps its files beside it: the copy, the mark, and the mark's width.

Both the journal and its start-up check (:mod:`lawmaster.host.journal_recovery`)
need these; they live here so neither imports the other's internals.
"""

from __future__ import annotations

#: The mark file's fixed width: one write of it never straddles a disk sector.
MARK_BYTES = 64


def copy_path(path: str) -> str:
    """Where the journal at ``path`` keeps its copy."""
    return path + ".copy"


def mark_path(path: str) -> str:
    """Where the journal at ``path`` notes its last committed input."""
    return path + ".mark"
