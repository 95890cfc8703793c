"""The referee's knowledge of GW:s brott: who sends what, prompts, dice, board readings.

Where inputs come from at a GW:s brott table:

* A criminal says its die aloud: the die comes from its tablet. The
  destination comes from the board (the piece lifted and put down), or from
  the tablet when the table plays without a board. Either may come first; the
  referee holds the half it has until the other arrives.
* GW's path is the list of cells the sliding magnet passed through.
* Dice faces are typed on the tablet, or rolled by the referee when the table
  chose digital dice (the faces are journalled like typed ones).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from lawmaster.rules.core import IllegalAction
from lawmaster.rules.gw_brott.cards import criminal_faces, gw_faces

from .referee import GameRules

GW = "gw"
GW_ACTS = frozenset({"gw_roll", "gw_move", "trump"})
#: Parts of a criminal move the board supplies (the tablet says only the die).
BOARD_FIELDS = ("to", "direction", "exit")


class GwBrottRules(GameRules):
    """GW:s brott: GW against one to four criminal pieces."""

    def __init__(self, table: Any) -> None:
        super().__init__(table)
        #: A criminal's die said on the tablet, waiting for the board to show the move.
        self.said: dict[str, Any] | None = None
        #: A trump card GW tapped on the reader, waiting for the rest of it.
        self.said_trump: str | None = None

    # -- who may send what -------------------------------------------------------
    def owner(self, action: Mapping[str, Any], state: Any) -> str | None:
        if action.get("act") in GW_ACTS:
            return GW
        by = action.get("by")
        return by if isinstance(by, str) else None

    def sides(self, state: Any) -> dict[str, str]:
        return {
            seat: (GW if seat == GW else "criminals") for seat in self.table.engine.seats(state)
        }

    def detail_seats(self, action: Mapping[str, Any], state: Any) -> tuple[str, ...]:
        # A criminal's misplaced piece sits on the criminals' side: only they may read where.
        if action.get("act") in GW_ACTS:
            return tuple(self.table.engine.seats(state))
        return tuple(s for s in self.table.engine.seats(state) if s != GW)

    def physical_name(self, action: Mapping[str, Any]) -> str:
        if action.get("act") in GW_ACTS:
            return "GW's move"
        return f"{action.get('by', 'a criminal')}'s move"

    # -- cards ---------------------------------------------------------------------
    def card(self, card: Any, seat: str | None, state: Any) -> dict[str, Any] | str | None:
        """Evidence tapped: the criminal to act hands it in. A trump tapped: GW plays it."""
        waiting = self.table.engine.to_act(state)
        if card.kind == "evidence":
            by = seat if seat not in (None, GW) else next((s for s in waiting if s != GW), None)
            if by is None:
                return "evidence is handed in at the start of a criminal's turn"
            return {"act": "destroy_evidence", "by": by, "card": card.id}
        if card.kind == "trump":
            if card.id == "infiltrator":
                return {"act": "trump", "card": card.id}
            # The rest of the trump (where to, which path, which informer) comes from
            # GW's tablet or the board; the tap only says which card.
            self.said_trump = card.id
            return f"GW plays {card.name}: GW completes it on the tablet"
        return None

    def end_turn(self, state: Any) -> dict[str, Any] | None:
        """A criminal with no legal move passes with the panel's end-turn button."""
        for seat in self.table.engine.to_act(state):
            asked = self.table.engine.view(state, seat).get("asked") or {}
            if seat != GW and asked.get("may_pass"):
                return {"act": "pass", "by": seat}
        return None

    def undone(self, state: Any) -> None:
        self.said = None
        self.said_trump = None

    # -- completing inputs --------------------------------------------------------
    def complete(
        self, seat: str, action: dict[str, Any], state: Any, rng: random.Random | None
    ) -> dict[str, Any] | str:
        act = action.get("act")
        if rng is not None and act == "roll" and "faces" not in action:
            view = self.table.engine.view(state, seat)
            count = int((view.get("asked") or {}).get("dice_to_roll") or 0)
            if not count:
                count = int((view.get("asked") or {}).get("may_reroll") or 0)
            faces = criminal_faces()
            return {**action, "faces": [rng.choice(faces) for _ in range(count)]}
        if rng is not None and act == "gw_roll" and "face" not in action:
            return {**action, "face": rng.choice(gw_faces())}
        if act == "move" and self.board_on and not any(k in action for k in BOARD_FIELDS):
            die = action.get("die")
            view = self.table.engine.view(state, seat)
            moves = ((view.get("asked") or {}).get("moves")) or {}
            if str(die) not in moves:
                raise IllegalAction(f"the die {die!r} is not one you can move with now")
            self.said = dict(action)
            return f"{seat} moves with the {die}: waiting for the piece on the board"
        self.said = None
        if act == "trump":
            self.said_trump = None
        return action

    @property
    def board_on(self) -> bool:
        return bool(self.table.settings.get("board", False))

    # -- prompts --------------------------------------------------------------------
    def prompts(self, seat: str, state: Any, view: Mapping[str, Any]) -> list[dict[str, Any]]:
        asked = view.get("asked")
        if not isinstance(asked, Mapping):
            return []
        if seat == GW:
            return self._gw_prompts(asked)
        return self._criminal_prompts(seat, asked)

    def _gw_prompts(self, asked: Mapping[str, Any]) -> list[dict[str, Any]]:
        if asked.get("act") == "gw_roll":
            prompts: list[dict[str, Any]] = [
                _prompt("enter_dice", {"act": "gw_roll"}, count=1, faces=list(gw_faces()))
            ]
            if asked.get("or_trump"):
                cards = list(asked["or_trump"])
                if self.said_trump in cards:
                    cards = [self.said_trump]
                prompts.append(_prompt("trump", {"act": "trump"}, cards=cards))
            return prompts
        if asked.get("act") == "gw_move":
            return [
                _prompt(
                    "gw_move",
                    {"act": "gw_move"},
                    steps=asked.get("steps"),
                    exactly=asked.get("exactly"),
                    move_kind=asked.get("kind"),
                    on_board=self.board_on,
                )
            ]
        return []

    def _criminal_prompts(self, seat: str, asked: Mapping[str, Any]) -> list[dict[str, Any]]:
        base = {"by": seat}
        act = asked.get("act")
        if act == "inform":
            return [_prompt("inform", {"act": "inform", **base}, targets=asked.get("targets"))]
        if act == "roll":
            prompts = []
            if asked.get("dice_to_roll"):
                prompts.append(
                    _prompt(
                        "enter_dice",
                        {"act": "roll", **base},
                        count=asked["dice_to_roll"],
                        faces=list(criminal_faces()),
                    )
                )
            if asked.get("may_reset"):
                prompts.append(
                    _prompt("reset", {"act": "reset", **base}, required=asked.get("must_reset"))
                )
            if asked.get("may_destroy"):
                prompts.append(
                    _prompt(
                        "destroy_evidence",
                        {"act": "destroy_evidence", **base},
                        cards=list(asked["may_destroy"]),
                    )
                )
            return prompts
        if act == "move":
            if self.said is not None and self.said.get("by") == seat:
                return [
                    _prompt(
                        "move_piece",
                        dict(self.said),
                        die=self.said.get("die"),
                        message=f"move your piece with the {self.said.get('die')} on the board",
                    )
                ]
            moves = asked.get("moves") or {}
            prompts = [
                _prompt(
                    "choose_die",
                    {"act": "move", **base},
                    options=sorted(moves),
                    moves=moves,
                    on_board=self.board_on,
                )
            ]
            if asked.get("may_reroll"):
                prompts.append(
                    _prompt(
                        "enter_dice",
                        {"act": "roll", **base},
                        count=asked["may_reroll"],
                        faces=list(criminal_faces()),
                        reroll=True,
                    )
                )
            if asked.get("may_pass"):
                prompts.append(_prompt("pass", {"act": "pass", **base}))
            return prompts
        return []


def _prompt(kind: str, action: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """A prompt: its kind, the base action its answer completes, and what to show."""
    return {"kind": kind, **action, "action": dict(action), **extra}
