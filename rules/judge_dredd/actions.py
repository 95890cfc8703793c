"""The actions of Judge Dredd, as the rules README's table lists them.

On the wire an action is a JSON object; the engine reads the one it is given
field by field (an :data:`~lawmaster.rules.core.Action`), and the actions it
lists itself (``legal_actions``: the mover's moves) are these. Fields named
like Python keywords (``for``) make some of them functional TypedDicts.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

#: Dice as a roll gives them: one face, or a list of faces.
Faces = int | list[int]


class PlaceJudgeAction(TypedDict):
    act: Literal["place_judge"]
    by: str
    sector: str


class PlaceCrimeAction(TypedDict):
    act: Literal["place_crime"]
    sector_card: str
    crime: NotRequired[str]
    perp: NotRequired[str]


class MoveAction(TypedDict):
    act: Literal["move"]
    by: str
    path: list[str]
    perp: NotRequired[str]


class EndMovementAction(TypedDict):
    act: Literal["end_movement"]


class PlayAction(TypedDict):
    """A card outside combat (Alerts included); the fields after ``option`` depend on it."""

    act: Literal["play"]
    by: str
    card: str
    option: NotRequired[Literal["main", "alt"]]
    target: NotRequired[str]
    to: NotRequired[str]
    sector: NotRequired[str]
    judges: NotRequired[list[str]]
    perp: NotRequired[str]
    crime: NotRequired[str]


class AcceptAction(TypedDict):
    act: Literal["accept"]
    by: str
    perp: NotRequired[str]


class DeclineAction(TypedDict):
    act: Literal["decline"]
    by: str


class ArrestAction(TypedDict):
    act: Literal["arrest"]
    groups: list[list[str]]


class NextArrestAction(TypedDict):
    act: Literal["next_arrest"]


class RevealPerpAction(TypedDict):
    act: Literal["reveal_perp"]
    sector: str
    perp: str


CommitAction = TypedDict(
    "CommitAction",
    {
        "act": Literal["commit"],
        "by": str,
        "card": str,
        "for": NotRequired[str],
        "option": NotRequired[Literal["main", "alt"]],
        "face_up": NotRequired[bool],
    },
)


class CoolAction(TypedDict):
    act: Literal["cool"]
    by: str


class RevealAction(TypedDict):
    act: Literal["reveal"]


class RollAction(TypedDict):
    """Dice by seat (or ``"perp"``), or ``judge`` and ``perp`` for a single group."""

    act: Literal["roll"]
    dice: NotRequired[dict[str, Faces]]
    judge: NotRequired[Faces]
    perp: NotRequired[Faces]


class PerpEscapeAction(TypedDict):
    act: Literal["perp_escape"]
    by: str
    to: str


class DiscardSectorAction(TypedDict):
    act: Literal["discard_sector"]
    sector_card: str


class RecycleAction(TypedDict):
    act: Literal["recycle"]
    by: str
    count: NotRequired[int]
    cards: NotRequired[list[str]]


class DrawAction(TypedDict):
    act: Literal["draw"]
    by: str
    count: NotRequired[int]
    cards: NotRequired[list[str]]


class InternalAffairsAction(TypedDict):
    act: Literal["internal_affairs"]
    by: str
    target: str
    cards: NotRequired[list[str]]


class PsiPeekAction(TypedDict):
    act: Literal["psi_peek"]
    by: str
    sector: str
    perp: NotRequired[str]


class ShowAction(TypedDict):
    act: Literal["show"]
    by: str
    cards: list[str]


DreddAction = (
    PlaceJudgeAction
    | PlaceCrimeAction
    | MoveAction
    | EndMovementAction
    | PlayAction
    | AcceptAction
    | DeclineAction
    | ArrestAction
    | NextArrestAction
    | RevealPerpAction
    | CommitAction
    | CoolAction
    | RevealAction
    | RollAction
    | PerpEscapeAction
    | DiscardSectorAction
    | RecycleAction
    | DrawAction
    | InternalAffairsAction
    | PsiPeekAction
    | ShowAction
)
