"""The movement phase: rounds starting, Judges moving, Perps revealed on entry."""

from __future__ import annotations

from collections.abc import Sequence

from lawmaster.rules.core import Action, Event, IllegalAction, field, optional_field, public

from .state import (
    State,
    board,
    book,
    bridges_open,
    is_,
    judge,
    judges_in,
    order,
    perp_card,
    perp_in,
    quarantined,
    sector_of,
)


def start_round(state: State, events: list[Event]) -> None:
    """Begin the next round with its movement phase."""
    state["round"] += 1
    state["phase"] = "movement"
    if state["final_next"]:
        state["final_round"] = True
    for j in state["judges"].values():
        j["moved"] = False
        j["fought"] = False
        j["mods"] = j["mods_next"]
        j["mods_next"] = []
    state["psi_peeked"] = False
    state["declined"] = []
    state["arrests"] = 0
    state["perps_added"] = 0
    events.append(
        public(
            "round",
            round=state["round"],
            starting_player=state["starting"],
            final=state["final_round"],
        )
    )


def current_mover(state: State) -> str | None:
    """The seat whose movement is due: the first in turn order not yet moved nor KO'd."""
    if state["phase"] != "movement":
        return None
    for seat in order(state):
        j = state["judges"][seat]
        if not j["moved"] and not j["ko"]:
            return seat
    return None


def allowance(state: State, seat: str) -> int:
    """How many Sectors ``seat`` may move this round, after movement cards."""
    j = state["judges"][seat]
    steps = 3 if is_(state, seat, "chief-judge") else 2
    steps = max(0, steps + sum(m.get("delta", 0) for m in j["mods"]))
    # Each Roadblock played halves again: 4 -> 2 -> 1. "If your movement is halved, round
    # down" (the Chief Judge's 3 halves to 1).
    for _ in range(sum(1 for m in j["mods"] if m.get("half"))):
        steps //= 2
    return steps


def may_leave(state: State, seat: str, sector: str) -> str | None:
    """Why ``seat`` may not step out of ``sector`` now, or None if it may."""
    b = board(state)
    if quarantined(state, sector):
        return f"{b.name_of(sector)} is quarantined: nobody may leave it this round"
    if state["alien"] == sector:
        return f"the Alien is in {b.name_of(sector)}: Judges there cannot leave"
    perp = state["perps"][sector]
    if perp is None:
        return None
    if is_(state, seat, "wally-squad") and perp["face_up"]:
        return None
    if any(o != seat for o in judges_in(state, sector)):
        return None
    return (
        f"a Judge cannot leave {b.name_of(sector)} while a Perp is there, "
        "unless another Judge is there too"
    )


def move(state: State, action: Action, events: list[Event]) -> None:
    """A Judge moves along ``path`` (the Sectors entered, in order)."""
    seat = field(action, "by", str)
    j = judge(state, seat)
    if state["phase"] != "movement":
        raise IllegalAction("Judges move only in the movement phase")
    due = current_mover(state)
    if due is None:
        raise IllegalAction("every Judge has moved this round; end the movement phase")
    if seat != due:
        if j["ko"]:
            raise IllegalAction(f"{seat}'s Judge is KO'd and cannot move this round")
        raise IllegalAction(f"it is {due}'s turn to move")
    path = field(action, "path", list)
    steps = allowance(state, seat)
    if len(path) > steps:
        raise IllegalAction(f"{seat} may move at most {steps} Sector(s) this round")
    here, revealed = walk(state, seat, path)
    if revealed is not None:
        reveal_perp(state, revealed, optional_field(action, "perp", str), events)
    elif "perp" in action and action["perp"] is not None:
        raise IllegalAction("'perp' is only given when the move ends on a face-down Perp")
    j["sector"] = here
    j["moved"] = True
    j["mods"] = []
    # Every step passed ``walk``: each is the id of a Sector.
    sectors = [board(state).sector(step) for step in path]
    events.append(public("moved", judge=seat, path=sectors, sector=here))


def walk(state: State, seat: str, path: Sequence[object]) -> tuple[str, str | None]:
    """Check ``seat``'s path step by step: where it ends, and the face-down Perp it turns up."""
    b = board(state)
    here = sector_of(state, seat)
    revealed: str | None = None
    for i, step in enumerate(path):
        nxt = b.sector(step)
        if not b.adjacent(here, nxt, bridges_open(state)):
            if b.adjacent(here, nxt, True):
                raise IllegalAction("the bridges are closed this round: no crossing the river")
            if frozenset((here, nxt)) in b.river:
                raise IllegalAction(
                    f"there is no bridge across the river between {b.name_of(here)} "
                    f"and {b.name_of(nxt)}"
                )
            raise IllegalAction(f"{b.name_of(nxt)} is not next to {b.name_of(here)}")
        why = may_leave(state, seat, here)
        if why:
            raise IllegalAction(why)
        if quarantined(state, nxt):
            raise IllegalAction(f"{b.name_of(nxt)} is quarantined: nobody may enter it this round")
        perp = state["perps"][nxt]
        if perp is not None and not perp["face_up"]:
            if i != len(path) - 1:
                raise IllegalAction(
                    f"{seat} must stop in {b.name_of(nxt)}: entering a face-down Perp's Sector "
                    "ends the move"
                )
            revealed = nxt
        here = nxt
    return here, revealed


def reachable(state: State, seat: str) -> dict[str, list[str]]:
    """Every Sector ``seat`` may end its move on now, each with one shortest legal path."""
    start = sector_of(state, seat)
    found: dict[str, list[str]] = {start: []}
    frontier: list[list[str]] = [[]]
    for _ in range(allowance(state, seat)):
        longer: list[list[str]] = []
        for path in frontier:
            here = path[-1] if path else start
            for nxt in board(state).neighbours(here, bridges_open(state)):
                candidate = [*path, nxt]
                try:
                    end, revealed = walk(state, seat, candidate)
                except IllegalAction:
                    continue
                found.setdefault(end, candidate)
                if revealed is None:
                    longer.append(candidate)
        frontier = longer
    return found


def reveal_perp(state: State, sector: str, card: str | None, events: list[Event]) -> None:
    """Turn the Perp in ``sector`` face up; its id comes from the tap if not known yet."""
    perp = perp_in(state, sector)
    if perp["face_up"]:
        return
    if perp["card"] is None:
        if card is None:
            raise IllegalAction(
                f"turn the Perp in {board(state).name_of(sector)} face up and tap it "
                "(give its id as 'perp')"
            )
        book(state).perp(card)
        if card in state["perps_seen"]:
            raise IllegalAction("the referee knows that Perp card is already elsewhere")
        state["perps_seen"].append(card)
        perp["card"] = card
    elif card is not None and card != perp["card"]:
        raise IllegalAction(f"the Perp in {board(state).name_of(sector)} is not {card}")
    perp["face_up"] = True
    events.append(
        public(
            "perp_revealed",
            sector=sector,
            perp=perp["card"],
            strength=book(state).perps[perp_card(perp)],
        )
    )


def perp_destinations(state: State, sector: str, steps: int = 2) -> set[str]:
    """Where a Perp in ``sector`` may end a move of up to ``steps``: no Hospital, no other Perp.

    Perps never enter the Hospital, cross the river only at open bridges, and
    may pass through other Perps and Judges.
    """
    b = board(state)
    if quarantined(state, sector):
        return {sector}
    avoid = {b.hospital} | {s for s in b.sectors if quarantined(state, s)}
    reach = b.within(sector, steps, bridges_open(state), avoid=avoid)
    return {s for s in reach if s == sector or state["perps"][s] is None}
