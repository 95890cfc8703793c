"""The journal: durable settings, append-only inputs, undo, seat tokens."""

from __future__ import annotations

import sqlite3

import pytest

from lawmaster.host.journal import ACTION, UNDO, Journal


def test_journal_runs_in_wal_mode_with_full_sync(tmp_path):
    journal = Journal(tmp_path / "j.db")
    assert journal._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    # 2 = FULL: every commit is fsynced before append() returns.
    assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == 2


def test_inputs_are_numbered_and_read_back_by_a_second_connection(tmp_path):
    path = tmp_path / "j.db"
    journal = Journal(path)
    game = journal.start_game({"game": "gw-brott"}, {"seed": 3}, {"gw": "tok-gw", "red": "tok-r"})
    assert journal.append(game.id, ACTION, {"act": "roll", "by": "red"}, seat="red") == 1
    assert journal.append(game.id, ACTION, {"act": "pass", "by": "red"}, source="board") == 2
    other = Journal(path).open_game()
    assert other is not None
    assert other.header == {"game": "gw-brott"}
    assert other.settings == {"seed": 3}
    assert other.tokens == {"gw": "tok-gw", "red": "tok-r"}
    assert [e.seq for e in other.entries] == [1, 2]
    assert other.entries[1].source == "board"
    assert other.actions() == [{"act": "roll", "by": "red"}, {"act": "pass", "by": "red"}]


def test_an_undo_takes_back_the_action_before_it_but_stays_in_the_record(tmp_path):
    journal = Journal(tmp_path / "j.db")
    game = journal.start_game({"game": "g"}, {}, {})
    for n in range(3):
        journal.append(game.id, ACTION, {"act": "a", "n": n})
    journal.append(game.id, UNDO, {"undo": 3})
    journal.append(game.id, UNDO, {"undo": 2})
    journal.append(game.id, ACTION, {"act": "a", "n": 9})
    record = journal.game(game.id)
    assert record.actions() == [{"act": "a", "n": 0}, {"act": "a", "n": 9}]
    assert record.last_seq == 6
    assert [e.kind for e in record.entries] == [ACTION] * 3 + [UNDO] * 2 + [ACTION]


def test_starting_a_game_closes_the_open_one(tmp_path):
    journal = Journal(tmp_path / "j.db")
    assert journal.open_game() is None
    first = journal.start_game({"game": "one"}, {}, {})
    journal.append(first.id, ACTION, {"act": "x"})
    second = journal.start_game({"game": "two"}, {}, {})
    found = journal.open_game()
    assert found is not None and found.id == second.id and found.entries == []
    assert journal.game(first.id).actions() == [{"act": "x"}]
    journal.close_game(second.id)
    assert journal.open_game() is None


def test_a_failed_write_leaves_nothing_half_written(tmp_path):
    journal = Journal(tmp_path / "j.db")
    game = journal.start_game({"game": "g"}, {}, {})
    with pytest.raises(ValueError):
        journal.append(game.id, "bogus", {"act": "x"})
    with pytest.raises(sqlite3.IntegrityError):
        journal.append(game.id + 99, ACTION, {"act": "x"})  # no such game
    assert journal.game(game.id).entries == []
    assert journal.append(game.id, ACTION, {"act": "x"}) == 1


def test_only_one_process_may_write_a_journal_but_any_may_read_it(tmp_path):
    import subprocess
    import sys

    path = tmp_path / "j.db"
    writer = Journal(path)
    game = writer.start_game({"game": "g"}, {}, {})
    writer.append(game.id, ACTION, {"act": "x"})
    script = (
        "import sys\n"
        "from lawmaster.host.journal import ACTION, Journal, JournalInUse\n"
        "j = Journal(sys.argv[1])\n"
        "game = j.open_game()\n"
        "print(len(game.entries))\n"
        "try:\n"
        "    j.append(game.id, ACTION, {'act': 'y'})\n"
        "except JournalInUse as exc:\n"
        "    print('refused', exc)\n"
    )
    other = subprocess.run(
        [sys.executable, "-c", script, str(path)], capture_output=True, text=True
    )
    assert other.stdout.splitlines()[0] == "1", other.stderr
    assert other.stdout.splitlines()[1].startswith("refused another Lawmaster process")
    writer.close()
    again = subprocess.run(
        [sys.executable, "-c", script, str(path)], capture_output=True, text=True
    )
    assert again.stdout.splitlines() == ["1"]  # the writer is gone: the append went through
    assert Journal(path).open_game().actions() == [{"act": "x"}, {"act": "y"}]
