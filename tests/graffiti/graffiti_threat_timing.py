"""Time the exact threat map: one whole map (every end hex) per move position.

Run: ``python tests/graffiti/graffiti_threat_timing.py [GAMES]`` (default 8 seeded
random games on the standard board; prints the median, 90th percentile and maximum
CPU milliseconds per map; not a test). CPU time, since the figure is about the
work a tablet view costs, not about what else the machine is doing.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from lawmaster.rules.unamerican_graffiti import ENGINE
from lawmaster.rules.unamerican_graffiti.threat import threat_map


def positions(games: int) -> list:
    """Every move-phase position of ``games`` random games (seeds 0 … games-1)."""
    found = []
    for seed in range(games):
        rng = random.Random(seed)
        state = ENGINE.new_game({"dredd_roll": rng.randint(1, 6)}).state
        for _ in range(300):
            if state.phase == "over":
                break
            if state.phase == "move":
                found.append(state)
            if state.phase == "roll":
                faces = [rng.randint(1, 6) for _ in range(state.moved)]
                action = {"act": "roll", "by": state.acting, "faces": faces}
            else:
                actions = ENGINE.legal_actions(state)
                action = rng.choice([a for a in actions if a.get("path")] or actions)
            state = ENGINE.apply(state, action).state
    return found


def main(games: int) -> None:
    times = []
    for state in positions(games):
        start = time.process_time()
        threat_map(state, state.turn)
        times.append(time.process_time() - start)
    times.sort()
    print(
        f"{len(times)} maps: median {1000 * statistics.median(times):.1f} ms, "
        f"p90 {1000 * times[int(0.9 * len(times))]:.1f} ms, max {1000 * times[-1]:.1f} ms"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 8)
