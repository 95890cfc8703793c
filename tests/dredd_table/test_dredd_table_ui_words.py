"""Judge Dredd pages in words: every log line a sentence naming Judges, Perps and Sectors,
"What you know" without view keys or ids, and the asked entries as choices that post the
right action."""

from __future__ import annotations

import json
import re

import pytest
from dredd_table_support import header

from lawmaster.host.games.judge_dredd import pages as judge_dredd
from lawmaster.host.games.judge_dredd.players import DreddPlayers
from lawmaster.host.games.judge_dredd.setup import dredd_header
from lawmaster.host.games.judge_dredd.words import describe
from lawmaster.host.journal import Journal
from lawmaster.host.table import TableHost
from lawmaster.host.web import create_app
from lawmaster.rules.judge_dredd.board import Board
from lawmaster.rules.judge_dredd.cards import CardBook

SEATS = ["hershey", "dredd", "anderson"]


def internal_ids() -> set[str]:
    """Ids a player never reads: every card id with a hyphen or digit, every Sector id."""
    cards = CardBook.load("standard")
    ids = set(cards.actions) | set(cards.perps) | set(cards.crimes) | set(cards.sector_cards)
    ids |= set(Board.load("standard").sectors)
    return {i for i in ids if "-" in i or any(ch.isdigit() for ch in i)}


def visible_text(html: str) -> str:
    """The page's words: no tags, no attribute values, no scripts."""
    html = re.sub(r"<(script|style|title)\b.*?</\1>", " ", html, flags=re.S)
    html = re.sub(r"<details class=\"manual\">.*?</details>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


#: A JSON object, a Python dict repr, or a view key (snake_case) in the words of a page.
LEAKS = re.compile(r"\{\s*[\"']|[\"']\s*:\s|\b[a-z]+_[a-z_]+\b")


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    monkeypatch = pytest.MonkeyPatch()
    host = TableHost(Journal(tmp_path_factory.mktemp("words") / "journal.sqlite"), {})
    table = host.new_game(dredd_header(SEATS, 5, length="hotdog-run"))
    players = DreddPlayers(table, 5)
    while not (table.state["round"] >= 2 and table.state["combat"]):
        decision = players.decide()
        assert table.submit(decision.seat, decision.action)["ok"]
    yield host, table
    monkeypatch.undo()


def test_dredd_table_ui_every_log_line_is_a_sentence_without_ids(played):
    host, table = played
    ids = internal_ids()
    kinds = set()
    for seat in [*SEATS, "table"]:
        for event in table.snapshot(seat)["log"]:
            kinds.add(event["type"])
            line = describe(event)
            assert line[:1].isupper() and line.endswith("."), line
            assert not LEAKS.search(line), line
            assert not [i for i in ids if i in line], line
            assert "Judge" in line or event["type"] in {
                "crime_placed",
                "perp_revealed",
                "arrest_phase",
                "refill_phase",
                "arrest_phase_over",
                "sector_discarded",
                "cards_revealed",
                "hand_known",
                "scored",
                "perp_escaped",
                "card_committed_own",
                "sector_redrawn",
            }, line
    # The game went through the events players care most about.
    assert {"moved", "combat", "combat_result", "arrest", "drew", "crime_placed"} <= kinds


def test_dredd_table_ui_sentences_name_judges_perps_and_sectors():
    arrest = {
        "type": "arrest",
        "sector": "channel-99",
        "judges": ["hershey"],
        "perp": "mean-machine-angel",
        "crimes": ["littering"],
        "cards_taken": {"hershey": 2},
    }
    assert describe(arrest) == (
        "Judge Hershey arrests Mean Machine Angel in Channel 99 and stops Littering."
    )
    result = {
        "type": "combat_result",
        "kind": "arrest",
        "groups": [["hershey"]],
        "strengths": [5],
        "overheated": [False],
        "perp_strength": 3,
        "dice": {},
        "winner": 0,
        "tied": [],
        "koed": [],
    }
    assert describe(result) == "Combat: Judge Hershey 5 against the Perp's 3: Judge Hershey wins."
    joint = {**arrest, "judges": ["hershey", "dredd"], "crimes": []}
    assert describe(joint) == "Judges Hershey and Dredd arrest Mean Machine Angel in Channel 99."
    hidden = {"type": "card_committed", "by": "dredd", "to": "hershey", "face_up": False}
    assert describe(hidden) == "Judge Dredd adds a card face down in front of Judge Hershey."
    assert describe({"type": "moved", "judge": "dredd", "path": [], "sector": "resyk"}) == (
        "Judge Dredd stays in Resyk."
    )
    # An event in a shape the wording does not know still reads as words, not a dict.
    assert describe({"type": "combat_result", "groups": 7}) == "Combat result."


def test_dredd_table_ui_pages_hold_no_json_dict_or_id(played):
    host, table = played
    client = create_app(host).test_client()
    ids = internal_ids()
    pages = {s: client.get(f"/seat/{table.token(s)}").get_data(as_text=True) for s in SEATS}
    pages["table"] = client.get("/table").get_data(as_text=True)
    for seat, html in pages.items():
        words = visible_text(html)
        assert not LEAKS.search(words), (seat, LEAKS.search(words).group(0))
        assert not [i for i in ids if i in words], seat
        for key in ("hand_known", "known_cards", "score_pile", "asked", "refill owed"):
            assert key not in words, (seat, key)
    # A seat's own part reads as sentences; its cards carry their printed names.
    seat = SEATS[0]
    you = table.snapshot(seat)["view"]["you"]
    words = visible_text(pages[seat])
    assert f"You are Judge {seat.title()}" in words
    book = CardBook.load("standard")
    for card in you["known_cards"]:
        assert book.names[card] in words
    assert f"Your score pile: {you['score']} point" in words


def test_dredd_table_ui_cards_are_buttons_posting_the_commit(tmp_path, monkeypatch):
    host = TableHost(Journal(tmp_path / "journal.sqlite"), {})
    table = host.new_game(header(hands={"a": ["fergee-1"], "b": ["aah-ankle-trap-1"]}))
    for seat, action in (
        ("a", {"act": "move", "by": "a", "path": ["mega-mall", "channel-99"]}),
        ("b", {"act": "move", "by": "b", "path": []}),
        ("a", {"act": "end_movement"}),
    ):
        assert table.submit(seat, action)["ok"], action
    client = create_app(host).test_client()
    html = client.get(f"/seat/{table.token('b')}").get_data(as_text=True)
    block = re.search(r'data-act="commit".*?</form>', html, re.S).group(0)
    assert "Aah-Ankle Trap!" in block and "Sabotage: the Judge steps in an ankle trap." in block
    assert 'class="jd-card jd-card-combat' in block
    base = re.search(r"name=\"action\" value='([^']+)'", block).group(1)
    choice = re.search(r"name=\"choice\" value='([^']+)'", block).group(1)
    response = client.post(
        f"/seat/{table.token('b')}/action", data={"action": base, "choice": choice}
    )
    assert response.status_code == 303
    assert table.actions[-1] == {"act": "commit", "by": "b", "card": "aah-ankle-trap-1"}
    # The blocks are built from the view alone: the table's view has no choices.
    assert judge_dredd.JudgeDreddUI().controls(table.snapshot("table"), "x", False) == ""


def test_dredd_table_ui_a_kod_judge_is_offered_robodoc_to_each_adjacent_sector(
    tmp_path, monkeypatch
):
    host = TableHost(Journal(tmp_path / "journal.sqlite"), {})
    table = host.new_game(header(hands={"a": ["robodoc-1", "fergee-1"]}))
    snapshot = table.snapshot("a")
    view = dict(snapshot["view"])
    view["judges"] = {s: {**j, "ko": s == "a"} for s, j in view["judges"].items()}
    view["asked"] = [
        {"act": "play", "why": "your Judge is KO'd: play Robodoc now to avoid it"},
        {"act": "decline", "why": "no Robodoc: go on to the refill and the Hospital"},
    ]
    with create_app(host).test_request_context():
        ui = judge_dredd.JudgeDreddUI()
        html = str(ui.controls({**snapshot, "view": view}, table.token("a"), False))
    values = [json.loads(v) for v in re.findall(r"name=\"choice\" value='([^']+)'", html)]
    city = Board.load("standard")
    expected = [
        {"card": "robodoc-1", "to": s} for s in city.neighbours(view["judges"]["a"]["sector"])
    ]
    assert values[: len(expected)] == expected and len(values) == len(expected) + 1
    assert "Play no Robodoc" in html and "Fergee" not in html  # only Robodoc helps now


def test_dredd_table_ui_a_whole_game_never_shows_json_dicts_or_ids(tmp_path, monkeypatch):
    """Setup, every phase and game over: the pages a player or the table reads stay words."""
    host = TableHost(Journal(tmp_path / "journal.sqlite"), {})
    seats = ["a", "b", "c"]
    table = host.new_game(dredd_header(seats, 7, length="hotdog-run"))
    players = DreddPlayers(table, 7)
    client = create_app(host).test_client()
    ids = internal_ids()
    phases = set()

    def check() -> None:
        phases.add(table.state["phase"])
        for where in [*(f"/seat/{table.token(s)}" for s in seats), "/table"]:
            words = visible_text(client.get(where).get_data(as_text=True))
            found = LEAKS.search(words)
            assert found is None, (where, words[max(found.start() - 80, 0) : found.end() + 40])
            # A referee prompt's kind ("dredd_place_crime") read out as words is a name too.
            assert not re.search(r"\bdredd[ _](place|reveal|discard|move|draw)", words), where
            pattern = r"(?<![\w-]){}(?![\w-])"
            assert not [i for i in ids if re.search(pattern.format(re.escape(i)), words)], where

    check()  # setup: the first Judge places, the Starting Player taps Sector cards
    count = 0
    while not table.is_over():
        decision = players.decide()
        assert table.submit(decision.seat, decision.action)["ok"]
        count += 1
        if count % 15 == 0 or table.is_over():
            check()
    assert {"movement", "arrest", "refill", "over"} <= phases
    assert "wins the game" in visible_text(client.get("/table").get_data(as_text=True))
