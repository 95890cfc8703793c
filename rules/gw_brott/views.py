"""What each seat sees, what the table is waiting for, and the referee's summary.

Secrecy lives here: GW's view and the table's are built without ever reading a
criminal's position (only "in jail or not", which the caught and from_jail events
make public), and a criminal's view holds only its own evidence cards.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Literal, NotRequired, TypedDict

from lawmaster.rules.core import IllegalAction

from .actions import CriminalAction, InformAction
from .cards import CriminalCard, criminal_cards
from .criminal_turn import (
    ROLL_FACES,
    MovesByDie,
    dice_to_roll,
    has_legal_move,
    legal_move_actions,
    may_destroy,
    may_reset,
    moves_by_die,
)
from .flow import place_name
from .state import DID_RESET, JAIL, Phase, State


class CriminalSummary(TypedDict):
    """One piece in the summary: where it is, handcuffs, evidence held, out or not."""

    position: str
    handcuffs: int
    evidence_held: list[str]
    out: bool


class Summary(TypedDict):
    """The whole true state, in the shape of SCENARIOS.md."""

    turn: str
    gw_position: str
    criminals: dict[str, CriminalSummary]
    criminal_dice: list[str | None]
    handcuffs_left: int
    trumps_left: list[str]
    evidence_handed_in: list[str]
    winner: str | None


class BoardView(TypedDict):
    """The printed board, the same for everyone."""

    name: str
    width: int
    height: int
    houses: list[str]
    jail_cells: list[str]
    jail_exits: list[str]
    gw_start: str
    evidence: dict[str, str]


class CriminalView(TypedDict):
    """One piece as every seat sees it; a criminal's view adds every piece's position."""

    in_jail: bool
    handcuffs: int
    evidence_left: int
    out: bool
    position: NotRequired[str]


class HandedIn(TypedDict):
    """An evidence card GW got: destroyed by its holder, or handed in when a piece went out."""

    by: str
    card: str
    cell: str
    how: str


class Revealed(TypedDict):
    """What a trump showed GW: a piece's place (``None`` when it was immune)."""

    round: int
    card: str
    piece: str
    place: str | None
    immune: bool


class GWRollAsked(TypedDict):
    """GW is to roll its die (with its bonus steps), or play a trump."""

    act: Literal["gw_roll"]
    bonus: int
    or_trump: NotRequired[list[str]]


class GWMoveAsked(TypedDict):
    """GW is to move: the kind of move and its steps."""

    act: Literal["gw_move"]
    kind: str
    steps: int
    exactly: bool


class InformAsked(TypedDict):
    """The informer is to name whom it informs on."""

    act: Literal["inform"]
    targets: list[str]


class RollAsked(TypedDict):
    """The criminal in turn is to roll (or reset, or hand in evidence first)."""

    act: Literal["roll"]
    dice_to_roll: int
    may_reset: bool
    must_reset: bool
    may_destroy: list[str]


class MoveAsked(TypedDict):
    """The criminal in turn has rolled: its moves per die, a reroll, or a pass."""

    act: Literal["move"]
    dice: list[str | None]
    moves: MovesByDie
    may_reroll: int
    may_pass: bool


Asked = GWRollAsked | GWMoveAsked | InformAsked | RollAsked | MoveAsked


class View(TypedDict):
    """What one seat sees: the public part for everyone, then GW's or a criminal's own."""

    game: str
    seat: str
    two_player: bool
    round: int
    turn: str
    phase: str
    to_act: list[str]
    your_turn_to_act: bool
    gw_position: str
    criminal_dice: list[str | None]
    handcuffs_left: int
    criminals: dict[str, CriminalView]
    evidence_handed_in: list[HandedIn]
    trumps_played: list[str]
    trumps_in_hand: int
    winner: str | None
    board: BoardView
    #: At the end only, for everyone: piece → every place it stood on, in order.
    trails: NotRequired[dict[str, list[str]]]
    # GW's own.
    trumps_left: NotRequired[list[str]]
    revealed: NotRequired[list[Revealed]]
    #: Piece → the cells (and "jail") GW's deduction still allows, sorted.
    deduction: NotRequired[dict[str, list[str]]]
    #: Piece → the probability of each of those places, in the same order.
    deduction_probability: NotRequired[dict[str, list[float]]]
    # A criminal's own.
    evidence_held: NotRequired[list[str]]
    ability: NotRequired[str | None]
    criminal_card: NotRequired[CriminalCard | None]
    #: GW's or the criminal's: what it is asked for now (``None``: nothing).
    asked: NotRequired[Asked | None]


def to_act(state: State) -> list[str]:
    """The seats whose input the game waits for now."""
    if state.phase == Phase.OVER:
        return []
    if state.phase == Phase.INFORMING:
        return [state.informer] if state.informer else []
    if state.phase in (Phase.SPECIAL, Phase.GW, Phase.GW_MOVE, Phase.GW_EXTRA):
        return ["gw"]
    return [state.pieces[state.turn]]


def summary(state: State) -> Summary:
    """The whole true state, in the shape of SCENARIOS.md."""
    criminals: dict[str, CriminalSummary] = {
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


def board_view(state: State) -> BoardView:
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


def _public(state: State, seat: str) -> View:
    waiting = to_act(state)
    result: View = {
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
    if state.phase == Phase.OVER:
        # The game is decided: where every criminal went is no secret any more, and
        # the end shows it to everyone (jail as "jail", as positions are named).
        result["trails"] = {
            piece: [place_name(state, place) for place in state.trails[i]]
            for i, piece in enumerate(state.pieces)
        }
        for i, piece in enumerate(state.pieces):
            result["criminals"][piece]["position"] = place_name(state, state.positions[i])
    return result


def _gw_asked(state: State) -> GWRollAsked | GWMoveAsked | None:
    if state.phase == Phase.GW:
        asked: GWRollAsked = {"act": "gw_roll", "bonus": state.gw_dice()}
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


def _criminal_asked(state: State, index: int) -> InformAsked | RollAsked | MoveAsked | None:
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


def view(state: State, seat: str) -> View:
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


def legal_actions(state: State) -> list[CriminalAction | InformAction] | None:
    """Every legal action while a criminal decides; ``None`` while GW (paths) is to act.

    A criminal's rolls are listed once per distinct set of faces (the order of the
    dice does not matter to the rules).
    """
    if state.phase == Phase.OVER:
        return []
    if state.phase == Phase.INFORMING:
        informer = state.informer
        if informer is None:
            raise ValueError("an informer is named whenever the phase is informing")
        index = state.pieces.index(informer)
        return [
            {"act": "inform", "by": informer, "target": p}
            for i, p in enumerate(state.pieces)
            if i != index and not state.out[i]
        ]
    if state.phase not in (Phase.CRIMINAL, Phase.ROLLED):
        return None
    index = state.turn
    piece = state.pieces[index]
    actions: list[CriminalAction | InformAction] = []
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
