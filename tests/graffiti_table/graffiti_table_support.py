"""Shared helpers for the Graffiti table tests: a real Table on a temporary journal
refereed by :class:`GraffitiRules`, and a rig board seam for the simulated sensors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lawmaster.host.games.unamerican_graffiti.referee import GraffitiRules
from lawmaster.host.journal import Journal
from lawmaster.host.table import Table

GAME = "unamerican-graffiti"


def header(dredd_roll: int = 1, **extra: Any) -> dict[str, Any]:
    """A standard-board header; with roll 1 Judge n stands on sector-house-n."""
    return {"game": GAME, "dredd_roll": dredd_roll, **extra}


def install(table: Table) -> Table:
    """The table, checked to be refereed by the Graffiti rules (the registry's)."""
    assert isinstance(table.referee.rules, GraffitiRules)
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


