"""Setting a game up: the header, placing the Judges and the first six crimes.

Also the one place that adds a Perp and Crime to the board from a Sector card,
shared by setup and the refill phase.
"""

from __future__ import annotations

from collections.abc import Mapping

from lawmaster.rules.core import (
    Action,
    Event,
    IllegalAction,
    JsonObject,
    field,
    optional_field,
    public,
)

from .board import Board
from .cards import CardBook
from .state import (
    LENGTHS,
    PERPS_ON_BOARD,
    SPECIALISTS,
    State,
    board,
    book,
    decks_run_out,
    hand_limit,
    judge,
    judge_seat,
    known_location,
    order,
    perp_sectors,
    private,
)

OPTIONS: dict[str, tuple[str, ...]] = {
    # A Sector card naming a Sector that already holds a Perp: the new Crime joins
    # that Perp ("add_crime"), or the card is discarded and another drawn ("redraw").
    "occupied_sector": ("add_crime", "redraw"),
    # The Hotdog Run discard: the setup text says "if no Perps have been added to the
    # board this round", the Game Length text "if no arrests have been made this round".
    "hotdog_discard": ("no_perps_added", "no_arrests"),
    # The arrest phase: open each arrest at once ("auto"), or wait for ``next_arrest`` before
    # each one ("wait") so Special cards can be played between arrests.
    "arrest_start": ("auto", "wait"),
    # The Crime (or Perp) deck runs out in a Day Shift or Hotdog Run, whose end waits for the
    # Sector deck (Crime Sprees use Crimes too): the final round is triggered, as in the Night
    # Shift ("final_round"); or Sector cards go on being drawn and place what is left, a Perp
    # without a Crime ("perp_alone").
    "crime_deck_out": ("final_round", "perp_alone"),
}


def new_game(header: Mapping[str, object]) -> tuple[State, list[Event]]:
    """The state after the header, and the setup events."""
    the_board = Board.load(header.get("board", "standard"))
    the_cards = CardBook.load(header.get("cards", "standard"))
    raw_players = header.get("players")
    players = (
        [p for p in raw_players if isinstance(p, str) and p]
        if isinstance(raw_players, list)
        else []
    )
    if not isinstance(raw_players, list) or len(players) != len(raw_players):
        raise IllegalAction('\'players\' must list the seats in clockwise order, e.g. ["a", "b"]')
    if not 2 <= len(players) <= 6 or len(set(players)) != len(players):
        raise IllegalAction("Judge Dredd needs 2 to 6 different seats in 'players'")
    if "table" in players:
        raise IllegalAction("'table' is the public screen, not a player's seat")
    start = header.get("starting_player", players[0])
    if not isinstance(start, str) or start not in players:
        raise IllegalAction(f"the starting player {start!r} is not one of the players")
    length = header.get("length", "day-shift")
    if not isinstance(length, str) or length not in LENGTHS:
        raise IllegalAction(f"'length' must be one of {', '.join(LENGTHS)}")
    specialists = _specialists(header.get("specialists"), players)
    options = {k: v[0] for k, v in OPTIONS.items()}
    raw_options = header.get("options") or {}
    if not isinstance(raw_options, Mapping):
        raise IllegalAction("'options' must be an object")
    for key, value in raw_options.items():
        known = isinstance(key, str) and key in OPTIONS
        if not (known and isinstance(value, str) and value in OPTIONS[key]):
            raise IllegalAction(f"unknown option {key}={value!r}; see the rules README")
        options[key] = value
    state: State = {
        "board": the_board,
        "cards": the_cards,
        "options": options,
        "length": length,
        "players": list(players),
        "specialists": specialists,
        "starting": start,
        "round": 0,
        "phase": "setup",
        "judges": {
            p: {
                "sector": None,
                "ko": False,
                "moved": False,
                "fought": False,
                "hand": 0,
                "known": [],
                "score": [],
                "mods": [],
                "mods_next": [],
            }
            for p in players
        },
        "perps": {s: None for s in the_board.sectors},
        "crimes": {s: [] for s in the_board.sectors},
        "alien": None,
        # Only Sector cards naming a Sector on this board (an inline board may be tiny).
        "sector_deck": sorted(
            c for c, s in the_cards.sector_cards.items() if s in the_board.sectors
        ),
        "sector_discard": [],
        "perp_deck": len(the_cards.perps),
        "crime_deck": len(the_cards.crimes),
        "perps_seen": [],
        "crimes_seen": [],
        "action_deck": len(the_cards.actions),
        "action_discard": [],
        "action_discard_count": 0,
        "quarantine": {},
        "bridges_closed_until": None,
        "mover": 0,
        "combat": None,
        "pending": None,
        "refill": None,
        "arrests": 0,
        "perps_added": 0,
        "final_round": False,
        "final_next": False,
        "psi_peeked": False,
        "psi_known": [],
        "robodoc_window": [],
        "declined": [],
        "arrest_go": False,
        "winner": None,
        "tiebreak": None,
    }
    events: list[Event] = []
    # Setup step 8 happens in the physical deal; alerts are put back, so only counts matter.
    for p in players:
        state["judges"][p]["hand"] = hand_limit(state, p)
        state["action_deck"] -= hand_limit(state, p)
    # Alerts are never held, so only the other cards can fill the hands; enough of them also
    # means a refill always finds the cards it owes (the hands never hold more than this).
    plain = sum(1 for a in the_cards.actions.values() if a.type != "alert")
    if plain < sum(hand_limit(state, p) for p in players):
        raise IllegalAction("the Action deck is too small to deal every player a hand")
    events.append(
        public(
            "setup",
            players=list(players),
            starting_player=start,
            length=length,
            specialists=specialists,
            board=the_board.name,
        )
    )
    hands = header.get("hands") or {}
    if not isinstance(hands, Mapping):
        raise IllegalAction("'hands' must map seats to the card ids they hold")
    for seat, cards in hands.items():
        show_cards(state, judge_seat(state, seat), cards, events)
    positions = header.get("positions") or {}
    if not isinstance(positions, Mapping):
        raise IllegalAction("'positions' must map seats to Starting Sectors")
    for seat in order(state):
        if seat in positions:
            place_judge(
                state, {"act": "place_judge", "by": seat, "sector": positions[seat]}, events
            )
    for extra in positions:
        judge(state, extra)
    crimes = header.get("crimes") or []
    if not isinstance(crimes, list):
        raise IllegalAction("'crimes' must be a list of {sector_card, crime, perp} objects")
    for item in crimes:
        if not isinstance(item, Mapping):
            raise IllegalAction("each entry of 'crimes' must be an object")
        place_crime(state, {"act": "place_crime", **item}, events)
    return state, events


def _specialists(value: object, players: list[str]) -> dict[str, str | None]:
    if value in (None, False):
        return {p: None for p in players}
    if not isinstance(value, Mapping):
        raise IllegalAction("'specialists' must map each seat to its Specialist Judge")
    out: dict[str, str | None] = {}
    for p in players:
        name = value.get(p)
        if name is not None and (not isinstance(name, str) or name not in SPECIALISTS):
            raise IllegalAction(f"{name!r} is not a Specialist Judge ({', '.join(SPECIALISTS)})")
        out[p] = name
    chosen = [n for n in out.values() if n]
    if len(chosen) != len(set(chosen)):
        raise IllegalAction("each Specialist Judge token can be taken only once")
    for seat in value:
        if seat not in players:
            raise IllegalAction(f"{seat!r} in 'specialists' is not a player")
    return out


def show_cards(state: State, seat: str, cards: object, events: list[Event]) -> None:
    """``seat`` taps cards it holds, so the engine (and only that seat) knows them."""
    j = judge(state, seat)
    if not isinstance(cards, list):
        raise IllegalAction("'cards' must be a list of Action card ids")
    shown: list[str] = []
    for tapped in cards:
        action_card = book(state).action(tapped)
        card = action_card.id
        shown.append(card)
        if action_card.type == "alert":
            raise IllegalAction(f"{card} is an Alert: it is played when drawn, never held")
        where = known_location(state, card)
        if where == f"hand:{seat}":
            continue
        if where is not None:
            raise IllegalAction(
                f"{card} cannot be in {seat}'s hand: the referee knows it is elsewhere"
            )
        if len(j["known"]) >= j["hand"]:
            raise IllegalAction(f"{seat} holds only {j['hand']} cards")
        j["known"].append(card)
    if cards:
        events.append(private(seat, "hand_known", judge=seat, cards=shown))


def place_judge(state: State, action: Action, events: list[Event]) -> None:
    """Setup step 5: each Judge, in turn order, on an empty Starting Sector."""
    if state["phase"] != "setup":
        raise IllegalAction("Judges are placed only during setup")
    seat = field(action, "by", str)
    j = judge(state, seat)
    due = next((s for s in order(state) if state["judges"][s]["sector"] is None), None)
    if due is None:
        raise IllegalAction("every Judge is already on the board")
    if seat != due:
        raise IllegalAction(f"it is {due}'s turn to place their Judge")
    sector = board(state).sector(field(action, "sector", str))
    if board(state).sectors[sector].kind != "start":
        raise IllegalAction(f"{board(state).name_of(sector)} is not a Starting Sector")
    if any(o["sector"] == sector for o in state["judges"].values()):
        raise IllegalAction(f"another Judge already stands on {board(state).name_of(sector)}")
    j["sector"] = sector
    events.append(public("judge_placed", judge=seat, sector=sector))


def place_crime(state: State, action: Action, events: list[Event]) -> None:
    """Draw a Sector card; a face-down Perp and a face-up Crime go to its Sector.

    Under ``crime_deck_out: perp_alone`` a card drawn once a deck is empty places only
    what is left (a Perp without a Crime; nothing for an empty Sector with no Perp left).
    """
    cards = book(state)
    card = cards.sector_card(field(action, "sector_card", str))
    if len(perp_sectors(state)) >= PERPS_ON_BOARD:
        raise IllegalAction("there are already 6 Perps on the board")
    if card not in state["sector_deck"]:
        raise IllegalAction(f"the Sector card {card} is not in the Sector deck")
    sector = cards.sector_cards[card]
    occupied = state["perps"][sector] is not None
    perp = optional_field(action, "perp", str)
    if perp is not None and occupied:
        raise IllegalAction(_no_perp_for_occupied(state, sector))
    if occupied and state["options"]["occupied_sector"] == "redraw":
        # No Perp or Crime is drawn for this card: it is discarded and another drawn.
        state["sector_deck"].remove(card)
        state["sector_discard"].append(card)
        events.append(public("sector_redrawn", sector_card=card, sector=sector))
        decks_run_out(state, events)
        return
    crime_left = state["crime_deck"] > 0
    perp_left = state["perp_deck"] > 0 and not occupied
    if not (crime_left and (occupied or perp_left)) and not draws_on(state):
        raise IllegalAction("the Perp or Crime deck is empty")
    crime = optional_field(action, "crime", str)
    if crime is None and crime_left and (occupied or perp_left):
        raise IllegalAction("'place_crime' needs the field 'crime'")
    if crime is not None and not (crime_left and (occupied or perp_left)):
        reason = "the Crime deck is empty" if not crime_left else "no Perp is left for it"
        raise IllegalAction(f"no Crime is placed with this Sector card: {reason}")
    if perp is not None:
        cards.perp(perp)
        if perp in state["perps_seen"]:
            raise IllegalAction("that Perp card has already been drawn")
        if not occupied and not perp_left:
            raise IllegalAction("the Perp deck is empty: no Perp is placed")
    if crime is not None:
        cards.crime(crime)
        if crime in state["crimes_seen"]:
            raise IllegalAction(f"the Crime card {crime} has already been drawn")
    state["sector_deck"].remove(card)
    state["sector_discard"].append(card)
    placed: JsonObject = {"sector_card": card, "sector": sector, "crime": crime}
    if crime is not None:
        state["crime_deck"] -= 1
        state["crimes_seen"].append(crime)
        state["crimes"][sector].append(crime)
    if perp_left:
        state["perp_deck"] -= 1
        state["perps"][sector] = {"card": perp, "face_up": False}
        if perp is not None:
            state["perps_seen"].append(perp)
        state["perps_added"] += 1
        placed["perp"] = "face-down"
    if crime is None and not perp_left:
        events.append(public("sector_card_spent", sector_card=card, sector=sector))
    else:
        events.append(public("crime_placed", **placed))
    decks_run_out(state, events)


def _no_perp_for_occupied(state: State, sector: str) -> str:
    """Why a Perp tapped for a Sector that already holds one is refused.

    Under either ``occupied_sector`` reading no Perp card is drawn for such a Sector card,
    so the one tapped goes back in the deck unseen. A Perp still face down there is named
    only as that: its identity is not the table's to know.
    """
    there = state["perps"][sector]
    if there is None:
        raise ValueError(f"{sector} holds no Perp")  # the caller checked; an engine bug
    card = there["card"]
    who = book(state).names[card] if there["face_up"] and card else "a face-down Perp"
    name = board(state).name_of(sector)
    if state["options"]["occupied_sector"] == "redraw":
        does = "this Sector card is discarded and another drawn"
    else:
        does = "this Sector card adds only its Crime to that Perp"
    return (
        f"{name} already holds {who}: {does}, and no Perp is drawn for it;"
        " put the Perp card back in the Perp deck unseen and place the Crime without it"
    )


def draws_on(state: State) -> bool:
    """Whether Sector cards are still drawn with the Perp or Crime deck empty.

    Only under ``crime_deck_out: perp_alone`` and outside the Night Shift, whose end
    those decks trigger.
    """
    return state["options"]["crime_deck_out"] == "perp_alone" and state["length"] != "night-shift"
