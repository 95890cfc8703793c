"""A game of another kind set up on the web's setup page during the demo is played on
its own simulated board (pieces where it starts them) and its own deck on the readers."""

from __future__ import annotations

import pytest

from lawmaster.host.journal import Journal
from lawmaster.host.runtime import Autoplay, Runtime, demo_header, open_host, wait_until
from lawmaster.host.sim.hardware import SimulatedHardware
from lawmaster.host.sim.people import SimulatedPeople
from lawmaster.host.stack import TableStages
from lawmaster.host.web import create_app

SEED = 2


def _sources(table) -> list[str]:
    journal = Journal(table.journal.path)
    try:
        record = journal.open_game()
        assert record is not None and record.id == table.record.id
        return [entry.source for entry in record.entries]
    finally:
        journal.close()


def _pieces_where_the_game_has_them(runtime: Runtime, hardware: SimulatedHardware) -> bool:
    table, board = runtime.table, hardware.board
    expectation = table.referee.rules.expectation(table.state)
    return all(
        board.is_on(piece, where)
        for piece, where in expectation.positions.items()
        if where is not None
    )


def _set_up(client, game: str) -> None:
    reply = client.post("/setup", json={"header": demo_header(game, SEED), "replace": True})
    assert reply.status_code == 200 and reply.get_json()["game"] == game


@pytest.mark.timeout(180)
def test_polish_demo_rewires_the_simulated_table_for_a_game_of_another_kind(tmp_path):
    host = open_host(
        str(tmp_path / "demo.db"), {"board": True, "seed": SEED}, demo_header("gw-brott", SEED)
    )
    runtime = Runtime(host)
    hardware = SimulatedHardware(SEED)
    stages = TableStages(runtime, hardware).start()
    people = SimulatedPeople(stages, hardware)
    autoplay = Autoplay(host, people.act, seed=SEED, pace=0.0, follow_new_games=True)
    client = create_app(host).test_client()
    try:
        autoplay.start()
        first = runtime.table
        assert wait_until(lambda: "board" in _sources(first), 60), autoplay.error

        _set_up(client, "unamerican-graffiti")
        graffiti = runtime.table
        assert hardware.board.map.game == "unamerican-graffiti"
        assert graffiti.referee.board is stages.current.feed
        assert host.enrollment is None  # Graffiti has no cards
        assert host.calibration.progress()["step"] == "done"
        assert wait_until(lambda: _sources(graffiti).count("board") >= 2, 60), autoplay.error

        _set_up(client, "judge-dredd")
        dredd = runtime.table
        assert hardware.board.map.game == "judge-dredd"
        assert _pieces_where_the_game_has_them(runtime, hardware)
        assert host.enrollment.progress()["total"] > 0
        # The Judges' cards are read by the new game's readers, their moves by its board.
        assert wait_until(lambda: {"nfc", "board"} <= set(_sources(dredd)), 90), (
            autoplay.error,
            _sources(dredd),
        )
        assert autoplay.error is None
    finally:
        autoplay.stop()
        autoplay.join(timeout=30)
        runtime.close()
        host.journal.close()
