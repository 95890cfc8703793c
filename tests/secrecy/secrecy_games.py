"""Random games of all three games, with refused inputs mixed in, and what each seat may not know.

Each generator walks the real engine from a seed and returns a scenario: the
header and every input tried, legal or not. The legal moves come from the
random players the game's own tests use (``tests/gw``: the bench's player,
``tests/dredd``: ``dredd_random``, Graffiti: ``legal_actions``); the refused
ones are those players' own misses plus inputs aimed at secrets: a card
another Judge holds, a face-down Perp's card, a cell where a hidden criminal
stands, a trump GW does not hold.

:func:`hidden_from` gives, for a state and a seat, the facts that seat may
not know then: card ids and cell names, and where each card or piece is.
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_TESTS = Path(__file__).resolve().parents[1]
for folder in ("dredd", "gw"):
    if str(_TESTS / folder) not in sys.path:
        sys.path.insert(0, str(_TESTS / folder))

from dredd_random import candidate_actions, random_header  # noqa: E402
from gwtest_support import standard_header, tiny_header, two_player_header  # noqa: E402
from test_dredd_random_games import secrets_hidden_from  # noqa: E402

from lawmaster.host.bench.gw import RandomChooser, next_action  # noqa: E402
from lawmaster.host.games import engine_for  # noqa: E402
from lawmaster.rules.core import Engine, IllegalAction  # noqa: E402
from lawmaster.rules.gw_brott.state import JAIL  # noqa: E402

Action = dict[str, Any]
Fact = tuple[str, ...]


@dataclass
class Scenario:
    """A header and every input tried after it, in order."""

    header: dict[str, Any]
    inputs: list[Action]

    @property
    def engine(self) -> Engine:
        return engine_for(self.header["game"])

    def lines(self) -> list[str]:
        return [json.dumps(self.header), *(json.dumps(a) for a in self.inputs)]


def _walk(
    header: dict[str, Any],
    steps: int,
    rng: random.Random,
    tries: Callable[[Any, random.Random], list[Action]],
) -> Scenario:
    """Try ``tries(state)`` in order each step; refused ones are kept, the first legal one taken."""
    engine = engine_for(header["game"])
    state = engine.new_game(header).state
    inputs: list[Action] = []
    for _ in range(steps):
        if engine.is_over(state):
            break
        for action in tries(state, rng):
            inputs.append(action)
            try:
                state = engine.apply(state, action).state
            except IllegalAction:
                continue
            break
    return Scenario(header, inputs)


# -- GW:s brott ----------------------------------------------------------------
GW_HEADERS = [
    tiny_header(),
    tiny_header(options={"special_move_catches": False}),
    two_player_header(),
    standard_header(3),
]


def _gw_misses(state: Any, rng: random.Random) -> list[Action]:
    board = state.board
    cells = [board.name_of(c) for c in board.open_cells]
    hidden = [board.name_of(p) for p in state.positions if p != JAIL]
    aimed = hidden or cells
    piece = rng.choice(state.pieces)
    misses: list[Action] = [
        {
            "act": "move",
            "by": piece,
            "die": rng.choice(["1", "2", "3", "arrow"]),
            "to": rng.choice(aimed),
        },
        {"act": "gw_move", "path": [rng.choice(aimed)]},
        {
            "act": "trump",
            "card": rng.choice(["helicopter", "informer", "breakthrough", "infiltrator"]),
            "to": rng.choice(aimed),
        },
        {
            "act": "destroy_evidence",
            "by": piece,
            "card": rng.choice([c for held in state.held for c in held] or ["blue-1"]),
        },
        {"act": "roll", "by": piece, "faces": ["1"]},
    ]
    return rng.sample(misses, rng.randint(0, 2))


def gw_scenario(seed: int, steps: int = 60) -> Scenario:
    rng = random.Random(seed)
    header = GW_HEADERS[seed % len(GW_HEADERS)]
    chooser = RandomChooser(seed)
    return _walk(header, steps, rng, lambda s, r: [*_gw_misses(s, r), next_action(s, chooser)])


def _gw_hidden(engine: Engine, state: Any, seat: str) -> set[Fact]:
    board = state.board
    hidden: set[Fact] = set()
    if seat in ("gw", "table"):
        view = engine.view(state, seat)
        shown = json.dumps({k: v for k, v in view.items() if k not in ("board", "deduction")})
        # A cell alone is the secret; the pieces' names ("a", "b") are everyday words.
        for pos in state.positions:
            if pos != JAIL and f'"{board.name_of(pos)}"' not in shown:
                hidden.add((board.name_of(pos),))
        hidden |= {(c,) for held in state.held for c in held}
        if seat == "table":
            hidden |= {(t,) for t in state.trumps_left}
    else:
        mine = set(range(len(state.pieces))) if state.two_player else {state.pieces.index(seat)}
        hidden |= {(c,) for i, held in enumerate(state.held) if i not in mine for c in held}
    return hidden


# -- Judge Dredd ------------------------------------------------------------------
def _dredd_aimed(state: dict, rng: random.Random) -> list[Action]:
    """Inputs naming cards the sender may not know about."""
    seats = list(state["judges"])
    combat = state["combat"]
    # In a combat only its Judges commit cards: aim from one of them.
    seat = rng.choice([s for g in combat["groups"] for s in g] if combat else seats)
    theirs = [c for s, j in state["judges"].items() if s != seat for c in j["known"]]
    if combat:
        theirs += [e["card"] for e in combat["cards"] if not e["face_up"] and e["by"] != seat]
    perps = [p["card"] for p in state["perps"].values() if p and not p["face_up"] and p["card"]]
    sectors = list(state["board"].sectors)
    out: list[Action] = []
    if theirs:
        card = rng.choice(theirs)
        out += [
            {"act": "commit", "by": seat, "card": card},
            {
                "act": "play",
                "by": seat,
                "card": card,
                "to": rng.choice(sectors),
                "target": rng.choice(seats),
            },
            {"act": "draw", "by": seat, "cards": [card]},
            {"act": "recycle", "by": seat, "cards": [card]},
        ]
    if perps:
        perp = rng.choice(perps)
        out += [
            {"act": "psi_peek", "by": seat, "sector": rng.choice(sectors), "perp": perp},
            {"act": "reveal", "sector": rng.choice(sectors), "perp": perp},
            {
                "act": "place_crime",
                "sector_card": rng.choice(state["sector_deck"] or ["x"]),
                "crime": "littering",
                "perp": perp,
            },
        ]
    chosen = rng.sample(out, min(len(out), rng.randint(0, 2)))
    if combat and theirs:
        # Combats are few: each one gets a card committed that its sender cannot hold.
        chosen.append({"act": "commit", "by": seat, "card": rng.choice(theirs)})
    return chosen


def dredd_scenario(seed: int, steps: int = 80) -> Scenario:
    rng = random.Random(seed)
    header = random_header(rng)

    def tries(state: dict, r: random.Random) -> list[Action]:
        return [*_dredd_aimed(state, r), *candidate_actions(state, r)]

    return _walk(header, steps, rng, tries)


def _dredd_hidden(engine: Engine, state: dict, seat: str) -> set[Fact]:
    # The cards themselves (the Dredd tests' own list), and where each one is.
    hidden: set[Fact] = {(c,) for c in secrets_hidden_from(state, seat)}
    for other, j in state["judges"].items():
        if other != seat:
            hidden |= {(c, other) for c in j["known"]}
    combat = state["combat"]
    if combat and not combat["revealed"]:
        hidden |= {
            (e["card"], e["by"]) for e in combat["cards"] if not e["face_up"] and e["by"] != seat
        }
    board = state["board"]
    for sector, p in state["perps"].items():
        if p and not p["face_up"] and p["card"] and (p["card"],) in hidden:
            hidden.add((p["card"], board.name_of(sector)))
    return hidden


# -- Unamerican Graffiti (nothing hidden: the replay must still match the live stream) --
def graffiti_scenario(seed: int, steps: int = 60) -> Scenario:
    rng = random.Random(seed)
    header = {"game": "unamerican-graffiti", "dredd_roll": rng.randint(1, 6)}
    engine = engine_for(header["game"])

    def tries(state: Any, r: random.Random) -> list[Action]:
        if state.phase == "roll":
            faces = [r.randint(1, 6) for _ in range(state.moved)]
            legal = [{"act": "roll", "by": state.acting, "faces": faces}]
        else:
            legal = [r.choice(engine.legal_actions(state))]
        miss = {"act": "move", "by": r.choice(["chopper", "phantom"]), "path": ["block-1"]}
        return [miss, *legal] if r.random() < 0.3 else legal

    return _walk(header, steps, rng, tries)


SCENARIOS: dict[str, Callable[[int], Scenario]] = {
    "gw-brott": gw_scenario,
    "judge-dredd": dredd_scenario,
    "unamerican-graffiti": graffiti_scenario,
}

_HIDDEN: dict[str, Callable[[Engine, Any, str], set[Fact]]] = {
    "gw-brott": _gw_hidden,
    "judge-dredd": _dredd_hidden,
    "unamerican-graffiti": lambda engine, state, seat: set(),
}


def hidden_from(engine: Engine, state: Any, seat: str) -> set[Fact]:
    """What ``seat`` may not know in ``state``, as facts.

    A fact is a card id or a cell name alone (``("fergee-1",)``), or one with
    where it is (``("fergee-1", "p0")``: p0 holds it). A text tells a fact when
    it names every word of it.
    """
    return _HIDDEN[engine.game](engine, state, seat)


def _names(text: str, word: str) -> bool:
    # Whole words: red-1 is not red-10, and p0's names p0.
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) is not None


def told(text: str, facts: set[Fact], own: str = "") -> set[Fact]:
    """The facts ``text`` tells, leaving out those wholly named in ``own`` (what the
    reader sent itself)."""
    return {
        f for f in facts if all(_names(text, w) for w in f) and not all(_names(own, w) for w in f)
    }
