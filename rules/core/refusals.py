"""What each seat is told when an input is refused: the one rule for every way out.

A refusal (:class:`~lawmaster.rules.core.errors.IllegalAction`) is news for
the seat that sent the input, and its reason may name what that seat holds: the
card it tapped, the cell its hidden piece tried to reach. So the reason is told
in full to that seat (the engine's :meth:`~lawmaster.rules.core.engine.Engine.actor`)
and, for inputs of the whole table (no actor: a card placed on the board, a
Judge counter moved), to everyone. Every other seat learns only that an input
was refused, which is all it would have seen at the table.

Two duties follow for the engines, and the secrecy tests hold them to both:

* a reason never names what its actor may not know (another Judge's hand, a
  face-down Perp, a criminal's hidden cell when GW is refused);
* the reason of a whole-table input names nothing hidden from anyone.
"""

from __future__ import annotations

from .engine import Engine

#: What a seat other than the sender is told about a refused input.
REFUSED_ELSEWHERE = "an input was refused; its reason went to the seat that sent it"


def refusal_for(engine: Engine, action: object, reason: str, seat: str | None) -> str:
    """The text of a refusal of ``action`` (for ``reason``) as ``seat`` may read it.

    ``seat=None`` is the referee itself (the omniscient replay), which reads
    every reason whole.
    """
    if seat is None:
        return reason
    actor = engine.actor(action) if isinstance(action, dict) else None
    if actor is None or actor == seat:
        return reason
    return REFUSED_ELSEWHERE
