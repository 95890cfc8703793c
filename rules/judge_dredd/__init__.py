"""Judge Dredd: The Game of Crime-Fighting in Mega-City One — the referee's engine."""

from .board import Board
from .cards import CardBook, card_list
from .engine import DreddEngine

ENGINE = DreddEngine()

__all__ = ["ENGINE", "Board", "CardBook", "DreddEngine", "card_list"]
