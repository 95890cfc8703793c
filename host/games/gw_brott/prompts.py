"""GW:s brott's prompts: what each seat is asked, built from its own view.

GW is asked for its die (or a trump), then for its move; a criminal for its
dice (or a reset, or evidence to hand in), then for the die it moves with, a
reroll or a pass. On a table that reads its board, a move is shown on the
board after the die is said.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lawmaster.host.plugin import Prompt, prompt
from lawmaster.host.ui.look import PALETTE
from lawmaster.host.ui.text import Text, sentence, told
from lawmaster.rules.gw_brott.cards import criminal_faces, gw_faces


def piece_name(piece: object) -> str:
    """A criminal piece as players say it, in the language of the page that draws it: a
    piece named by a colour is that colour's word ("Red", "Röd"), any other as typed."""
    text = str(piece)
    if text in PALETTE:
        return sentence(Text(text))
    return text[:1].upper() + text[1:]


def gw_prompts(asked: Mapping[str, Any], said_trump: str | None, on_board: bool) -> list[Prompt]:
    """GW's prompts from what GW's view asks (``said_trump``: a trump tapped, not yet complete)."""
    if asked.get("act") == "gw_roll":
        prompts: list[Prompt] = [
            prompt("enter_dice", {"act": "gw_roll"}, count=1, faces=list(gw_faces()))
        ]
        if asked.get("or_trump"):
            cards = list(asked["or_trump"])
            if said_trump in cards:
                cards = [said_trump]
            prompts.append(prompt("trump", {"act": "trump"}, cards=cards))
        return prompts
    if asked.get("act") == "gw_move":
        return [
            prompt(
                "gw_move",
                {"act": "gw_move"},
                steps=asked.get("steps"),
                exactly=asked.get("exactly"),
                move_kind=asked.get("kind"),
                on_board=on_board,
            )
        ]
    return []


def criminal_prompts(
    seat: str, asked: Mapping[str, Any], said: Mapping[str, Any] | None, on_board: bool
) -> list[Prompt]:
    """A criminal's prompts from what its view asks (``said``: a die said, awaiting the board)."""
    base = {"by": seat}
    act = asked.get("act")
    if act == "inform":
        return [prompt("inform", {"act": "inform", **base}, targets=asked.get("targets"))]
    if act == "roll":
        prompts = []
        if asked.get("dice_to_roll"):
            prompts.append(
                prompt(
                    "enter_dice",
                    {"act": "roll", **base},
                    count=asked["dice_to_roll"],
                    faces=list(criminal_faces()),
                )
            )
        if asked.get("may_reset"):
            prompts.append(
                prompt("reset", {"act": "reset", **base}, required=asked.get("must_reset"))
            )
        if asked.get("may_destroy"):
            prompts.append(
                prompt(
                    "destroy_evidence",
                    {"act": "destroy_evidence", **base},
                    cards=list(asked["may_destroy"]),
                )
            )
        return prompts
    if act == "move":
        if said is not None and said.get("by") == seat:
            return [
                prompt(
                    "move_piece",
                    dict(said),
                    die=said.get("die"),
                    message=told(
                        "move your piece with the %(die)s on the board", die=said.get("die")
                    ),
                )
            ]
        moves = asked.get("moves") or {}
        prompts = [
            prompt(
                "choose_die",
                {"act": "move", **base},
                options=sorted(moves),
                moves=moves,
                on_board=on_board,
            )
        ]
        if asked.get("may_reroll"):
            prompts.append(
                prompt(
                    "enter_dice",
                    {"act": "roll", **base},
                    count=asked["may_reroll"],
                    faces=list(criminal_faces()),
                    reroll=True,
                )
            )
        if asked.get("may_pass"):
            prompts.append(prompt("pass", {"act": "pass", **base}))
        return prompts
    return []
