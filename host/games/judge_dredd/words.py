"""Judge Dredd in words: names for Judges, Sectors and cards, and one log sentence per event.

The engine speaks in ids (``"channel-99"``, ``"fergee-1"``, seat ``"a"``); a player reads
names, the way the rulebook writes them: "Judge A arrests Max Normal in Channel 99".
Every function here reads only what it is given (an event already routed to one seat, or
a name), so a sentence can never say more than the event it words.

>>> judge("hershey")
'Judge Hershey'
>>> sector("channel-99")
'Channel 99'
>>> describe({"type": "moved", "judge": "a", "path": ["mega-mall", "channel-99"],
...           "sector": "channel-99"})
'Judge A moves to Channel 99 (by Mega-Mall).'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from typing import Any

from lawmaster.rules.core import IllegalAction
from lawmaster.rules.judge_dredd.board import Board
from lawmaster.rules.judge_dredd.cards import CardBook

#: Specialist Judges by the id the engine uses (the rulebook's names).
SPECIALISTS = {
    "chief-judge": "Chief Judge",
    "sjs": "SJS Judge",
    "psi-judge": "Psi-Judge",
    "wally-squad": "Wally Squad Judge",
    "cadet": "Cadet",
    "mechanismo": "Mechanismo",
}

#: The refill and combat words for the engine's phase names.
PHASES = {
    "setup": "setting up",
    "movement": "the movement phase",
    "arrest": "the arrest phase",
    "refill": "the refill phase",
    "tiebreak": "the final combat for a tied game",
    "over": "game over",
}


@lru_cache(maxsize=2)
def _city() -> Board | None:
    try:
        return Board.load("standard")
    except (IllegalAction, OSError, ValueError):
        return None


@lru_cache(maxsize=2)
def book() -> CardBook:
    """The shipped card set (names, strengths, Action card effects)."""
    return CardBook.load("standard")


def _words(ident: object) -> str:
    """An id nobody named, made readable ("west-wall" → "West Wall")."""
    return str(ident).replace("-", " ").replace("_", " ").title()


def judge(seat: object) -> str:
    """A seat's Judge, as the table calls it ("a" → "Judge A")."""
    return f"Judge {_words(seat)}"


def judges(seats: Iterable[object]) -> str:
    """Several Judges in one phrase: "Judge A", "Judges A and B", "Judges A, B and C"."""
    names = [_words(s) for s in seats]
    if len(names) == 1:
        return f"Judge {names[0]}"
    return "Judges " + and_list(names)


def and_list(items: Iterable[str]) -> str:
    """``["x", "y", "z"]`` → ``"x, y and z"``."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def sector(ident: object) -> str:
    """A Sector's name on the shipped map (an unknown id made readable)."""
    city = _city()
    if city is not None and isinstance(ident, str) and ident in city.sectors:
        return city.sectors[ident].name
    return _words(ident)


def card(ident: object) -> str:
    """Any card's printed name (Perp, Crime, Sector or Action card)."""
    return book().names.get(str(ident)) or _words(str(ident).rsplit("-", 1)[0])


def value(ident: object) -> int:
    """What a Perp or Crime card scores (0 for any other card)."""
    return book().value(str(ident))


def specialist(ident: object) -> str:
    return SPECIALISTS.get(str(ident), _words(ident))


def _groups(groups: object) -> list[str]:
    """Combat groups as phrases: each group's Judges, joint groups together."""
    if not isinstance(groups, list) or not all(isinstance(g, list) and g for g in groups):
        # Not the engine's shape: the caller falls back to naming the kind of event.
        raise ValueError("combat groups are lists of seats")
    return [judges(group) for group in groups]


def _scored(cards: object) -> str:
    return and_list(f"{card(c)} ({value(c)})" for c in cards or [])


# -- one sentence per event ---------------------------------------------------------
def _setup(e: Mapping[str, Any]) -> str:
    length = _words(e.get("length") or "day shift")
    return (
        f"A new game for {judges(e.get('players') or [])} ({length}); "
        f"{judge(e.get('starting_player'))} is the Starting Player."
    )


def _crime_placed(e: Mapping[str, Any]) -> str:
    what = []
    if e.get("perp"):
        what.append("a face-down Perp")
    if e.get("crime"):
        what.append(card(e["crime"]))
    return f"New trouble in {sector(e.get('sector'))}: {and_list(what) or 'nothing'}."


def _round(e: Mapping[str, Any]) -> str:
    text = (
        f"Round {e.get('round')} begins; {judge(e.get('starting_player'))} is the Starting Player."
    )
    return text + (" This is the final round." if e.get("final") else "")


def _moved(e: Mapping[str, Any]) -> str:
    path = e.get("path") or []
    if not path:
        return f"{judge(e.get('judge'))} stays in {sector(e.get('sector'))}."
    via = f" (by {and_list(sector(s) for s in path[:-1])})" if len(path) > 1 else ""
    return f"{judge(e.get('judge'))} moves to {sector(e.get('sector'))}{via}."


def _card_played(e: Mapping[str, Any]) -> str:
    text = f"{judge(e.get('by'))} plays {card(e.get('card'))}"
    if e.get("judges"):
        return f"{text}: {judges(e['judges'])} must fight each other."
    if e.get("sector") and e.get("to"):
        return f"{text}: the Perp in {sector(e['sector'])} moves to {sector(e['to'])}."
    if e.get("target"):
        text += f" on {judge(e['target'])}"
        if e.get("to"):
            text += f", sending them to {sector(e['to'])}"
        if e.get("applies"):
            text += f" ({e['applies']})"
    return text + "."


def _combat(e: Mapping[str, Any]) -> str:
    where = sector(e.get("sector"))
    sides = _groups(e.get("groups"))
    kind = e.get("kind")
    if kind == "arrest":
        who = and_list(sides) if len(sides) > 1 else (sides[0] if sides else "A Judge")
        verb = "compete to arrest" if len(sides) > 1 else "attempts to arrest"
        if len(sides) == 1 and e.get("groups") and len(e["groups"][0]) > 1:
            verb = "attempt together to arrest"
        return (
            f"{who} {verb} {card(e.get('perp'))} in {where} "
            f"(the Perp with its Crimes: strength {e.get('perp_strength')})."
        )
    if kind == "alien":
        return f"{and_list(sides)} fight the Alien in {where} (strength {e.get('perp_strength')})."
    if kind == "block":
        return f"Block Mania: {and_list(sides)} fight each other in {where}."
    return f"The final combat: {and_list(sides)} fight for the win."


def _committed(e: Mapping[str, Any]) -> str:
    shown = e.get("face_up") and e.get("card")
    what = card(e["card"]) + " face up" if shown else "a card face down"
    if e.get("by") == e.get("to"):
        return f"{judge(e.get('by'))} adds {what} to their own combat."
    return f"{judge(e.get('by'))} adds {what} in front of {judge(e.get('to'))}."


def _committed_own(e: Mapping[str, Any]) -> str:
    return f"You added {card(e.get('card'))} face down in front of {judge(e.get('to'))}."


def _revealed(e: Mapping[str, Any]) -> str:
    shown = []
    for c in e.get("cards") or []:
        if not isinstance(c, Mapping):
            continue
        note = "" if c.get("counts", True) else ", which does not count"
        shown.append(f"{card(c.get('card'))} from {judge(c.get('by'))}{note}")
    if not shown:
        return "The combat goes ahead with no Action cards."
    return f"The cards are turned up: {and_list(shown)}."


def _result(e: Mapping[str, Any]) -> str:
    sides = _groups(e.get("groups"))
    strengths = list(e.get("strengths") or [])
    hot = list(e.get("overheated") or [])
    scores = []
    for i, side in enumerate(sides):
        total = strengths[i] if i < len(strengths) else "?"
        scores.append(f"{side} {total}" + (" (overheated)" if i < len(hot) and hot[i] else ""))
    tally = and_list(scores)
    kind = e.get("kind")
    if kind in ("arrest", "alien"):
        foe = "the Perp" if kind == "arrest" else "the Alien"
        tally += f" against {foe}'s {e.get('perp_strength')}"
        winner = e.get("winner")
        if isinstance(winner, int) and 0 <= winner < len(sides):
            outcome = f"{sides[winner]} win{'s' if sides[winner].startswith('Judge ') else ''}"
        elif e.get("tied"):
            outcome = "a tie"
        else:
            outcome = f"{foe} wins"
        return f"Combat: {tally}: {outcome}."
    if kind == "block":
        out = [sides[i] for i in e.get("koed") or [] if isinstance(i, int) and i < len(sides)]
        return f"Block Mania: {tally}; {and_list(out) or 'nobody'} KO'd."
    top = e.get("top") or []
    return f"The final combat: {tally}; best: {judges(top) if top else 'nobody'}."


def _arrest(e: Mapping[str, Any]) -> str:
    crimes = [card(c) for c in e.get("crimes") or []]
    also = f" and stop{'s' if len(e.get('judges') or []) == 1 else ''} {and_list(crimes)}"
    verb = "arrests" if len(e.get("judges") or []) == 1 else "arrest"
    return (
        f"{judges(e.get('judges') or [])} {verb} {card(e.get('perp'))} in "
        f"{sector(e.get('sector'))}{also if crimes else ''}."
    )


def _alert(e: Mapping[str, Any]) -> str:
    text = f"{judge(e.get('by'))} draws {card(e.get('card'))}"
    if e.get("no_effect"):
        return text + ": it has no effect."
    if e.get("alien"):
        return text + f": the Alien is in {sector(e['alien'])}."
    if e.get("crime"):
        return text + f": {card(e['crime'])} is added in {sector(e.get('sector'))}."
    if e.get("sector"):
        return text + f": {sector(e['sector'])} is closed until round {e.get('round')}."
    if e.get("round"):
        return text + f": no one crosses the river until round {e['round']}."
    return text + "."


def _draws_due(e: Mapping[str, Any]) -> str:
    owed = e.get("owed") if isinstance(e.get("owed"), Mapping) else {}
    parts = [f"{judge(s)} {n}" for s, n in owed.items() if n]
    text = f"Cards to draw: {and_list(parts)}." if parts else "Nobody draws this refill."
    if e.get("recycle"):
        text += f" On the Hospital, {judges(e['recycle'])} may recycle first."
    return text


def _scores(scores: object) -> str:
    items = scores.items() if isinstance(scores, Mapping) else []
    return and_list(f"{judge(s)} {n}" for s, n in items)


def _hand_seen(e: Mapping[str, Any]) -> str:
    seen = [card(c) for c in e.get("cards") or []]
    if e.get("unknown"):
        seen.append(f"{e['unknown']} card(s) nobody has tapped")
    return f"{judge(e.get('target'))}'s hand holds {and_list(seen) or 'nothing'}."


_SAY: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "setup": _setup,
    "judge_placed": lambda e: f"{judge(e.get('judge'))} starts in {sector(e.get('sector'))}.",
    "crime_placed": _crime_placed,
    "sector_card_spent": lambda e: (
        f"The Sector card {card(e.get('sector_card'))} places nothing: the decks are empty."
    ),
    "sector_redrawn": lambda e: (
        f"{sector(e.get('sector'))} already has a Perp: another Sector card is drawn."
    ),
    "round": _round,
    "moved": _moved,
    "perp_revealed": lambda e: (
        f"The Perp in {sector(e.get('sector'))} is {card(e.get('perp'))} "
        f"(strength {e.get('strength')})."
    ),
    "card_played": _card_played,
    "barneyed": lambda e: f"Barney: {judge(e.get('judge'))} goes to {sector(e.get('sector'))}.",
    "cancelled": lambda e: (
        f"{judge(e.get('by'))} cancels the {_words(e.get('cancels'))} with {card(e.get('card'))}."
    ),
    "robodoc": lambda e: (
        f"{judge(e.get('judge'))} plays Robodoc: not KO'd, moves to {sector(e.get('sector'))}."
    ),
    "declined": lambda e: (
        f"{judge(e.get('by'))} plays no Robodoc."
        if e.get("moment") == "robodoc"
        else f"{judge(e.get('by'))} does not use Internal Affairs."
    ),
    "arrest_phase": lambda e: f"The arrest phase of round {e.get('round')} begins.",
    "combat": _combat,
    "arrest_withdrawn": lambda e: (
        f"The arrest in {sector(e.get('sector'))} waits: a Special card is played first."
    ),
    "card_committed": _committed,
    "card_committed_own": _committed_own,
    "cooled": lambda e: f"{judge(e.get('judge'))} cools down: -2, and cannot overheat.",
    "cards_revealed": _revealed,
    "combat_result": _result,
    "arrest": _arrest,
    "scored": lambda e: f"Your score pile gains {_scored(e.get('cards'))}.",
    "crime_stopped": lambda e: (
        f"{judge(e.get('judge'))} stops {and_list(card(c) for c in e.get('crimes') or [])} "
        f"in {sector(e.get('sector'))}, but the Perp is still free."
    ),
    "perp_escaped": lambda e: (
        f"The Perp escapes from {sector(e.get('sector'))} to {sector(e.get('to'))}."
    ),
    "ko": lambda e: f"{judge(e.get('judge'))} is KO'd in {sector(e.get('sector'))}.",
    "alien_defeated": lambda e: (
        f"{judges(e.get('by') or [])} defeat the Alien in {sector(e.get('sector'))}."
    ),
    "arrest_declined": lambda e: (
        f"{judge(e.get('judge'))} makes no arrest in {sector(e.get('sector'))}."
    ),
    "arrest_phase_over": lambda e: f"The arrest phase of round {e.get('round')} is over.",
    "refill_phase": lambda e: f"The refill phase of round {e.get('round')} begins.",
    "hospitalised": lambda e: (
        f"{judge(e.get('judge'))} goes to the Justice Department Hospital and discards "
        f"{e.get('discarded')} card(s)."
    ),
    "draws_due": _draws_due,
    "recycled": lambda e: (
        f"{judge(e.get('judge'))} recycles {e.get('discarded')} card(s) and draws {e.get('draws')}."
    ),
    "drew": lambda e: f"{judge(e.get('judge'))} draws {e.get('count')} Action card(s).",
    "hand_known": lambda e: (
        f"The referee now knows these cards in your hand: "
        f"{and_list(card(c) for c in e.get('cards') or []) or 'none'}."
    ),
    "alert": _alert,
    "sector_discarded": lambda e: (
        f"Hotdog Run: the Sector card {card(e.get('sector_card'))} is discarded."
    ),
    "sector_deck_reshuffled": lambda e: (
        f"The Sector cards are shuffled into a new deck of {e.get('size')}."
    ),
    "final_round_triggered": lambda e: (
        f"The final round is triggered: round {e.get('final_round')} is the last."
    ),
    "starting_player": lambda e: f"{judge(e.get('seat'))} is now the Starting Player.",
    "internal_affairs": lambda e: (
        f"Internal Affairs: {judge(e.get('by'))} looks at {judge(e.get('target'))}'s hand."
    ),
    "hand_seen": _hand_seen,
    "psi_peek": lambda e: (
        f"{judge(e.get('by'))} reads the face-down Perp in {sector(e.get('sector'))}."
    ),
    "perp_seen": lambda e: (
        f"You read the Perp in {sector(e.get('sector'))}: {card(e.get('perp'))} "
        f"(strength {e.get('strength')})."
    ),
    "final_scores": lambda e: f"Final scores: {_scores(e.get('scores'))}.",
    "game_over": lambda e: f"{judge(e.get('winner'))} wins the game ({_scores(e.get('scores'))}).",
}


def describe(event: Mapping[str, Any]) -> str:
    """One sentence for one event (an event this module does not know: its kind in words)."""
    say = _SAY.get(str(event.get("type")))
    if say is None:
        return _words(event.get("type", "something happened")).capitalize() + "."
    try:
        return say(event)
    except (AttributeError, KeyError, TypeError, ValueError, IndexError):
        # A field in a shape this wording does not expect: say what kind of thing happened.
        return _words(event.get("type")).capitalize() + "."
