"""The refill phase (new crimes, hospital, draws, alerts, the Starting Player card), the
end of setup (round 1 begins as every later round does, after its refill), and the end
of the game with its tie-break combat."""

from __future__ import annotations

from lawmaster.rules.core import Action, Event, IllegalAction, field, optional_field, public

from .fight import open_combat
from .movement import start_round
from .setup import draws_on, place_crime, show_cards
from .state import (
    PERPS_ON_BOARD,
    HandSeen,
    State,
    board,
    book,
    discard_action,
    draw_actions,
    hand_limit,
    is_,
    judge,
    known_location,
    perp_sectors,
    private,
    refill_now,
    refill_of,
    sector_of,
    take_from_hand,
)


def after_setup(state: State, events: list[Event]) -> None:
    """Once every Judge stands and six crimes are out, round 1 begins."""
    if state["phase"] != "setup":
        return
    placed = all(j["sector"] for j in state["judges"].values())
    full = len(perp_sectors(state)) >= PERPS_ON_BOARD or not crimes_wanted(state)
    if placed and full:
        check_final(state, events)
        start_round(state, events)


def start_refill(state: State, events: list[Event]) -> None:
    state["phase"] = "refill"
    state["refill"] = {
        "step": "crimes",
        "owed": {},
        "recycle_due": [],
        "ia_used": False,
        "drawn_any": False,
    }
    events.append(public("refill_phase", round=state["round"]))
    continue_refill(state, events)


def check_final(state: State, events: list[Event]) -> None:
    """Trigger the final round when the deck that ends this game length runs out."""
    if state["final_round"] or state["final_next"]:
        return
    decks_out = state["perp_deck"] == 0 or state["crime_deck"] == 0
    if state["length"] == "night-shift":
        out = decks_out
    else:
        # Crime Sprees can empty the Crime deck before the Sector deck; then no new crime
        # could ever be reported, and unless Sector cards go on (``draws_on``) the shift ends.
        out = not state["sector_deck"] or (decks_out and not draws_on(state))
    if out:
        state["final_next"] = True
        events.append(public("final_round_triggered", final_round=state["round"] + 1))


def crimes_wanted(state: State) -> bool:
    """Whether the refill still waits for a ``place_crime``."""
    if len(perp_sectors(state)) >= PERPS_ON_BOARD or not state["sector_deck"]:
        return False
    if _only_redraws_left(state):
        return False
    return draws_on(state) or (state["perp_deck"] > 0 and state["crime_deck"] > 0)


def _only_redraws_left(state: State) -> bool:
    """Night Shift with ``occupied_sector: redraw``: every Sector card names an occupied Sector.

    Each card would be redrawn, the deck reshuffled and redrawn again, for ever (a small
    board with fewer than six Sectors on its cards); the refill stops adding crimes instead.
    """
    if state["length"] != "night-shift" or state["options"]["occupied_sector"] != "redraw":
        return False
    named = book(state).sector_cards
    cards = state["sector_deck"] + state["sector_discard"]
    return all(state["perps"][named[c]] is not None for c in cards)


def hotdog_discard_due(state: State) -> bool:
    if state["length"] != "hotdog-run" or not state["sector_deck"]:
        return False
    if state["options"]["hotdog_discard"] == "no_arrests":
        return state["arrests"] == 0
    return state["perps_added"] == 0


def continue_refill(state: State, events: list[Event]) -> None:
    """Move the refill on as far as it goes without input."""
    refill = refill_of(state)
    if refill["step"] == "crimes":
        check_final(state, events)
        if crimes_wanted(state):
            return
        refill["step"] = "hotdog"
    if refill["step"] == "hotdog":
        if hotdog_discard_due(state):
            return
        refill["step"] = "draw"
        hospitalise(state, events)
    if refill["step"] == "draw":
        if any(refill["owed"].values()) or refill["recycle_due"]:
            return
        if internal_affairs_open(state):
            return  # a refill nobody draws in still has its start: the SJS is asked
        finish_refill(state, events)


def internal_affairs_open(state: State) -> list[str]:
    """The SJS seats that may still use Internal Affairs in this refill (at most one)."""
    refill = state["refill"]
    if state["phase"] != "refill" or refill is None or refill["ia_used"] or refill["drawn_any"]:
        return []
    return [s for s in state["players"] if is_(state, s, "sjs")]


def refill_place_crime(state: State, action: Action, events: list[Event]) -> None:
    if state["phase"] == "setup":
        place_crime(state, action, events)
        after_setup(state, events)
        return
    if state["phase"] != "refill":
        raise IllegalAction("new crimes are added in setup and at the start of the refill phase")
    if refill_of(state)["step"] != "crimes":
        raise IllegalAction("no new crimes now: 6 Perps are on the board or a deck is empty")
    place_crime(state, action, events)
    continue_refill(state, events)


def discard_sector(state: State, action: Action, events: list[Event]) -> None:
    """``discard_sector``: the Hotdog Run discards the top Sector card."""
    refill = refill_now(state)
    if refill is None or refill["step"] != "hotdog":
        raise IllegalAction(
            "a Sector card is discarded only in a Hotdog Run refill with no new Perps"
        )
    card = book(state).sector_card(field(action, "sector_card", str))
    if card not in state["sector_deck"]:
        raise IllegalAction(f"the Sector card {card} is not in the Sector deck")
    state["sector_deck"].remove(card)
    state["sector_discard"].append(card)
    events.append(public("sector_discarded", sector_card=card))
    check_final(state, events)
    refill["step"] = "draw"
    hospitalise(state, events)
    continue_refill(state, events)


def hospitalise(state: State, events: list[Event]) -> None:
    """KO'd Judges stand up in the Hospital and swap their hand; everyone's draw is set."""
    refill = refill_of(state)
    hospital = board(state).hospital
    for seat in state["players"]:
        j = state["judges"][seat]
        redraw = 0
        bonus = 0
        if j["ko"]:
            j["ko"] = False
            j["sector"] = hospital
            discarded = j["hand"]
            for card in j["known"]:
                discard_action(state, card)
            state["action_discard_count"] += discarded - len(j["known"])
            j["known"] = []
            j["hand"] = 0
            redraw = discarded if discarded else 1
            events.append(public("hospitalised", judge=seat, discarded=discarded))
        else:
            sector_bonus = board(state).sectors[sector_of(state, seat)].bonus
            if sector_bonus == "recycle":
                refill["recycle_due"].append(seat)
                bonus = 1  # the recycle draw; set properly when the Judge recycles
            elif isinstance(sector_bonus, int):
                bonus = sector_bonus
        if is_(state, seat, "cadet") and not bonus:
            bonus = 1  # Academy Support: unless the Sector already gives a bonus
        owed = redraw + 1 + (0 if seat in refill["recycle_due"] else bonus)
        refill["owed"][seat] = max(0, min(owed, hand_limit(state, seat) - j["hand"]))
    events.append(public("draws_due", owed=dict(refill["owed"]), recycle=refill["recycle_due"]))


def recycle(state: State, action: Action, events: list[Event]) -> None:
    """``recycle``: a Judge who chose to end on the Hospital discards cards before drawing."""
    seat = field(action, "by", str)
    j = judge(state, seat)
    refill = refill_now(state)
    if refill is None or refill["step"] != "draw" or seat not in refill["recycle_due"]:
        raise IllegalAction(f"{seat} cannot recycle now (only a Judge who chose the Hospital)")
    cards = optional_field(action, "cards", list, [])
    count = optional_field(action, "count", int, len(cards))
    if count < len(cards) or count > j["hand"]:
        raise IllegalAction(f"{seat} holds {j['hand']} cards and cannot discard {count}")
    for tapped in cards:
        card = book(state).action(tapped).id
        take_from_hand(state, seat, card)
        discard_action(state, card)
    for _ in range(count - len(cards)):
        if j["hand"] - len(j["known"]) <= 0:
            raise IllegalAction("name the known cards you discard in 'cards'")
        j["hand"] -= 1
        discard_action(state, None)
    refill["recycle_due"].remove(seat)
    owed = 1 + count + 1
    refill["owed"][seat] = max(0, min(owed, hand_limit(state, seat) - j["hand"]))
    events.append(public("recycled", judge=seat, discarded=count, draws=refill["owed"][seat]))
    continue_refill(state, events)


def draw(state: State, action: Action, events: list[Event]) -> None:
    """``draw``: a player reports drawing Action cards (ids if tapped, else a count)."""
    seat = field(action, "by", str)
    judge(state, seat)
    refill = refill_now(state)
    if refill is None or refill["step"] != "draw":
        raise IllegalAction("Action cards are drawn in the refill phase, after the new crimes")
    if seat in refill["recycle_due"]:
        raise IllegalAction(f"{seat} is on the Hospital: say what to recycle first (maybe nothing)")
    cards = optional_field(action, "cards", list, [])
    count = optional_field(action, "count", int, len(cards))
    if count < 1 or count < len(cards):
        raise IllegalAction("draw at least one card ('count', or the 'cards' tapped)")
    owed = refill["owed"].get(seat, 0)
    if count > owed:
        raise IllegalAction(f"{seat} may draw only {owed} more card(s) this refill")
    drawn: list[str] = []
    for tapped in cards:
        ac = book(state).action(tapped)
        card = ac.id
        if ac.type == "alert":
            raise IllegalAction(f"{ac.name} is an Alert: play it at once with 'play'")
        if known_location(state, card) is not None or cards.count(card) > 1:
            raise IllegalAction(f"{card} cannot be drawn: the referee knows it is elsewhere")
        drawn.append(card)
    draw_actions(state, seat, count, drawn, events)
    refill["owed"][seat] = owed - count
    refill["drawn_any"] = True
    events.append(public("drew", judge=seat, count=count))
    if cards:
        events.append(private(seat, "hand_known", judge=seat, cards=list(drawn)))
    continue_refill(state, events)


def finish_refill(state: State, events: list[Event]) -> None:
    """Pass the Starting Player card to the left and begin the next round."""
    state["refill"] = None
    players = state["players"]
    state["starting"] = players[(players.index(state["starting"]) + 1) % len(players)]
    events.append(public("starting_player", seat=state["starting"]))
    start_round(state, events)


def internal_affairs(state: State, action: Action, events: list[Event]) -> None:
    """``internal_affairs``: the SJS looks at one other player's whole hand."""
    seat = field(action, "by", str)
    target = field(action, "target", str)
    judge(state, seat)
    t = judge(state, target)
    refill = refill_now(state)
    if not is_(state, seat, "sjs"):
        raise IllegalAction("only the SJS has Internal Affairs")
    if seat == target:
        raise IllegalAction("Internal Affairs looks at another player's hand")
    if refill is None or refill["ia_used"] or refill["drawn_any"]:
        raise IllegalAction("Internal Affairs is used once, at the start of the refill phase")
    cards = optional_field(action, "cards", list, [])
    for card in cards:
        book(state).action(card)
    if cards:
        if len(cards) != t["hand"]:
            raise IllegalAction(f"{target} holds {t['hand']} cards; tap all of them or none")
        show_cards(state, target, cards, events)
    refill["ia_used"] = True
    seen: HandSeen = {
        "by": seat,
        "target": target,
        "cards": list(t["known"]),
        "unknown": t["hand"] - len(t["known"]),
    }
    # Only the SJS's view shows it, and only for the rest of this refill phase.
    refill["ia_seen"] = seen
    events.append(public("internal_affairs", by=seat, target=target))
    events.append(
        private(seat, "hand_seen", target=target, cards=seen["cards"], unknown=seen["unknown"])
    )
    continue_refill(state, events)


# -- the end ------------------------------------------------------------------
def totals(state: State) -> dict[str, int]:
    cards = book(state)
    return {s: sum(cards.value(c) for c in j["score"]) for s, j in state["judges"].items()}


def end_game(state: State, events: list[Event]) -> None:
    scores = totals(state)
    best = max(scores.values())
    top = [s for s in state["players"] if scores[s] == best]
    events.append(public("final_scores", scores=scores))
    tiebreak_done(state, top, events)


def tiebreak_done(state: State, top: list[str], events: list[Event]) -> None:
    """One winner ends the game; tied players fight one (more) final combat."""
    if len(top) == 1:
        state["phase"] = "over"
        state["winner"] = top[0]
        events.append(public("game_over", winner=top[0], scores=totals(state)))
        return
    state["phase"] = "tiebreak"
    ordered = [s for s in state["players"] if s in top]
    open_combat(state, "tiebreak", None, [[s] for s in ordered], events)
