"""Bench group ``gw``: GW:s brott engine speed over realistic random games.

* ``gw_apply_us`` — median time of one ``ENGINE.apply`` (microseconds), over every
  action of random legal games (four criminals on the standard board).
* ``gw_deduction_update_ms`` — median time of one ``Deduction.update`` (milliseconds)
  on the standard board with four criminals, over the events GW sees in those games,
  measured through the real :class:`Deduction` class whatever its current body is.
* ``gw_probability_update_p99_ms`` — 99th percentile, over every event GW sees in
  seeded random games on the standard board with four criminals, of what GW's
  tablet pays for one event: ``Deduction.update``, the belief behind
  ``Deduction.probabilities`` brought up to date (default settings, seeded), and
  every piece's probabilities read from it. ``gw_probability_update_p99_cpu_ms`` is
  the same percentile in process CPU time (what the update costs on a machine
  shared with other work), ``gw_probability_update_median_ms`` the median,
  ``gw_probability_updates`` how many events were timed.
* ``gw_true_cell_mean_probability`` — after every criminal move in those games, the
  probability the map gives the mover's true cell, averaged (how sharp the map is);
  ``gw_true_cell_lost_fraction`` — the share of those moves where it was 0 (the
  map's support always holds GW's sound set map, so this must stay 0);
  ``gw_probability_rebuilds`` — how many times the particle filter rebuilt its rows
  after an observation killed or nearly killed them, in all.

The random player here is also what the tests drive with hypothesis: it asks a
:class:`Chooser` for every decision, so a test can hand those to hypothesis and
the bench to a seeded ``random.Random``.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from lawmaster.rules.core import IllegalAction, Outcome, events_for
from lawmaster.rules.gw_brott import ENGINE
from lawmaster.rules.gw_brott.criminal_turn import ROLL_FACES
from lawmaster.rules.gw_brott.deduction import Deduction
from lawmaster.rules.gw_brott.state import Phase, State

T = TypeVar("T")

#: Games and actions per game for the probability figures (the map is far slower
#: than the set map, so fewer games than the other figures).
PROBABILITY_GAMES = 4
PROBABILITY_ACTIONS = 250


class Chooser(Protocol):
    """Where a random game's decisions come from."""

    def pick(self, options: Sequence[T]) -> T: ...

    def integer(self, low: int, high: int) -> int: ...


class RandomChooser:
    """Decisions from a seeded ``random.Random``."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def pick(self, options: Sequence[T]) -> T:
        return options[self.rng.randrange(len(options))]

    def integer(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)


def standard_header(count: int = 4) -> dict[str, Any]:
    """``count`` criminals on the standard board, one evidence card of each colour."""
    pieces = ["red", "green", "blue", "yellow"][:count]
    abilities = ["helicopter", "informer", "breakthrough", "infiltrator"]
    colours = ("blue", "red", "green", "yellow", "white")
    return {
        "game": "gw-brott",
        "board": "standard",
        "criminals": pieces,
        "abilities": dict(zip(pieces, abilities, strict=False)),
        "evidence": {p: [f"{c}-{i + 1}" for c in colours] for i, p in enumerate(pieces)},
        "trumps": ["helicopter", "informer", "infiltrator"],
    }


def _walk(state: State, steps: int, chooser: Chooser) -> list[str]:
    board = state.board
    here = state.gw_pos
    path = []
    for _ in range(steps):
        near = board.neighbours[here]
        if not near:
            break
        here = chooser.pick(near)
        path.append(board.name_of(here))
    return path


def gw_action(state: State, chooser: Chooser) -> dict[str, Any]:
    """A legal action for GW: a roll, a trump, or a path of the steps it has."""
    asked = ENGINE.view(state, "gw")["asked"]
    if asked["act"] == "gw_move":
        steps = asked["steps"] if asked["exactly"] else chooser.integer(0, asked["steps"])
        return {"act": "gw_move", "path": _walk(state, steps, chooser)}
    trumps = asked.get("or_trump", [])
    if trumps and chooser.integer(0, 4) == 0:
        card = chooser.pick(trumps)
        active = [p for i, p in enumerate(state.pieces) if not state.out[i]]
        if card == "helicopter":
            cells = [c for c in state.board.open_cells if c != state.gw_pos]
            return {"act": "trump", "card": card, "to": state.board.name_of(chooser.pick(cells))}
        if card == "informer" and len(active) >= 2:
            informer = chooser.pick(active)
            action = {"act": "trump", "card": card, "informer": informer}
            if chooser.integer(0, 1):
                action["target"] = chooser.pick([p for p in active if p != informer])
            return action
        if card == "breakthrough":
            return {"act": "trump", "card": card, "path": _walk(state, 8, chooser)}
        if card == "infiltrator":
            return {"act": "trump", "card": card}
    return {"act": "gw_roll", "face": chooser.integer(1, 6)}


def criminal_action(state: State, chooser: Chooser) -> dict[str, Any]:
    """A legal action for the criminal to act, biased towards handing in evidence."""
    actions = ENGINE.legal_actions(state) or []
    if state.phase == Phase.INFORMING:
        return chooser.pick(actions)
    piece = state.pieces[state.turn]
    rolls = [a for a in actions if a["act"] == "roll"]
    others = [a for a in actions if a["act"] != "roll"]
    destroy = [a for a in others if a["act"] == "destroy_evidence"]
    if destroy and chooser.integer(0, 3):
        return destroy[0]
    if state.phase == Phase.CRIMINAL:
        reset = [a for a in others if a["act"] == "reset"]
        if reset and (not rolls or chooser.integer(0, 5) == 0):
            return reset[0]
    elif others and (not rolls or chooser.integer(0, 5)):
        wanted = _evidence_cells(state)
        towards = [a for a in others if a.get("to") in wanted]
        if towards and chooser.integer(0, 1):
            return chooser.pick(towards)
        return chooser.pick(others)
    count = len(rolls[0]["faces"])
    faces = [chooser.pick(ROLL_FACES) for _ in range(count)]
    return {"act": "roll", "by": piece, "faces": faces}


def _evidence_cells(state: State) -> set[str]:
    index = state.turn
    owners = range(len(state.pieces)) if state.two_player else (index,)
    board = state.board
    return {board.name_of(board.evidence[c]) for i in owners for c in state.held[i]}


def next_action(state: State, chooser: Chooser) -> dict[str, Any]:
    """A legal action for whoever is to act."""
    if ENGINE.to_act(state) == ["gw"]:
        return gw_action(state, chooser)
    return criminal_action(state, chooser)


def _next_outcome(state: State, chooser: Chooser) -> tuple[dict[str, Any], Outcome]:
    """A legal action and its outcome. GW's path may be refused when it would end on a
    criminal in the reading where the special move cannot catch: GW, who cannot see
    the criminals, then tries another path, as at the table."""
    for _ in range(50):
        action = next_action(state, chooser)
        try:
            return action, ENGINE.apply(state, action)
        except IllegalAction:
            if ENGINE.to_act(state) != ["gw"]:
                raise
    raise RuntimeError("GW found no accepted path in 50 tries")


def play(
    header: dict[str, Any],
    chooser: Chooser,
    max_actions: int = 400,
    on_step: Callable[[State, dict[str, Any], Outcome], None] | None = None,
) -> tuple[State, list[dict[str, Any]], list[dict[str, Any]]]:
    """Play a random legal game; returns the last state, the actions and every event."""
    outcome = ENGINE.new_game(header)
    state = outcome.state
    events = list(outcome.events)
    actions: list[dict[str, Any]] = []
    for _ in range(max_actions):
        if ENGINE.is_over(state):
            break
        action, result = _next_outcome(state, chooser)
        if on_step is not None:
            on_step(state, action, result)
        state = result.state
        actions.append(action)
        events.extend(result.events)
    return state, actions, events


def run() -> dict[str, float]:
    """Median apply time and median deduction update time over random games."""
    header = standard_header(4)
    apply_times: list[float] = []
    gw_events: list[dict[str, Any]] = []
    for seed in range(12):
        outcome = ENGINE.new_game(header)
        state = outcome.state
        gw_events.extend(events_for(outcome.events, "gw"))
        chooser = RandomChooser(seed)
        for _ in range(400):
            if ENGINE.is_over(state):
                break
            action = next_action(state, chooser)
            start = time.perf_counter()
            outcome = ENGINE.apply(state, action)
            apply_times.append(time.perf_counter() - start)
            gw_events.extend(events_for(outcome.events, "gw"))
            state = outcome.state
            if state.phase == Phase.OVER:
                break
    update_times = _deduction_times(state.board, header["criminals"], gw_events)
    return {
        "gw_apply_us": statistics.median(apply_times) * 1e6,
        "gw_deduction_update_ms": statistics.median(update_times) * 1e3,
        **probability_figures(header),
    }


def probability_figures(
    header: dict[str, Any], games: int = PROBABILITY_GAMES, actions: int = PROBABILITY_ACTIONS
) -> dict[str, float]:
    """Update times and sharpness of the probability map over seeded random games.

    One timed update is what GW's tablet pays for one event: ``Deduction.update``,
    then the belief behind ``probabilities`` brought up to date and every piece's
    probabilities read from it.
    """
    times: list[float] = []
    cpu_times: list[float] = []
    true_cell: list[float] = []
    rebuilds = 0
    for seed in range(games):
        outcome = ENGINE.new_game(header)
        state = outcome.state
        pieces = list(header["criminals"])
        deduction = Deduction.start(state.board, pieces, seed=seed)
        chooser = RandomChooser(1000 + seed)
        pending = events_for(outcome.events, "gw")
        for _ in range(actions + 1):
            for event in pending:
                start, cpu = time.perf_counter(), time.process_time()
                deduction = deduction.update(event)
                shown = {piece: deduction.probabilities(piece) for piece in pieces}
                times.append(time.perf_counter() - start)
                cpu_times.append(time.process_time() - cpu)
                if event["type"] == "criminal_moved":
                    piece = event["by"]
                    where = state.board.name_of(state.positions[state.pieces.index(piece)])
                    true_cell.append(float(shown[piece].get(where, 0.0)))
            if ENGINE.is_over(state):
                break
            action, outcome = _next_outcome(state, chooser)
            state = outcome.state
            pending = events_for(outcome.events, "gw")
        rebuilds += deduction.belief().rebuilds
    times.sort()
    cpu_times.sort()
    return {
        "gw_probability_update_p99_ms": times[int(0.99 * (len(times) - 1))] * 1e3,
        "gw_probability_update_p99_cpu_ms": cpu_times[int(0.99 * (len(cpu_times) - 1))] * 1e3,
        "gw_probability_update_median_ms": statistics.median(times) * 1e3,
        "gw_probability_updates": float(len(times)),
        "gw_true_cell_mean_probability": statistics.fmean(true_cell),
        "gw_true_cell_lost_fraction": sum(p == 0.0 for p in true_cell) / len(true_cell),
        "gw_probability_rebuilds": float(rebuilds),
    }


def _deduction_times(board: Any, pieces: list[str], events: list[dict[str, Any]]) -> list[float]:
    """Time every ``Deduction.update`` along the recorded games (restarting at each setup)."""
    times: list[float] = []
    deduction = Deduction.start(board, pieces)
    for event in events:
        if event.get("type") == "setup":
            deduction = Deduction.start(board, pieces)
        start = time.perf_counter()
        deduction = deduction.update(event)
        times.append(time.perf_counter() - start)
    return times
