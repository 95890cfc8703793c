"""A random but rules-aware player for Judge Dredd, used by the property tests.

It picks what the engine asks for (``asking``) and fills in plausible fields from
the true state, sometimes trying a card play or something illegal. Every refusal
must be an :class:`IllegalAction` that leaves the state unchanged.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from lawmaster.rules.core import IllegalAction
from lawmaster.rules.judge_dredd import ENGINE
from lawmaster.rules.judge_dredd.movement import allowance, perp_destinations
from lawmaster.rules.judge_dredd.state import known_location
from lawmaster.rules.judge_dredd.views import asking

SPECIALISTS = ["chief-judge", "sjs", "psi-judge", "wally-squad", "cadet", "mechanismo"]


def random_header(rng: random.Random) -> dict[str, Any]:
    n = rng.randint(2, 4)
    players = [f"p{i}" for i in range(n)]
    header: dict[str, Any] = {
        "game": "judge-dredd",
        "players": players,
        "starting_player": rng.choice(players),
        "length": rng.choice(["hotdog-run", "day-shift", "night-shift"]),
    }
    header["options"] = {
        "occupied_sector": rng.choice(["add_crime", "redraw"]),
        "hotdog_discard": rng.choice(["no_perps_added", "no_arrests"]),
        "arrest_start": rng.choice(["auto", "wait"]),
    }
    if rng.random() < 0.7:
        chosen = rng.sample(SPECIALISTS, n)
        header["specialists"] = dict(zip(players, chosen, strict=True))
    return header


def _free_action_card(state: dict, rng: random.Random, seat: str, alerts: bool = False) -> str:
    """A card ``seat`` could be holding (known to it, or one the engine has not seen)."""
    j = state["judges"][seat]
    if j["known"] and (rng.random() < 0.5 or j["hand"] == len(j["known"])):
        return rng.choice(j["known"])
    cards = state["cards"].actions
    free = [
        c
        for c, a in cards.items()
        if (a.type == "alert") == alerts and known_location(state, c) is None
    ]
    return rng.choice(free) if free else "robo-dogs-1"


def _walk(state: dict, rng: random.Random, seat: str) -> list[str]:
    board = state["board"]
    here = state["judges"][seat]["sector"]
    path = []
    for _ in range(rng.randint(0, allowance(state, seat))):
        near = board.neighbours(here)
        if not near:  # a Sector of a mutated inline board may have no border at all
            break
        here = rng.choice(near)
        path.append(here)
    return path


def _unseen(state: dict, rng: random.Random, kind: str) -> str | None:
    pool = state["cards"].perps if kind == "perp" else state["cards"].crimes
    seen = state["perps_seen" if kind == "perp" else "crimes_seen"]
    left = [c for c in pool if c not in seen]
    return rng.choice(left) if left else None


def _groups(rng: random.Random, seats: list[str]) -> list[list[str]]:
    groups: list[list[str]] = []
    for s in seats:
        if groups and rng.random() < 0.5:
            rng.choice(groups).append(s)
        else:
            groups.append([s])
    return groups


def candidate_actions(state: dict, rng: random.Random) -> list[dict[str, Any]]:
    """A few actions worth trying now, most likely first."""
    ask = asking(state)
    wanted = [(s, a["act"]) for s, acts in ask.items() for a in acts]
    out: list[dict[str, Any]] = []
    board = state["board"]
    rng.shuffle(wanted)
    for seat, act in wanted:
        if act == "place_judge":
            taken = {j["sector"] for j in state["judges"].values()}
            free = [s for s in board.starting_sectors if s not in taken]
            out.append({"act": act, "by": seat, "sector": rng.choice(free)})
        elif act == "place_crime":
            deck = state["sector_deck"]
            if deck:
                action = {
                    "act": act,
                    "sector_card": rng.choice(deck),
                    "crime": _unseen(state, rng, "crime"),
                }
                if rng.random() < 0.6:
                    action["perp"] = _unseen(state, rng, "perp")
                out.append(action)
                if "perp" in action:
                    # A Sector that already holds a Perp draws none: the table puts the
                    # tapped Perp back and places the Crime alone, as the refusal says.
                    out.append({k: v for k, v in action.items() if k != "perp"})
        elif act == "move":
            action = {"act": act, "by": seat, "path": _walk(state, rng, seat)}
            action["perp"] = _unseen(state, rng, "perp")
            out.append(action)
            out.append({"act": act, "by": seat, "path": _walk(state, rng, seat)})
            out.append({"act": act, "by": seat, "path": []})
        elif act == "end_movement" or act == "next_arrest":
            if rng.random() < 0.3:
                out.extend(_card_plays(state, rng))
            out.append({"act": act})
        elif act == "accept":
            if rng.random() < 0.5:
                card = _free_action_card(state, rng, seat)
                kind = state["cards"].actions[card].kind
                option = "main" if kind == "tip-off" else "alt"
                out.append({"act": "play", "by": seat, "card": card, "option": option})
            out.append({"act": act, "by": seat})
        elif act == "arrest":
            seats = state["pending"]["seats"]
            out.append({"act": act, "groups": _groups(rng, list(seats))})
        elif act == "reveal_perp":
            out.append(
                {
                    "act": act,
                    "sector": state["pending"]["sector"],
                    "perp": _unseen(state, rng, "perp"),
                }
            )
        elif act == "commit":
            if rng.random() < 0.5:
                out.append(
                    {
                        "act": act,
                        "by": seat,
                        "card": _free_action_card(state, rng, seat),
                        "for": rng.choice([s for g in state["combat"]["groups"] for s in g]),
                    }
                )
            for m in [s for g in state["combat"]["groups"] for s in g]:
                if state["specialists"].get(m) == "mechanismo" and rng.random() < 0.3:
                    out.append({"act": "cool", "by": m})
        elif act == "reveal":
            out.append({"act": act})
        elif act == "decline":
            out.append({"act": act, "by": seat})
        elif act == "cool":
            if rng.random() < 0.5:
                out.append({"act": act, "by": seat})
        elif act == "play" and rng.random() < 0.2:
            # Optional moments: a Special card before an arrest begins (or Robodoc, below).
            out.extend(_card_plays(state, rng))
        elif act == "roll":
            need = state["combat"]["needed"]
            dice = {k: [rng.randint(1, 6) for _ in range(n)] for k, n in need.items()}
            out.append({"act": act, "dice": dice})
        elif act == "perp_escape":
            src = state["pending"]["sector"]
            out.append(
                {"act": act, "by": seat, "to": rng.choice(sorted(perp_destinations(state, src)))}
            )
        elif act == "discard_sector":
            out.append({"act": act, "sector_card": rng.choice(state["sector_deck"])})
        elif act == "recycle":
            j = state["judges"][seat]
            count = rng.randint(0, j["hand"])
            unknown = j["hand"] - len(j["known"])
            named = rng.sample(j["known"], max(0, count - unknown))
            out.append({"act": act, "by": seat, "count": count, "cards": named})
        elif act == "draw":
            if rng.random() < 0.15:
                out.append(_alert(state, rng, seat))
            owed = state["refill"]["owed"][seat]
            if rng.random() < 0.5:
                # Tapped cards: the engine (and that seat only) learns them.
                free = [
                    c
                    for c, a in state["cards"].actions.items()
                    if a.type != "alert" and known_location(state, c) is None
                ]
                n = min(rng.randint(1, owed), len(free))
                if n:
                    out.append({"act": act, "by": seat, "cards": rng.sample(free, n)})
            out.append({"act": act, "by": seat, "count": rng.randint(1, owed)})
    pending = state["pending"] or {}
    waiting = pending.get("seats", []) if pending.get("kind") == "robodoc" else []
    due = list(state["robodoc_window"]) + list(waiting)
    for seat in dict.fromkeys(due):
        if rng.random() < 0.5:
            near = board.neighbours(state["judges"][seat]["sector"])
            card = _free_action_card(state, rng, seat)
            out.insert(0, {"act": "play", "by": seat, "card": card, "to": rng.choice(near)})
    if state["refill"] and not state["refill"]["ia_used"]:
        for seat, name in state["specialists"].items():
            if name == "sjs" and rng.random() < 0.3:
                others = [s for s in state["players"] if s != seat]
                out.insert(0, {"act": "internal_affairs", "by": seat, "target": rng.choice(others)})
    for seat, name in state["specialists"].items():
        if name == "psi-judge" and rng.random() < 0.1:
            hidden = [s for s, p in state["perps"].items() if p and not p["face_up"]]
            if hidden:
                out.insert(
                    0,
                    {
                        "act": "psi_peek",
                        "by": seat,
                        "sector": rng.choice(hidden),
                        "perp": _unseen(state, rng, "perp"),
                    },
                )
    return out


def _alert(state: dict, rng: random.Random, seat: str) -> dict[str, Any]:
    card = _free_action_card(state, rng, seat, alerts=True)
    board = state["board"]
    sectors = sorted(board.sectors)
    return {
        "act": "play",
        "by": seat,
        "card": card,
        "sector": rng.choice(sectors),
        "to": rng.choice(sectors),
        "crime": _unseen(state, rng, "crime"),
    }


def _card_plays(state: dict, rng: random.Random) -> list[dict[str, Any]]:
    seat = rng.choice(state["players"])
    others = state["players"]
    sectors = sorted(state["board"].sectors)
    return [
        {
            "act": "play",
            "by": seat,
            "card": _free_action_card(state, rng, seat),
            "target": rng.choice(others),
            "to": rng.choice(sectors),
            "sector": rng.choice(sectors),
            "judges": rng.sample(others, 2),
        }
    ]


def play_random_game(seed: int, max_steps: int = 400, check=None):
    """Play until the game ends or ``max_steps``; returns header, accepted actions, state."""
    rng = random.Random(seed)
    header = random_header(rng)
    outcome = ENGINE.new_game(header)
    state = outcome.state
    accepted: list[dict[str, Any]] = []
    for _ in range(max_steps):
        if state["phase"] == "over":
            break
        progressed = False
        for action in candidate_actions(state, rng):
            before = copy.deepcopy(state)
            try:
                result = ENGINE.apply(state, action)
            except IllegalAction as exc:
                assert exc.reason and isinstance(exc.reason, str)
                assert state == before, f"a refused {action} changed the state"
                continue
            assert state == before, f"apply mutated its input on {action}"
            if check is not None:
                check(state, result.state, action, result.events)
            state = result.state
            accepted.append(action)
            progressed = True
            break
        assert progressed, f"stuck: nothing accepted in phase {state['phase']}: {asking(state)}"
    return header, accepted, state
