"""Where scrawlers and Judges may go.

Both searches are breadth-first over the hex map, so each destination comes
with its fewest hexes: a scrawler who names only where it ends is taken to
have gone the shortest way (more hexes only give the opponent more dice).
"""

from __future__ import annotations

from collections import deque

from .state import State, opponent


def scrawler_may_enter(state: State, player: str, hex_id: str) -> bool:
    """Whether ``player``'s pawn may step onto ``hex_id`` at all."""
    if state.judge_at(hex_id) is not None:
        return False
    if state.scrawler_at(hex_id) == opponent(player):
        return False
    gate_barred = state.options.gate == "into" and hex_id in state.board.gates
    if gate_barred and _gate_closed(state, hex_id):
        return False
    if hex_id == state.board.statue and not _statue_open(state):
        # Entering a clean location forces a scrawl, and the Statue may not
        # be scrawled yet: so it may not be entered at all.
        return False
    return True


def _gate_closed(state: State, gate: str) -> bool:
    return any(state.judge_at(house) is not None for house in state.board.gates[gate])


def _statue_open(state: State) -> bool:
    return set(state.board.landmarks) <= state.defaced


def _may_leave(state: State, player: str, hex_id: str) -> bool:
    """Whether a pawn that stepped onto ``hex_id`` may walk on from it."""
    if state.is_clean_location(hex_id):
        return False  # it must stop and scrawl
    if state.options.gate == "into":
        return True
    # "through" reading: the gate may be entered but not passed.
    return not (hex_id in state.board.gates and _gate_closed(state, hex_id))


def scrawler_moves(state: State, player: str, limit: int = 3) -> dict[str, list[str]]:
    """Every destination of ``player``'s pawn → the shortest path to it (start excluded)."""
    start = state.scrawlers[player].position
    if start is None:
        return {}
    paths: dict[str, list[str]] = {start: []}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        path = paths[here]
        if len(path) == limit or (path and not _may_leave(state, player, here)):
            continue
        for nxt in state.board.neighbours[here]:
            if nxt in paths or not scrawler_may_enter(state, player, nxt):
                continue
            paths[nxt] = [*path, nxt]
            queue.append(nxt)
    return paths


def check_scrawler_path(state: State, player: str, path: list[str]) -> str | None:
    """Why ``path`` is not a legal scrawler move, or ``None`` if it is."""
    if len(path) > 3:
        return f"a scrawler moves at most three hexes, not {len(path)}"
    here = state.scrawlers[player].position
    assert here is not None
    for i, nxt in enumerate(path):
        if nxt not in state.board.neighbours[here]:
            return f"{nxt} is not next to {here}"
        if not scrawler_may_enter(state, player, nxt):
            return _blocked_reason(state, player, nxt)
        if i < len(path) - 1 and not _may_leave(state, player, nxt):
            if state.is_clean_location(nxt):
                return f"{nxt} is a clean location: the scrawler must stop there and scrawl"
            return f"{nxt} lies between two Sector Houses with a Judge: no passing through"
        here = nxt
    return None


def _blocked_reason(state: State, player: str, hex_id: str) -> str:
    judge = state.judge_at(hex_id)
    if judge is not None:
        return f"Judge {judge} stands on {hex_id}: scrawlers may not move through Judges"
    if state.scrawler_at(hex_id) == opponent(player):
        return f"{opponent(player)} stands on {hex_id}"
    if hex_id in state.board.gates:
        return f"{hex_id} lies between two Sector Houses and one of them holds a Judge"
    return "the Statue of Judgement may not be scrawled until all six landmarks have been"


def judge_may_enter(state: State, judge: int, hex_id: str) -> bool:
    """Whether Judge ``judge`` may step onto ``hex_id`` (ignoring how far)."""
    return _judge_may_enter(state, _other_judges(state, judge), _pawns(state), hex_id)


def _other_judges(state: State, judge: int) -> set[str]:
    """The hexes the other Judges stand on.

    "A Judge may never enter or pass through a hex occupied by another Judge": the
    moving Judge's own starting hex is not one of them, so his path may pass back
    through it (as a scrawler may walk back through his own start).
    """
    return {where for number, where in state.judges.items() if number != judge}


def _pawns(state: State) -> dict[str, str]:
    """Hex → the player whose pawn stands there."""
    return {s.position: p for p, s in state.scrawlers.items() if s.position is not None}


def _judge_may_enter(state: State, judged: set[str], pawns: dict[str, str], hex_id: str) -> bool:
    # ``judged`` and ``pawns`` are worked out once per search: this runs for
    # every step of every Judge move the threat map tries.
    if hex_id in judged:
        return False
    holder = pawns.get(hex_id)
    if holder is not None:
        return not _refused(state, holder)
    place = state.board.hexes[hex_id]
    # Sector Houses freely; other locations only to clean up a scrawl (or arrest).
    return not place.is_location or place.kind == "sector-house" or hex_id in state.scrawls


def _refused(state: State, holder: str) -> bool:
    """Whether a Judge may not arrest ``holder``: he is the player moving the Judges.

    The Judges chase the scrawler who just moved; with option ``self_arrest``
    ``"refuse"`` (the default) the roller may not turn them on his own pawn.
    """
    return state.options.self_arrest == "refuse" and holder == opponent(state.turn)


def _own_pawn(state: State, hex_id: str) -> bool:
    holder = state.scrawler_at(hex_id)
    return holder is not None and _refused(state, holder)


def _judge_stops(state: State, pawns: dict[str, str], hex_id: str) -> bool:
    """A Judge entering a scrawler's hex (arrest) or a scrawl (to clean) stops there."""
    return hex_id in pawns or hex_id in state.scrawls


def judge_moves(state: State, judge: int, allowance: int) -> dict[str, list[str]]:
    """Every destination of a Judge with ``allowance`` hexes → its shortest path.

    Judge Dredd (Judge 1) gets one hex more, but only where it ends in an arrest.
    """
    start = state.judges[judge]
    judged = _other_judges(state, judge)
    pawns = _pawns(state)
    neighbours = state.board.neighbours
    limit = allowance + (1 if judge == 1 else 0)
    paths: dict[str, list[str]] = {start: []}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        path = paths[here]
        if len(path) == limit or (path and _judge_stops(state, pawns, here)):
            continue
        for nxt in neighbours[here]:
            if nxt not in paths and _judge_may_enter(state, judged, pawns, nxt):
                paths[nxt] = [*path, nxt]
                queue.append(nxt)
    if judge == 1:
        paths = {h: p for h, p in paths.items() if len(p) <= allowance or h in pawns}
    return paths


def check_judge_path(state: State, judge: int, allowance: int, path: list[str]) -> str | None:
    """Why ``path`` is not a legal move for the Judge, or ``None`` if it is."""
    limit = allowance + (1 if judge == 1 else 0)
    if len(path) > limit:
        return f"Judge {judge} may move at most {allowance} hex(es) now"
    here = state.judges[judge]
    for i, nxt in enumerate(path):
        if nxt not in state.board.neighbours[here]:
            return f"{nxt} is not next to {here}"
        if not judge_may_enter(state, judge, nxt):
            other = state.judge_at(nxt)
            if other is not None and other != judge:
                return f"Judge {other} stands on {nxt}: Judges never share a hex"
            if _own_pawn(state, nxt):
                roller = opponent(state.turn)
                return f"{roller} moves the Judges and may not arrest his own pawn on {nxt}"
            return f"a Judge enters {nxt} only to make an arrest or clean up a scrawl"
        if i < len(path) - 1 and _judge_stops(state, _pawns(state), nxt):
            return f"Judge {judge} must stop at {nxt}"
        here = nxt
    if len(path) > allowance and state.scrawler_at(path[-1]) is None:
        return "Judge Dredd's extra hex is only for making an arrest"
    return None
