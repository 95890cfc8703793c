"""``decline``: a seat lets pass a moment the game holds open for it.

Two moments stop the game until their seat answers, because nothing else would
give the seat the chance the rulebook promises: a Judge KO'd in the round's last
arrest, before the refill sends them to the Hospital ("The Robodoc card is used
when you are KO'd for any reason"), and the SJS at the start of a refill in which
nobody draws ("You may look at all the Action cards in one other player's hand
at the start of the refill phase"). Playing the card (or ``internal_affairs``)
answers too.
"""

from __future__ import annotations

from lawmaster.rules.core import Action, Event, IllegalAction, field, public

from .arrests import advance
from .refill import continue_refill, internal_affairs_open
from .state import State, judge, refill_of


def decline(state: State, action: Action, events: list[Event]) -> None:
    """``decline``: ``by`` does not play Robodoc now, or does not use Internal Affairs."""
    seat = field(action, "by", str)
    judge(state, seat)
    pending = state["pending"]
    if pending is not None and pending["kind"] == "robodoc" and seat in pending["seats"]:
        pending["seats"].remove(seat)
        events.append(public("declined", by=seat, moment="robodoc"))
        if not pending["seats"]:
            state["pending"] = None
            advance(state, events)
        return
    if seat in internal_affairs_open(state):
        refill_of(state)["ia_used"] = True
        events.append(public("declined", by=seat, moment="internal_affairs"))
        continue_refill(state, events)
        return
    raise IllegalAction(f"{seat} has no choice to decline now")
