"""Shared helpers for the Graffiti table tests: a real Table on a temporary journal
refereed by :class:`GraffitiRules`, and a rig board seam for the simulated sensors.

The referee's registry (``referee.rules_for``) may not know Unamerican Graffiti
yet, so :func:`graffiti_table` installs the game's rules on the table's own
referee, and :func:`graffiti_rules_for` is what the registry would return.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lawmaster.host.journal import Journal
from lawmaster.host.referee import GameRules, rules_for
from lawmaster.host.referee_graffiti import GraffitiRules
from lawmaster.host.table import Table

GAME = "unamerican-graffiti"


def header(dredd_roll: int = 1, **extra: Any) -> dict[str, Any]:
    """A standard-board header; with roll 1 Judge n stands on sector-house-n."""
    return {"game": GAME, "dredd_roll": dredd_roll, **extra}


def graffiti_rules_for(table: Table) -> GameRules:
    """The registry's answer once Graffiti is registered (other games unchanged)."""
    if table.game == GAME:
        return GraffitiRules(table)
    return rules_for(table)


def install(table: Table) -> Table:
    """Make the table's referee use the Graffiti rules (the registry may not know them)."""
    if not isinstance(table.referee.rules, GraffitiRules):
        table.referee.rules = GraffitiRules(table)
        table.referee.expect()
        table.referee.refresh()
    return table


def graffiti_table(tmp_path: Path, settings: dict[str, Any] | None = None, **head: Any) -> Table:
    """A new Graffiti game on a fresh journal, refereed by the Graffiti rules."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    table = Table.start(Journal(tmp_path / "journal.sqlite"), header(**head), settings or {})
    return install(table)


def ok(result: dict[str, Any]) -> dict[str, Any]:
    """Assert a tablet input was taken and return the answer."""
    assert result.get("ok"), result
    return result


def sources(table: Table) -> list[str]:
    """The journal's source of every accepted input, in order."""
    record = Journal(table.journal.path).open_game()
    assert record is not None
    return [entry.source for entry in record.entries]


class RigBoard:
    """The referee's board seam on a stepped rig: expectations go straight to its tracker."""

    def __init__(self, rig: Any) -> None:
        self.rig = rig

    def expect(self, expectation: Any) -> None:
        self.rig.tracker.expect(expectation, self.rig.now)
