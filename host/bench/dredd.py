"""Bench group ``dredd``: Judge Dredd combat odds and engine apply speed.

- ``dredd_odds_ms``: median time of one seat's combat odds for a typical arrest (a Judge
  with one known card, two face-down cards of other players) — the figure a tablet waits for.
- ``dredd_apply_us``: median time of one ``engine.apply`` over a scripted round.
"""

from __future__ import annotations

import statistics
import time

from lawmaster.host.bench import median_seconds
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


def _combat_game() -> Game:
    game, _ = Game.start(dict(HEADER), engine_for)
    for action in ROUND:
        game.apply(action)
    return game


def run() -> dict[str, float]:
    game = _combat_game()
    combat_odds(game.state, "a")  # warm the dice tables, as a running referee would be
    odds = median_seconds(lambda: combat_odds(game.state, "a"), repeat=200)
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
        "dredd_odds_ms": round(odds * 1000, 3),
        "dredd_apply_us": round(statistics.median(times) * 1e6, 1),
    }
