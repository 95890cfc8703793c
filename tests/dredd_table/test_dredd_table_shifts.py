"""Regression: seeded Day Shift and Night Shift games played by the simulated Judges through
a real Table reach the end.

Long games draw many Crime Sprees, which empty the Crime deck before the Sector deck; a Day
Shift used to stall there (no crime could be placed, so the Sector deck was never drawn).
"""

from __future__ import annotations

import pytest
from dredd_table_support import dredd_table

from lawmaster.host.games.judge_dredd.players import DreddPlayers, play_out
from lawmaster.host.games.judge_dredd.setup import dredd_header

#: Far more inputs than a whole game takes (about 400); a stalled game runs into it.
LIMIT = 1500
SEATS = ["a", "b", "c", "d", "e", "f"]


def _finish(tmp_path, seed: int, **extra) -> dict:
    """Play one seeded game to its end and return the referee's summary."""
    seats = SEATS[: 2 + seed % 5]
    table = dredd_table(tmp_path / str(seed), dredd_header(seats, seed, **extra))
    taken = play_out(table, seed, limit=LIMIT)
    summary = table.engine.summary(table.state)
    assert taken < LIMIT and table.is_over(), (seed, summary["round"], summary["decks"])
    assert summary["winner"] in seats and summary["final_round"]
    assert DreddPlayers(table, seed).decide() is None
    return summary


@pytest.mark.parametrize("length", ["day-shift", "night-shift"])
def test_dredd_table_seeded_shifts_reach_the_end(tmp_path, monkeypatch, length):
    decks = [_finish(tmp_path, seed, length=length)["decks"] for seed in range(6)]
    if length == "day-shift":
        # Some of these games end on an empty Crime deck with Sector cards left: the case
        # that used to stall.
        assert any(d["crime"] == 0 and d["sector"] > 0 for d in decks), decks
        assert all(d["crime"] == 0 or d["sector"] == 0 for d in decks), decks
    else:
        assert all(d["crime"] == 0 or d["perp"] == 0 for d in decks), decks


def test_dredd_table_day_shift_with_perps_alone_ends_on_the_sector_deck(tmp_path, monkeypatch):
    options = {"crime_deck_out": "perp_alone"}
    for seed in (1, 2, 4):
        summary = _finish(tmp_path, seed, length="day-shift", options=options)
        assert summary["decks"]["sector"] == 0, summary["decks"]
