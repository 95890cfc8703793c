"""One table per game for the cross-game page checks, played by the simulated players.

The checks look at every game's pages at three moments: just set up, mid-game with
a question pending for a seat, and over. The games are played by the same seeded
simulated people ``lawmaster demo`` uses, through ``Table.submit`` as tablets post.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from web_support import gw_header

from lawmaster.host.games.gw_brott.players import Players
from lawmaster.host.games.judge_dredd.players import DreddPlayers
from lawmaster.host.games.judge_dredd.setup import dredd_header
from lawmaster.host.games.unamerican_graffiti.players import GraffitiPlayers
from lawmaster.host.journal import Journal
from lawmaster.host.table import Table, TableHost

GAMES = ("gw-brott", "judge-dredd", "unamerican-graffiti")
#: The seats whose pages are looked at, per game (every seat of these small tables).
SEATS = {
    "gw-brott": ("gw", "red", "green"),
    "judge-dredd": ("dredd", "hershey"),
    "unamerican-graffiti": ("chopper", "phantom"),
}
#: Inputs played before the "mid-turn" moment: past the opening, a question pending.
MID_GAME = 7
#: No game of these sizes runs longer; a game that does is a bug the checks report.
LIMIT = 4000


def header(game: str, seed: int = 3) -> dict[str, Any]:
    """A small table of ``game`` with its cards dealt by a seeded shuffle."""
    if game == "gw-brott":
        return gw_header(seed, ["red", "green"])
    if game == "judge-dredd":
        return dredd_header(list(SEATS[game]), seed, length="hotdog-run")
    return {"game": game, "dredd_roll": 1}


def new_host(tmp_path: Path, game: str, seed: int = 3) -> tuple[TableHost, Table, Any]:
    """A host with a new game of ``game`` and its simulated players."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    host = TableHost(Journal(tmp_path / "journal.sqlite"), {})
    table = host.new_game(header(game, seed))
    kind = {"gw-brott": Players, "judge-dredd": DreddPlayers}.get(game, GraffitiPlayers)
    return host, table, kind(table, seed)


def play(table: Table, players: Any, count: int) -> int:
    """Play up to ``count`` inputs (fewer if the game ends); the number played."""
    for played in range(count):
        if table.snapshot("table").get("over"):
            return played
        decision = players.decide()
        if decision is None:
            return played
        answer = table.submit(decision.seat, decision.action)
        assert answer.get("ok"), (decision, answer)
    return count


def to_question(table: Table, players: Any) -> str:
    """Play into the game until a seat is asked something; that seat."""
    play(table, players, MID_GAME)
    for _ in range(LIMIT):
        for seat in table.to_act():
            if table.snapshot(seat).get("prompts"):
                return seat
        assert play(table, players, 1) == 1, "the game ended before anyone was asked"
    raise AssertionError("nobody was asked anything")


def to_end(table: Table, players: Any) -> None:
    """Play the game to its end."""
    play(table, players, LIMIT)
    assert table.snapshot("table").get("over"), "the game did not end"
