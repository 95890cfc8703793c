"""What several actions share: reading fields, catching a criminal, passing the turn."""

from __future__ import annotations

from lawmaster.rules.core import Action, Event, IllegalAction, public

from .state import GW_FACE, HANDCUFFS_TO_OUT, JAIL, Draft, Phase, State

#: The fields each action may carry besides "act".
ACTION_FIELDS: dict[str, frozenset[str]] = {
    "reset": frozenset({"by"}),
    "destroy_evidence": frozenset({"by", "card"}),
    "roll": frozenset({"by", "faces"}),
    "move": frozenset({"by", "die", "to", "direction", "exit"}),
    "pass": frozenset({"by"}),
    "gw_roll": frozenset({"face"}),
    "gw_move": frozenset({"path"}),
    "trump": frozenset({"card", "to", "informer", "target", "path"}),
    "inform": frozenset({"by", "target"}),
}


def check_fields(action: Action) -> str:
    """The action's name, after checking it is known and carries no stray fields."""
    act = action.get("act")
    if not isinstance(act, str) or act not in ACTION_FIELDS:
        known = ", ".join(ACTION_FIELDS)
        raise IllegalAction(f"GW:s brott has no action {act!r}; the actions are {known}")
    stray = sorted(k for k in action if k != "act" and k not in ACTION_FIELDS[act])
    if stray:
        raise IllegalAction(f"'{act}' has no field {', '.join(repr(k) for k in stray)}")
    return act


def place_name(state: State | Draft, position: int) -> str:
    """A position as people read it: a cell name or "jail"."""
    return "jail" if position == JAIL else state.board.name_of(position)


def criminal_seats(state: State | Draft) -> list[str]:
    """Every criminal seat (each piece is one)."""
    return list(state.pieces)


def occupant(state: State | Draft, cell: int) -> int | None:
    """The index of the criminal piece standing on ``cell``, if any."""
    for i, pos in enumerate(state.positions):
        if pos == cell:
            return i
    return None


def catch(d: Draft, index: int, events: list[Event]) -> None:
    """GW caught piece ``index`` where it stood: handcuff, jail, maybe out, maybe GW wins."""
    cell = d.positions[index]
    piece = d.pieces[index]
    d.positions[index] = JAIL
    d.walked(index, JAIL)
    d.handcuffs[index] += 1
    d.handcuffs_left -= 1
    events.append(
        public(
            "caught",
            piece=piece,
            cell=d.board.name_of(cell),
            handcuffs=d.handcuffs[index],
            handcuffs_left=d.handcuffs_left,
        )
    )
    if d.handcuffs[index] >= HANDCUFFS_TO_OUT and not d.out[index]:
        d.out[index] = True
        cards = list(d.held[index])
        d.handed_in = d.handed_in + tuple((piece, c, "out") for c in cards)
        d.held[index] = ()
        events.append(public("out", piece=piece, evidence=cards))
    if d.handcuffs_left <= 0:
        win(d, "gw", events)


def win(d: Draft, winner: str, events: list[Event]) -> None:
    """The game ends with ``winner``."""
    d.winner = winner
    d.phase = Phase.OVER
    events.append(public("won", winner=winner))


def start_turn(d: Draft, index: int, events: list[Event]) -> None:
    """Give the turn to piece ``index`` (or GW when it is ``len(pieces)``)."""
    d.turn = index
    d.did = 0
    d.pending_steps = 0
    d.pending_kind = ""
    d.informer = None
    if index == len(d.pieces):
        d.phase = Phase.GW
        events.append(public("turn", seat="gw"))
    else:
        d.phase = Phase.CRIMINAL
        events.append(public("turn", seat=d.pieces[index]))


def end_turn(d: Draft, events: list[Event]) -> None:
    """The current seat is done: the next criminal still in the game, then GW."""
    if d.winner is not None:
        return
    n = len(d.pieces)
    if d.turn == n:
        d.round += 1
    first = 0 if d.turn == n else d.turn + 1
    following = next((i for i in range(first, n) if not d.out[i]), n)
    start_turn(d, following, events)


def all_dice_gw(state: State | Draft) -> bool:
    """Whether all five criminal dice show GW."""
    return all(face == GW_FACE for face in state.dice)


def piece_index(state: State | Draft, value: object, what: str = "by") -> int:
    """The index of a criminal piece named in an action."""
    if not isinstance(value, str):
        raise IllegalAction(f"'{what}' must name a criminal piece, e.g. {state.pieces[0]!r}")
    if value not in state.pieces:
        names = ", ".join(state.pieces)
        raise IllegalAction(f"there is no criminal piece {value!r}; the pieces are {names}")
    return state.pieces.index(value)
