"""A criminal's turn: reset, hand in evidence, roll (and reroll), move one die, or pass."""

from __future__ import annotations

from typing import TypedDict

from lawmaster.rules.core import (
    Action,
    Event,
    IllegalAction,
    JsonObject,
    field,
    optional_field,
    public,
    to_seats,
)

from .actions import MoveAction
from .board import DIRECTIONS
from .flow import criminal_seats, end_turn, piece_index, win
from .geometry import DIRECTION_NAMES, Mask, bit, cells_of
from .state import (
    DICE,
    DID_DESTROY,
    DID_RESET,
    DID_ROLL,
    GW_FACE,
    JAIL,
    Draft,
    Phase,
    State,
)

PIP_FACES = ("1", "2", "3", "4")
MOVE_FACES = (*PIP_FACES, "arrow")
ROLL_FACES = (*MOVE_FACES, GW_FACE)


class JailSlide(TypedDict):
    """An arrow move out of jail: onto ``exit``, then a slide ``direction`` to ``to``."""

    exit: str
    direction: str
    to: str


#: For each usable die: the cells a pip die reaches; the arrow's slides from jail; or
#: the arrow's end per direction.
MovesByDie = dict[str, list[str] | list[JailSlide] | dict[str, str]]


# -- whose turn -------------------------------------------------------------
def current_criminal(state: State, action: Action) -> int:
    """The acting piece's index, after checking it is that piece's turn to act now."""
    index = piece_index(state, field(action, "by", str))
    piece = state.pieces[index]
    act = action["act"]
    if state.phase == Phase.SPECIAL:
        raise IllegalAction(
            f"GW must first make its special move after {piece_at_turn(state)}'s reset"
        )
    if state.phase == Phase.INFORMING:
        raise IllegalAction(f"it is GW's turn: {state.informer} is to name whom it informs on")
    if state.gw_turn:
        raise IllegalAction(f"it is GW's turn, not {piece}'s")
    if state.turn != index:
        raise IllegalAction(f"it is {state.pieces[state.turn]}'s turn, not {piece}'s ('{act}')")
    return index


def piece_at_turn(state: State) -> str:
    return state.pieces[state.turn]


# -- geometry of a criminal's move -------------------------------------------
def others_mask(state: State, index: int) -> Mask:
    """Cells where the other criminal pieces stand."""
    mask = 0
    for i, pos in enumerate(state.positions):
        if i != index and pos != JAIL:
            mask |= bit(pos)
    return mask


def passable(state: State) -> Mask:
    """Cells a criminal may walk through: open cells except GW's."""
    return state.geo.open_mask & ~bit(state.gw_pos)


def _walk_start(state: State, index: int, steps: int) -> tuple[Mask, int]:
    """Where a walk starts and how many steps remain; from jail, step 1 is onto an exit."""
    if state.positions[index] == JAIL:
        return state.geo.exits_mask & passable(state), steps - 1
    return bit(state.positions[index]), steps


def pip_ends(state: State, index: int, steps: int) -> Mask:
    """Cells a walk of exactly ``steps`` steps can end on (empty, reachable)."""
    start, left = _walk_start(state, index, steps)
    ends = state.geo.walk_ends(start, left, passable(state))
    return ends & ~others_mask(state, index) & ~bit(state.gw_pos)


def arrow_ends(state: State, index: int) -> dict[tuple[int | None, str], int]:
    """(exit or None, direction) → where the arrow slide ends, for every legal slide."""
    geo = state.geo
    obstacles = others_mask(state, index) | bit(state.gw_pos)
    pos = state.positions[index]
    result: dict[tuple[int | None, str], int] = {}
    if pos == JAIL:
        for exit_cell in state.board.jail_exits:
            if obstacles & bit(exit_cell):
                continue
            for direction in DIRECTION_NAMES:
                result[(exit_cell, direction)] = geo.slide(exit_cell, direction, obstacles)
        return result
    for direction in DIRECTION_NAMES:
        end = geo.slide(pos, direction, obstacles)
        if end != pos:
            result[(None, direction)] = end
    return result


def usable_faces(state: State) -> list[str]:
    """The distinct move faces among the dice, in die order."""
    seen: list[str] = []
    for face in state.dice:
        if face is not None and face != GW_FACE and face not in seen:
            seen.append(face)
    return seen


def moves_by_die(state: State, index: int) -> MovesByDie:
    """For each usable die: the cells a pip die reaches, or the arrow's slides."""
    moves: MovesByDie = {}
    board = state.board
    for face in usable_faces(state):
        if face == "arrow":
            slides = arrow_ends(state, index)
            if state.positions[index] == JAIL:
                out_of_jail: list[JailSlide] = [
                    {"exit": board.name_of(e), "direction": d, "to": board.name_of(c)}
                    for (e, d), c in slides.items()
                    if e is not None
                ]
                moves[face] = out_of_jail
            else:
                moves[face] = {d: board.name_of(c) for (_, d), c in slides.items()}
        else:
            moves[face] = [board.name_of(c) for c in cells_of(pip_ends(state, index, int(face)))]
    return moves


def has_legal_move(state: State, index: int) -> bool:
    """Whether any usable die gives the piece a legal move."""
    for face in usable_faces(state):
        if face == "arrow":
            if arrow_ends(state, index):
                return True
        elif pip_ends(state, index, int(face)):
            return True
    return False


def legal_move_actions(state: State, index: int) -> list[MoveAction]:
    """Every legal ``move`` action now (arrows by direction, pips by destination)."""
    piece = state.pieces[index]
    board = state.board
    out: list[MoveAction] = []
    for face in usable_faces(state):
        if face == "arrow":
            for (exit_cell, direction), _ in arrow_ends(state, index).items():
                action: MoveAction = {
                    "act": "move",
                    "by": piece,
                    "die": "arrow",
                    "direction": direction,
                }
                if exit_cell is not None:
                    action["exit"] = board.name_of(exit_cell)
                out.append(action)
        else:
            for cell in cells_of(pip_ends(state, index, int(face))):
                out.append({"act": "move", "by": piece, "die": face, "to": board.name_of(cell)})
    return out


# -- actions ----------------------------------------------------------------
def reset(state: State, action: Action) -> tuple[Draft, list[Event]]:
    """Reset the dice; GW gets a special move of as many steps as dice showed GW."""
    index = current_criminal(state, action)
    piece = state.pieces[index]
    if state.phase != Phase.CRIMINAL or state.did:
        raise IllegalAction(
            f"{piece} may reset the dice only at the very start of its turn, "
            "before handing in evidence or rolling"
        )
    d = Draft(state)
    steps = state.gw_dice()
    d.dice = [None] * DICE
    d.did |= DID_RESET
    events: list[Event] = [public("reset", by=piece, gw_steps=steps)]
    if steps:
        d.phase = Phase.SPECIAL
        d.pending_steps = steps
        d.pending_kind = "special"
    return d, events


def destroy_evidence(state: State, action: Action) -> tuple[Draft, list[Event]]:
    """Hand in the card of the space the piece ended its previous turn on."""
    index = current_criminal(state, action)
    piece = state.pieces[index]
    card = field(action, "card", str)
    if state.phase != Phase.CRIMINAL or state.did & DID_ROLL:
        raise IllegalAction(
            f"{piece} may hand in evidence only at the start of its turn, before rolling"
        )
    if state.did & DID_DESTROY:
        raise IllegalAction(f"{piece} has already handed in a card this turn")
    if not state.did & DID_RESET and dice_to_roll(state) == 0:
        raise IllegalAction(f"all five dice show GW: {piece} must reset them first")
    if card not in state.board.evidence:
        raise IllegalAction(f"{card!r} is not an evidence card of this board")
    owners = range(len(state.pieces)) if state.two_player else (index,)
    holder = next((i for i in owners if card in state.held[i]), None)
    if holder is None:
        whose = "the criminal" if state.two_player else piece
        raise IllegalAction(f"{whose} does not hold {card}")
    space = state.board.evidence[card]
    if state.positions[index] == JAIL:
        raise IllegalAction(
            f"{piece} is in jail, not on {card}'s space ({state.board.name_of(space)})"
        )
    if state.positions[index] != space:
        raise IllegalAction(
            f"{piece} did not end its previous turn on {card}'s space "
            f"({state.board.name_of(space)})"
        )
    d = Draft(state)
    d.held[holder] = tuple(c for c in state.held[holder] if c != card)
    d.handed_in = state.handed_in + ((piece, card, "destroyed"),)
    d.did |= DID_DESTROY
    events: list[Event] = [
        public("evidence_destroyed", by=piece, card=card, cell=state.board.name_of(space))
    ]
    if state.two_player:
        if not any(d.held):
            win(d, state.pieces[0], events)
    elif not d.held[holder]:
        win(d, piece, events)
    return d, events


def _face(value: object, what: str, allowed: tuple[str, ...]) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 4:
        value = str(value)
    if not isinstance(value, str) or value not in allowed:
        raise IllegalAction(f"{value!r} is not {what}; use one of {', '.join(allowed)}")
    return value


def roll(state: State, action: Action) -> tuple[Draft, list[Event]]:
    """Roll every die not showing GW (a first roll or a reroll)."""
    index = current_criminal(state, action)
    piece = state.pieces[index]
    raw = field(action, "faces", list)
    to_roll = [i for i, face in enumerate(state.dice) if face != GW_FACE]
    if state.phase == Phase.CRIMINAL and not to_roll:
        raise IllegalAction(f"all five dice show GW: {piece} must reset them before rolling")
    if len(raw) != len(to_roll):
        raise IllegalAction(
            f"{piece} rolls the {len(to_roll)} dice not showing GW, "
            f"so 'faces' needs {len(to_roll)} faces, not {len(raw)}"
        )
    faces = [_face(v, "a criminal die face", ROLL_FACES) for v in raw]
    d = Draft(state)
    for slot, face in zip(to_roll, faces, strict=True):
        d.dice[slot] = face
    d.did |= DID_ROLL
    d.phase = Phase.ROLLED
    events: list[Event] = [public("rolled", by=piece, faces=faces, dice=list(d.dice))]
    if all(face == GW_FACE for face in d.dice):
        events.append(public("passed", by=piece, reason="no die left: all five dice show GW"))
        end_turn(d, events)
    return d, events


def _die(state: State, action: Action) -> str:
    if "die" not in action:
        raise IllegalAction("'move' needs the field 'die'")
    face = _face(action["die"], "a die to move with", MOVE_FACES)
    if face not in usable_faces(state):
        shown = ", ".join(f for f in state.dice if f is not None)
        raise IllegalAction(f"no die shows {face}; the dice show {shown}")
    return face


def move(state: State, action: Action) -> tuple[Draft, list[Event]]:
    """Move with one die: a walk of exactly its pips, or an arrow slide."""
    index = current_criminal(state, action)
    piece = state.pieces[index]
    if state.phase != Phase.ROLLED:
        raise IllegalAction(f"{piece} must roll the dice before moving")
    face = _die(state, action)
    to_name = optional_field(action, "to", str)
    direction = optional_field(action, "direction", str)
    exit_name = optional_field(action, "exit", str)
    if face == "arrow":
        to, direction = _arrow_target(state, index, to_name, direction, exit_name)
    else:
        if to_name is None:
            raise IllegalAction(f"moving with the {face}, {piece} must say where to ('to')")
        if direction is not None or exit_name is not None:
            raise IllegalAction("'direction' and 'exit' belong to an arrow move")
        to = state.board.cell(to_name)
        if not pip_ends(state, index, int(face)) & bit(to):
            raise IllegalAction(_why_not_walk(state, index, int(face), to))
    d = Draft(state)
    from_jail = state.positions[index] == JAIL
    d.positions[index] = to
    d.walked(index, to)
    position: JsonObject = {"by": piece, "to": state.board.name_of(to)}
    if face == "arrow":
        position["direction"] = direction
    events: list[Event] = [
        public("criminal_moved", by=piece, die=face, from_jail=from_jail),
        to_seats(criminal_seats(state), "criminal_position", **position),
    ]
    end_turn(d, events)
    return d, events


def _arrow_target(
    state: State, index: int, to_name: str | None, direction: str | None, exit_name: str | None
) -> tuple[int, str]:
    piece = state.pieces[index]
    board = state.board
    if direction is not None and direction not in DIRECTIONS:
        raise IllegalAction(f"{direction!r} is not a direction; use up, down, left or right")
    in_jail = state.positions[index] == JAIL
    if exit_name is not None and not in_jail:
        raise IllegalAction(f"{piece} is not in jail, so it takes no jail exit")
    exit_cell = board.cell(exit_name) if exit_name is not None else None
    if exit_cell is not None and exit_cell not in board.jail_exits:
        raise IllegalAction(f"{exit_name} is not a jail exit")
    slides = arrow_ends(state, index)
    if not slides:
        raise IllegalAction(f"{piece} cannot move with the arrow in any direction")
    if to_name is None and direction is None:
        raise IllegalAction(f"moving with the arrow, {piece} must give a 'direction'")
    to_cell = board.cell(to_name) if to_name is not None else None
    if in_jail and exit_cell is None and to_cell is None:
        free = sorted({e for (e, _) in slides if e is not None})
        if len(free) > 1:
            names = ", ".join(board.name_of(e) for e in free)
            raise IllegalAction(f"{piece} leaves jail by one of the exits {names}: give 'exit'")
        exit_cell = free[0]
    if exit_cell is not None and not any(e == exit_cell for (e, _) in slides):
        raise IllegalAction(f"the jail exit {exit_name} is taken; {piece} cannot step onto it")
    for (e, d), end in slides.items():
        if exit_cell is not None and e != exit_cell:
            continue
        if direction is not None and d != direction:
            continue
        if to_cell is not None and end != to_cell:
            continue
        return end, d
    if direction is not None and to_cell is None:
        start = exit_cell if exit_cell is not None else state.positions[index]
        raise IllegalAction(
            f"{piece} cannot slide {direction} from {board.name_of(start)}: "
            "the next space is blocked"
        )
    where = f" {direction}" if direction else ""
    raise IllegalAction(f"an arrow slide{where} does not take {piece} to {to_name}")


def _why_not_walk(state: State, index: int, steps: int, to: int) -> str:
    piece = state.pieces[index]
    board = state.board
    name = board.name_of(to)
    if to in board.houses:
        return f"{name} is a house; no piece may stand there"
    if to in board.jail_cells:
        return f"{name} is the jail; no piece may move into it"
    if to == state.gw_pos:
        return f"GW stands on {name}; a move must end on an empty space"
    other = next((i for i, p in enumerate(state.positions) if p == to and i != index), None)
    if other is not None:
        return f"{state.pieces[other]} stands on {name}; a move must end on an empty space"
    start, left = _walk_start(state, index, steps)
    distance = state.geo.distance(start, to, passable(state))
    if distance is None:
        return f"{piece} cannot reach {name} without passing a house, the jail or GW"
    distance += steps - left
    if distance != steps:
        return f"{piece} must move exactly {_steps(steps)}; {name} is {_steps(distance)} away"
    return f"{piece} cannot end a walk of exactly {_steps(steps)} on {name}"


def _steps(n: int) -> str:
    return "1 step" if n == 1 else f"{n} steps"


def pass_turn(state: State, action: Action) -> tuple[Draft, list[Event]]:
    """Pass: only when the dice rolled give no legal move."""
    index = current_criminal(state, action)
    piece = state.pieces[index]
    if state.phase != Phase.ROLLED:
        raise IllegalAction(f"{piece} must roll before it can pass")
    example = legal_move_actions(state, index)
    if example:
        first = example[0]
        how = f"to {first['to']}" if "to" in first else first["direction"]
        raise IllegalAction(
            f"{piece} can still move (for example the {first['die']} {how}), so it may not pass"
        )
    d = Draft(state)
    events: list[Event] = [public("passed", by=piece, reason="no legal move")]
    end_turn(d, events)
    return d, events


def may_destroy(state: State, index: int) -> list[str]:
    """The cards the piece may hand in now (at most one space, so usually 0 or 1 card)."""
    if state.phase != Phase.CRIMINAL or state.did & (DID_DESTROY | DID_ROLL):
        return []
    if not state.did & DID_RESET and dice_to_roll(state) == 0:
        return []
    pos = state.positions[index]
    if pos == JAIL:
        return []
    owners = range(len(state.pieces)) if state.two_player else (index,)
    return [c for i in owners for c in state.held[i] if state.board.evidence[c] == pos]


def may_reset(state: State) -> bool:
    return state.phase == Phase.CRIMINAL and not state.did


def dice_to_roll(state: State) -> int:
    return sum(1 for face in state.dice if face != GW_FACE)
