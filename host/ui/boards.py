"""A shipped board a page draws: read once per name, and ``None`` when it cannot be read.

A page must still draw (without its map) when a view names a board this host
does not ship or cannot read, so a reading error is an answer here, not a failure.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import TypeVar

from lawmaster.rules.core import IllegalAction

Loaded = TypeVar("Loaded")


def tolerant(load: Callable[[str], Loaded]) -> Callable[[str], Loaded | None]:
    """``load`` remembered by name, answering ``None`` for a board it cannot read."""

    @lru_cache(maxsize=8)
    def loaded(name: str) -> Loaded | None:
        try:
            return load(name)
        except (IllegalAction, OSError, ValueError, TypeError):
            return None

    return loaded
