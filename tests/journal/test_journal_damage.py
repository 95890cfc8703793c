"""A damaged journal: each kind of damage is found at start, said in words, and bounded by the copy.

A GW:s brott game is played on the tablets by the simulated players; the
journal's files are then taken as a power cut would leave them (copied while
the writer still has them open) and damaged one way or another. Opening the
copy must report plainly what was lost, resume from what is whole, and never
lose more than the inputs since the last copy (made at each turn's end).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from lawmaster.host.games.gw_brott.setup import DEMO_HEADER
from lawmaster.host.journal import Journal
from lawmaster.host.journal_recovery import file_problems, read_holding, read_mark
from lawmaster.host.runtime import open_host, players_for, tablet_act
from lawmaster.host.table import Table, TableHost

INPUTS = 23


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> tuple[Path, int, int, dict[str, str]]:
    """A journal snapshot as a power cut leaves it: main file, WAL, mark and copy.

    Returns the folder, the inputs committed, the inputs in the copy, and the seat tokens.
    """
    folder = tmp_path_factory.mktemp("played")
    path = folder / "live.db"
    table = Table.start(Journal(path), DEMO_HEADER, {"board": False, "seed": 2})
    players = players_for(table, 2)
    def behind() -> int:
        assert table.journal.flush()  # the copy asked for at the last turn's end is made
        copied = read_holding(str(path) + ".copy", "copy")
        return table.last_seq - (0 if isinstance(copied, str) else copied.inputs)

    # Stop mid-turn, a few inputs after the last copy: those are what damage can cost.
    while table.last_seq < INPUTS or behind() < 2:
        decision = players.decide()
        assert decision is not None
        tablet_act(table, decision)
    assert table.journal.flush()
    snap = folder / "snap"
    snap.mkdir()
    # The writer is still open: its write-ahead log holds the game (no checkpoint yet).
    assert os.path.getsize(str(path) + "-wal") > 0
    for suffix in ("", "-wal", ".mark", ".copy"):
        shutil.copyfile(str(path) + suffix, snap / ("j.db" + suffix))
    copied = read_holding(str(snap / "j.db.copy"), "copy")
    assert not isinstance(copied, str) and 0 < copied.inputs <= table.last_seq
    tokens = dict(table.record.tokens)
    return snap, table.last_seq, copied.inputs, tokens


def _damaged(played, tmp_path: Path, damage) -> tuple[Journal, str]:
    snap, *_ = played
    for name in os.listdir(snap):
        shutil.copyfile(snap / name, tmp_path / name)
    path = tmp_path / "j.db"
    damage(path)
    journal = Journal(path)
    assert journal.damage is not None, "a damaged journal resumed silently"
    return journal, journal.damage.message


def _check_resumed(journal: Journal, played, message: str) -> int:
    """The game resumes whole up to what the report says; the loss is bounded by the copy."""
    _, committed, in_copy, tokens = played
    damage = journal.damage
    assert damage is not None and damage.holding is not None
    held = journal.open_game()
    assert held is not None and held.last_seq == damage.holding.inputs
    assert held.last_seq >= in_copy  # never more lost than the copy bounds
    assert damage.lost == committed - held.last_seq
    assert held.tokens == tokens  # every seat's link still opens its seat
    assert "GW:s brott" in message and "Traceback" not in message
    assert f"holds {held.last_seq} inputs" in message
    if damage.lost:
        assert f"inputs {held.last_seq + 1} to {committed}" in message or (
            f"input {committed}" in message
        )
        assert "by hand" in message
    else:
        assert "Nothing accepted is gone" in message
    Table.resume(journal)  # the game replays from what is left
    return held.last_seq


def _cut_wal(fraction: float):
    def damage(path: Path) -> None:
        wal = str(path) + "-wal"
        size = os.path.getsize(wal)
        os.truncate(wal, int(size * fraction) if fraction < 1 else size - 100)

    return damage


def test_journal_damage_a_wal_cut_short_names_the_input_lost(played, tmp_path):
    journal, message = _damaged(played, tmp_path, _cut_wal(1.0))
    assert "write-ahead log" in message
    _check_resumed(journal, played, message)
    assert journal.damage.lost == 1


def test_journal_damage_a_wal_cut_in_half_resumes_from_the_copy_and_says_so(played, tmp_path):
    journal, message = _damaged(played, tmp_path, _cut_wal(0.5))
    held = _check_resumed(journal, played, message)
    _, committed, in_copy, _ = played
    assert held == in_copy and journal.damage.holding.source == "copy"
    assert "its copy" in message and "Replay them by hand" in message
    assert journal.damage.replay_by_hand == committed - in_copy


@pytest.mark.parametrize("shut_down", [True, False], ids=["after-shutdown", "after-power-cut"])
def test_journal_damage_a_main_file_cut_short(played, tmp_path, shut_down):
    def damage(path: Path) -> None:
        if shut_down:  # a clean shutdown first folds the log into the file
            Journal(path).close()
        os.truncate(path, os.path.getsize(path) // 2 + 100)

    journal, message = _damaged(played, tmp_path, damage)
    assert "cut short" in message
    _check_resumed(journal, played, message)


def test_journal_damage_a_broken_header(played, tmp_path):
    def damage(path: Path) -> None:
        Journal(path).close()  # everything in the one file, whose header then breaks
        with open(path, "r+b") as f:
            f.write(b"this is no journal")

    journal, message = _damaged(played, tmp_path, damage)
    assert "header" in message
    held = _check_resumed(journal, played, message)
    assert held == played[2]  # only the copy is readable


def test_journal_damage_garbage_appended(played, tmp_path):
    def damage(path: Path) -> None:
        Journal(path).close()
        with open(path, "ab") as f:
            f.write(os.urandom(1000))

    journal, message = _damaged(played, tmp_path, damage)
    assert "1000 bytes of unknown data" in message
    assert _check_resumed(journal, played, message) == played[1]  # nothing lost


def test_journal_damage_garbage_appended_to_the_wal(played, tmp_path):
    def damage(path: Path) -> None:
        with open(str(path) + "-wal", "ab") as f:
            f.write(os.urandom(700))

    journal, message = _damaged(played, tmp_path, damage)
    assert "write-ahead log" in message
    assert _check_resumed(journal, played, message) == played[1]


def test_journal_damage_is_said_at_every_start_until_a_new_game(played, tmp_path):
    journal, message = _damaged(played, tmp_path, _cut_wal(0.5))
    held = journal.open_game().last_seq
    journal.close()
    again = Journal(tmp_path / "j.db")
    assert file_problems(again.path) == []  # repaired: whole again
    assert again.damage is not None and again.damage.message == message  # said again, same words
    assert again.open_game().last_seq == held
    assert read_mark(again.mark_path) == (again.open_game().id, held)
    assert any(name.startswith("j.db.damaged-") for name in os.listdir(tmp_path))
    again.start_game({"game": "gw-brott"}, {}, {"table": "t"})
    assert again.damage is None
    again.close()
    assert Journal(tmp_path / "j.db").damage is None


def test_journal_damage_no_copy_and_an_unreadable_file_starts_afresh_and_says_so(
    played, tmp_path
):
    def damage(path: Path) -> None:
        os.unlink(str(path) + ".copy")
        Journal(path).close()
        with open(path, "r+b") as f:
            f.write(b"\0" * 100)

    journal, message = _damaged(played, tmp_path, damage)
    assert journal.damage.holding is None and "A new game must be set up" in message
    assert journal.open_game() is None


def test_journal_damage_reaches_the_table_host_without_a_traceback(played, tmp_path, capsys):
    snap, committed, in_copy, tokens = played
    for name in os.listdir(snap):
        shutil.copyfile(snap / name, tmp_path / name)
    Journal(tmp_path / "j.db").close()
    with open(tmp_path / "j.db", "r+b") as f:
        f.write(b"broken")
    host = open_host(str(tmp_path / "j.db"), {"board": False}, DEMO_HEADER)
    assert isinstance(host, TableHost) and host.table is not None
    assert host.table.last_seq == in_copy
    assert all(host.table.token(seat) == tokens[seat] for seat in host.table.seats())
    said = capsys.readouterr().err
    assert "was damaged" in said and "Replay them by hand" in said and "Traceback" not in said
    assert host.journal.damage is not None
    # The table screen says it too, and every seat is told to replay by hand.
    from lawmaster.host.runtime import Runtime
    from lawmaster.host.web import create_app

    runtime = Runtime(host)
    client = create_app(host).test_client()
    screen = client.get("/table").get_data(as_text=True)
    assert "Table health" in screen and "was damaged" in screen and "Replay them by hand" in screen
    seat = client.get(f"/seat/{host.table.token('red')}").get_data(as_text=True)
    assert f"The journal lost {committed - in_copy} input(s)" in seat
    assert "Traceback" not in screen + seat
    runtime.close()
