"""Where a journal keeps its files beside it: the copy, the mark, the mark's width, and
how every one of them is made private to the table's own user.

Both the journal and its start-up check (:mod:`lawmaster.host.journal_recovery`)
need these; they live here so neither imports the other's internals.
"""

from __future__ import annotations

import os

#: The mark file's fixed width: one write of it never straddles a disk sector.
MARK_BYTES = 64


def copy_path(path: str) -> str:
    """Where the journal at ``path`` keeps its copy."""
    return path + ".copy"


def mark_path(path: str) -> str:
    """Where the journal at ``path`` notes its last committed input."""
    return path + ".mark"


def private(path: str) -> None:
    """Make ``path`` exist, readable and writable by this user only (0600), before anything
    writes it: the journal and its companions hold every seat's link. SQLite gives a
    journal's write-ahead log and its index the journal's own mode."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        os.fchmod(fd, 0o600)
    finally:
        os.close(fd)
