"""The simulated Judges play whole games through the real referee's tablets: every
input they make is accepted, games end, Alerts drawn in the refill are played at once,
and the cards drawn are tapped, so the engine knows the hands."""

from __future__ import annotations

import collections

from dredd_table_support import dredd_table

from lawmaster.host.games.judge_dredd.players import DreddPlayers, play_out
from lawmaster.host.games.judge_dredd.setup import dredd_header
from lawmaster.host.journal import Journal
from lawmaster.host.table import Table


def test_dredd_table_simulated_judges_finish_hotdog_runs(tmp_path, monkeypatch):
    plays: collections.Counter[str] = collections.Counter()
    for seed in range(8):
        seats = ["a", "b", "c", "d", "e", "f"][: 2 + seed % 5]
        table = dredd_table(tmp_path / str(seed), dredd_header(seats, seed, length="hotdog-run"))
        assert play_out(table, seed) > 40  # raises if any input is refused
        assert table.is_over() and table.engine.summary(table.state)["winner"] in seats
        assert DreddPlayers(table, seed).decide() is None
        plays.update(a["act"] for a in table.actions)
        plays.update("tapped draw" for a in table.actions if a["act"] == "draw" and a.get("cards"))
    for act in ("move", "commit", "reveal", "roll", "arrest", "draw", "place_crime", "play"):
        assert plays[act] > 0, act
    # Drawn cards are tapped (a count only when the deck left is too short to pick from).
    assert plays["tapped draw"] > 0.8 * plays["draw"]


def test_dredd_table_dealt_hands_are_seeded_and_never_hold_alerts():
    one = dredd_header(["a", "b"], 3, specialists={"b": "cadet"})
    assert one == dredd_header(["a", "b"], 3, specialists={"b": "cadet"})
    assert one != dredd_header(["a", "b"], 4, specialists={"b": "cadet"})
    assert len(one["hands"]["a"]) == 6 and len(one["hands"]["b"]) == 7
    assert not set(one["hands"]["a"]) & set(one["hands"]["b"])
    assert not any(
        c.startswith(("quarantine", "crime-spree")) for h in one["hands"].values() for c in h
    )


def test_dredd_table_same_seed_same_game_through_the_tablets(tmp_path, monkeypatch):
    games = []
    for run in range(2):
        table = dredd_table(tmp_path / str(run), dredd_header(["a", "b", "c"], 7))
        assert play_out(table, seed=7, limit=400) == 400 or table.is_over()
        games.append(table.actions)
    assert games[0] == games[1]


def test_dredd_table_resumed_table_plays_on_as_if_never_stopped(tmp_path, monkeypatch):
    """The players and their physical decks keep nothing of their own: new ones on the
    journal's replay (a demo restarted after a crash) play the game the first ones would."""
    head = dredd_header(["a", "b", "c"], 5, length="hotdog-run")
    whole = dredd_table(tmp_path / "whole", head)
    assert play_out(whole, seed=5) > 200  # the resumed half holds refills, combats, crimes
    assert whole.is_over()
    stopped = dredd_table(tmp_path / "stopped", head)
    assert play_out(stopped, seed=5, limit=120) == 120
    stopped.journal.close()  # the process stops: its lock on the journal goes with it
    resumed = Table.resume(Journal(stopped.journal.path))
    assert resumed is not None
    play_out(resumed, seed=5)
    assert resumed.is_over() and resumed.actions == whole.actions
