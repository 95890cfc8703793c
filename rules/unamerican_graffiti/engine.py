"""Unamerican Graffiti's rules: setup, scrawler turns, the Judges' dice, arrests, the end."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import NotRequired

from lawmaster.rules.core import (
    Action,
    Engine,
    Event,
    IllegalAction,
    Outcome,
    field,
    optional_field,
    public,
)

from . import movement, resolve
from .actions import GraffitiAction, MoveAction, ReenterAction
from .board import Board, BoardData
from .state import PLAYERS, Colour, Options, Scrawler, State, Summary, opponent
from .threat import ThreatView, threat_for


class GraffitiView(Summary):
    """A seat's view: the whole summary (nothing is hidden), the board, who acts.

    The scrawler whose input is awaited also gets its legal moves, and while it
    is to move, the Judges' threat at each hex it may end on.
    """

    seat: str
    #: A shipped board's name, or the inline board object.
    board: str | BoardData
    to_act: list[str]
    legal_moves: NotRequired[list[GraffitiAction]]
    threat: NotRequired[dict[str, ThreatView]]


_OPTION_VALUES = {
    "gate": ("into", "through"),
    "game_end": ("out", "at_once"),
    "self_arrest": ("refuse", "allow"),
}


def _options(raw: object) -> Options:
    if raw is None:
        return Options()
    if not isinstance(raw, Mapping):
        raise IllegalAction("'options' must be an object")
    chosen: dict[str, str] = {}
    for key, value in raw.items():
        if not isinstance(key, str) or key not in _OPTION_VALUES:
            raise IllegalAction(f"unknown option {key!r}; options are {', '.join(_OPTION_VALUES)}")
        if not isinstance(value, str) or value not in _OPTION_VALUES[key]:
            choices = " or ".join(repr(v) for v in _OPTION_VALUES[key])
            raise IllegalAction(f"option {key!r} is {choices}")
        chosen[key] = value
    return Options(**chosen)


def _judge_start(board: Board, raw: object) -> dict[int, str]:
    """Where Judges 1-6 stand before the Dredd roll (option ``judge_start``).

    The rulebook puts one on each Sector House without saying which; by default
    Judge ``n`` takes the ``n``-th Sector House in board order.
    """
    if raw is None:
        return {n: house for n, house in enumerate(board.sector_houses, start=1)}
    numbers = [str(n) for n in range(1, 7)]
    if not isinstance(raw, Mapping) or sorted(raw) != numbers:
        raise IllegalAction('\'judge_start\' maps each Judge "1" to "6" to a hex')
    judges: dict[int, str] = {}
    for n in numbers:
        place = board.hex(raw[n])
        if place.kind not in ("street", "sector-house"):
            # Judges enter other locations only to arrest or to clean a scrawl.
            raise IllegalAction(f"Judge {n} cannot start on {place.id}, a {place.kind}")
        judges[int(n)] = place.id
    if len(set(judges.values())) != 6:
        raise IllegalAction("'judge_start' puts two Judges on one hex")
    return judges


def _die(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise IllegalAction(f"{what} must be a die result from 1 to 6")
    return value


class GraffitiEngine(Engine[State]):
    """The referee for one game of Unamerican Graffiti. See the rules README."""

    game = "unamerican-graffiti"

    # -- setup -------------------------------------------------------------
    def new_game(self, header: Mapping[str, object]) -> Outcome[State]:
        if not isinstance(header, Mapping):
            raise IllegalAction("the header must be a JSON object")
        board = Board.load(header.get("board", "standard"))
        options = _options(header.get("options"))
        if len(board.sector_houses) != 6:
            raise IllegalAction("the board needs six Sector Houses, one for each Judge")
        if "dredd_roll" not in header:
            raise IllegalAction(
                "the header needs 'dredd_roll': the die that says which Judge swaps with Dredd"
            )
        roll = _die(header["dredd_roll"], "'dredd_roll'")
        judges = _judge_start(board, header.get("judge_start"))
        judges[1], judges[roll] = judges[roll], judges[1]
        # Both starts are landmarks (the board refuses others), where no Judge starts:
        # "Each player scrawls at this location (by writing on the board), scores 3
        # points of prestige and places his pawn there."
        starts = {"chopper": board.chopper_start, "phantom": board.phantom_start}
        colours = {f"{p}-1": Colour(f"{p}-1", p, board.hex(starts[p]).prestige) for p in PLAYERS}
        state = State(
            board=board,
            options=options,
            judges=judges,
            cleaning=frozenset(),
            scrawls={starts[p]: f"{p}-1" for p in PLAYERS},
            defaced=frozenset(starts.values()),
            colours=colours,
            scrawlers={p: Scrawler(p, f"{p}-1", starts[p]) for p in PLAYERS},
            turn="chopper",
            phase="move",
        )
        event = public(
            "setup",
            judges={str(n): h for n, h in judges.items()},
            dredd_roll=roll,
            scrawls=dict(state.scrawls),
            prestige={c.id: c.prestige for c in colours.values()},
        )
        return Outcome(state, [event, public("turn", player="chopper", phase="move")])

    # -- actions -----------------------------------------------------------
    def apply(self, state: State, action: Action) -> Outcome[State]:
        if not isinstance(action, Mapping):
            raise IllegalAction('an action must be a JSON object with an "act" field')
        act = action.get("act")
        handler = _HANDLERS.get(act) if isinstance(act, str) else None
        if handler is None:
            known = ", ".join(sorted(_HANDLERS))
            raise IllegalAction(f"unknown action {act!r}; actions are {known}")
        if state.phase == "over":
            raise IllegalAction("the game is over")
        return handler(state, action)

    # -- views -------------------------------------------------------------
    def view(self, state: State, seat: str) -> GraffitiView:
        if seat not in (*PLAYERS, "table"):
            raise IllegalAction(f"unknown seat {seat!r}; seats are chopper, phantom and table")
        # Nothing in this game is hidden: every seat sees the whole board.
        summary = state.to_json()
        view: GraffitiView = {
            "seat": seat,
            "board": state.board.to_data(),
            "turn": summary["turn"],
            "phase": summary["phase"],
            "scrawlers": summary["scrawlers"],
            "judges": summary["judges"],
            "cleaning": summary["cleaning"],
            "scrawls": summary["scrawls"],
            "colours": summary["colours"],
            "defaced_landmarks": summary["defaced_landmarks"],
            "dice": summary["dice"],
            "allowance": summary["allowance"],
            "winner": summary["winner"],
            "to_act": self.to_act(state),
        }
        if seat in PLAYERS and state.phase != "over":
            view["legal_moves"] = _legal_moves_for(state, seat)
            # The threat helps the scrawler about to move; it is costly, so
            # it is worked out only then.
            if state.phase == "move" and state.turn == seat:
                view["threat"] = threat_for(state, seat)
        return view

    def summary(self, state: State) -> Summary:
        return state.to_json()

    def seats(self, state: State) -> list[str]:
        return list(PLAYERS)

    def to_act(self, state: State) -> list[str]:
        return [] if state.acting is None else [state.acting]

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def legal_actions(self, state: State) -> list[GraffitiAction] | None:
        if state.phase in ("over", "roll"):
            return None if state.phase == "roll" else []
        if state.phase == "reenter":
            reenter: list[ReenterAction] = [
                {"act": "reenter", "by": state.turn, "at": h} for h in _free_landmarks(state)
            ]
            return [*reenter]
        if state.phase == "move":
            moves: list[MoveAction] = [
                {"act": "move", "by": state.turn, "path": path}
                for path in movement.scrawler_moves(state, state.turn).values()
            ]
            return [*moves]
        actions: list[GraffitiAction] = []
        for judge in sorted(set(state.dice)):
            if judge in state.cleaning:
                actions.append({"act": "judge_move", "judge": judge, "path": []})
                continue
            for path in movement.judge_moves(state, judge, state.allowance).values():
                actions.append({"act": "judge_move", "judge": judge, "path": path})
        return actions


def _legal_moves_for(state: State, seat: str) -> list[GraffitiAction]:
    if state.acting != seat:
        return []
    return [a for a in GraffitiEngine().legal_actions(state) or [] if a.get("act") != "roll"]


def _require_phase(state: State, phase: str, who: str) -> None:
    if state.phase != phase:
        raise IllegalAction(_phase_hint(state))
    if who != state.acting:
        raise IllegalAction(f"it is {state.acting}'s input now, not {who}'s")


def _phase_hint(state: State) -> str:
    hints = {
        "reenter": f"{state.turn} must first place a new scrawler on a free landmark",
        "move": f"{state.turn} must move first",
        "roll": f"{opponent(state.turn)} must roll {state.moved} dice for the Judges",
        "judges": f"{opponent(state.turn)} must move the Judges rolled: {list(state.dice)}",
        "over": "the game is over",
    }
    return hints[state.phase]


def _player(action: Action, name: str = "by") -> str:
    who = field(action, name, str)
    if who not in PLAYERS:
        raise IllegalAction(f"{who!r} is not a player; players are chopper and phantom")
    return who


def _path(
    state: State, action: Action, start: str | None, paths: Mapping[str, list[str]]
) -> list[str]:
    """The path an action names: explicit ``path``, or the shortest way ``to`` a hex."""
    raw = optional_field(action, "path", list)
    if raw is not None:
        path = [h for h in raw if isinstance(h, str)]
        if len(path) != len(raw):
            raise IllegalAction("'path' must be a list of hex ids")
        for h in path:
            state.board.hex(h)
        if "to" in action and (path[-1] if path else start) != action["to"]:
            raise IllegalAction("'to' and the last hex of 'path' disagree")
        return path
    to = field(action, "to", str)
    state.board.hex(to)
    if to not in paths:
        raise IllegalAction(f"{to} cannot be reached from {start} this move")
    return paths[to]


def _move(state: State, action: Action) -> Outcome[State]:
    who = _player(action)
    _require_phase(state, "move", who)
    start = state.scrawlers[who].position
    path = _path(state, action, start, movement.scrawler_moves(state, who))
    problem = movement.check_scrawler_path(state, who, path)
    if problem:
        raise IllegalAction(problem)
    state, events = resolve.land(state, who, path)
    if not path:
        state, end_events = _end_turn(state)
        return Outcome(state, events + end_events)
    state = replace(state, phase="roll")
    events.append(public("roll_needed", player=opponent(who), dice=len(path)))
    return Outcome(state, events)


def _roll(state: State, action: Action) -> Outcome[State]:
    who = _player(action)
    _require_phase(state, "roll", who)
    faces = field(action, "faces", list)
    dice = tuple(_die(f, "each face") for f in faces)
    if len(dice) != state.moved:
        raise IllegalAction(
            f"{state.turn} moved {state.moved} hex(es), so roll exactly {state.moved} dice"
        )
    allowance = resolve.allowance(state)
    state = replace(state, dice=tuple(sorted(dice)), allowance=allowance, phase="judges")
    events = [public("rolled", player=who, faces=list(dice), hexes_per_judge=allowance)]
    return Outcome(state, events)


def _judge_move(state: State, action: Action) -> Outcome[State]:
    who = action.get("by", opponent(state.turn))
    if not isinstance(who, str) or who not in PLAYERS:
        raise IllegalAction(f"{who!r} is not a player; players are chopper and phantom")
    _require_phase(state, "judges", who)
    judge = field(action, "judge", int)
    if judge not in state.dice:
        raise IllegalAction(f"no die shows {judge}: the dice to use are {list(state.dice)}")
    path: list[str] = []
    if judge in state.cleaning:
        if action.get("path") or action.get("to") not in (None, state.judges[judge]):
            raise IllegalAction(
                f"Judge {judge} is cleaning up {state.judges[judge]} and spends this move on it"
            )
    elif "path" in action or "to" in action:
        paths = movement.judge_moves(state, judge, state.allowance)
        path = _path(state, action, state.judges[judge], paths)
        problem = movement.check_judge_path(state, judge, state.allowance, path)
        if problem:
            raise IllegalAction(problem)
    dice = list(state.dice)
    dice.remove(judge)
    state, events = resolve.judge_die(replace(state, dice=tuple(dice)), judge, path)
    if not state.dice:
        state, end_events = _end_turn(state)
        events += end_events
    return Outcome(state, events)


def _remaining_value(state: State, colour_id: str, skip: str | None = None) -> int:
    return sum(
        state.board.hex(h).prestige
        for h, c in state.scrawls.items()
        if c == colour_id and h != skip
    )


def _end_turn(state: State) -> tuple[State, list[Event]]:
    """Score this turn's arrests, decide whether the game ends, hand the turn over."""
    events: list[Event] = []
    colours = dict(state.colours)
    for colour_id in state.arrested_now:
        colour = colours[colour_id]
        # Not the scrawl the scrawler was caught doing; cleanings this turn are
        # already off the board, so they do not count either.
        caught_doing = state.scrawled if colour.player == state.turn else None
        bonus = _remaining_value(state, colour_id, skip=caught_doing)
        colours[colour_id] = replace(colour, final=colour.prestige + bonus)
        events.append(
            public("arrest_scored", colour=colour_id, again=bonus, final=colour.prestige + bonus)
        )
    state = replace(
        state, colours=colours, arrested_now=(), dice=(), moved=0, scrawled=None, allowance=1
    )
    if state.statue_reached or _both_finished(state):
        return _game_over(state, events)
    nxt = opponent(state.turn)
    for candidate in (nxt, state.turn):
        pawn = state.scrawlers[candidate]
        if pawn.out:
            continue
        if pawn.position is not None:
            state = replace(state, turn=candidate, phase="move")
            return state, [*events, public("turn", player=candidate, phase="move")]
        if _free_landmarks(state):
            state = replace(state, turn=candidate, phase="reenter")
            return state, [*events, public("turn", player=candidate, phase="reenter")]
        state = replace(state, scrawlers={**state.scrawlers, candidate: replace(pawn, out=True)})
        events.append(public("out", player=candidate, reason="no free landmark left unscrawled"))
    return _game_over(state, events)


def _both_finished(state: State) -> bool:
    if state.options.game_end == "at_once":
        return all(s.position is None for s in state.scrawlers.values())
    return all(s.out for s in state.scrawlers.values())


def _free_landmarks(state: State) -> list[str]:
    """Landmarks never scrawled in this game and with no pawn or Judge on them."""
    return [
        h
        for h in state.board.landmarks
        if h not in state.defaced and state.judge_at(h) is None and state.scrawler_at(h) is None
    ]


def _game_over(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    colours = dict(state.colours)
    for colour_id, colour in colours.items():
        if colour.final is None:
            # Not arrested at the end: add every scrawl still on the board.
            colours[colour_id] = replace(
                colour, final=colour.prestige + _remaining_value(state, colour_id)
            )
    best = {p: max((c.final or 0) for c in colours.values() if c.player == p) for p in PLAYERS}
    top = max(best.values())
    leaders = [p for p in PLAYERS if best[p] == top]
    winner = leaders[0] if len(leaders) == 1 else "draw"
    state = replace(state, colours=colours, phase="over", winner=winner)
    scores = {c.id: c.final for c in colours.values()}
    return state, [*events, public("game_over", scores=scores, best=best, winner=winner)]


def _reenter(state: State, action: Action) -> Outcome[State]:
    who = _player(action)
    _require_phase(state, "reenter", who)
    at = field(action, "at", str)
    state.board.hex(at)
    if at not in _free_landmarks(state):
        free = ", ".join(_free_landmarks(state))
        raise IllegalAction(f"{at} is not a free landmark that was never scrawled; free: {free}")
    number = 1 + sum(1 for c in state.colours.values() if c.player == who)
    colour_id = f"{who}-{number}"
    colours = {**state.colours, colour_id: Colour(colour_id, who, state.board.hex(at).prestige)}
    pawn = Scrawler(who, colour_id, at)
    state = replace(
        state,
        colours=colours,
        scrawlers={**state.scrawlers, who: pawn},
        scrawls={**state.scrawls, at: colour_id},
        defaced=state.defaced | {at},
        phase="move",
    )
    return Outcome(state, [public("reentered", player=who, colour=colour_id, at=at, prestige=3)])


_HANDLERS: dict[str, Callable[[State, Action], Outcome[State]]] = {
    "move": _move,
    "roll": _roll,
    "judge_move": _judge_move,
    "reenter": _reenter,
}

ENGINE = GraffitiEngine()
