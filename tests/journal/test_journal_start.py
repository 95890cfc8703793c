"""A damaged journal never stops the table (issue 20, finding 4 and its neighbours).

The attack: one input's body changed inside the journal (``"to":"D2"`` → ``"Q9"``),
SQLite's structure intact, the copy untouched. ``lawmaster run`` and ``lawmaster
demo --journal`` must start, resume the game (from the copy, which still holds
that input) and say what happened, never with a traceback. Also here: a journal
with nothing readable starts a new game *and says so* on the health panel and
the tablets; the journal's files are the service user's alone; the host link is
kept out of the system log.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import signal
import sqlite3
import stat
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest
from journal_games import play

from lawmaster.host.games.gw_brott.setup import DEMO_HEADER
from lawmaster.host.journal import Journal
from lawmaster.host.journal_recovery import read_holding


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    folder = tmp_path_factory.mktemp("played")
    return play(folder, 24)


def _moved_to_q9(path: Path) -> int:
    """Change the ``to`` of one move input to a cell off the board; its sequence number."""
    db = sqlite3.connect(path)
    try:
        rows = db.execute("SELECT seq, body FROM inputs ORDER BY seq").fetchall()
        seq, body = next((s, b) for s, b in rows if '"to":"' in b)
        changed = re.sub(r'"to":"[^"]*"', '"to":"Q9"', body, count=1)
        db.execute("UPDATE inputs SET body = ? WHERE seq = ?", (changed, seq))
        db.commit()
    finally:
        db.close()
    return seq


def _config(tmp_path: Path, journal: Path) -> Path:
    """A table without a board, its panel on mock pins, and GW:s brott to set up if need be."""
    abilities = ", ".join(f"{k} = {json.dumps(v)}" for k, v in DEMO_HEADER["abilities"].items())
    evidence = ", ".join(f"{k} = {json.dumps(v)}" for k, v in DEMO_HEADER["evidence"].items())
    config = tmp_path / "table.toml"
    config.write_text(
        f'[table]\njournal = "{journal}"\nboard = false\n\n[panel]\npin_factory = "mock"\n\n'
        '[web]\nhost = "127.0.0.1"\nport = 0\n\n[game]\ngame = "gw-brott"\n'
        f'criminals = ["red", "green"]\ntrumps = {json.dumps(DEMO_HEADER["trumps"])}\n'
        f"abilities = {{ {abilities} }}\nevidence = {{ {evidence} }}\n"
    )
    return config


class Started:
    """A ``lawmaster`` command started in a process of its own, read until it serves."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", "from lawmaster.host.cli import main; main()", *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        self.out: list[str] = []
        for line in self.process.stdout:
            self.out.append(line)
            if line.startswith("table screen:"):
                break
        self.err: list[str] = []
        threading.Thread(target=self._drain, daemon=True).start()
        assert self.out and self.out[-1].startswith("table screen:"), self.stop()
        self.base = re.sub(r"/+$", "", self.out[-1].split()[-1].split("/screen/")[0])

    def _drain(self) -> None:
        for line in self.process.stderr:
            self.err.append(line)

    def read_until(self, prefix: str) -> str:
        """Standard output up to the line starting with ``prefix`` (what the command says
        after it serves, such as where it wrote the links)."""
        for line in self.process.stdout:
            self.out.append(line)
            if line.startswith(prefix):
                return line
        raise AssertionError(f"never said {prefix!r}: {self.stop()}")

    def get(self, path: str) -> dict:
        with urllib.request.urlopen(self.base + path, timeout=10) as response:
            return json.loads(response.read())

    def stop(self) -> str:
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)
        rest, _ = self.process.communicate(timeout=30)
        self.out.append(rest or "")
        return "".join(self.out) + "".join(self.err)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("command", ["run", "demo"])
def test_journal_start_a_changed_input_resumes_from_the_copy_without_a_traceback(
    played, tmp_path, command
):
    journal = played.fresh(tmp_path)
    seq = _moved_to_q9(journal)
    copied = read_holding(str(journal) + ".copy", "copy")
    assert not isinstance(copied, str) and copied.inputs >= seq  # the copy still holds it
    if command == "run":
        started = Started("run", "--config", str(_config(tmp_path, journal)))
    else:
        started = Started("demo", "--journal", str(journal), "--no-board", "--port", "0",
                          "--pace", "60")  # fmt: skip
    try:
        snapshot = started.get("/table.json")["snapshot"]
        # Nothing is lost: the copy holds the input as it was, the journal the inputs after.
        assert snapshot["move"] >= played.committed - 1
        panel = {label: words for label, words, _ in snapshot["health"]["panel"]}
        assert f"input {seq}" in panel["Journal"] and "copy" in panel["Journal"]
    finally:
        said = started.stop()
    assert "Traceback" not in said, said
    assert f"input {seq}" in said and "Nothing accepted is gone" in said
    assert started.process.returncode == 0, said


@pytest.mark.timeout(120)
def test_journal_start_nothing_readable_starts_afresh_and_says_so_everywhere(played, tmp_path):
    journal = played.fresh(tmp_path)
    os.unlink(str(journal) + ".copy")
    with open(journal, "r+b") as f:
        f.write(b"\0" * 100)
    started = Started("run", "--config", str(_config(tmp_path, journal)))
    try:
        snapshot = started.get("/table.json")["snapshot"]
        assert snapshot["move"] == 0  # a new game, since nothing of the old one was readable
        panel = {label: words for label, words, _ in snapshot["health"]["panel"]}
        assert "A new game must be set up" in panel["Journal"]
        assert any("journal" in line.lower() for line in snapshot["health"]["banner"])
        # Every tablet's banner says it too.
        record = Journal(journal).open_game()
        assert record is not None
    finally:
        said = started.stop()
    assert "Traceback" not in said and "A new game must be set up" in said, said
    # The report stays until the host sets up a game: a restart says it again.
    again = Started("run", "--config", str(_config(tmp_path, journal)))
    try:
        rows = again.get("/table.json")["snapshot"]["health"]["panel"]
        panel = {label: words for label, words, _ in rows}
        assert "A new game must be set up" in panel["Journal"]
    finally:
        again.stop()


@pytest.mark.timeout(120)
def test_journal_start_the_files_and_the_host_link_are_the_service_users_alone(tmp_path):
    journal = tmp_path / "table.db"
    config = _config(tmp_path, journal)
    started = Started("run", "--config", str(config))
    try:
        started.get("/table.json")
        # The links are written once the server is up: wait for the line that says where.
        started.read_until("host console and table screen links:")
        link_file = Path(f"{journal}.host-link")
        host_token = re.search(r"/host/([A-Za-z0-9_-]+)", link_file.read_text()).group(1)
        screen_token = re.search(r"/screen/([A-Za-z0-9_-]+)", link_file.read_text()).group(1)
        # The link opens the console: it is this start's (new at every start).
        device = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        with device.open(f"{started.base}/host/{host_token}", timeout=10) as answer:
            assert answer.status == 200 and answer.url.endswith("/host")
        _only_ours(tmp_path)  # while it runs: the write-ahead log and its index too
        assert os.path.exists(f"{journal}-wal")
    finally:
        said = started.stop()
    # The links are not on standard output (which systemd hands to the system log).
    assert host_token not in said and screen_token not in said, said
    assert str(link_file) in said  # where to read them is said
    _only_ours(tmp_path)
    assert {"table.db", "table.db.copy", "table.db.mark"} <= set(os.listdir(tmp_path))


def _only_ours(folder: Path) -> None:
    for name in os.listdir(folder):
        if name.startswith("table.db"):
            mode = stat.S_IMODE(os.stat(folder / name).st_mode)
            assert mode & 0o077 == 0, f"{name} is readable by others ({oct(mode)})"


def test_journal_start_a_record_the_engine_refuses_cuts_the_game_there(played, tmp_path):
    """A journal written before checksums, one input changed: nothing tells the change but the
    engine, which refuses it on replay. The game resumes at the input before it, said."""
    from lawmaster.host.runtime import open_host

    journal = played.fresh(tmp_path)
    os.unlink(str(journal) + ".copy")
    db = sqlite3.connect(journal)
    for table in ("inputs", "games"):
        db.execute(f"ALTER TABLE {table} DROP COLUMN chk")  # as the older program wrote it
    db.commit()
    db.close()
    seq = _moved_to_q9(journal)
    host = open_host(str(journal), {"board": False}, DEMO_HEADER)
    try:
        damage = host.journal.damage
        assert damage is not None and f"input {seq} cannot be replayed" in damage.message
        assert "off the board" in damage.message
        assert len(host.table.record.entries) == seq - 1 == damage.holding.inputs
        assert damage.lost == played.committed - (seq - 1)
        assert f"inputs {seq} to {played.committed}" in damage.message
    finally:
        host.journal.close()
    # Checksummed from now on, and said again at the next start.
    again = Journal(journal)
    try:
        assert again.damage is not None and again.damage.message == damage.message
        assert again.open_game().last_seq == seq - 1
    finally:
        again.close()
