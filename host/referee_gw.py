"""The referee's knowledge of GW:s brott: who sends what, prompts, board readings."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .referee import GameRules

GW = "gw"
GW_ACTS = frozenset({"gw_roll", "gw_move", "trump"})


class GwBrottRules(GameRules):
    """GW:s brott: GW against one to four criminal pieces."""

    def owner(self, action: Mapping[str, Any], state: Any) -> str | None:
        if action.get("act") in GW_ACTS:
            return GW
        by = action.get("by")
        return by if isinstance(by, str) else None

    def sides(self, state: Any) -> dict[str, str]:
        return {
            seat: (GW if seat == GW else "criminals") for seat in self.table.engine.seats(state)
        }
