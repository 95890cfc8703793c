"""Unamerican Graffiti: two scrawlers, six Judges, a hex map.

Nothing is hidden in this game; the engine checks every scrawler and Judge
move against the rules, keeps the scrawls and prestige, and shows each
scrawler the Judges' threat. The replay vocabulary is in ``README.md``.
"""

from .board import Board
from .engine import ENGINE, GraffitiEngine
from .state import State

__all__ = ["ENGINE", "Board", "GraffitiEngine", "State"]
