"""A real game in a journal, for the damage tests: GW:s brott played on the tablets by the
simulated players, the journal closed (everything in its one file), its copy and mark beside."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from lawmaster.host.games.gw_brott.setup import DEMO_HEADER
from lawmaster.host.journal import Journal
from lawmaster.host.journal_recovery import read_holding
from lawmaster.host.runtime import players_for, tablet_act
from lawmaster.host.table import Table

SETTINGS = {"board": False, "seed": 2}


@dataclass(frozen=True)
class Played:
    folder: Path  # j.db, j.db.copy, j.db.mark
    entries: tuple[tuple[int, str, str], ...]  # (seq, kind, body as JSON) of every input
    tokens: dict[str, str]

    @property
    def committed(self) -> int:
        return len(self.entries)

    def fresh(self, into: Path) -> Path:
        """The played files copied into ``into``; the journal's path."""
        for name in ("j.db", "j.db.copy", "j.db.mark"):
            shutil.copyfile(self.folder / name, into / name)
        return into / "j.db"


def play(folder: Path, inputs: int) -> Played:
    """At least ``inputs`` inputs of a GW:s brott game on the tablets, stopped mid-turn a few
    inputs after the journal's last copy (what damage can cost), as a power cut finds it."""
    import json

    path = folder / "j.db"
    table = Table.start(Journal(path), DEMO_HEADER, SETTINGS)
    players = players_for(table, 2)

    def behind() -> int:
        assert table.journal.flush()  # the copy asked for at the last turn's end is made
        copied = read_holding(str(path) + ".copy", "copy")
        return table.last_seq - (0 if isinstance(copied, str) else copied.inputs)

    while table.last_seq < inputs or behind() < 2:
        decision = players.decide()
        assert decision is not None
        tablet_act(table, decision)
    assert table.journal.flush()
    record = table.journal.open_game()
    assert record is not None
    entries = tuple(
        (e.seq, e.kind, json.dumps(e.body, sort_keys=True)) for e in record.entries
    )
    tokens = dict(record.tokens)
    table.journal.close()
    return Played(folder, entries, tokens)
