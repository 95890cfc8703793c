"""Setting a game up from a scenario header, with a clear reason for every bad key."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from lawmaster.rules.core import Event, IllegalAction, public, to_seats

from .board import COLOURS, Board
from .cards import criminal_cards
from .deduction import Deduction
from .geometry import geometry_of
from .state import (
    DICE,
    HANDCUFFS,
    JAIL,
    TRUMPS,
    TWO_PLAYER_HANDCUFFS,
    Options,
    Phase,
    State,
)

HEADER_KEYS = (
    "game",
    "board",
    "criminals",
    "abilities",
    "evidence",
    "trumps",
    "two_player",
    "options",
)
_RESERVED_SEATS = {"gw", "table"}


def new_state(header: Mapping[str, object]) -> tuple[State, list[Event]]:
    """The state before the first turn, and the setup events."""
    stray = sorted(k for k in header if k not in HEADER_KEYS)
    if stray:
        raise IllegalAction(
            f"unknown header key {stray[0]!r}; the keys are {', '.join(HEADER_KEYS[1:])}"
        )
    board = Board.load(header.get("board", "standard"))
    two_player = header.get("two_player", False)
    if not isinstance(two_player, bool):
        raise IllegalAction("'two_player' must be true or false")
    pieces = _criminals(header.get("criminals"), two_player)
    options = _options(header.get("options", {}))
    if two_player:
        for key in ("abilities", "trumps"):
            if header.get(key):
                raise IllegalAction(
                    f"the two-player game has no trumps and no special abilities: drop '{key}'"
                )
        abilities: tuple[str | None, ...] = (None,) * len(pieces)
        cards: tuple[str | None, ...] = (None,) * len(pieces)
        trumps: tuple[str, ...] = ()
        handcuffs = TWO_PLAYER_HANDCUFFS
    else:
        abilities, cards = _abilities(header.get("abilities"), pieces)
        trumps = _trumps(header.get("trumps"))
        handcuffs = HANDCUFFS[len(pieces)]
    dealt = _evidence(header.get("evidence"), pieces, board, two_player)
    n = len(pieces)
    deduction = Deduction.start(board, pieces)
    state = State(
        board=board,
        geo=geometry_of(board),
        options=options,
        two_player=two_player,
        pieces=pieces,
        abilities=abilities,
        criminal_cards=cards,
        dealt=dealt,
        held=dealt,
        positions=(JAIL,) * n,
        handcuffs=(0,) * n,
        out=(False,) * n,
        gw_pos=board.gw_start,
        handcuffs_left=handcuffs,
        trumps=trumps,
        trumps_left=trumps,
        handed_in=(),
        dice=(None,) * DICE,
        turn=0,
        phase=Phase.CRIMINAL,
        did=0,
        pending_steps=0,
        pending_kind="",
        informer=None,
        revealed=(),
        round=1,
        winner=None,
        deduction=deduction,
        trails=((JAIL,),) * n,
    )
    events: list[Event] = [
        public(
            "setup",
            criminals=list(pieces),
            handcuffs_left=handcuffs,
            gw_position=board.name_of(board.gw_start),
            two_player=two_player,
            options={
                "gw_steps": options.gw_steps,
                "special_move_catches": options.special_move_catches,
                "caught_resetter": options.caught_resetter,
            },
        )
    ]
    for i, piece in enumerate(pieces):
        seats = pieces if two_player else (piece,)
        events.append(
            to_seats(
                seats,
                "dealt",
                piece=piece,
                evidence=list(dealt[i]),
                ability=abilities[i],
                card=cards[i],
            )
        )
    if trumps:
        events.append(to_seats(["gw"], "trumps_dealt", cards=list(trumps)))
    events.append(public("turn", seat=pieces[0]))
    return state, events


def _criminals(value: object, two_player: bool) -> tuple[str, ...]:
    pieces = [p for p in value if isinstance(p, str) and p] if isinstance(value, list) else []
    if not isinstance(value, list) or len(pieces) != len(value):
        raise IllegalAction(
            '\'criminals\' must list the criminal pieces in turn order, e.g. ["red", "green"]'
        )
    if len(set(pieces)) != len(pieces):
        raise IllegalAction("'criminals' names a piece twice")
    reserved = _RESERVED_SEATS & set(pieces)
    if reserved:
        raise IllegalAction(f"{sorted(reserved)[0]!r} is a seat name, not a criminal piece")
    if two_player and len(pieces) != 2:
        raise IllegalAction("in the two-player game the criminal plays exactly two pieces")
    if not two_player and not 2 <= len(pieces) <= 4:
        raise IllegalAction(
            'GW plays against 2, 3 or 4 criminals (one criminal player: set "two_player": true)'
        )
    return tuple(pieces)


def _abilities(
    value: object, pieces: tuple[str, ...]
) -> tuple[tuple[str | None, ...], tuple[str | None, ...]]:
    """Each piece's immunity, and its criminal card when the header names cards."""
    if not isinstance(value, Mapping):
        raise IllegalAction("'abilities' must map each criminal piece to the trump it is immune to")
    _same_pieces(value, pieces, "abilities")
    cards = criminal_cards()
    result: list[str] = []
    used_cards: list[str] = []
    held: list[str | None] = []
    for piece in pieces:
        ability = value[piece]
        held.append(None)
        if isinstance(ability, str) and ability in cards:
            used_cards.append(ability)
            held[-1] = ability
            ability = cards[ability]["immune_to"]
        if not isinstance(ability, str) or ability not in TRUMPS:
            raise IllegalAction(
                f"{piece}'s ability must be a trump it is immune to ({', '.join(TRUMPS)}) "
                f"or a criminal card ({', '.join(cards)}), not {ability!r}"
            )
        result.append(ability)
    if len(set(used_cards)) != len(used_cards):
        raise IllegalAction("two criminals cannot hold the same criminal card")
    per_trump = Counter(c["immune_to"] for c in cards.values())
    for trump, count in Counter(result).items():
        if count > per_trump[trump]:
            raise IllegalAction(f"only {per_trump[trump]} criminal cards are immune to the {trump}")
    return tuple(result), tuple(held)


def _trumps(value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) != 3:
        raise IllegalAction(f"'trumps' must list GW's three trump cards (of {', '.join(TRUMPS)})")
    for card in value:
        if card not in TRUMPS:
            raise IllegalAction(f"{card!r} is not a trump; the trumps are {', '.join(TRUMPS)}")
    trumps = tuple(card for card in value if isinstance(card, str))
    if len(set(trumps)) != 3:
        raise IllegalAction("GW's three trumps must be three different cards")
    return trumps


def _same_pieces(value: Mapping[object, object], pieces: tuple[str, ...], key: str) -> None:
    for piece in value:
        if piece not in pieces:
            raise IllegalAction(f"'{key}' names {piece!r}, which is not one of the criminals")
    for piece in pieces:
        if piece not in value:
            raise IllegalAction(f"'{key}' has nothing for {piece}")


def _evidence(
    value: object, pieces: tuple[str, ...], board: Board, two_player: bool
) -> tuple[tuple[str, ...], ...]:
    if not isinstance(value, Mapping):
        raise IllegalAction("'evidence' must map each criminal piece to the cards dealt to it")
    _same_pieces(value, pieces, "evidence")
    seen: set[str] = set()
    dealt: list[tuple[str, ...]] = []
    for piece in pieces:
        raw = value[piece]
        cards = [c for c in raw if isinstance(c, str)] if isinstance(raw, list) else []
        if not isinstance(raw, list) or len(cards) != len(raw):
            raise IllegalAction(f"the evidence dealt to {piece} must be a list of card ids")
        for card in cards:
            if card not in board.evidence:
                raise IllegalAction(f"{card!r} is not an evidence card of this board")
            if card in seen:
                raise IllegalAction(f"{card} is dealt twice")
            seen.add(card)
        colours = sorted(board.colour_of(c) for c in cards)
        if not two_player and colours != sorted(COLOURS):
            raise IllegalAction(
                f"{piece} must be dealt one evidence card of each colour ({', '.join(COLOURS)})"
            )
        if two_player and len(cards) != 5:
            raise IllegalAction(f"{piece} must be dealt five evidence cards in the two-player game")
        dealt.append(tuple(cards))
    if two_player:
        per_colour = Counter(board.colour_of(c) for cards in dealt for c in cards)
        if any(per_colour[c] != 2 for c in COLOURS):
            raise IllegalAction("the two-player criminal holds two evidence cards of each colour")
    return tuple(dealt)


def _options(value: object) -> Options:
    if not isinstance(value, Mapping):
        raise IllegalAction("'options' must be an object of rule readings")
    known = {
        "gw_steps": ("up_to", "exactly"),
        "special_move_catches": (True, False),
        "caught_resetter": ("ends_turn", "continues"),
    }
    for key, choice in value.items():
        if key not in known:
            raise IllegalAction(f"unknown option {key!r}; the options are {', '.join(known)}")
        if choice not in known[key] or isinstance(choice, bool) != isinstance(known[key][0], bool):
            allowed = " or ".join(
                repr(c) if not isinstance(c, bool) else str(c).lower() for c in known[key]
            )
            raise IllegalAction(f"option {key!r} must be {allowed}")
    default = Options()
    steps = value.get("gw_steps", default.gw_steps)
    catches = value.get("special_move_catches", default.special_move_catches)
    resetter = value.get("caught_resetter", default.caught_resetter)
    # The loop above held each option to its choices, and so to its type.
    assert isinstance(steps, str) and isinstance(catches, bool) and isinstance(resetter, str)
    return Options(steps, catches, resetter)
