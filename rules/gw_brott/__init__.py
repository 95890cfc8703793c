"""GW:s brott: hidden movement on a two-sided magnetic board."""

from .board import Board

__all__ = ["Board"]
