"""Each seat's score as GW:s brott's public view shows it (for the hall screen).

A criminal counts the evidence cards it destroyed out of those it was dealt (it wins
with the last one); GW counts the handcuffs it gave out of all it has (it wins with
the last one). Both stand in the table's view; nothing here reads a secret.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lawmaster.host.plugin import Score

from .referee import GW


def scores(view: Mapping[str, Any]) -> dict[str, Score]:
    """Seat → score from the public view (``{}`` for a view of another shape)."""
    criminals = view.get("criminals")
    if not isinstance(criminals, Mapping):
        return {}
    handed = [e for e in view.get("evidence_handed_in") or [] if isinstance(e, Mapping)]
    found: dict[str, Score] = {}
    given = 0
    for piece, info in criminals.items():
        mine = [e for e in handed if e.get("by") == piece]
        destroyed = sum(1 for e in mine if e.get("how") == "destroyed")
        dealt = len(mine) + int(info.get("evidence_left", 0))
        found[piece] = Score(destroyed, "evidence", dealt)
        given += int(info.get("handcuffs", 0))
    found[GW] = Score(given, "handcuffs", given + int(view.get("handcuffs_left", 0)))
    return found
