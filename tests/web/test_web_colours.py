"""Each player's colour is chosen on the setup page and kept for the whole game: every
page draws the seat in it (its bar, its chips), a restart keeps it, and two players
cannot be given the same one."""

from __future__ import annotations

import re

from web_support import make_host

from lawmaster.host.journal import Journal
from lawmaster.host.table import TableHost
from lawmaster.host.ui.look import PALETTE
from lawmaster.host.web import create_app


def _bar_colour(page: str) -> str:
    return re.search(
        r'class="bar bar-\w+" data-kind="\w+" data-seat="\w+" style="--seat:([^;]+);', page
    ).group(1)


def test_web_colours_chosen_at_setup_are_every_pages_and_survive_a_restart(tmp_path):
    host = make_host(tmp_path)
    client = create_app(host).test_client()
    form = {
        "game": "judge-dredd",
        "judge-dredd.players": "anna, ben",
        "judge-dredd.colour.1": "orange",
        "judge-dredd.colour.2": "teal",
        "judge-dredd.colour.3": "orange",  # a slot no player takes does not count
    }
    assert client.post("/setup", data=form).status_code == 303
    table = host.table
    assert table.settings["colours"]["1"] == "orange"
    pages = {
        s: client.get(f"/seat/{table.token(s)}").get_data(as_text=True) for s in ("anna", "ben")
    }
    assert _bar_colour(pages["anna"]) == PALETTE["orange"].fill
    assert _bar_colour(pages["ben"]) == PALETTE["teal"].fill
    # The other seat's page and the table screen draw anna in her colour too.
    screen = client.get("/table").get_data(as_text=True)
    for page in (pages["ben"], screen):
        assert f'fill="{PALETTE["orange"].fill}"' in page or PALETTE["orange"].fill in page
    # A restart replays the journal: the colours come back with the game's settings.
    host.journal.close()
    again = TableHost(Journal(tmp_path / "journal.sqlite"), {})
    client = create_app(again).test_client()
    page = client.get(f"/seat/{again.table.token('anna')}").get_data(as_text=True)
    assert _bar_colour(page) == PALETTE["orange"].fill


def test_web_colours_two_players_cannot_share_one(tmp_path):
    host = make_host(tmp_path)
    client = create_app(host).test_client()
    form = {
        "game": "judge-dredd",
        "judge-dredd.players": "anna, ben",
        "judge-dredd.colour.1": "teal",
        "judge-dredd.colour.2": "teal",
    }
    answer = client.post("/setup", data=form)
    assert answer.status_code == 400
    assert "two players cannot share a colour" in answer.get_data(as_text=True)
    assert host.table is None
