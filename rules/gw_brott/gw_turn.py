"""GW's side: its die, its moves (ordinary, special, extra) and the four trumps.

Nothing here may tell GW more than the rules do: every check on GW's input depends
only on the board and GW's own position, never on where a criminal stands, so a
rejected path leaks nothing. What GW learns comes only through the events.
"""

from __future__ import annotations

from collections.abc import Callable

from lawmaster.rules.core import (
    Action,
    Event,
    IllegalAction,
    JsonValue,
    field,
    optional_field,
    public,
    to_seats,
)

from .cards import gw_faces
from .flow import catch, criminal_seats, end_turn, occupant, piece_index, place_name
from .state import BREAKTHROUGH_STEPS, DICE, EXTRA_STEPS, JAIL, Draft, Phase, State

_MOVE_PHASES = {
    Phase.SPECIAL: "special",
    Phase.GW_MOVE: "normal",
    Phase.GW_EXTRA: "extra",
}


def _gw_only(state: State, act: str) -> None:
    """Check it is GW's input that is awaited, and that ``act`` is what is awaited."""
    if state.phase == Phase.INFORMING:
        raise IllegalAction(f"the informer {state.informer} must first name whom it informs on")
    if state.phase in _MOVE_PHASES:
        if act != "gw_move":
            kind = _MOVE_PHASES[state.phase]
            raise IllegalAction(
                f"GW now makes its {kind} move of {_steps(state.pending_steps)} ('gw_move')"
            )
        return
    if not state.gw_turn:
        raise IllegalAction(f"it is {state.pieces[state.turn]}'s turn, not GW's ('{act}')")


# -- paths -------------------------------------------------------------------
def parse_path(state: State, raw: object, limit: int, what: str) -> list[int]:
    """GW's path as cells, checked against the board only (never against criminals)."""
    if not isinstance(raw, list):
        raise IllegalAction("'path' must be a list of cell names, start excluded")
    board = state.board
    cells = [board.cell(name) for name in raw]
    exactly = state.options.gw_steps == "exactly"
    if len(cells) > limit:
        raise IllegalAction(
            f"GW may move at most {_steps(limit)} in {what}; this path has {len(cells)}"
        )
    if exactly and len(cells) != limit and state.geo.board.neighbours[state.gw_pos]:
        raise IllegalAction(
            f"GW must move exactly {_steps(limit)} in {what} (option gw_steps: exactly); "
            f"this path has {len(cells)}"
        )
    here = state.gw_pos
    for cell in cells:
        name = board.name_of(cell)
        if cell in board.houses:
            raise IllegalAction(f"{name} is a house; GW cannot pass through it")
        if cell in board.jail_cells:
            raise IllegalAction(f"{name} is the jail; GW may not visit it")
        if not board.are_adjacent(here, cell):
            raise IllegalAction(
                f"GW moves one space at a time: {name} is not next to {board.name_of(here)}"
            )
        here = cell
    return cells


def _steps(n: int) -> str:
    return "1 step" if n == 1 else f"{n} steps"


def _moved(
    state: State, kind: str, path: list[int], to: int, caught: int | None, **extra: JsonValue
) -> Event:
    board = state.board
    return public(
        "gw_moved",
        kind=kind,
        path=[board.name_of(c) for c in path],
        to=board.name_of(to),
        caught=None if caught is None else state.pieces[caught],
        blocked=extra.pop("blocked", False),
        **{"from": board.name_of(state.gw_pos)},
        **extra,
    )


# -- ordinary turn -------------------------------------------------------------
def gw_roll(state: State, action: Action) -> tuple[Draft, list[Event]]:
    """GW's die plus one step for every criminal die showing GW."""
    _gw_only(state, "gw_roll")
    face = field(action, "face", int)
    if face not in gw_faces():
        raise IllegalAction(f"GW's die shows 1 to 6, not {face}")
    bonus = state.gw_dice()
    d = Draft(state)
    d.phase = Phase.GW_MOVE
    d.pending_steps = face + bonus
    d.pending_kind = "normal"
    return d, [public("gw_rolled", face=face, bonus=bonus, steps=face + bonus)]


def gw_move(state: State, action: Action) -> tuple[Draft, list[Event]]:
    """GW's magnet moves along a path; the first criminal met is caught and stops it."""
    _gw_only(state, "gw_move")
    if state.phase == Phase.GW:
        raise IllegalAction("GW rolls its die first ('gw_roll') or plays a trump")
    kind = _MOVE_PHASES[state.phase]
    what = {"special": "the special move", "normal": "this move", "extra": "the extra move"}[kind]
    path = parse_path(state, field(action, "path", list), state.pending_steps, what)
    d = Draft(state)
    events: list[Event] = []
    catches = kind != "special" or state.options.special_move_catches
    walked, caught = _walk(state, path, catches)
    if not catches and walked and occupant(state, walked[-1]) is not None:
        # Only in the non-default reading where the special move follows the
        # criminals' rules; the magnets would show it anyway.
        raise IllegalAction(
            "GW's special move must end on an empty space (option special_move_catches: false)"
        )
    end = walked[-1] if walked else state.gw_pos
    events.append(_moved(state, kind, walked, end, caught))
    d.gw_pos = end
    if caught is not None:
        catch(d, caught, events)
        if d.winner is not None:
            return d, events
    if kind == "special":
        d.phase = Phase.CRIMINAL
        d.pending_steps = 0
        resetter = state.turn
        ends = state.options.caught_resetter == "ends_turn" or d.out[resetter]
        if caught == resetter and ends:
            events.append(
                public(
                    "passed", by=state.pieces[resetter], reason="caught during GW's special move"
                )
            )
            end_turn(d, events)
    elif kind == "normal" and state.gw_dice() == DICE:
        d.phase = Phase.GW_EXTRA
        d.pending_steps = EXTRA_STEPS
        d.pending_kind = "extra"
    else:
        if kind == "extra":
            d.dice = [None] * DICE
            events.append(public("dice_reset"))
        end_turn(d, events)
    return d, events


def _walk(state: State, path: list[int], catches: bool) -> tuple[list[int], int | None]:
    """The part of ``path`` GW really walks, and whom it caught at the end of it."""
    if not catches:
        return path, None
    for k, cell in enumerate(path):
        who = occupant(state, cell)
        if who is not None:
            return path[: k + 1], who
    return path, None


# -- trumps ------------------------------------------------------------------
def trump(state: State, action: Action) -> tuple[Draft, list[Event]]:
    """Play one trump card: it is GW's whole turn."""
    _gw_only(state, "trump")
    card = field(action, "card", str)
    if state.two_player:
        raise IllegalAction("there are no trumps in the two-player game")
    if card not in state.trumps:
        held = ", ".join(state.trumps_left) or "none"
        raise IllegalAction(f"GW does not hold the {card!r} trump (GW's trumps left: {held})")
    if card not in state.trumps_left:
        raise IllegalAction(f"GW has already played the {card} trump; each is used once")
    allowed = {
        "helicopter": {"to"},
        "informer": {"informer", "target"},
        "breakthrough": {"path"},
        "infiltrator": set(),
    }[card]
    stray = sorted(
        k for k in ("to", "informer", "target", "path") if k in action and k not in allowed
    )
    if stray:
        raise IllegalAction(f"the {card} trump takes no {', '.join(repr(k) for k in stray)}")
    handler: Callable[[State, Action], tuple[Draft, list[Event]]] = {
        "helicopter": _helicopter,
        "informer": _informer,
        "breakthrough": _breakthrough,
        "infiltrator": _infiltrator,
    }[card]
    return handler(state, action)


def _played(state: State, card: str) -> tuple[Draft, list[Event]]:
    d = Draft(state)
    d.trumps_left = tuple(t for t in state.trumps_left if t != card)
    return d, [public("trump_played", card=card)]


def _immune(state: State, index: int, card: str) -> bool:
    return state.abilities[index] == card


def _helicopter(state: State, action: Action) -> tuple[Draft, list[Event]]:
    board = state.board
    to = board.cell(field(action, "to", str))
    name = board.name_of(to)
    if board.is_blocked(to):
        raise IllegalAction(f"{name} is a house or the jail; GW cannot land there")
    if to == state.gw_pos:
        raise IllegalAction(f"GW is already on {name}")
    d, events = _played(state, "helicopter")
    near = board.surrounding(to)
    guarded = any(
        pos in near and _immune(state, i, "helicopter") and not state.out[i]
        for i, pos in enumerate(state.positions)
        if pos != JAIL
    )
    if guarded:
        events.append(
            _moved(state, "helicopter", [], state.gw_pos, None, blocked=True, target=name)
        )
    else:
        caught = occupant(state, to)
        events.append(_moved(state, "helicopter", [to], to, caught))
        d.gw_pos = to
        if caught is not None:
            catch(d, caught, events)
    end_turn(d, events)
    return d, events


def _breakthrough(state: State, action: Action) -> tuple[Draft, list[Event]]:
    path = parse_path(state, field(action, "path", list), BREAKTHROUGH_STEPS, "a breakthrough")
    d, events = _played(state, "breakthrough")
    walked, met = _walk(state, path, catches=True)
    if met is not None and _immune(state, met, "breakthrough"):
        # GW learns where it was stopped (the criminals tell it to go back), so the
        # blocking space is named; the path lists only the spaces before it.
        block = state.board.name_of(walked[-1])
        events.append(
            _moved(
                state,
                "breakthrough",
                walked[:-1],
                state.gw_pos,
                None,
                blocked=True,
                blocked_at=block,
            )
        )
    else:
        end = walked[-1] if walked else state.gw_pos
        events.append(_moved(state, "breakthrough", walked, end, met))
        d.gw_pos = end
        if met is not None:
            catch(d, met, events)
    end_turn(d, events)
    return d, events


def _active(state: State, value: object, what: str) -> int:
    index = piece_index(state, value, what)
    if state.out[index]:
        raise IllegalAction(f"{state.pieces[index]} is out of the game")
    return index


def _informer(state: State, action: Action) -> tuple[Draft, list[Event]]:
    informer = _active(state, field(action, "informer", str), "informer")
    target_name = optional_field(action, "target", str)
    if target_name is not None:
        target = _check_target(state, informer, target_name)
    elif sum(1 for o in state.out if not o) < 2:
        raise IllegalAction("there is no other criminal in the game to inform on")
    d, events = _played(state, "informer")
    if target_name is None:
        d.phase = Phase.INFORMING
        d.informer = state.pieces[informer]
        return d, events
    _inform(state, d, informer, target, events)
    return d, events


def _check_target(state: State, informer: int, target_name: str) -> int:
    target = _active(state, target_name, "target")
    if target == informer:
        raise IllegalAction("the informer must inform on another criminal, not itself")
    return target


def _inform(state: State, d: Draft, informer: int, target: int, events: list[Event]) -> None:
    immune = _immune(state, target, "informer")
    place = None if immune else place_name(state, state.positions[target])
    events.append(
        to_seats(
            ["gw", *criminal_seats(state)],
            "informed",
            informer=state.pieces[informer],
            target=state.pieces[target],
            cell=place,
            immune=immune,
        )
    )
    d.revealed = state.revealed + ((state.round, "informer", state.pieces[target], place, immune),)
    end_turn(d, events)


def inform(state: State, action: Action) -> tuple[Draft, list[Event]]:
    """The informer names whom it informs on (when GW's trump left that open)."""
    if state.phase != Phase.INFORMING:
        raise IllegalAction("no informer is waiting to name anyone")
    by = piece_index(state, field(action, "by", str))
    if state.pieces[by] != state.informer:
        raise IllegalAction(f"GW chose {state.informer} as the informer, not {state.pieces[by]}")
    target = _check_target(state, by, field(action, "target", str))
    d = Draft(state)
    events: list[Event] = []
    _inform(state, d, by, target, events)
    return d, events


def _infiltrator(state: State, action: Action) -> tuple[Draft, list[Event]]:
    d, events = _played(state, "infiltrator")
    seen: dict[str, str] = {}
    hidden: list[str] = []
    for i, piece in enumerate(state.pieces):
        if state.out[i]:
            continue
        if _immune(state, i, "infiltrator"):
            hidden.append(piece)
        else:
            seen[piece] = place_name(state, state.positions[i])
    events.append(to_seats(["gw", *criminal_seats(state)], "infiltrated", seen=seen, hidden=hidden))
    d.revealed = state.revealed + tuple(
        (state.round, "infiltrator", p, seen.get(p), p in hidden)
        for p in state.pieces
        if p in seen or p in hidden
    )
    end_turn(d, events)
    return d, events
