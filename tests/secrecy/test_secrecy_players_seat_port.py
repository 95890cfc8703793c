"""The simulated players of every game read the table through the SeatPort alone.

Each game's players (the plugin's ``players(seats, seed)``) are handed a real
:class:`~lawmaster.host.table.Table` behind a thin adapter that exposes the
:class:`~lawmaster.host.plugin.SeatPort` methods and nothing else: no ``state``, no
``header``, no ``record``, no engine. A player reaching for anything of the table
that a tablet cannot reach fails with ``AttributeError``; the demo's game is played
through it to its end, every input the players make being taken.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from lawmaster.host import games
from lawmaster.host.journal import Journal
from lawmaster.host.plugin import SeatPort
from lawmaster.host.runtime import demo_header
from lawmaster.host.table import Table

#: Far more inputs than any of the demo's games takes; a game that stalls runs into it.
LIMIT = 4000


class SeatsOnly:
    """A real table as the SeatPort shows it: each method passes straight through."""

    __slots__ = ("__table",)

    def __init__(self, table: Table) -> None:
        # Name-mangled: ``seats.table`` or ``seats._table`` is an AttributeError.
        self.__table = table

    def snapshot(self, seat: str) -> dict[str, Any]:
        return self.__table.snapshot(seat)

    def submit(self, seat: str, action: Any) -> dict[str, Any]:
        return self.__table.submit(seat, action)

    def refusal(self, seat: str, action: Mapping[str, Any]) -> str | None:
        return self.__table.refusal(seat, action)

    def seats(self) -> list[str]:
        return self.__table.seats()

    def to_act(self) -> list[str]:
        return self.__table.to_act()

    def is_over(self) -> bool:
        return self.__table.is_over()

    @property
    def game_key(self) -> str:
        return self.__table.game_key


def test_secrecy_the_adapter_is_a_seat_port_and_hides_the_rest(tmp_path: Path) -> None:
    table = Table.start(Journal(tmp_path / "journal.sqlite"), demo_header("judge-dredd", 1))
    seats: SeatPort = SeatsOnly(table)
    assert seats.seats() == table.seats() and seats.game_key == table.game_key
    for inside in ("state", "header", "record", "engine", "referee", "table", "_table"):
        with pytest.raises(AttributeError):
            getattr(seats, inside)


@pytest.mark.parametrize("slug", ["judge-dredd", "gw-brott", "unamerican-graffiti"])
def test_secrecy_simulated_players_play_a_whole_game_through_the_seat_port(
    tmp_path: Path, slug: str
) -> None:
    seed = 3
    table = Table.start(Journal(tmp_path / "journal.sqlite"), demo_header(slug, seed))
    factory = games.game(slug).players
    assert factory is not None
    seats = SeatsOnly(table)
    players = factory(seats, seed)
    taken = 0
    while taken < LIMIT:
        decision = players.decide()
        if decision is None:
            break
        answer = seats.submit(decision.seat, decision.action)
        assert answer.get("ok"), (decision, answer)
        taken += 1
    assert table.is_over(), f"{slug}: not over after {taken} inputs"
    assert taken > 10
