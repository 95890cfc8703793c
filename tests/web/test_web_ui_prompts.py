"""The generic prompt forms and log lines read as sentences with buttons: no typed
JSON input on a seat page, no mapping or list printed as text, whatever shape a
prompt's options have. (Without a browser: the regions are rendered as the pages
and the event stream render them.)"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from web_support import gw_header, make_host
from web_ui_games import GAMES, new_host, to_question
from web_ui_look import data_like

from lawmaster.host.ui import generic
from lawmaster.host.web import create_app
from lawmaster.host.web.fragments import regions


class Visible(HTMLParser):
    """The text a person sees, and the form fields a person can type into."""

    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self.typed: list[str] = []
        self.buttons = 0

    def handle_starttag(self, tag, attrs):
        kind = dict(attrs).get("type", "text")
        if tag == "textarea" or (tag == "input" and kind == "text"):
            self.typed.append(dict(attrs).get("name") or "")
        self.buttons += tag == "button"

    def handle_data(self, data):
        self.text.append(data)


def visible(html: str) -> Visible:
    parser = Visible()
    parser.feed(html)
    return parser


#: A game without its own drawing, asked things in every shape a prompt may take.
SNAPSHOT = {
    "game": "no-such-game",
    "seat": "a",
    "version": 3,
    "move": 2,
    "over": False,
    "to_act": ["a"],
    "view": {"hand_known": ["x"], "deep": {"a": {"b": {"c": {"d": {"e": {"f": {"g": 1}}}}}}}},
    "log": [{"type": "combat_result", "kind": "arrest", "groups": [["hershey", "dredd"]]}],
    "prompts": [
        {"kind": "pick_one", "act": "pick", "by": "a", "options": ["left", "right"]},
        {"kind": "pick_card", "act": "play", "options": [{"card": "boing", "sector": "s7"}]},
        {"kind": "choose_die", "act": "move", "options": [{"die": "3"}, {"to": ["C7", "C8"]}]},
        {"kind": "which_reading", "options": [{"type": "swapped", "pieces": ["a", "b"]}]},
        {"kind": "something_new", "act": "x"},
    ],
}


@pytest.fixture
def app(tmp_path):
    host = make_host(tmp_path)
    host.new_game(gw_header(3))
    return create_app(host)


def test_web_ui_prompts_generic_prompts_are_sentences_with_buttons(app):
    with app.test_request_context("/"):
        parts = regions(SNAPSHOT, token="t0ken", digital_dice=False)
    prompts = visible(parts["prompts"])
    text = " ".join(" ".join(prompts.text).split())
    assert prompts.typed == []  # nothing to type JSON into
    assert prompts.buttons >= 6
    for words in ("left", "right", "card boing, sector s7", "to C7, C8", "Swapped, pieces a, b"):
        assert words in text
    assert "host console" in text  # the question no form is drawn for
    assert "something_new" not in text and "{" not in text and "[" not in text
    log = " ".join(visible(parts["log"]).text)
    assert "combat result: kind arrest, groups hershey, dredd" in log
    assert "[" not in log and "{" not in log
    assert "{" not in " ".join(visible(parts["board"]).text)


def test_web_ui_prompts_deep_views_are_words_too():
    html = str(generic.value_html({"a": {"b": {"c": {"d": {"e": {"f": {"g": [1, 2]}}}}}}}))
    assert "g 1, 2" in html and "{" not in html and "'" not in html


@pytest.mark.parametrize("game", GAMES)
def test_web_ui_prompts_no_seat_page_has_a_typed_input_box(game, tmp_path):
    host, table, players = new_host(tmp_path, game)
    seat = to_question(table, players)
    client = create_app(host).test_client()
    page = client.get(f"/seat/{table.token(seat)}").get_data(as_text=True)
    assert "Type an input" not in page and "Action (JSON)" not in page
    assert 'id="manual-action"' not in page
    # The frame's own words (header, status, prompt titles) read as words.
    seen = visible(page)
    frame = " ".join(seen.text[:12])
    assert data_like(frame) == []
