"""What every game's seat pages share: the base drawing and its generic parts.

Games refine :class:`~lawmaster.host.ui.seat.SeatUI`; the web app draws each
page through the table's game. Nothing here names a game.
"""

from .seat import GENERIC, SeatUI

__all__ = ["GENERIC", "SeatUI"]
