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

import re
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext

from lawmaster.rules.core import IllegalAction
from lawmaster.rules.judge_dredd.board import Board
from lawmaster.rules.judge_dredd.cards import CardBook

#: Specialist Judges by the id the engine uses (the rulebook's names).
SPECIALISTS = {
    "chief-judge": _l("Chief Judge"),
    "sjs": _l("SJS Judge"),
    "psi-judge": _l("Psi-Judge"),
    "wally-squad": _l("Wally Squad Judge"),
    "cadet": _l("Cadet"),
    "mechanismo": "Mechanismo",
}

#: The refill and combat words for the engine's phase names.
PHASES = {
    "setup": _l("setting up"),
    "movement": _l("the movement phase"),
    "arrest": _l("the arrest phase"),
    "refill": _l("the refill phase"),
    "tiebreak": _l("the final combat for a tied game"),
    "over": _l("game over"),
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


def name(seat: object) -> str:
    """A seat's name as the pages write it after "Judge" ("a" → "A", "hershey" → "Hershey")."""
    return _words(seat)


def judge(seat: object) -> str:
    """A seat's Judge, as the table calls it ("a" → "Judge A")."""
    return _("Judge %(name)s", name=name(seat))


def judges(seats: Iterable[object]) -> str:
    """Several Judges in one phrase: "Judge A", "Judges A and B", "Judges A, B and C"."""
    names = [_words(s) for s in seats]
    if len(names) == 1:
        return _("Judge %(name)s", name=names[0])
    return _("Judges %(names)s", names=and_list(names))


def and_list(items: Iterable[str]) -> str:
    """``["x", "y", "z"]`` → ``"x, y and z"``."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + _(" and ") + items[-1]


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


#: The reasons the engine gives for what it asks (``asked[].why``), in the page's language.
#: The engine writes English (``rules/`` knows no translations); these are its sentences.
WHY = {
    "put your Judge on an empty Starting Sector": _l("put your Judge on an empty Starting Sector"),
    "reveal a Sector card; place its Perp and Crime": _l(
        "reveal a Sector card; place its Perp and Crime"
    ),
    "reveal a Sector card; place what is left (the Perp or Crime deck is empty)": _l(
        "reveal a Sector card; place what is left (the Perp or Crime deck is empty)"
    ),
    "your Judge is KO'd: play Robodoc now to avoid it": _l(
        "your Judge is KO'd: play Robodoc now to avoid it"
    ),
    "no Robodoc: go on to the refill and the Hospital": _l(
        "no Robodoc: go on to the refill and the Hospital"
    ),
    "accept the barney, or play a card that cancels it": _l(
        "accept the Barney, or play a card that cancels it"
    ),
    "accept the boing, or play a card that cancels it": _l(
        "accept the BOING!, or play a card that cancels it"
    ),
    "turn up and tap the Perp": _l("turn up and tap the Perp"),
    "say who arrests together and who alone": _l("say who arrests together and who alone"),
    "move the escaping Perp up to two Sectors": _l("move the escaping Perp up to two Sectors"),
    "add cards to the final combat, or reveal": _l("add cards to the final combat, or reveal"),
    "cool now (-2, no overheating) or never in this combat": _l(
        "cool now (\u22122, no overheating) or never in this combat"
    ),
    "add Action cards face-down, or reveal when all are done": _l(
        "add Action cards face-down, or reveal when all are done"
    ),
    "reveal the cards": _l("reveal the cards"),
    "roll your die (dice) for this combat": _l("roll your dice for this combat"),
    "roll the Perp die": _l("roll the Perp die"),
    "everyone has moved: start the arrest phase": _l("everyone has moved: start the arrest phase"),
    "play Special cards now, or start the next arrest": _l(
        "play Special cards now, or start the next arrest"
    ),
    "Internal Affairs: look at another player's hand": _l(
        "Internal Affairs: look at another player's hand"
    ),
    "Hotdog Run: discard the top Sector card": _l("Hotdog Run: discard the top Sector card"),
    "on the Hospital: discard cards to recycle (or none)": _l(
        "on the Hospital: discard cards to recycle (or none)"
    ),
    "draw your Action cards": _l("draw your Action cards"),
    "do not use Internal Affairs this refill": _l("do not use Internal Affairs this refill"),
    "before this arrest begins a Special card may still be played": _l(
        "before this arrest begins a Special card may still be played"
    ),
}
_MOVE_WHY = re.compile(r"^move up to (\d+) Sector\(s\)$")


def why(text: object) -> str:
    """The engine's reason for an asked action, in the page's language (as written when
    it is not one the engine is known to give)."""
    raw = str(text or "")
    found = WHY.get(raw)
    if found is not None:
        return str(found)
    moving = _MOVE_WHY.match(raw)
    if moving:
        n = int(moving.group(1))
        return ngettext("move up to %(num)d Sector", "move up to %(num)d Sectors", n)
    return raw


def specialist(ident: object) -> str:
    return str(SPECIALISTS.get(str(ident), _words(ident)))


def _groups(groups: object) -> list[str]:
    """Combat groups as phrases: each group's Judges, joint groups together."""
    if not isinstance(groups, list) or not all(isinstance(g, list) and g for g in groups):
        # Not the engine's shape: the caller falls back to naming the kind of event.
        raise ValueError("combat groups are lists of seats")
    return [judges(group) for group in groups]


def _scored(cards: object) -> str:
    listed = cards if isinstance(cards, list | tuple) else []
    return and_list(f"{card(c)} ({value(c)})" for c in listed)


# -- one sentence per event ---------------------------------------------------------
def _setup(e: Mapping[str, Any]) -> str:
    return _(
        "A new game for %(judges)s (%(length)s); %(first)s is the Starting Player.",
        judges=judges(e.get("players") or []),
        length=_words(e.get("length") or "day shift"),
        first=judge(e.get("starting_player")),
    )


def _crime_placed(e: Mapping[str, Any]) -> str:
    what = []
    if e.get("perp"):
        what.append(_("a face-down Perp"))
    if e.get("crime"):
        what.append(card(e["crime"]))
    return _(
        "New trouble in %(sector)s: %(what)s.",
        sector=sector(e.get("sector")),
        what=and_list(what) or _("nothing"),
    )


def _round(e: Mapping[str, Any]) -> str:
    first = judge(e.get("starting_player"))
    if e.get("final"):
        return _(
            "Round %(round)s begins; %(first)s is the Starting Player. This is the final round.",
            round=e.get("round"),
            first=first,
        )
    return _(
        "Round %(round)s begins; %(first)s is the Starting Player.",
        round=e.get("round"),
        first=first,
    )


def _moved(e: Mapping[str, Any]) -> str:
    path = e.get("path") or []
    who, where = judge(e.get("judge")), sector(e.get("sector"))
    if not path:
        return _("%(judge)s stays in %(sector)s.", judge=who, sector=where)
    if len(path) > 1:
        return _(
            "%(judge)s moves to %(sector)s (by %(via)s).",
            judge=who,
            sector=where,
            via=and_list(sector(s) for s in path[:-1]),
        )
    return _("%(judge)s moves to %(sector)s.", judge=who, sector=where)


def _card_played(e: Mapping[str, Any]) -> str:
    who, what = judge(e.get("by")), card(e.get("card"))
    if e.get("judges"):
        return _(
            "%(judge)s plays %(card)s: %(judges)s must fight each other.",
            judge=who,
            card=what,
            judges=judges(e["judges"]),
        )
    if e.get("sector") and e.get("to"):
        return _(
            "%(judge)s plays %(card)s: the Perp in %(sector)s moves to %(to)s.",
            judge=who,
            card=what,
            sector=sector(e["sector"]),
            to=sector(e["to"]),
        )
    if e.get("target"):
        target = judge(e["target"])
        if e.get("to"):
            text = _(
                "%(judge)s plays %(card)s on %(target)s, sending them to %(to)s",
                judge=who,
                card=what,
                target=target,
                to=sector(e["to"]),
            )
        else:
            text = _("%(judge)s plays %(card)s on %(target)s", judge=who, card=what, target=target)
        if e.get("applies"):
            return _("%(play)s (%(applies)s).", play=text, applies=e["applies"])
        return _("%(play)s.", play=text)
    return _("%(judge)s plays %(card)s.", judge=who, card=what)


def _combat(e: Mapping[str, Any]) -> str:
    where = sector(e.get("sector"))
    sides = _groups(e.get("groups"))
    kind = e.get("kind")
    if kind == "arrest":
        values = {
            "perp": card(e.get("perp")),
            "sector": where,
            "strength": e.get("perp_strength"),
        }
        if len(sides) > 1:
            return _(
                "%(who)s compete to arrest %(perp)s in %(sector)s (the Perp with its Crimes:"
                " strength %(strength)s).",
                who=and_list(sides),
                **values,
            )
        who = sides[0] if sides else _("A Judge")
        if e.get("groups") and len(e["groups"][0]) > 1:
            return _(
                "%(who)s attempt together to arrest %(perp)s in %(sector)s (the Perp with its"
                " Crimes: strength %(strength)s).",
                who=who,
                **values,
            )
        return _(
            "%(who)s attempts to arrest %(perp)s in %(sector)s (the Perp with its Crimes:"
            " strength %(strength)s).",
            who=who,
            **values,
        )
    if kind == "alien":
        return _(
            "%(who)s fight the Alien in %(sector)s (strength %(strength)s).",
            who=and_list(sides),
            sector=where,
            strength=e.get("perp_strength"),
        )
    if kind == "block":
        return _(
            "Block Mania: %(who)s fight each other in %(sector)s.",
            who=and_list(sides),
            sector=where,
        )
    return _("The final combat: %(who)s fight for the win.", who=and_list(sides))


def _committed(e: Mapping[str, Any]) -> str:
    shown = e.get("face_up") and e.get("card")
    by = judge(e.get("by"))
    if e.get("by") == e.get("to"):
        if shown:
            return _(
                "%(judge)s adds %(card)s face up to their own combat.",
                judge=by,
                card=card(e["card"]),
            )
        return _("%(judge)s adds a card face down to their own combat.", judge=by)
    to = judge(e.get("to"))
    if shown:
        return _(
            "%(judge)s adds %(card)s face up in front of %(to)s.",
            judge=by,
            card=card(e["card"]),
            to=to,
        )
    return _("%(judge)s adds a card face down in front of %(to)s.", judge=by, to=to)


def _committed_own(e: Mapping[str, Any]) -> str:
    return _(
        "You added %(card)s face down in front of %(to)s.",
        card=card(e.get("card")),
        to=judge(e.get("to")),
    )


def _revealed(e: Mapping[str, Any]) -> str:
    shown = []
    for c in e.get("cards") or []:
        if not isinstance(c, Mapping):
            continue
        values = {"card": card(c.get("card")), "judge": judge(c.get("by"))}
        if c.get("counts", True):
            shown.append(_("%(card)s from %(judge)s", **values))
        else:
            shown.append(_("%(card)s from %(judge)s, which does not count", **values))
    if not shown:
        return _("The combat goes ahead with no Action cards.")
    return _("The cards are turned up: %(cards)s.", cards=and_list(shown))


def _result(e: Mapping[str, Any]) -> str:
    sides = _groups(e.get("groups"))
    strengths = list(e.get("strengths") or [])
    hot = list(e.get("overheated") or [])
    scores = []
    for i, side in enumerate(sides):
        total = strengths[i] if i < len(strengths) else "?"
        if i < len(hot) and hot[i]:
            scores.append(_("%(side)s %(total)s (overheated)", side=side, total=total))
        else:
            scores.append(f"{side} {total}")
    tally = and_list(scores)
    kind = e.get("kind")
    if kind in ("arrest", "alien"):
        winner = e.get("winner")
        strength = e.get("perp_strength")
        if kind == "arrest":
            tally = _("%(tally)s against the Perp's %(strength)s", tally=tally, strength=strength)
        else:
            tally = _("%(tally)s against the Alien's %(strength)s", tally=tally, strength=strength)
        if isinstance(winner, int) and 0 <= winner < len(sides):
            if len(e["groups"][winner]) == 1:
                outcome = _("%(side)s wins", side=sides[winner])
            else:
                outcome = _("%(side)s win", side=sides[winner])
        elif e.get("tied"):
            outcome = _("a tie")
        else:
            outcome = _("the Perp wins") if kind == "arrest" else _("the Alien wins")
        return _("Combat: %(tally)s: %(outcome)s.", tally=tally, outcome=outcome)
    if kind == "block":
        out = [sides[i] for i in e.get("koed") or [] if isinstance(i, int) and i < len(sides)]
        return _(
            "Block Mania: %(tally)s; %(out)s KO'd.", tally=tally, out=and_list(out) or _("nobody")
        )
    top = e.get("top") or []
    return _(
        "The final combat: %(tally)s; best: %(best)s.",
        tally=tally,
        best=judges(top) if top else _("nobody"),
    )


def _arrest(e: Mapping[str, Any]) -> str:
    crimes = [card(c) for c in e.get("crimes") or []]
    one = len(e.get("judges") or []) == 1
    values = {
        "judges": judges(e.get("judges") or []),
        "perp": card(e.get("perp")),
        "sector": sector(e.get("sector")),
        "crimes": and_list(crimes),
    }
    if crimes and one:
        return _("%(judges)s arrests %(perp)s in %(sector)s and stops %(crimes)s.", **values)
    if crimes:
        return _("%(judges)s arrest %(perp)s in %(sector)s and stop %(crimes)s.", **values)
    if one:
        return _("%(judges)s arrests %(perp)s in %(sector)s.", **values)
    return _("%(judges)s arrest %(perp)s in %(sector)s.", **values)


def _alert(e: Mapping[str, Any]) -> str:
    values = {"judge": judge(e.get("by")), "card": card(e.get("card"))}
    if e.get("no_effect"):
        return _("%(judge)s draws %(card)s: it has no effect.", **values)
    if e.get("alien"):
        return _(
            "%(judge)s draws %(card)s: the Alien is in %(sector)s.",
            sector=sector(e["alien"]),
            **values,
        )
    if e.get("crime"):
        return _(
            "%(judge)s draws %(card)s: %(crime)s is added in %(sector)s.",
            crime=card(e["crime"]),
            sector=sector(e.get("sector")),
            **values,
        )
    if e.get("sector"):
        return _(
            "%(judge)s draws %(card)s: %(sector)s is closed until round %(round)s.",
            sector=sector(e["sector"]),
            round=e.get("round"),
            **values,
        )
    if e.get("round"):
        return _(
            "%(judge)s draws %(card)s: no one crosses the river until round %(round)s.",
            round=e["round"],
            **values,
        )
    return _("%(judge)s draws %(card)s.", **values)


def _draws_due(e: Mapping[str, Any]) -> str:
    found = e.get("owed")
    owed: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
    parts = [f"{judge(s)} {n}" for s, n in owed.items() if n]
    text = (
        _("Cards to draw: %(owed)s.", owed=and_list(parts))
        if parts
        else _("Nobody draws this refill.")
    )
    if e.get("recycle"):
        return _(
            "%(draws)s On the Hospital, %(judges)s may recycle first.",
            draws=text,
            judges=judges(e["recycle"]),
        )
    return text


def _scores(scores: object) -> str:
    items = scores.items() if isinstance(scores, Mapping) else []
    return and_list(f"{judge(s)} {n}" for s, n in items)


def _hand_seen(e: Mapping[str, Any]) -> str:
    seen = [card(c) for c in e.get("cards") or []]
    if e.get("unknown"):
        seen.append(
            ngettext(
                "%(num)d card nobody has tapped",
                "%(num)d cards nobody has tapped",
                int(e["unknown"]),
            )
        )
    return _(
        "%(judge)s's hand holds %(cards)s.",
        judge=judge(e.get("target")),
        cards=and_list(seen) or _("nothing"),
    )


def _declined(e: Mapping[str, Any]) -> str:
    if e.get("moment") == "robodoc":
        return _("%(judge)s plays no Robodoc.", judge=judge(e.get("by")))
    return _("%(judge)s does not use Internal Affairs.", judge=judge(e.get("by")))


_SAY: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "setup": _setup,
    "judge_placed": lambda e: _(
        "%(judge)s starts in %(sector)s.",
        judge=judge(e.get("judge")),
        sector=sector(e.get("sector")),
    ),
    "crime_placed": _crime_placed,
    "sector_card_spent": lambda e: _(
        "The Sector card %(card)s places nothing: the decks are empty.",
        card=card(e.get("sector_card")),
    ),
    "sector_redrawn": lambda e: _(
        "%(sector)s already has a Perp: another Sector card is drawn.",
        sector=sector(e.get("sector")),
    ),
    "round": _round,
    "moved": _moved,
    "perp_revealed": lambda e: _(
        "The Perp in %(sector)s is %(perp)s (strength %(strength)s).",
        sector=sector(e.get("sector")),
        perp=card(e.get("perp")),
        strength=e.get("strength"),
    ),
    "card_played": _card_played,
    "barneyed": lambda e: _(
        "Barney: %(judge)s goes to %(sector)s.",
        judge=judge(e.get("judge")),
        sector=sector(e.get("sector")),
    ),
    "cancelled": lambda e: _(
        "%(judge)s cancels the %(what)s with %(card)s.",
        judge=judge(e.get("by")),
        what=_words(e.get("cancels")),
        card=card(e.get("card")),
    ),
    "robodoc": lambda e: _(
        "%(judge)s plays Robodoc: not KO'd, moves to %(sector)s.",
        judge=judge(e.get("judge")),
        sector=sector(e.get("sector")),
    ),
    "declined": _declined,
    "arrest_phase": lambda e: _(
        "The arrest phase of round %(round)s begins.", round=e.get("round")
    ),
    "combat": _combat,
    "arrest_withdrawn": lambda e: _(
        "The arrest in %(sector)s waits: a Special card is played first.",
        sector=sector(e.get("sector")),
    ),
    "card_committed": _committed,
    "card_committed_own": _committed_own,
    "cooled": lambda e: _(
        "%(judge)s cools down: -2, and cannot overheat.", judge=judge(e.get("judge"))
    ),
    "cards_revealed": _revealed,
    "combat_result": _result,
    "arrest": _arrest,
    "scored": lambda e: _("Your score pile gains %(cards)s.", cards=_scored(e.get("cards"))),
    "crime_stopped": lambda e: _(
        "%(judge)s stops %(crimes)s in %(sector)s, but the Perp is still free.",
        judge=judge(e.get("judge")),
        crimes=and_list(card(c) for c in e.get("crimes") or []),
        sector=sector(e.get("sector")),
    ),
    "perp_escaped": lambda e: _(
        "The Perp escapes from %(sector)s to %(to)s.",
        sector=sector(e.get("sector")),
        to=sector(e.get("to")),
    ),
    "ko": lambda e: _(
        "%(judge)s is KO'd in %(sector)s.",
        judge=judge(e.get("judge")),
        sector=sector(e.get("sector")),
    ),
    "alien_defeated": lambda e: _(
        "%(judges)s defeat the Alien in %(sector)s.",
        judges=judges(e.get("by") or []),
        sector=sector(e.get("sector")),
    ),
    "arrest_declined": lambda e: _(
        "%(judge)s makes no arrest in %(sector)s.",
        judge=judge(e.get("judge")),
        sector=sector(e.get("sector")),
    ),
    "arrest_phase_over": lambda e: _(
        "The arrest phase of round %(round)s is over.", round=e.get("round")
    ),
    "refill_phase": lambda e: _(
        "The refill phase of round %(round)s begins.", round=e.get("round")
    ),
    "hospitalised": lambda e: ngettext(
        "%(judge)s goes to the Justice Department Hospital and discards %(num)d card.",
        "%(judge)s goes to the Justice Department Hospital and discards %(num)d cards.",
        int(e.get("discarded") or 0),
        judge=judge(e.get("judge")),
    ),
    "draws_due": _draws_due,
    "recycled": lambda e: ngettext(
        "%(judge)s recycles %(num)d card and draws %(draws)s.",
        "%(judge)s recycles %(num)d cards and draws %(draws)s.",
        int(e.get("discarded") or 0),
        judge=judge(e.get("judge")),
        draws=e.get("draws"),
    ),
    "drew": lambda e: ngettext(
        "%(judge)s draws %(num)d Action card.",
        "%(judge)s draws %(num)d Action cards.",
        int(e.get("count") or 0),
        judge=judge(e.get("judge")),
    ),
    "hand_known": lambda e: _(
        "The referee now knows these cards in your hand: %(cards)s.",
        cards=and_list(card(c) for c in e.get("cards") or []) or _("none"),
    ),
    "alert": _alert,
    "sector_discarded": lambda e: _(
        "Hotdog Run: the Sector card %(card)s is discarded.", card=card(e.get("sector_card"))
    ),
    "action_deck_reshuffled": lambda e: _(
        "The Action deck ran out: the discarded Action cards are shuffled into a new deck of"
        " %(size)s.",
        size=e.get("size"),
    ),
    "sector_deck_reshuffled": lambda e: _(
        "The Sector cards are shuffled into a new deck of %(size)s.", size=e.get("size")
    ),
    "final_round_triggered": lambda e: _(
        "The final round is triggered: round %(round)s is the last.", round=e.get("final_round")
    ),
    "starting_player": lambda e: _(
        "%(judge)s is now the Starting Player.", judge=judge(e.get("seat"))
    ),
    "internal_affairs": lambda e: _(
        "Internal Affairs: %(judge)s looks at %(target)s's hand.",
        judge=judge(e.get("by")),
        target=judge(e.get("target")),
    ),
    "hand_seen": _hand_seen,
    "psi_peek": lambda e: _(
        "%(judge)s reads the face-down Perp in %(sector)s.",
        judge=judge(e.get("by")),
        sector=sector(e.get("sector")),
    ),
    "perp_seen": lambda e: _(
        "You read the Perp in %(sector)s: %(perp)s (strength %(strength)s).",
        sector=sector(e.get("sector")),
        perp=card(e.get("perp")),
        strength=e.get("strength"),
    ),
    "final_scores": lambda e: _("Final scores: %(scores)s.", scores=_scores(e.get("scores"))),
    "game_over": lambda e: _(
        "%(judge)s wins the game (%(scores)s).",
        judge=judge(e.get("winner")),
        scores=_scores(e.get("scores")),
    ),
}


def describe(event: Mapping[str, Any]) -> str:
    """One sentence for one event (an event this module does not know: its kind in words)."""
    say = _SAY.get(str(event.get("type")))
    if say is None:
        return _("%(what)s.", what=_words(event.get("type", "something happened")).capitalize())
    try:
        return say(event)
    except (AttributeError, KeyError, TypeError, ValueError, IndexError):
        # A field in a shape this wording does not expect: say what kind of thing happened.
        return _("%(what)s.", what=_words(event.get("type")).capitalize())
