"""The arrest phase: its start, which arrest comes next, the Judges' declarations, and
what a combat's result does to the board (arrests, stopped crimes, escaping Perps).
"""

from __future__ import annotations

from collections.abc import Mapping

from lawmaster.rules.core import Action, Event, IllegalAction, JsonObject, field, public

from .fight import judge_outcomes, open_combat, participants, strengths
from .movement import current_mover, perp_destinations, reveal_perp
from .refill import end_game, start_refill, tiebreak_done
from .state import (
    CombatKind,
    EscapeWait,
    State,
    board,
    book,
    combat_sector,
    discard_action,
    is_,
    judges_in,
    ko,
    order,
    perp_card,
    perp_in,
    private,
    robodoc_due,
    sector_of,
)


def next_arrest(state: State) -> tuple[str, list[str], str] | None:
    """The Sector of the next arrest in turn order, the Judges there who may fight, the foe."""
    for seat in order(state):
        j = state["judges"][seat]
        if j["fought"] or j["ko"] or seat in state["declined"]:
            continue
        sector = sector_of(state, seat)
        foe = "alien" if state["alien"] == sector else "perp" if state["perps"][sector] else None
        if foe is None:
            continue
        seats = [
            s
            for s in judges_in(state, sector)
            if not state["judges"][s]["fought"] and s not in state["declined"]
        ]
        return sector, seats, foe
    return None


def advance(state: State, events: list[Event]) -> None:
    """Open the next arrest, ask for a declaration, or end the arrest phase."""
    if state["phase"] != "arrest" or state["combat"] or state["pending"]:
        return
    if state["options"]["arrest_start"] == "wait":
        if not state["arrest_go"]:
            return
        state["arrest_go"] = False
    found = next_arrest(state)
    if found is None:
        due = [] if state["final_round"] else robodoc_due(state)
        if due:
            # The refill would hospitalise them in this same step: "The Robodoc card is used
            # when you are KO'd", so the phase waits for each to play it or decline.
            state["pending"] = {"kind": "robodoc", "seats": due}
            return
        end_arrest_phase(state, events)
        return
    sector, seats, foe = found
    perp = perp_in(state, sector) if foe == "perp" else None
    if perp is not None and not perp["face_up"]:
        if perp["card"] is None:
            state["pending"] = {"kind": "reveal_perp", "sector": sector}
            return
        reveal_perp(state, sector, None, events)
    must = [s for s in seats if foe == "alien" or not is_(state, s, "wally-squad")]
    if len(seats) == 1 and must:
        open_combat(state, "alien" if foe == "alien" else "arrest", sector, [seats], events)
        return
    state["pending"] = {"kind": "declare", "sector": sector, "seats": seats, "foe": foe}


def go_on(state: State, action: Action, events: list[Event]) -> None:
    """``next_arrest``: nobody wants to play more cards; the next arrest (or the refill) starts."""
    if state["options"]["arrest_start"] != "wait":
        raise IllegalAction("arrests start by themselves (option arrest_start is 'auto')")
    if state["phase"] != "arrest" or state["combat"] or state["pending"]:
        raise IllegalAction("there is no arrest waiting to start")
    state["arrest_go"] = True
    advance(state, events)


def reveal_pending_perp(state: State, action: Action, events: list[Event]) -> None:
    """``reveal_perp``: tap the face-down Perp an arrest is about to be made on."""
    pending = state["pending"]
    if not pending or pending["kind"] != "reveal_perp":
        raise IllegalAction("no face-down Perp is waiting to be revealed")
    sector = board(state).sector(field(action, "sector", str))
    if sector != pending["sector"]:
        raise IllegalAction(f"the Perp to reveal is in {board(state).name_of(pending['sector'])}")
    reveal_perp(state, sector, field(action, "perp", str), events)
    state["pending"] = None
    advance(state, events)


def declare(state: State, action: Action, events: list[Event]) -> None:
    """``arrest``: the Judges in a Sector say who arrests together (joint) or alone."""
    pending = state["pending"]
    if not pending or pending["kind"] != "declare":
        raise IllegalAction("no arrest is waiting for the Judges to decide how to fight")
    groups = field(action, "groups", list)
    seats = pending["seats"]
    seen: list[str] = []
    chosen: list[list[object]] = []
    for g in groups:
        if not isinstance(g, list) or not g:
            raise IllegalAction("'groups' is a list of non-empty lists of seats")
        for s in g:
            if not isinstance(s, str) or s not in seats:
                raise IllegalAction(f"{s!r} cannot take part in this arrest")
            if s in seen:
                raise IllegalAction(f"{s} can be in only one group")
            seen.append(s)
        chosen.append(g)
    for s in seats:
        if s not in seen:
            if pending["foe"] == "alien":
                raise IllegalAction(f"{s} is in the Alien's Sector and must fight it")
            if not is_(state, s, "wally-squad"):
                raise IllegalAction(f"{s} is in the Perp's Sector and must attempt the arrest")
            state["declined"].append(s)
            events.append(public("arrest_declined", judge=s, sector=pending["sector"]))
    state["pending"] = None
    if groups:
        # Groups act in the turn order of their earliest member.
        ordered = sorted(
            ([s for s in order(state) if s in g] for g in chosen),
            key=lambda g: order(state).index(g[0]),
        )
        kind: CombatKind = "alien" if pending["foe"] == "alien" else "arrest"
        open_combat(state, kind, pending["sector"], ordered, events)
    else:
        advance(state, events)


def arrest(state: State, sector: str, group: list[str], events: list[Event]) -> None:
    """The winning Judges take the Perp and every Crime in its Sector, split by value."""
    cards = book(state)
    perp = perp_card(perp_in(state, sector))
    crimes = state["crimes"][sector]
    # Highest value first; on equal values the Perp before a Crime, then by id.
    pile = sorted([perp, *crimes], key=lambda c: (-cards.value(c), c not in cards.perps, c))
    shares: dict[str, list[str]] = {s: [] for s in group}
    for i, card in enumerate(pile):
        shares[group[i % len(group)]].append(card)
    for seat, got in shares.items():
        state["judges"][seat]["score"].extend(got)
        if got:
            events.append(private(seat, "scored", judge=seat, cards=got))
    state["perps"][sector] = None
    state["crimes"][sector] = []
    state["arrests"] += 1
    events.append(
        public(
            "arrest",
            sector=sector,
            judges=group,
            perp=perp,
            crimes=list(crimes),
            cards_taken={s: len(c) for s, c in shares.items()},
        )
    )


def stop_crime(
    state: State, sector: str, group: list[str], roller: str, events: list[Event]
) -> EscapeWait | None:
    """A tie: the earliest Judge takes the Crime; the Perp-die roller may move the Perp."""
    crimes = state["crimes"][sector]
    state["judges"][group[0]]["score"].extend(crimes)
    if crimes:
        events.append(private(group[0], "scored", judge=group[0], cards=list(crimes)))
    events.append(public("crime_stopped", sector=sector, judge=group[0], crimes=list(crimes)))
    state["crimes"][sector] = []
    if perp_destinations(state, sector) == {sector}:
        return None
    return {"kind": "escape", "sector": sector, "by": roller}


def perp_escape(state: State, action: Action, events: list[Event]) -> None:
    """``perp_escape``: after a tie the Perp-die roller moves the Perp up to two Sectors."""
    pending = state["pending"]
    if not pending or pending["kind"] != "escape":
        raise IllegalAction("no Perp is escaping")
    seat = field(action, "by", str)
    if seat != pending["by"]:
        raise IllegalAction(f"{pending['by']} rolled the Perp die and moves the Perp")
    to = board(state).sector(field(action, "to", str))
    src = pending["sector"]
    if to not in perp_destinations(state, src):
        raise IllegalAction(
            f"the Perp cannot end in {board(state).name_of(to)}: up to two Sectors, "
            "not the Hospital, not another Perp's Sector"
        )
    move_perp(state, src, to)
    state["pending"] = None
    events.append(public("perp_escaped", sector=src, to=to, by=seat))
    advance(state, events)


def move_perp(state: State, src: str, to: str) -> None:
    if src != to:
        state["perps"][to] = state["perps"][src]
        state["perps"][src] = None


def end_arrest_phase(state: State, events: list[Event]) -> None:
    events.append(public("arrest_phase_over", round=state["round"]))
    if state["final_round"]:
        end_game(state, events)
    else:
        start_refill(state, events)


def end_movement(state: State, events: list[Event]) -> None:
    """Everyone has moved and nobody wants to play more cards: the arrest phase begins."""
    if state["phase"] != "movement":
        raise IllegalAction("it is not the movement phase")
    due = current_mover(state)
    if due is not None:
        raise IllegalAction(f"{due} has not moved yet (a move with an empty path stays put)")
    state["phase"] = "arrest"
    events.append(public("arrest_phase", round=state["round"]))
    advance(state, events)


def resolve(state: State, dice: Mapping[str, list[int]], events: list[Event]) -> None:
    """Settle a rolled combat, then let the arrest phase go on."""
    combat = state["combat"]
    if combat is None:
        raise ValueError("only a combat in progress is resolved")  # an engine bug, not input
    totals, hot, perp = strengths(state, combat, dice)
    kind = combat["kind"]
    result: JsonObject = {
        "kind": kind,
        "groups": combat["groups"],
        "strengths": totals,
        "overheated": hot,
        "perp_strength": perp,
        "dice": dict(dice),
    }
    for seat in participants(combat):
        state["judges"][seat]["fought"] = True
    state["combat"] = None
    for entry in combat["cards"]:
        discard_action(state, entry["card"])
    escape: EscapeWait | None = None
    if kind in ("arrest", "alien"):
        winner, tied, koed = judge_outcomes(state, combat, totals, hot, perp)
        result.update(winner=winner, tied=tied, koed=koed)
        events.append(public("combat_result", **result))
        sector = combat_sector(combat)
        if kind == "alien":
            if winner is not None:
                state["alien"] = None
                events.append(public("alien_defeated", sector=sector, by=combat["groups"][winner]))
        elif winner is not None:
            arrest(state, sector, combat["groups"][winner], events)
        elif tied:
            roller = combat["roller"]
            if roller is None:
                raise ValueError("a revealed arrest has its Perp-die roller")  # an engine bug
            escape = stop_crime(state, sector, combat["groups"][tied[0]], roller, events)
        for gi in koed:
            for seat in combat["groups"][gi]:
                ko(state, seat, events)
    elif kind == "block":
        (a, b) = totals
        ha, hb = hot
        if ha or hb:
            out = [i for i, h in enumerate(hot) if h]
        elif a == b:
            # The SJS wins ties in combat; otherwise both are KO'd.
            sjs = [is_(state, combat["groups"][i][0], "sjs") for i in (0, 1)]
            out = [1 - sjs.index(True)] if any(sjs) else [0, 1]
        else:
            out = [0 if a < b else 1]
        result["koed"] = out
        events.append(public("combat_result", **result))
        for gi in out:
            ko(state, combat["groups"][gi][0], events)
    else:  # the final tie-break
        live = [gi for gi in range(len(totals)) if not hot[gi]] or list(range(len(totals)))
        best = max(totals[gi] for gi in live)
        top = [combat["groups"][gi][0] for gi in live if totals[gi] == best]
        top = [s for s in top if is_(state, s, "sjs")] or top  # the SJS wins ties
        result["top"] = top
        events.append(public("combat_result", **result))
        tiebreak_done(state, top, events)
        return
    if escape is not None:
        state["pending"] = escape
    advance(state, events)
