"""What each seat sees, what the table is waiting for, and the referee's summary.

Secrecy lives here: GW's view and the table's are built without ever reading a
criminal's position (only "in jail or not", which the caught and from_jail events
make public), and a criminal's view holds only its own evidence cards.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any

from lawmaster.rules.core import IllegalAction

from .cards import criminal_cards
from .criminal_turn import (
    ROLL_FACES,
    dice_to_roll,
    has_legal_move,
    legal_move_actions,
    may_destroy,
    may_reset,
    moves_by_die,
)
from .flow import place_name
from .state import DID_RESET, JAIL, Phase, State


def to_act(state: State) -> list[str]:
    """The seats whose input the game waits for now."""
    if state.phase == Phase.OVER:
        return []
    if state.phase == Phase.INFORMING:
        return [state.informer] if state.informer else []
    if state.phase in (Phase.SPECIAL, Phase.GW, Phase.GW_MOVE, Phase.GW_EXTRA):
        return ["gw"]
    return [state.pieces[state.turn]]


def summary(state: State) -> dict[str, Any]:
    """The whole true state, in the shape of SCENARIOS.md."""
    criminals = {
        piece: {
            "position": place_name(state, state.positions[i]),
            "handcuffs": state.handcuffs[i],
            "evidence_held": list(state.held[i]),
            "out": state.out[i],
        }
        for i, piece in enumerate(state.pieces)
    }
    return {
        "turn": state.seat_of_turn(),
        "gw_position": state.board.name_of(state.gw_pos),
        "criminals": criminals,
        "criminal_dice": list(state.dice),
        "handcuffs_left": state.handcuffs_left,
        "trumps_left": list(state.trumps_left),
        "evidence_handed_in": [card for _, card, _ in state.handed_in],
        "winner": state.winner,
    }


def board_view(state: State) -> dict[str, Any]:
    """The printed board, the same for everyone."""
    board = state.board
    names = board.name_of
    return {
        "name": board.name,
        "width": board.width,
        "height": board.height,
        "houses": sorted(names(c) for c in board.houses),
        "jail_cells": sorted(names(c) for c in board.jail_cells),
        "jail_exits": [names(c) for c in board.jail_exits],
        "gw_start": names(board.gw_start),
        "evidence": {card: names(c) for card, c in board.evidence.items()},
    }


def _public(state: State, seat: str) -> dict[str, Any]:
    waiting = to_act(state)
    return {
        "game": "gw-brott",
        "seat": seat,
        "two_player": state.two_player,
        "round": state.round,
        "turn": state.seat_of_turn(),
        "phase": state.phase,
        "to_act": waiting,
        "your_turn_to_act": seat in waiting,
        "gw_position": state.board.name_of(state.gw_pos),
        "criminal_dice": list(state.dice),
        "handcuffs_left": state.handcuffs_left,
        "criminals": {
            piece: {
                "in_jail": state.positions[i] == JAIL,
                "handcuffs": state.handcuffs[i],
                "evidence_left": len(state.held[i]),
                "out": state.out[i],
            }
            for i, piece in enumerate(state.pieces)
        },
        "evidence_handed_in": [
            {"by": p, "card": c, "cell": state.board.name_of(state.board.evidence[c]), "how": how}
            for p, c, how in state.handed_in
        ],
        "trumps_played": [t for t in state.trumps if t not in state.trumps_left],
        "trumps_in_hand": len(state.trumps_left),
        "winner": state.winner,
        "board": board_view(state),
    }


def _gw_asked(state: State) -> dict[str, Any] | None:
    if state.phase == Phase.GW:
        asked: dict[str, Any] = {"act": "gw_roll", "bonus": state.gw_dice()}
        if state.trumps_left:
            asked["or_trump"] = list(state.trumps_left)
        return asked
    if state.phase in (Phase.SPECIAL, Phase.GW_MOVE, Phase.GW_EXTRA):
        return {
            "act": "gw_move",
            "kind": state.pending_kind,
            "steps": state.pending_steps,
            "exactly": state.options.gw_steps == "exactly",
        }
    return None


def _criminal_asked(state: State, index: int) -> dict[str, Any] | None:
    if state.phase == Phase.INFORMING and state.informer == state.pieces[index]:
        targets = [p for i, p in enumerate(state.pieces) if i != index and not state.out[i]]
        return {"act": "inform", "targets": targets}
    if state.gw_turn or state.turn != index:
        return None
    if state.phase == Phase.CRIMINAL:
        rolls = dice_to_roll(state)
        return {
            "act": "roll",
            "dice_to_roll": rolls,
            "may_reset": may_reset(state),
            "must_reset": rolls == 0 and not state.did & DID_RESET,
            "may_destroy": may_destroy(state, index),
        }
    if state.phase == Phase.ROLLED:
        return {
            "act": "move",
            "dice": list(state.dice),
            "moves": moves_by_die(state, index),
            "may_reroll": dice_to_roll(state),
            "may_pass": not has_legal_move(state, index),
        }
    return None


def view(state: State, seat: str) -> dict[str, Any]:
    """Everything ``seat`` may know: "gw", a criminal piece, or "table"."""
    if not isinstance(seat, str):
        raise IllegalAction("a seat is named by text")
    result = _public(state, seat)
    if seat == "table":
        return result
    if seat == "gw":
        result["trumps_left"] = list(state.trumps_left)
        result["revealed"] = [
            {"round": r, "card": card, "piece": piece, "place": place, "immune": immune}
            for r, card, piece, place, immune in state.revealed
        ]
        result["deduction"] = {
            piece: sorted(state.deduction.cells(piece)) for piece in state.pieces
        }
        result["deduction_probability"] = _probabilities(state, result["deduction"])
        result["asked"] = _gw_asked(state)
        return result
    if seat not in state.pieces:
        seats = ", ".join(["gw", *state.pieces, "table"])
        raise IllegalAction(f"there is no seat {seat!r}; the seats are {seats}")
    index = state.pieces.index(seat)
    mine = range(len(state.pieces)) if state.two_player else (index,)
    for i, piece in enumerate(state.pieces):
        result["criminals"][piece]["position"] = place_name(state, state.positions[i])
    result["evidence_held"] = [c for i in mine for c in state.held[i]]
    result["ability"] = state.abilities[index]
    card = state.criminal_cards[index]
    result["criminal_card"] = criminal_cards()[card] if card else None
    result["asked"] = _criminal_asked(state, index)
    return result


def _probabilities(state: State, places: dict[str, list[str]]) -> dict[str, list[float]]:
    """Per piece, the probability of each place in ``places[piece]``, in that order.

    GW's deduction map as likelihoods (``Deduction.probabilities``, worked out
    from GW's events only), for the tablet's shading. Given as a list beside
    the ``deduction`` list rather than as its own mapping of cell names, so the
    places are named in one key only. Four decimals, enough to shade by; a
    place with any probability shows at least 0.0001, so it never rounds to 0.
    """
    return {
        piece: [
            round(share, 4) or (0.0001 if share > 0 else 0.0)
            for share in state.deduction.shares(piece, places[piece])
        ]
        for piece in state.pieces
    }


def legal_actions(state: State) -> list[dict[str, Any]] | None:
    """Every legal action while a criminal decides; ``None`` while GW (paths) is to act.

    A criminal's rolls are listed once per distinct set of faces (the order of the
    dice does not matter to the rules).
    """
    if state.phase == Phase.OVER:
        return []
    if state.phase == Phase.INFORMING:
        index = state.pieces.index(state.informer)
        return [
            {"act": "inform", "by": state.informer, "target": p}
            for i, p in enumerate(state.pieces)
            if i != index and not state.out[i]
        ]
    if state.phase not in (Phase.CRIMINAL, Phase.ROLLED):
        return None
    index = state.turn
    piece = state.pieces[index]
    actions: list[dict[str, Any]] = []
    if state.phase == Phase.CRIMINAL:
        if may_reset(state):
            actions.append({"act": "reset", "by": piece})
        actions += [
            {"act": "destroy_evidence", "by": piece, "card": c} for c in may_destroy(state, index)
        ]
    else:
        moves = legal_move_actions(state, index)
        actions += moves
        if not moves:
            actions.append({"act": "pass", "by": piece})
    rolls = dice_to_roll(state)
    if rolls:
        for faces in combinations_with_replacement(ROLL_FACES, rolls):
            actions.append({"act": "roll", "by": piece, "faces": list(faces)})
    return actions
