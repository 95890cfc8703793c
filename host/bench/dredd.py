"""Bench group ``dredd``: Judge Dredd combat odds and engine apply speed.

The odds are exact: the face-down cards a seat cannot see are different cards drawn from
those it cannot place, and every roll of the dice is counted (``rules/judge_dredd/odds.py``).

- ``dredd_odds_ms``: median wall time of one seat's combat odds for a typical arrest (a Judge
  with one known card, two face-down cards of other players) — the figure a tablet waits for,
  over ``dredd_odds_samples`` (300) timed calls; ``dredd_odds_p99_ms`` their 99th percentile
  (nearest rank), ``dredd_odds_p99_cpu_ms`` the same percentile in process CPU time (what the
  odds cost on a machine shared with other work).
- ``dredd_odds_competing_ms``: median of 50 calls for a competing arrest of four players: the
  seat added one card, its rival and two onlookers three face-down cards.
- ``dredd_odds_worst_ms``: median of 5 calls for an extreme the table rarely sees: eight
  face-down cards in that competing arrest.
- ``dredd_apply_us``: median time of one ``engine.apply`` over a scripted round.
"""

from __future__ import annotations

import statistics
import time

from lawmaster.host.bench import median_seconds, percentile
from lawmaster.host.games import engine_for
from lawmaster.rules.core.replay import Game
from lawmaster.rules.judge_dredd.odds import combat_odds

CRIMES = [
    {
        "sector_card": "sector-devils-island",
        "crime": "robot-smashing",
        "perp": "the-mantis-brothers",
    },
    {"sector_card": "sector-channel-99", "crime": "littering", "perp": "max-normal"},
    {"sector_card": "sector-kelp-farm", "crime": "jaywalking", "perp": "otto-sump"},
    {"sector_card": "sector-west-wall", "crime": "murder", "perp": "judge-death"},
    {"sector_card": "sector-power-tower", "crime": "vandalism", "perp": "chopper"},
    {"sector_card": "sector-weather-control", "crime": "arson", "perp": "whitey"},
]
HEADER = {
    "game": "judge-dredd",
    "players": ["a", "b", "c"],
    "positions": {"a": "resyk", "b": "grand-hall-of-justice", "c": "statue-of-judgement"},
    "hands": {"a": ["fergee-1"]},
    "crimes": CRIMES,
}
ROUND = [
    {"act": "move", "by": "a", "path": ["devils-island"]},
    {"act": "move", "by": "b", "path": ["spaceport", "channel-99"]},
    {"act": "move", "by": "c", "path": []},
    {"act": "end_movement"},
    {"act": "commit", "by": "a", "card": "fergee-1"},
    {"act": "commit", "by": "b", "card": "daystick-1", "for": "a"},
    {"act": "commit", "by": "c", "card": "juve-ambush-1", "for": "a"},
]
FINISH = [
    {"act": "reveal"},
    {"act": "roll", "judge": [4, 5], "perp": [2]},
    {"act": "reveal"},
    {"act": "roll", "judge": [6], "perp": [1]},
    {"act": "place_crime", "sector_card": "sector-spaceport", "crime": "bribery", "perp": "orlok"},
    {"act": "place_crime", "sector_card": "sector-mega-mall", "crime": "assault"},
    {"act": "draw", "by": "a", "count": 1},
    {"act": "draw", "by": "b", "count": 1},
    {"act": "draw", "by": "c", "count": 1},
]


#: Timed calls of the typical arrest's odds (a p99 needs at least 200).
SAMPLES = 300
#: Face-down cards the others add to the competing arrest: (by, card, for).
COMPETING = [
    ("b", "robo-dogs-1", "b"),
    ("c", "dazzler-1", "b"),
    ("d", "fergee-2", "a"),
    ("c", "lucky-break-1", "a"),
    ("d", "perp-backup-1", "b"),
    ("b", "juve-ambush-1", "a"),
    ("c", "lawgiver-hi-ex-1", "b"),
    ("d", "escape-1", "a"),
]


def _combat_game() -> Game:
    game, _ = Game.start(dict(HEADER), engine_for)
    for action in ROUND:
        game.apply(action)
    return game


def _competing_game(cards: int) -> Game:
    """a and b compete for the Mantis Brothers; a adds Fergee (its own card, known to it),
    then the others add ``cards`` face-down cards."""
    header = {
        **HEADER,
        "players": ["a", "b", "c", "d"],
        "positions": {
            "a": "resyk",
            "b": "academy-of-law",
            "c": "grand-hall-of-justice",
            "d": "statue-of-judgement",
        },
    }
    game, _ = Game.start(header, engine_for)
    for action in [
        {"act": "move", "by": "a", "path": ["devils-island"]},
        {"act": "move", "by": "b", "path": ["devils-island"]},
        {"act": "move", "by": "c", "path": []},
        {"act": "move", "by": "d", "path": []},
        {"act": "end_movement"},
        {"act": "arrest", "groups": [["a"], ["b"]]},
        {"act": "commit", "by": "a", "card": "fergee-1"},
    ]:
        game.apply(action)
    for by, card, for_ in COMPETING[:cards]:
        game.apply({"act": "commit", "by": by, "card": card, "for": for_})
    return game


def run() -> dict[str, float]:
    game = _combat_game()
    combat_odds(game.state, "a")  # warm the dice tables, as a running referee would be
    wall, cpu = [], []
    for _ in range(SAMPLES):
        start, start_cpu = time.perf_counter(), time.process_time()
        combat_odds(game.state, "a")
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    competing = _competing_game(3)
    combat_odds(competing.state, "a")
    competing_s = median_seconds(lambda: combat_odds(competing.state, "a"), repeat=50)
    worst = _competing_game(len(COMPETING))
    worst_s = median_seconds(lambda: combat_odds(worst.state, "a"), repeat=5)
    times = []
    for _ in range(30):
        game, _ = Game.start(dict(HEADER), engine_for)
        for action in ROUND + FINISH:
            state = game.state
            start = time.perf_counter()
            outcome = game.engine.apply(state, action)
            times.append(time.perf_counter() - start)
            game.state = outcome.state
    return {
        "dredd_odds_ms": round(statistics.median(wall) * 1000, 3),
        "dredd_odds_p99_ms": round(percentile(wall, 99) * 1000, 3),
        "dredd_odds_p99_cpu_ms": round(percentile(cpu, 99) * 1000, 3),
        "dredd_odds_samples": float(SAMPLES),
        "dredd_odds_competing_ms": round(competing_s * 1000, 3),
        "dredd_odds_worst_ms": round(worst_s * 1000, 3),
        "dredd_apply_us": round(statistics.median(times) * 1e6, 1),
    }
