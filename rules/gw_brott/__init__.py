"""GW:s brott: hidden movement on a two-sided magnetic board.

``ENGINE`` is the rules engine the core registry finds under ``"gw-brott"``; the
rule readings it takes where the rulebook is unclear are in this package's README.
"""

from .board import Board
from .engine import GWEngine

ENGINE = GWEngine()

__all__ = ["ENGINE", "Board", "GWEngine"]
