"""A board as a graph: how many steps each space lies from one start.

Engines and simulated players of every game measure distances on their map's
bare adjacency; the walk is the same whatever a space is called.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

Space = TypeVar("Space", bound=Hashable)


def steps_from(start: Space, neighbours: Callable[[Space], Iterable[Space]]) -> dict[Space, int]:
    """Every space reachable from ``start`` → the fewest steps to it (``start``: 0)."""
    steps = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for near in neighbours(here):
            if near not in steps:
                steps[near] = steps[here] + 1
                queue.append(near)
    return steps
