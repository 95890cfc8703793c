"""Pure game engines: no I/O, no clock, no random numbers.

Dice results and card identities are inputs, because at a real table they come
from real dice and real cards. :mod:`lawmaster.rules.core` holds what all
engines share; each game has a subpackage of its own.
"""
