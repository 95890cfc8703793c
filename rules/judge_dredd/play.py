"""Action cards played outside combat: Movement, Special and Alert cards, the responses
that cancel a Barney or a BOING!, Robodoc, and the Specialists' peeks."""

from __future__ import annotations

from lawmaster.rules.core import (
    Action,
    Event,
    IllegalAction,
    JsonObject,
    field,
    optional_field,
    public,
)

from .arrests import advance, move_perp
from .cards import ActionCard
from .fight import open_combat
from .movement import perp_destinations, reveal_perp
from .refill import check_final
from .state import (
    BarneyWait,
    BoingWait,
    Mod,
    State,
    arrest_not_begun,
    board,
    book,
    bridges_open,
    discard_action,
    draw_actions,
    effect_round,
    is_,
    judge,
    judge_seat,
    known_location,
    ko,
    perp_card,
    perp_sectors,
    private,
    quarantined,
    refill_now,
    sector_of,
    take_from_hand,
)


def play(state: State, action: Action, events: list[Event]) -> None:
    """``play``: an Action card played outside combat."""
    seat = field(action, "by", str)
    j = judge(state, seat)
    card = book(state).action(field(action, "card", str))
    option = optional_field(action, "option", str, "main")
    if option not in ("main", "alt"):
        raise IllegalAction("'option' is 'main' or 'alt' (the alternative option)")
    if card.type == "alert":
        _alert(state, seat, card, action, events)
        return
    pending = state["pending"]
    if pending and pending["kind"] in ("barney", "boing"):
        _respond(state, seat, card, option, pending, events)
        return
    if card.kind == "robodoc" and option == "main":
        _robodoc(state, seat, card, action, events)
        return
    outside_combat = card.kind in ("tip-off", "boing", "block-mania")
    if outside_combat and option == "main" and arrest_not_begun(state):
        _withdraw_arrest(state, events)
        pending = state["pending"]
    if state["combat"] is not None:
        raise IllegalAction("once a combat has begun, cards are only added to it ('commit')")
    if pending:
        raise IllegalAction("finish what the table is doing first (" + pending["kind"] + ")")
    if option == "alt":
        raise IllegalAction(f"the alternative option of {card.name} is only for your own combat")
    if j["ko"]:
        raise IllegalAction(f"{seat}'s Judge is KO'd and cannot play cards this round")
    if card.type == "movement":
        _movement(state, seat, card, action, events)
    elif card.kind == "tip-off":
        _tip_off(state, seat, card, action, events)
    elif card.kind == "boing":
        _boing(state, seat, card, action, events)
    elif card.kind == "block-mania":
        _block_mania(state, seat, card, action, events)
    elif card.kind == "robodoc":
        raise IllegalAction("Robodoc is played when your Judge is KO'd")
    else:
        raise IllegalAction(f"{card.name} is played face-down in a combat ('commit')")


def _withdraw_arrest(state: State, events: list[Event]) -> None:
    """Set the announced arrest aside; the phase announces the next one after the card."""
    combat, pending = state["combat"], state["pending"]
    if combat is not None:
        sector = combat["sector"]
    elif pending is not None and pending["kind"] in ("declare", "reveal_perp"):
        sector = pending["sector"]
    else:
        raise ValueError("only an announced arrest is withdrawn")  # an engine bug, not input
    state["combat"] = None
    state["pending"] = None
    events.append(public("arrest_withdrawn", sector=sector))


def _target(state: State, action: Action, card: ActionCard) -> str:
    target = judge_seat(state, field(action, "target", str))
    if quarantined(state, sector_of(state, target)):
        raise IllegalAction(
            f"{target}'s Judge is in a quarantined Sector, immune to {card.name} this round"
        )
    return target


def _use(state: State, seat: str, card: ActionCard) -> None:
    take_from_hand(state, seat, card.id)
    discard_action(state, card.id)


def _movement(
    state: State, seat: str, card: ActionCard, action: Action, events: list[Event]
) -> None:
    if state["phase"] != "movement":
        raise IllegalAction("Movement cards are played in the movement phase")
    target = _target(state, action, card)
    t = state["judges"][target]
    if card.effect.get("barney"):
        to = board(state).sector(field(action, "to", str))
        if board(state).sectors[to].kind != "start":
            raise IllegalAction("a Barney sends a Judge to a Starting Sector")
        if quarantined(state, to):
            raise IllegalAction("a Barney cannot send a Judge into a quarantined Sector")
        _use(state, seat, card)
        state["pending"] = {"kind": "barney", "by": seat, "target": target, "to": to}
        events.append(public("card_played", by=seat, card=card.id, target=target, to=to))
        return
    mod: Mod = {"card": card.id}
    if "move_delta" in card.effect:
        mod["delta"] = card.effect["move_delta"]
    if card.effect.get("move_half"):
        mod["half"] = True
    _use(state, seat, card)
    (t["mods_next"] if t["moved"] else t["mods"]).append(mod)
    events.append(
        public(
            "card_played",
            by=seat,
            card=card.id,
            target=target,
            applies="next round" if t["moved"] else "this round",
        )
    )


def _tip_off(
    state: State, seat: str, card: ActionCard, action: Action, events: list[Event]
) -> None:
    if state["phase"] not in ("movement", "arrest"):
        raise IllegalAction("Special cards are played in the movement or arrest phase")
    b = board(state)
    src = b.sector(field(action, "sector", str))
    if state["perps"][src] is None:
        raise IllegalAction(f"there is no Perp in {b.name_of(src)}")
    to = b.sector(field(action, "to", str))
    if to not in perp_destinations(state, src):
        raise IllegalAction(
            f"a Tip-Off cannot move the Perp to {b.name_of(to)}: up to two Sectors, "
            "not the Hospital or another Perp's Sector"
        )
    _use(state, seat, card)
    move_perp(state, src, to)
    events.append(public("card_played", by=seat, card=card.id, sector=src, to=to))
    _after(state, events)


def _boing(state: State, seat: str, card: ActionCard, action: Action, events: list[Event]) -> None:
    if state["phase"] not in ("movement", "arrest"):
        raise IllegalAction("Special cards are played in the movement or arrest phase")
    target = _target(state, action, card)
    if state["judges"][target]["ko"]:
        raise IllegalAction(f"{target}'s Judge is already KO'd")
    _use(state, seat, card)
    state["pending"] = {"kind": "boing", "by": seat, "target": target}
    events.append(public("card_played", by=seat, card=card.id, target=target))


def _block_mania(
    state: State, seat: str, card: ActionCard, action: Action, events: list[Event]
) -> None:
    if state["phase"] not in ("movement", "arrest"):
        raise IllegalAction("Special cards are played in the movement or arrest phase")
    pair = field(action, "judges", list)
    if len(pair) != 2 or pair[0] == pair[1]:
        raise IllegalAction("Block Mania names two different Judges")
    judges: list[str] = []
    for s in pair:
        named = judge_seat(state, s)
        t = state["judges"][named]
        if t["ko"]:
            raise IllegalAction(f"{s}'s Judge is KO'd")
        if t["fought"]:
            raise IllegalAction(f"{s}'s Judge has already been in a combat this round")
        if quarantined(state, sector_of(state, named)):
            raise IllegalAction(f"{s}'s Judge is in a quarantined Sector, immune to Block Mania")
        judges.append(named)
    _use(state, seat, card)
    events.append(public("card_played", by=seat, card=card.id, judges=judges))
    order_ = [s for s in state["players"] if s in pair]
    open_combat(state, "block", None, [[order_[0]], [order_[1]]], events)


def _respond(
    state: State,
    seat: str,
    card: ActionCard,
    option: str,
    pending: BarneyWait | BoingWait,
    events: list[Event],
) -> None:
    """The target of a Barney or BOING! cancels it with the card that allows it."""
    if seat != pending["target"]:
        raise IllegalAction(f"waiting for {pending['target']} to answer the {pending['kind']}")
    if pending["kind"] == "boing" and card.kind == "tip-off" and option == "main":
        ok = True
    else:
        ok = option == "alt" and card.ignores == pending["kind"]
    if not ok:
        what = "a Tip-Off, or a card whose" if pending["kind"] == "boing" else "a card whose"
        raise IllegalAction(
            f"to cancel the {pending['kind']}, play {what} alternative option ignores it"
        )
    _use(state, seat, card)
    state["pending"] = None
    events.append(public("cancelled", by=seat, card=card.id, cancels=pending["kind"]))
    _after(state, events)


def accept(state: State, action: Action, events: list[Event]) -> None:
    """``accept``: the target lets a Barney or BOING! take effect."""
    seat = field(action, "by", str)
    pending = state["pending"]
    if not pending or pending["kind"] not in ("barney", "boing"):
        raise IllegalAction("there is nothing to accept")
    if seat != pending["target"]:
        raise IllegalAction(f"waiting for {pending['target']} to answer the {pending['kind']}")
    state["pending"] = None
    if pending["kind"] == "barney":
        state["judges"][seat]["sector"] = pending["to"]
        events.append(public("barneyed", judge=seat, sector=pending["to"]))
        _enter(state, pending["to"], action, events)
    else:
        ko(state, seat, events)
    _after(state, events)


def _robodoc(
    state: State, seat: str, card: ActionCard, action: Action, events: list[Event]
) -> None:
    pending = state["pending"]
    wait = pending if pending is not None and pending["kind"] == "robodoc" else None
    waiting = wait is not None and seat in wait["seats"]
    if seat not in state["robodoc_window"] and not waiting:
        raise IllegalAction("Robodoc is played at the moment your Judge is KO'd")
    j = state["judges"][seat]
    here = sector_of(state, seat)
    b = board(state)
    to = b.sector(field(action, "to", str))
    if not b.adjacent(here, to, bridges_open(state)):
        raise IllegalAction(f"Robodoc moves you to a Sector next to {b.name_of(here)}")
    if quarantined(state, to) or quarantined(state, here):
        raise IllegalAction("nobody may enter or leave a quarantined Sector")
    take_from_hand(state, seat, card.id)
    discard_action(state, card.id)
    if seat in state["robodoc_window"]:
        state["robodoc_window"].remove(seat)
    j["ko"] = False
    j["sector"] = to
    events.append(public("robodoc", judge=seat, card=card.id, sector=to))
    _enter(state, to, action, events)
    if wait is not None and waiting:
        wait["seats"].remove(seat)
        if wait["seats"]:
            return
        state["pending"] = None
    _after(state, events)


def _enter(state: State, sector: str, action: Action, events: list[Event]) -> None:
    """A Judge a card moved into ``sector`` turns up a face-down Perp there.

    "If you enter a Sector containing a face-down Perp, immediately turn the card face
    up": the rulebook calls a Barney's move entering ("A Barney card cannot force a Judge
    to enter a Quarantined Sector"), and Robodoc's is a move into an adjacent space.
    """
    perp = state["perps"][sector]
    if perp is not None and not perp["face_up"]:
        reveal_perp(state, sector, optional_field(action, "perp", str), events)
    elif optional_field(action, "perp", str) is not None:
        raise IllegalAction("'perp' is only given when the Judge lands on a face-down Perp")


def _after(state: State, events: list[Event]) -> None:
    advance(state, events)


# -- Alerts: played the moment they are drawn ----------------------------------
def _alert(state: State, seat: str, card: ActionCard, action: Action, events: list[Event]) -> None:
    refill = refill_now(state)
    if refill is None or refill["step"] != "draw" or not refill["owed"].get(seat):
        raise IllegalAction("an Alert card is played the moment it is drawn in the refill phase")
    if known_location(state, card.id) is not None:
        raise IllegalAction(f"{card.id} cannot be drawn: the referee knows it is elsewhere")
    b = board(state)
    kind = card.effect["alert"]
    info: JsonObject = {}
    if kind == "alien-escape":
        where = _alien_to(state, action)
        if where is None:
            info["no_effect"] = True
        else:
            state["alien"] = where
            info["alien"] = where
    elif kind == "quarantine":
        where = b.sector(field(action, "sector", str))
        state["quarantine"][where] = effect_round(state)
        info.update(sector=where, round=effect_round(state))
    elif kind == "bridges-closed":
        state["bridges_closed_until"] = effect_round(state)
        info["round"] = effect_round(state)
    elif kind == "crime-spree" and (state["crime_deck"] <= 0 or not perp_sectors(state)):
        # Played at once and replaced as every Alert, but with nothing to add to (no Perp
        # out) or nothing to add (no Crime left) it has no effect; no Crime is drawn.
        if optional_field(action, "crime", str) is not None:
            why = "the Crime deck is empty" if state["crime_deck"] <= 0 else "no Perp is out"
            raise IllegalAction(f"{why}: the Crime Spree is played without a Crime")
        info["no_effect"] = True
    elif kind == "crime-spree":
        where = b.sector(field(action, "sector", str))
        if state["perps"][where] is None:
            raise IllegalAction("a Crime Spree adds a Crime to a Sector with a Perp")
        crime = book(state).crime(field(action, "crime", str))
        if crime in state["crimes_seen"]:
            raise IllegalAction(f"the Crime card {crime} is not in the Crime deck")
        state["crime_deck"] -= 1
        state["crimes_seen"].append(crime)
        state["crimes"][where].append(crime)
        info.update(sector=where, crime=crime)
    draw_actions(state, seat, 1, [card.id], events)
    state["judges"][seat]["known"].remove(card.id)
    state["judges"][seat]["hand"] -= 1
    discard_action(state, card.id)
    events.append(public("alert", by=seat, card=card.id, **info))
    check_final(state, events)


def alien_destinations(state: State) -> set[str]:
    """Where an Alien Escape may put the Alien now.

    Bridges Closed does not hold it ("Judges and Perps (but not the Alien)"), but Quarantine
    does: a Quarantined Sector is "impossible to enter or leave", with no exception for the
    Alien, so it never enters, crosses or leaves one. Only Judges enter the Hospital.
    """
    b = board(state)
    locked = {s for s in b.sectors if quarantined(state, s)}
    if state["alien"] is None:
        zoo = "alien-zoo" if "alien-zoo" in b.sectors else None
        near = set(b.neighbours(zoo)) if zoo else set(b.sectors)
        return near - locked - {b.hospital}
    if state["alien"] in locked:
        return {state["alien"]}
    return b.within(state["alien"], 2, True, avoid={b.hospital} | locked)


def _alien_to(state: State, action: Action) -> str | None:
    """The Sector an Alien Escape names, checked; None when it has nowhere to go."""
    b = board(state)
    ends = alien_destinations(state)
    if state["alien"] is None:
        if not ends:
            # Every Sector by the Zoo is Quarantined: the card is played with no effect.
            if optional_field(action, "sector", str) is not None:
                raise IllegalAction("every Sector next to the Alien Zoo is quarantined")
            return None
        where = b.sector(field(action, "sector", str))
        if where not in ends:
            raise IllegalAction(
                "the Alien is placed in a Sector next to the Alien Zoo, not the Hospital "
                "and not a quarantined one"
            )
        return where
    where = b.sector(field(action, "to", str))
    if where not in ends:
        raise IllegalAction(
            "the Alien moves up to two Sectors, never into the Hospital, and never into, "
            "through or out of a quarantined Sector"
        )
    return where


# -- Specialists' peeks --------------------------------------------------------
def psi_peek(state: State, action: Action, events: list[Event]) -> None:
    """``psi_peek``: once per round the Psi-Judge secretly looks at a face-down Perp."""
    seat = field(action, "by", str)
    judge(state, seat)
    if not is_(state, seat, "psi-judge"):
        raise IllegalAction("only the Psi-Judge can read a face-down Perp")
    if state["phase"] in ("setup", "over", "tiebreak"):
        raise IllegalAction("the Psi-Judge peeks during a round")
    if state["psi_peeked"]:
        raise IllegalAction("the Psi-Judge has already peeked this round")
    b = board(state)
    sector = b.sector(field(action, "sector", str))
    perp = state["perps"][sector]
    if perp is None or perp["face_up"]:
        raise IllegalAction(f"there is no face-down Perp in {b.name_of(sector)}")
    tapped = optional_field(action, "perp", str)
    if perp["card"] is None:
        if tapped is None:
            raise IllegalAction("tap the face-down Perp card to read it (give its id as 'perp')")
        book(state).perp(tapped)
        if tapped in state["perps_seen"]:
            raise IllegalAction("the referee knows that Perp card is already elsewhere")
        perp["card"] = tapped
        state["perps_seen"].append(tapped)
    elif tapped is not None and tapped != perp["card"]:
        raise IllegalAction(f"that is not the Perp in {b.name_of(sector)}")
    state["psi_peeked"] = True
    state["psi_known"].append(perp_card(perp))
    events.append(public("psi_peek", by=seat, sector=sector))
    events.append(
        private(
            seat,
            "perp_seen",
            sector=sector,
            perp=perp["card"],
            strength=book(state).perps[perp_card(perp)],
        )
    )
