"""Unamerican Graffiti on the whole simulated stack, before the registrations land (not a test).

Firmware on a pty → link → sensing → tracker → referee → journal, with the simulated
players' hands lifting pawns and Judge counters. What the registrations listed in the
Graffiti report would add to ``referee.rules_for``, ``web/render/__init__.py`` and
``stack.SimulatedBoard`` / ``SimulatedTable`` is applied here by monkeypatching, so
this script shows they are enough. Run::

    python tests/graffiti_table/graffiti_table_stack_demo.py [SEED]

It prints the inputs taken, where they came from (board, tablet), and the final colours.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from typing import Any

import lawmaster.host.referee as referee_module
from lawmaster.host import stack
from lawmaster.host.journal import Journal
from lawmaster.host.referee_graffiti import GraffitiRules
from lawmaster.host.runtime import Runtime, open_host, wait_until
from lawmaster.host.sim.players_graffiti import GraffitiPlayers
from lawmaster.host.web import render

GAME = "unamerican-graffiti"


def register() -> None:
    """The registrations, as monkeypatches (the real ones are one or two lines each)."""
    original = referee_module.rules_for
    referee_module.rules_for = lambda t: GraffitiRules(t) if t.game == GAME else original(t)
    render._MODULES[GAME] = "unamerican_graffiti"
    place = stack.SimulatedBoard._place

    def place_graffiti(self: Any, table: Any) -> None:
        if table.game != GAME:
            place(self, table)
            return
        summary = table.engine.summary(table.state)
        with self.lock:
            for player, pawn in summary["scrawlers"].items():
                if pawn["position"]:
                    self.board.put(player, "scrawler", pawn["position"])
            for number, where in summary["judges"].items():
                self.board.put(f"judge-{number}", "judge", where)

    stack.SimulatedBoard._place = place_graffiti


def before_gesture(sim: Any, decision: Any) -> None:
    """What SimulatedTable would do first for Graffiti: the arrested pawn comes off the
    board before the Judge goes on; a returning pawn is taken from the box."""
    pawn = decision.notes.get("take_off")
    if pawn:
        with sim.lock:
            rest = sim.hands.lift(pawn, sim.now())
        time.sleep(max(0.0, rest - sim.now()) + 0.05)
    if decision.action["act"] == "reenter" and decision.seat not in sim.board.pieces:
        with sim.lock:
            sim.board.put(decision.seat, "scrawler", (0.0, -500.0))  # off the board


def main(seed: int) -> int:
    register()
    folder = tempfile.mkdtemp(prefix="graffiti-stack-")
    path = os.path.join(folder, "journal.db")
    header = {"game": GAME, "dredd_roll": seed % 6 + 1}
    host = open_host(path, {"seed": seed, "board": True}, header)
    runtime = Runtime(host)
    try:
        stack.wire_simulated_panel(runtime)  # no NFC: Graffiti has no cards
        sim = stack.SimulatedBoard(runtime, seed)
        hands = stack.SimulatedTable(runtime, None, sim)
        table = host.table
        players = GraffitiPlayers(table, seed)
        while not table.is_over():
            decision = players.decide()
            before_gesture(sim, decision)
            hands.act(table, decision)
            if not wait_until(lambda: table.status.state == "ok", 5):
                print("stuck:", table.status)
                return 1
        rows = (
            Journal(path)
            ._db.execute("SELECT source, count(*) FROM inputs GROUP BY source")
            .fetchall()
        )
        print("inputs", len(table.actions), "by source", dict(rows))
        print(json.dumps(table.engine.summary(table.state)["colours"]))
        errors = getattr(runtime, "inputs", None)
        return 1 if errors is not None and errors.errors else 0
    finally:
        runtime.close()


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 3))
