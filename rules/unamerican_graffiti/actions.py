"""The actions of Unamerican Graffiti, as the rules README's table lists them.

On the wire an action is a JSON object; the engine reads the one it is given
field by field (an :data:`~lawmaster.rules.core.Action`), and the actions it
lists itself (``legal_actions``, a scrawler's ``legal_moves``) are these.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict


class MoveAction(TypedDict):
    """The scrawler in turn walks ``path``, or the shortest way ``to`` a hex."""

    act: Literal["move"]
    by: str
    path: NotRequired[list[str]]
    to: NotRequired[str]


class RollAction(TypedDict):
    """The opponent's dice for the Judges, one per hex the scrawler walked."""

    act: Literal["roll"]
    by: str
    faces: list[int]


class JudgeMoveAction(TypedDict):
    """One die showing ``judge`` resolved: he walks ``path`` (or ``to`` a hex), or cleans."""

    act: Literal["judge_move"]
    by: NotRequired[str]
    judge: int
    path: NotRequired[list[str]]
    to: NotRequired[str]


class ReenterAction(TypedDict):
    """After an arrest, a new colour starts ``at`` a free landmark."""

    act: Literal["reenter"]
    by: str
    at: str


GraffitiAction = MoveAction | RollAction | JudgeMoveAction | ReenterAction
