"""Whole Judge Dredd games through a real Table and referee on a temporary journal,
played by the simulated Judges: every card they draw, place, turn up or commit is
tapped on an emulated PN532 (the shared table reader, or the seat's own), the rest is
typed on the tablets. The journal then replays to the same game."""

from __future__ import annotations

from dredd_table_support import dredd_table, play_by_nfc, sources

from lawmaster.host.games.judge_dredd.players import DreddPlayers
from lawmaster.host.games.judge_dredd.setup import dredd_header
from lawmaster.host.journal import Journal
from lawmaster.host.nfc.simulated import SimulatedNfc
from lawmaster.host.table import Table

SEATS = ["a", "b", "c"]


def test_dredd_table_whole_game_with_cards_tapped_on_the_readers(tmp_path, monkeypatch):
    seed, seats = 1, ["a", "b"]
    head = dredd_header(seats, seed, length="hotdog-run")
    table = dredd_table(tmp_path, head)
    players = DreddPlayers(table, seed)
    tapped = 0
    with SimulatedNfc("judge-dredd", table.referee.nfc, seats=[None, *seats], seed=seed) as nfc:
        for _ in range(3000):
            decision = players.decide()
            if decision is None:
                break
            tapped += play_by_nfc(table, nfc, decision)
    assert table.is_over()
    summary = table.engine.summary(table.state)
    assert summary["phase"] == "over" and summary["winner"] in seats
    assert table.referee.counts["unknown_tag"] == 0
    # Setup, refill, combats and draws all went through the readers.
    acts_by_nfc = {
        a["act"] for a, s in zip(table.actions, sources(table), strict=True) if s == "nfc"
    }
    assert {"place_crime", "commit", "draw"} <= acts_by_nfc
    assert tapped > 10
    # Each card committed from a seat's own reader is that seat's.
    for action, source in zip(table.actions, sources(table), strict=True):
        if action["act"] == "commit" and source == "nfc":
            assert action["card"] in head["hands"][action["by"]] or any(
                a["act"] == "draw" and a["by"] == action["by"] and action["card"] in a["cards"]
                for a in table.actions
                if "cards" in a
            )
    # Nothing accepted is lost: the journal replays to the same game.
    resumed = Table.resume(Journal(table.journal.path))
    assert resumed is not None
    assert resumed.engine.summary(resumed.state) == summary
