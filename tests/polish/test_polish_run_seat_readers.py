"""``lawmaster run``'s wiring with per-seat readers from the table config: a card laid on
a Judge's own reader (an emulated PN532 on a pty) is that Judge's play."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dredd_table"))

from dredd_table_support import header, ok  # noqa: E402

from lawmaster.host.commands.run import start  # noqa: E402
from lawmaster.host.config import parse  # noqa: E402
from lawmaster.host.nfc.cards import card_list  # noqa: E402
from lawmaster.host.nfc.emulator import Ntag213, PN532Emulator  # noqa: E402
from lawmaster.host.nfc.registry import CardRegistry  # noqa: E402
from lawmaster.host.runtime import Runtime, open_host, wait_until  # noqa: E402

HANDS = {"a": ["fergee-1", "robo-dogs-1"], "b": ["aah-ankle-trap-1"]}


def test_polish_run_wires_a_seats_own_reader_from_the_config(tmp_path, monkeypatch):
    cards = {card.id: card for card in card_list("judge-dredd")}
    sticker = Ntag213.random()
    with CardRegistry(tmp_path / "cards.db") as registry:
        registry.enroll("judge-dredd", cards["aah-ankle-trap-1"], sticker.uid)
    host = open_host(str(tmp_path / "j.db"), {"board": False}, header(hands=HANDS))
    runtime = Runtime(host)
    table = runtime.table
    ok(table.submit("a", {"act": "move", "by": "a", "path": ["mega-mall", "channel-99"]}))
    ok(table.submit("b", {"act": "move", "by": "b", "path": []}))
    ok(table.submit("a", {"act": "end_movement"}))
    with PN532Emulator() as shared, PN532Emulator() as own:
        config = parse(
            {
                "table": {"board": False, "cards": str(tmp_path / "cards.db")},
                "nfc": [
                    {"name": "shared", "port": shared.port},
                    {"name": "judge-b", "port": own.port, "seat": "b", "poll_timeout": 0.05},
                ],
                "panel": {"pin_factory": "mock"},
            }
        )
        try:
            start(runtime, config)
            assert runtime.missing == []
            own.present(sticker)
            wanted = {"act": "commit", "by": "b", "card": "aah-ankle-trap-1", "for": "a"}
            assert wait_until(lambda: table.actions[-1] == wanted, 10), table.status
            progress = host.enrollment.progress()
            assert (progress["done"], progress["total"]) == (1, len(cards))
        finally:
            runtime.close()
            host.journal.close()
