"""The game state (a plain JSON-like dict) and the small helpers every phase shares.

The state holds two immutable shared objects (the :class:`Board` and the
:class:`CardBook`) that deep copies keep by reference; everything else is plain
dicts and lists so a state deep-copies quickly and reads like the summary. Its
shape is the :class:`State` TypedDict below.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from lawmaster.rules.core import Event, IllegalAction, JsonValue, public, to_seats

from .board import Board
from .cards import CardBook


class Mod(TypedDict):
    """A Movement card on a Judge: more or fewer Sectors (``delta``), or half of them."""

    card: str
    delta: NotRequired[int]
    half: NotRequired[bool]


class Judge(TypedDict):
    """One seat's Judge: where it stands (``None`` until placed), its hand and score pile.

    ``hand`` counts the cards held; ``known`` are the ones the engine has seen tapped.
    """

    sector: str | None
    ko: bool
    moved: bool
    fought: bool
    hand: int
    known: list[str]
    score: list[str]
    mods: list[Mod]
    mods_next: list[Mod]


class Perp(TypedDict):
    """A Perp on the board; ``card`` is ``None`` until its card is tapped."""

    card: str | None
    face_up: bool


#: The part of a committed card that decides what it does (``for``: the Judge it helps).
CardPlay = TypedDict("CardPlay", {"for": str, "card": str, "option": str})
#: An Action card committed to a combat.
CombatCard = TypedDict(
    "CombatCard", {"by": str, "for": str, "card": str, "face_up": bool, "option": str}
)


class Combat(TypedDict):
    """The combat in progress. ``sector`` is ``None`` for Block Mania and the tie-break."""

    kind: CombatKind
    sector: str | None
    groups: list[list[str]]
    cards: list[CombatCard]
    cooled: list[str]
    revealed: bool
    psi_first: list[str]
    #: Dice each group (by its first seat) and the Perp roll, once the cards are revealed.
    needed: dict[str, int] | None
    roller: str | None


class RobodocWait(TypedDict):
    """The arrest phase waits for KO'd Judges to play Robodoc or decline."""

    kind: Literal["robodoc"]
    seats: list[str]


class RevealWait(TypedDict):
    """An arrest waits for its face-down Perp to be tapped."""

    kind: Literal["reveal_perp"]
    sector: str


class DeclareWait(TypedDict):
    """The Judges in a Sector are to say who arrests together and who alone."""

    kind: Literal["declare"]
    sector: str
    seats: list[str]
    foe: str


class EscapeWait(TypedDict):
    """After a tie the Perp-die roller moves the Perp."""

    kind: Literal["escape"]
    sector: str
    by: str


class BarneyWait(TypedDict):
    """A Barney waits for its target to accept or cancel it."""

    kind: Literal["barney"]
    by: str
    target: str
    to: str


class BoingWait(TypedDict):
    """A BOING! waits for its target to accept or cancel it."""

    kind: Literal["boing"]
    by: str
    target: str


#: What the table must answer before anything else happens.
Pending = RobodocWait | RevealWait | DeclareWait | EscapeWait | BarneyWait | BoingWait


class HandSeen(TypedDict):
    """What Internal Affairs showed the SJS: a hand's known cards and how many unknown."""

    by: str
    target: str
    cards: list[str]
    unknown: int


class Refill(TypedDict):
    """The refill in progress: its step, the draws owed, the Hospital's recyclers."""

    step: Literal["crimes", "hotdog", "draw"]
    owed: dict[str, int]
    recycle_due: list[str]
    ia_used: bool
    drawn_any: bool
    ia_seen: NotRequired[HandSeen]


CombatKind = Literal["arrest", "alien", "block", "tiebreak"]


class State(TypedDict):
    """The whole state of a game of Judge Dredd."""

    board: Board
    cards: CardBook
    options: dict[str, str]
    length: str
    players: list[str]
    specialists: dict[str, str | None]
    starting: str
    round: int
    phase: str
    judges: dict[str, Judge]
    perps: dict[str, Perp | None]
    crimes: dict[str, list[str]]
    alien: str | None
    sector_deck: list[str]
    sector_discard: list[str]
    perp_deck: int
    crime_deck: int
    perps_seen: list[str]
    crimes_seen: list[str]
    action_deck: int
    action_discard: list[str]
    action_discard_count: int
    #: Sector → the last round its quarantine holds.
    quarantine: dict[str, int]
    bridges_closed_until: int | None
    mover: int
    combat: Combat | None
    pending: Pending | None
    refill: Refill | None
    arrests: int
    perps_added: int
    final_round: bool
    final_next: bool
    psi_peeked: bool
    psi_known: list[str]
    robodoc_window: list[str]
    declined: list[str]
    arrest_go: bool
    winner: str | None
    tiebreak: None


HAND_LIMIT = 6
BASE_STRENGTH = 6
SPECIALISTS = ("chief-judge", "sjs", "psi-judge", "wally-squad", "cadet", "mechanismo")
SPECIALIST_STRENGTH = {"cadet": 4, "mechanismo": 8}
LENGTHS = ("hotdog-run", "day-shift", "night-shift")
PERPS_ON_BOARD = 6


def board(state: State) -> Board:
    return state["board"]


def book(state: State) -> CardBook:
    return state["cards"]


def order(state: State) -> list[str]:
    """This round's turn order: the Starting Player, then clockwise."""
    players = state["players"]
    i = players.index(state["starting"])
    return players[i:] + players[:i]


def judge(state: State, seat: object) -> Judge:
    """The Judge of ``seat``, or :class:`IllegalAction` naming the seat."""
    return state["judges"][judge_seat(state, seat)]


def judge_seat(state: State, seat: object) -> str:
    """``seat`` when it is a Judge's seat in this game, or :class:`IllegalAction` naming it."""
    if not isinstance(seat, str) or seat not in state["judges"]:
        raise IllegalAction(f"{seat!r} is not a Judge in this game")
    return seat


def specialist(state: State, seat: str) -> str | None:
    return state["specialists"].get(seat)


def is_(state: State, seat: str, name: str) -> bool:
    """Whether ``seat`` plays the Specialist Judge ``name``."""
    return state["specialists"].get(seat) == name


def base_strength(state: State, seat: str) -> int:
    return SPECIALIST_STRENGTH.get(specialist(state, seat) or "", BASE_STRENGTH)


def hand_limit(state: State, seat: str) -> int:
    return HAND_LIMIT + (1 if is_(state, seat, "cadet") else 0)


def judges_in(state: State, sector: str, standing_only: bool = True) -> list[str]:
    """The seats whose Judge is in ``sector``, in this round's turn order."""
    return [
        s
        for s in order(state)
        if state["judges"][s]["sector"] == sector
        and not (standing_only and state["judges"][s]["ko"])
    ]


def quarantined(state: State, sector: str) -> bool:
    until = state["quarantine"].get(sector)
    return until is not None and state["round"] <= until


def bridges_open(state: State) -> bool:
    until = state["bridges_closed_until"]
    return until is None or state["round"] > until


def effect_round(state: State) -> int:
    """The round an alert's one-round effect covers: the next one if played in the refill."""
    return state["round"] + 1 if state["phase"] == "refill" else state["round"]


def perp_sectors(state: State) -> list[str]:
    return [s for s, p in state["perps"].items() if p is not None]


# -- what the caller knows is there: a missing one is an engine bug, not input -----
def sector_of(state: State, seat: str) -> str:
    """Where ``seat``'s Judge stands (every Judge does, once setup is over)."""
    sector = state["judges"][seat]["sector"]
    if sector is None:
        raise ValueError(f"{seat}'s Judge is not on the board")
    return sector


def perp_in(state: State, sector: str) -> Perp:
    """The Perp in ``sector``."""
    perp = state["perps"][sector]
    if perp is None:
        raise ValueError(f"there is no Perp in {sector}")
    return perp


def perp_card(perp: Perp) -> str:
    """The card of a Perp that is face up or was tapped."""
    card = perp["card"]
    if card is None:
        raise ValueError("the Perp's card is not known yet")
    return card


def combat_sector(combat: Combat) -> str:
    """The Sector of an arrest or an Alien fight."""
    sector = combat["sector"]
    if sector is None:
        raise ValueError(f"a {combat['kind']} combat has no Sector")
    return sector


def refill_of(state: State) -> Refill:
    """The refill in progress."""
    refill = state["refill"]
    if refill is None:
        raise ValueError("there is no refill in progress")
    return refill


def refill_now(state: State) -> Refill | None:
    """The refill's record while the phase is the refill, else ``None``."""
    return refill_of(state) if state["phase"] == "refill" else None


# -- Action cards: where the engine knows each one is ------------------------
def known_location(state: State, card: str) -> str | None:
    """Where the engine knows ``card`` is ("hand:<seat>", "discard", "combat"), if anywhere."""
    for seat, j in state["judges"].items():
        if card in j["known"]:
            return f"hand:{seat}"
    if card in state["action_discard"]:
        return "discard"
    combat = state.get("combat")
    if combat and any(c["card"] == card for c in combat["cards"]):
        return "combat"
    return None


def _in_play_for(combat: Combat | None, seat: str, card: str) -> bool:
    """Whether ``seat`` may know ``card`` is in the combat: face up, or its own."""
    return combat is not None and any(
        c["card"] == card and (c["face_up"] or c["by"] == seat) for c in combat["cards"]
    )


def take_from_hand(state: State, seat: str, card: str) -> None:
    """Remove a tapped card from ``seat``'s hand, checking it can be there."""
    j = state["judges"][seat]
    where = known_location(state, card)
    if where is not None and where != f"hand:{seat}":
        name = f"{book(state).names[card]} ({card})"
        if where == "discard":
            reason = f"{name} is in the discard pile, not in {seat}'s hand"
        elif where == "combat" and _in_play_for(state["combat"], seat, card):
            reason = f"{name} is already in play"
        else:
            # Another hand or a face-down commitment: where it is, is not the tapper's to know.
            reason = f"{name} cannot come from {seat}'s hand: the referee knows it is elsewhere"
        raise IllegalAction(reason)
    if card in j["known"]:
        j["known"].remove(card)
    elif j["hand"] - len(j["known"]) <= 0:
        raise IllegalAction(f"{seat} has no unknown card left in hand that could be {card}")
    j["hand"] -= 1


def discard_action(state: State, card: str | None) -> None:
    """Put one Action card on the discard pile (``None``: a card the engine never saw)."""
    state["action_discard_count"] += 1
    if card is not None:
        state["action_discard"].append(card)


def draw_actions(
    state: State, seat: str, count: int, cards: list[str], events: list[Event]
) -> None:
    """``seat`` draws ``count`` cards from the deck; a deck that runs out is rebuilt at once."""
    for _ in range(count):
        if state["action_deck"] == 0:
            raise IllegalAction("there are no Action cards left to draw")
        state["action_deck"] -= 1
        state["judges"][seat]["hand"] += 1
        decks_run_out(state, events)
    state["judges"][seat]["known"].extend(cards)


def decks_run_out(state: State, events: list[Event]) -> None:
    """Rebuild, at once, a deck that has run out from its discards.

    A deck runs out the moment its last card is taken, and then "If the deck of Action
    cards ever runs out, shuffle up the discarded cards to form a new deck"; the Night
    Shift's Sector deck likewise ("When the Sector cards run out, shuffle up the discard
    pile to form a new Sector deck"). An empty deck with nothing discarded yet stays out
    until a card is discarded, which then forms the new deck: an empty deck never sits
    beside a discard pile. The engine runs this after every change to a deck or a
    discard pile.
    """
    if state["action_deck"] == 0 and state["action_discard_count"] > 0:
        state["action_deck"] = state["action_discard_count"]
        state["action_discard_count"] = 0
        state["action_discard"] = []
        events.append(public("action_deck_reshuffled", size=state["action_deck"]))
    night = state["length"] == "night-shift"
    if night and not state["sector_deck"] and state["sector_discard"]:
        state["sector_deck"] = sorted(state["sector_discard"])
        state["sector_discard"] = []
        events.append(public("sector_deck_reshuffled", size=len(state["sector_deck"])))


def arrest_not_begun(state: State) -> bool:
    """Whether the arrest the phase has reached may still give way to a Special card.

    With ``arrest_start: auto`` an arrest opens as soon as the last one ends, so this is
    the arrest phase's moment for "Special cards can be used during either the movement
    or arrest phase": until a card is committed, Mechanismo cools or the cards are
    revealed, nothing of that arrest has happened yet.
    """
    if state["phase"] != "arrest" or state["options"]["arrest_start"] != "auto":
        return False
    combat, pending = state["combat"], state["pending"]
    if combat is not None:
        return (
            combat["kind"] in ("arrest", "alien")
            and not combat["cards"]
            and not combat["cooled"]
            and not combat["revealed"]
        )
    return pending is not None and pending["kind"] in ("declare", "reveal_perp")


def robodoc_due(state: State) -> list[str]:
    """The KO'd seats whose moment to play Robodoc is open and who might hold one.

    Only public facts rule a seat out (an empty hand, every Robodoc in the discard pile):
    asking only the seats the engine believes hold one would tell the table about a hand.
    """
    family = [c for c, a in book(state).actions.items() if a.kind == "robodoc"]
    if all(c in state["action_discard"] for c in family):
        return []
    return [
        s
        for s in state["robodoc_window"]
        if state["judges"][s]["ko"] and state["judges"][s]["hand"] > 0
    ]


def ko(state: State, seat: str, events: list[Event]) -> None:
    """Knock a Judge out; a Robodoc may still save them before the next action."""
    state["judges"][seat]["ko"] = True
    state["robodoc_window"].append(seat)
    events.append(public("ko", judge=seat, sector=state["judges"][seat]["sector"]))


def private(seat: str, type_: str, **fields: JsonValue) -> Event:
    """An event only ``seat`` sees."""
    return to_seats([seat], type_, **fields)
