"""Shared helpers for the Judge Dredd table tests: a real Table on a temporary journal,
refereed by :class:`DreddRules`, emulated PN532 readers, and the rig's board seam.

Tables are built exactly as the runtime builds them: the registry of games gives
every Judge Dredd table its rules.
"""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from lawmaster.host.games.judge_dredd.referee import DreddRules
from lawmaster.host.journal import Journal
from lawmaster.host.plugin import Intent as Decision
from lawmaster.host.runtime import wait_until
from lawmaster.host.table import Table

GAME = "judge-dredd"

#: Six crimes out, each Perp tapped (so the engine knows the face-down ids).
CRIMES = [
    {
        "sector_card": "sector-devils-island",
        "crime": "robot-smashing",
        "perp": "the-mantis-brothers",
    },
    {"sector_card": "sector-channel-99", "crime": "littering", "perp": "max-normal"},
    {"sector_card": "sector-kelp-farm", "crime": "jaywalking", "perp": "otto-sump"},
    {"sector_card": "sector-west-wall", "crime": "murder", "perp": "judge-death"},
    {"sector_card": "sector-power-tower", "crime": "vandalism", "perp": "chopper"},
    {"sector_card": "sector-weather-control", "crime": "arson", "perp": "whitey"},
]


def header(**extra: Any) -> dict[str, Any]:
    """Two Judges (a on Resyk, b on the Grand Hall of Justice), six crimes out."""
    base: dict[str, Any] = {
        "game": GAME,
        "players": ["a", "b"],
        "positions": {"a": "resyk", "b": "grand-hall-of-justice"},
        "crimes": CRIMES,
    }
    base.update(extra)
    return base


def dredd_table(tmp_path: Path, head: dict[str, Any], settings: dict | None = None) -> Table:
    """A new game on a fresh journal."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    table = Table.start(Journal(tmp_path / "journal.sqlite"), head, settings or {})
    assert isinstance(table.referee.rules, DreddRules)
    return table


def in_swedish(tmp_path: Path, texts: list[str]) -> list[str]:
    """What a Swedish page shows for these sentences the referee said once for every seat."""
    from lawmaster.host.table import TableHost
    from lawmaster.host.web import create_app
    from lawmaster.host.web.i18n import translate

    host = TableHost(Journal(Path(tempfile.mkdtemp(dir=tmp_path)) / "journal.sqlite"), {})
    with create_app(host).test_request_context(headers={"Accept-Language": "sv"}):
        return [translate(text) for text in texts]


def ok(result: dict[str, Any]) -> dict[str, Any]:
    """Assert a tablet input was taken and return the answer."""
    assert result.get("ok"), result
    return result


def sources(table: Table) -> list[str]:
    """The journal's source of every accepted input, in order."""
    record = Journal(table.journal.path).open_game()
    assert record is not None
    return [entry.source for entry in record.entries]


#: Inputs the simulated players make with cards on the NFC readers.
NFC_ACTS = frozenset({"place_crime", "reveal_perp", "draw", "commit", "discard_sector"})


def play_by_nfc(table: Table, nfc: Any, decision: Decision) -> bool:
    """Make one simulated decision: its cards tapped on the readers, else on the tablet.

    Returns whether it went through NFC. Taps of one input come from one reader
    thread in order; the function waits until the referee has taken them all.
    """
    taps = decision.notes.get("taps") or []
    act = decision.action["act"]
    if not taps or act not in NFC_ACTS:
        ok(table.submit(decision.seat, decision.action))
        return False
    before = len(table.actions)
    expected = len(taps) if act == "draw" else 1
    for card, seat in taps:
        nfc.tap(card, seat)  # waits for the reader to see the last card go
    if act == "commit":
        # With several Judges fighting, the seat's tablet asks which one the card is for.
        def asked() -> list[dict[str, Any]]:
            prompts = table.snapshot(decision.seat)["prompts"]
            return [p for p in prompts if p.get("act") == "commit_for"]

        wait_until(lambda: len(table.actions) > before or bool(asked()), 10)
        for question in asked():
            chosen = [o["for"] for o in question["options"]].index(decision.action["for"])
            ok(table.submit(decision.seat, {"act": "commit_for", "index": chosen}))
    assert wait_until(lambda: len(table.actions) >= before + expected, 10), (
        decision.action,
        table.status,
    )
    return True




@contextmanager
def served_combat(tmp_path: Path, hands: dict[str, list[str]]) -> Iterator[tuple[Any, str]]:
    """Judge a in Channel 99 facing its Perp, b standing by, served by waitress on
    127.0.0.1: the table and the server's address, until the block ends.

    """
    from lawmaster.host.table import TableHost
    from lawmaster.host.web import create_app, make_server, stop

    host = TableHost(Journal(tmp_path / "journal.sqlite"), {})
    table = host.new_game(header(hands=hands))
    for seat, action in (
        ("a", {"act": "move", "by": "a", "path": ["mega-mall", "channel-99"]}),
        ("b", {"act": "move", "by": "b", "path": []}),
        ("a", {"act": "end_movement"}),
    ):
        assert table.submit(seat, action)["ok"], action
    server = make_server(create_app(host), "127.0.0.1", 0)
    thread = threading.Thread(target=server.run, name="waitress", daemon=True)
    thread.start()
    try:
        yield table, f"http://127.0.0.1:{server.effective_port}"
    finally:
        stop(server)
        thread.join(timeout=10)
