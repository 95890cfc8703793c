"""The actions of GW:s brott, as the rules README lists them (``flow.ACTION_FIELDS``).

On the wire an action is a JSON object; the engine reads the one it is given
field by field (an :data:`~lawmaster.rules.core.Action`), and the actions it
lists itself (``legal_actions``) are these.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict


class ResetAction(TypedDict):
    """The criminal in turn resets the dice; GW gets a special move."""

    act: Literal["reset"]
    by: str


class DestroyEvidenceAction(TypedDict):
    """The criminal hands in the evidence card of the space it stands on."""

    act: Literal["destroy_evidence"]
    by: str
    card: str


class RollAction(TypedDict):
    """One face for each die not showing GW ("1".."4" or 1..4, "arrow", "gw")."""

    act: Literal["roll"]
    by: str
    faces: list[str | int]


class MoveAction(TypedDict):
    """A move with one die: pips to a cell, or the arrow in a direction (from a jail exit)."""

    act: Literal["move"]
    by: str
    die: str | int
    to: NotRequired[str]
    direction: NotRequired[str]
    exit: NotRequired[str]


class PassAction(TypedDict):
    """No usable die gives a legal move."""

    act: Literal["pass"]
    by: str


class GWRollAction(TypedDict):
    """GW's die."""

    act: Literal["gw_roll"]
    face: int


class GWMoveAction(TypedDict):
    """The cells GW's magnet passes, start excluded."""

    act: Literal["gw_move"]
    path: list[str]


class TrumpAction(TypedDict):
    """One of GW's trumps, with what that trump takes."""

    act: Literal["trump"]
    card: str
    to: NotRequired[str]
    informer: NotRequired[str]
    target: NotRequired[str]
    path: NotRequired[list[str]]


class InformAction(TypedDict):
    """The informer names whom it informs on."""

    act: Literal["inform"]
    by: str
    target: str


CriminalAction = ResetAction | DestroyEvidenceAction | RollAction | MoveAction | PassAction
GWAction = GWRollAction | GWMoveAction | TrumpAction
GWBrottAction = CriminalAction | GWAction | InformAction
