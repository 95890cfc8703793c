"""What each seat may see (``view``), what the game waits for (``asking``), and the
referee's omniscient ``summary``."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import NotRequired, TypedDict

from lawmaster.rules.core import IllegalAction

from .movement import allowance, current_mover, reachable
from .odds import combat_odds
from .refill import internal_affairs_open, totals
from .state import (
    Combat,
    CombatKind,
    Pending,
    State,
    arrest_not_begun,
    base_strength,
    board,
    book,
    hand_limit,
    order,
    perp_card,
    quarantined,
    refill_of,
    robodoc_due,
)


class Ask(TypedDict):
    """One action the game waits for from a seat, and why."""

    act: str
    why: str


class Decks(TypedDict):
    """How many cards each deck holds."""

    sector: int
    perp: int
    crime: int
    action: int


class JudgeView(TypedDict):
    """A Judge as every seat sees it: sizes of hand and score pile, not their cards."""

    sector: str | None
    ko: bool
    moved: bool
    fought: bool
    hand_size: int
    score_pile_size: int
    specialist: str | None
    base_strength: int


class PerpView(TypedDict):
    """A Perp on the board: a face-down one shows nothing else."""

    face_up: bool
    perp: NotRequired[str]
    strength: NotRequired[int]


class CardView(TypedDict):
    """A card committed to the combat: which card and option only once the seat may see it."""

    by: str
    to: str
    face_up: bool
    card: NotRequired[str]
    option: NotRequired[str]


class CombatView(TypedDict):
    """The combat as one seat sees it."""

    kind: CombatKind
    sector: str | None
    groups: list[list[str]]
    cards: list[CardView]
    cooled: list[str]
    revealed: bool
    dice_needed: dict[str, int] | None
    perp_roller: str | None
    strengths: dict[str, int]


class RefillView(TypedDict):
    """The refill's public part: its step, the draws owed, who is on the Hospital."""

    step: str
    owed: dict[str, int]
    recycle_due: list[str]


class HandShown(TypedDict):
    """Another hand, as Internal Affairs showed it to the SJS."""

    target: str
    cards: list[str]
    unknown: int


class You(TypedDict):
    """A player's own part of its view."""

    hand_size: int
    hand_limit: int
    known_cards: list[str]
    score_pile: list[str]
    score: int
    movement: int | None
    reachable: NotRequired[list[str]]
    perps_read: NotRequired[dict[str, str]]
    hand_seen: NotRequired[HandShown]
    odds: NotRequired[dict[str, float]]


class View(TypedDict):
    """Everything one seat may know (README: Views)."""

    seat: str
    game: str
    board: str
    round: int
    phase: str
    length: str
    final_round: bool
    starting_player: str
    turn_order: list[str]
    judges: dict[str, JudgeView]
    perps: dict[str, PerpView]
    crimes: dict[str, list[str]]
    alien: str | None
    quarantined: list[str]
    bridges_closed: bool
    decks: Decks
    action_discard: list[str]
    action_discard_size: int
    combat: CombatView | None
    pending: Pending | None
    refill: RefillView | None
    winner: str | None
    scores: dict[str, int] | None
    asked: list[Ask]
    you: NotRequired[You]


class JudgeSummary(TypedDict):
    """A Judge in the referee's summary, hand and score pile included."""

    sector: str | None
    ko: bool
    specialist: str | None
    hand: int
    known_cards: list[str]
    score_pile: list[str]
    score: int


class PerpSummary(TypedDict):
    """A Perp in the summary; ``perp`` is ``None`` while nobody has tapped it."""

    perp: str | None
    face_up: bool


class Summary(TypedDict):
    """The whole true state, in the shape the README documents."""

    round: int
    phase: str
    length: str
    starting_player: str
    final_round: bool
    judges: dict[str, JudgeSummary]
    perps: dict[str, PerpSummary]
    crimes: dict[str, list[str]]
    alien: str | None
    decks: Decks
    action_discard: list[str]
    action_discard_size: int
    quarantine: dict[str, int]
    bridges_closed_until: int | None
    combat: Combat | None
    pending: Pending | None
    winner: str | None


def asking(state: State) -> dict[str, list[Ask]]:
    """For each seat, the actions the game is waiting for from it, with a reason."""
    ask: dict[str, list[Ask]] = {s: [] for s in state["players"]}
    everyone = list(state["players"])

    def add(seats: list[str], act: str, why: str) -> None:
        for s in seats:
            ask[s].append({"act": act, "why": why})

    phase = state["phase"]
    combat, pending = state["combat"], state["pending"]
    if phase == "over":
        return ask
    if phase == "setup":
        due = next((s for s in order(state) if state["judges"][s]["sector"] is None), None)
        if due:
            add([due], "place_judge", "put your Judge on an empty Starting Sector")
        if len([p for p in state["perps"].values() if p]) < 6 and state["sector_deck"]:
            add(
                [state["starting"]], "place_crime", "reveal a Sector card; place its Perp and Crime"
            )
        return ask
    if pending and pending["kind"] == "robodoc":
        add(pending["seats"], "play", "your Judge is KO'd: play Robodoc now to avoid it")
        add(pending["seats"], "decline", "no Robodoc: go on to the refill and the Hospital")
        return ask
    # Outside that wait the moment lasts until the next action.
    add(robodoc_due(state), "play", "your Judge is KO'd: play Robodoc now to avoid it")
    if pending:
        kind = pending["kind"]
        if pending["kind"] in ("barney", "boing"):
            add([pending["target"]], "accept", f"accept the {kind}, or play a card that cancels it")
        elif pending["kind"] == "reveal_perp":
            here = [s for s in order(state) if state["judges"][s]["sector"] == pending["sector"]]
            add(here[:1] or [state["starting"]], "reveal_perp", "turn up and tap the Perp")
        elif pending["kind"] == "declare":
            add(pending["seats"][:1], "arrest", "say who arrests together and who alone")
        if arrest_not_begun(state):
            _before_arrest(state, add)
        elif pending["kind"] == "escape":
            add([pending["by"]], "perp_escape", "move the escaping Perp up to two Sectors")
        return ask
    if combat:
        if not combat["revealed"]:
            fighters = [s for g in combat["groups"] for s in g]
            if combat["kind"] == "tiebreak":
                add(fighters, "commit", "add cards to the final combat, or reveal")
            else:
                able = [s for s in everyone if not state["judges"][s]["ko"]]
                if not combat["cards"]:
                    mechs = [
                        s
                        for s in fighters
                        if state["specialists"].get(s) == "mechanismo" and s not in combat["cooled"]
                    ]
                    add(mechs, "cool", "cool now (-2, no overheating) or never in this combat")
                add(able, "commit", "add Action cards face-down, or reveal when all are done")
                if arrest_not_begun(state):
                    _before_arrest(state, add)
            add(
                everyone if combat["kind"] != "tiebreak" else fighters, "reveal", "reveal the cards"
            )
        else:
            rollers = [g[0] for g in combat["groups"]]
            add(rollers, "roll", "roll your die (dice) for this combat")
            if combat["roller"]:
                add([combat["roller"]], "roll", "roll the Perp die")
        return ask
    if phase == "movement":
        mover = current_mover(state)
        if mover:
            add([mover], "move", f"move up to {allowance(state, mover)} Sector(s)")
        else:
            add(everyone, "end_movement", "everyone has moved: start the arrest phase")
    elif phase == "arrest":
        add(everyone, "next_arrest", "play Special cards now, or start the next arrest")
    elif phase == "refill":
        refill = refill_of(state)
        sjs = internal_affairs_open(state)
        add(sjs, "internal_affairs", "Internal Affairs: look at another player's hand")
        if refill["step"] == "crimes":
            why = "reveal a Sector card; place its Perp and Crime"
            if state["crime_deck"] <= 0 or state["perp_deck"] <= 0:
                why = "reveal a Sector card; place what is left (the Perp or Crime deck is empty)"
            add([state["starting"]], "place_crime", why)
        elif refill["step"] == "hotdog":
            add([state["starting"]], "discard_sector", "Hotdog Run: discard the top Sector card")
        else:
            add(
                refill["recycle_due"],
                "recycle",
                "on the Hospital: discard cards to recycle (or none)",
            )
            owing = [s for s, n in refill["owed"].items() if n and s not in refill["recycle_due"]]
            add(owing, "draw", "draw your Action cards")
            if not owing and not refill["recycle_due"]:
                # Nobody draws: the refill waits for the SJS's answer.
                add(sjs, "decline", "do not use Internal Affairs this refill")
    return ask


def _before_arrest(state: State, add: Callable[[list[str], str, str], None]) -> None:
    able = [s for s in state["players"] if not state["judges"][s]["ko"]]
    add(able, "play", "before this arrest begins a Special card may still be played")


def to_act(state: State) -> list[str]:
    ask = asking(state)
    return [s for s in state["players"] if ask[s]]


def _combat_view(state: State, seat: str) -> CombatView | None:
    combat = state["combat"]
    if combat is None:
        return None
    cards: list[CardView] = []
    for e in combat["cards"]:
        shown = combat["revealed"] or e["face_up"] or e["by"] == seat
        item: CardView = {
            "by": e["by"],
            "to": e["for"],
            "face_up": e["face_up"] or combat["revealed"],
        }
        if shown:
            item["card"] = e["card"]
            item["option"] = e["option"]
        cards.append(item)
    out: CombatView = {
        "kind": combat["kind"],
        "sector": combat["sector"],
        "groups": combat["groups"],
        "cards": cards,
        "cooled": combat["cooled"],
        "revealed": combat["revealed"],
        "dice_needed": combat["needed"],
        "perp_roller": combat["roller"],
        "strengths": {s: base_strength(state, s) for g in combat["groups"] for s in g},
    }
    return out


def _pending_view(state: State) -> Pending | None:
    pending = state["pending"]
    return copy.copy(pending) if pending else None


def view(state: State, seat: str) -> View:
    """Everything ``seat`` may know. ``"table"`` gets the public part only."""
    if seat != "table" and (not isinstance(seat, str) or seat not in state["judges"]):
        raise IllegalAction(f"{seat!r} is not a seat in this game")
    cards = book(state)
    b = board(state)
    perps: dict[str, PerpView] = {}
    for sector, p in state["perps"].items():
        if p is None:
            continue
        if p["face_up"]:
            card = perp_card(p)
            perps[sector] = {"face_up": True, "perp": card, "strength": cards.perps[card]}
        else:
            perps[sector] = {"face_up": False}
    refill = state["refill"]
    out: View = {
        "seat": seat,
        "game": "judge-dredd",
        "board": b.name,
        "round": state["round"],
        "phase": state["phase"],
        "length": state["length"],
        "final_round": state["final_round"],
        "starting_player": state["starting"],
        "turn_order": order(state),
        "judges": {
            s: {
                "sector": j["sector"],
                "ko": j["ko"],
                "moved": j["moved"],
                "fought": j["fought"],
                "hand_size": j["hand"],
                "score_pile_size": len(j["score"]),
                "specialist": state["specialists"][s],
                "base_strength": base_strength(state, s),
            }
            for s, j in state["judges"].items()
        },
        "perps": perps,
        "crimes": {s: list(c) for s, c in state["crimes"].items() if c},
        "alien": state["alien"],
        "quarantined": [s for s in b.sectors if quarantined(state, s)],
        "bridges_closed": state["bridges_closed_until"] is not None
        and state["round"] <= state["bridges_closed_until"],
        "decks": {
            "sector": len(state["sector_deck"]),
            "perp": state["perp_deck"],
            "crime": state["crime_deck"],
            "action": state["action_deck"],
        },
        "action_discard": list(state["action_discard"]),
        "action_discard_size": state["action_discard_count"],
        "combat": _combat_view(state, seat),
        "pending": _pending_view(state),
        "refill": None
        if refill is None
        else {
            "step": refill["step"],
            "owed": dict(refill["owed"]),
            "recycle_due": list(refill["recycle_due"]),
        },
        "winner": state["winner"],
        "scores": totals(state) if state["phase"] in ("over", "tiebreak") else None,
        "asked": [],
    }
    if seat == "table":
        return out
    j = state["judges"][seat]
    out["asked"] = asking(state)[seat]
    you: You = {
        "hand_size": j["hand"],
        "hand_limit": hand_limit(state, seat),
        "known_cards": list(j["known"]),
        "score_pile": list(j["score"]),
        "score": sum(cards.value(c) for c in j["score"]),
        "movement": allowance(state, seat) if state["phase"] == "movement" else None,
    }
    if current_mover(state) == seat and not state["pending"] and not state["combat"]:
        you["reachable"] = sorted(reachable(state, seat))
    if state["specialists"][seat] == "psi-judge":
        you["perps_read"] = {
            s: perp_card(p)
            for s, p in state["perps"].items()
            if p and not p["face_up"] and p["card"] in state["psi_known"]
        }
    seen = refill.get("ia_seen") if refill is not None else None
    if seen and seen["by"] == seat:
        you["hand_seen"] = {
            "target": seen["target"],
            "cards": seen["cards"],
            "unknown": seen["unknown"],
        }
    combat = state["combat"]
    odds = combat_odds(state, seat) if combat else None
    if odds is not None:
        you["odds"] = odds
    out["you"] = you
    return out


def summary(state: State) -> Summary:
    """The whole true state (the referee's view), as the README documents it."""
    scores = totals(state)
    return {
        "round": state["round"],
        "phase": state["phase"],
        "length": state["length"],
        "starting_player": state["starting"],
        "final_round": state["final_round"],
        "judges": {
            s: {
                "sector": j["sector"],
                "ko": j["ko"],
                "specialist": state["specialists"][s],
                "hand": j["hand"],
                "known_cards": list(j["known"]),
                "score_pile": list(j["score"]),
                "score": scores[s],
            }
            for s, j in state["judges"].items()
        },
        "perps": {
            s: {"perp": p["card"], "face_up": p["face_up"]} for s, p in state["perps"].items() if p
        },
        "crimes": {s: list(c) for s, c in state["crimes"].items() if c},
        "alien": state["alien"],
        "decks": {
            "sector": len(state["sector_deck"]),
            "perp": state["perp_deck"],
            "crime": state["crime_deck"],
            "action": state["action_deck"],
        },
        "action_discard": list(state["action_discard"]),
        "action_discard_size": state["action_discard_count"],
        "quarantine": dict(state["quarantine"]),
        "bridges_closed_until": state["bridges_closed_until"],
        "combat": state["combat"],
        "pending": state["pending"],
        "winner": state["winner"],
    }
