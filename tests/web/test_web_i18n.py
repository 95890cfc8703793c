"""The players' language: the catalogues are complete and fresh, each page picks its own.

A seat set to Swedish gets Swedish pages, answers and pushes while another seat of
the same table stays English; the table screen keeps its own choice; the host's
pages follow the device; a page with no choice follows the browser.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from web_support import SseReader, gw_header, live_server, make_host, tokens

from lawmaster.host.web import create_app
from lawmaster.host.web.i18n import COOKIE, FORM_FIELD, TRANSLATIONS, seat_key

REPO = Path(__file__).resolve().parents[2]
POT = TRANSLATIONS / "messages.pot"
PO = TRANSLATIONS / "sv" / "LC_MESSAGES" / "messages.po"
MO = TRANSLATIONS / "sv" / "LC_MESSAGES" / "messages.mo"
_PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


def _ids(catalog) -> set:
    return {m.id for m in catalog if m.id}


def _extract(out: Path) -> Path:
    """The catalogue as the source says it now (scripts/i18n's extraction, into ``out``)."""
    target = out / "messages.pot"
    pybabel = Path(sys.executable).with_name("pybabel")
    command = [str(pybabel)]
    if not pybabel.exists():
        command = [sys.executable, "-m", "babel.messages.frontend"]
    subprocess.run(
        [*command, "extract", "-F", "babel.cfg", "-k", "_l", "-k", "N_", "-k", "told",
         "-k", "told_n:1,2", "--add-location=file", "--sort-output", "--omit-header",
         "-o", str(target), "."],
        cwd=REPO, check=True, capture_output=True,
    )  # fmt: skip
    return target


def test_web_i18n_catalogue_matches_the_source_and_swedish_is_complete(tmp_path):
    fresh = read_po(_extract(tmp_path).open("rb"))
    template = read_po(POT.open("rb"))
    swedish = read_po(PO.open("rb"), locale="sv")
    missing = sorted(map(str, _ids(fresh) - _ids(template)))
    gone = sorted(map(str, _ids(template) - _ids(fresh)))
    assert not missing and not gone, (
        f"messages.pot is stale: run `bash scripts/i18n` (new: {missing[:5]}, gone: {gone[:5]})"
    )
    assert _ids(swedish) == _ids(template), "sv/messages.po is stale: run `bash scripts/i18n`"
    untranslated = []
    for message in swedish:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy or not all(strings):
            untranslated.append(message.id)
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        wanted = set(_PLACEHOLDER.findall(ids[-1])) | set(_PLACEHOLDER.findall(ids[0]))
        for text in strings:
            # A translation names no value the sentence does not give.
            assert set(_PLACEHOLDER.findall(text)) <= wanted, (message.id, text)
    assert not untranslated, f"messages without a Swedish translation: {untranslated[:10]}"


#: The names the extraction reads as messages (``scripts/i18n``'s keywords).
_MARKERS = frozenset({"_", "gettext", "ngettext", "_l", "lazy_gettext", "N_", "told", "told_n"})


def test_web_i18n_no_message_hides_inside_an_f_string():
    # The extraction does not look inside f-strings: a sentence said there never reaches
    # the catalogue, and a Swedish page shows it in English ("START +1" on the Dredd map).
    hidden = []
    for path in sorted((REPO / "host").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.JoinedStr):
                continue
            for call in ast.walk(node):
                if (
                    isinstance(call, ast.Call)
                    and isinstance(call.func, ast.Name)
                    and call.func.id in _MARKERS
                ):
                    hidden.append(f"{path.relative_to(REPO)}:{call.lineno} {ast.unparse(call)}")
    assert hidden == []


def test_web_i18n_compiled_catalogue_is_the_po():
    swedish = read_po(PO.open("rb"), locale="sv")
    compiled = read_mo(MO.open("rb"))
    def entries(catalog) -> dict:
        return {
            (tuple(m.id) if isinstance(m.id, list | tuple) else m.id): (
                tuple(m.string) if isinstance(m.string, list | tuple) else m.string
            )
            for m in catalog
            if m.id
        }

    expected, found = entries(swedish), entries(compiled)
    assert found == expected, "messages.mo is stale: run `bash scripts/i18n compile`"


@pytest.fixture
def host(tmp_path):
    host = make_host(tmp_path)
    host.new_game(gw_header(1, ["red", "green"]))
    return host


def _switch(client, path: str, lang: str) -> None:
    """Press the language switch on ``path`` as a browser without scripts would."""
    page = client.get(path).get_data(as_text=True)
    field = page.split(f'name="{FORM_FIELD}" value="')[1].split('"')[0]
    scope = page.split('name="scope" value="')[1].split('"')[0]
    answer = client.post(
        "/language", data={FORM_FIELD: field, "scope": scope, "next": path, "lang": lang}
    )
    assert answer.status_code == 303 and answer.headers["Location"].endswith(path)


def test_web_i18n_a_seat_in_swedish_and_its_neighbour_in_english(host):
    table = host.table
    seats = tokens(table)
    client = create_app(host).test_client()
    red, green = f"/seat/{seats['red']}", f"/seat/{seats['green']}"
    _switch(client, red, "sv")
    swedish = client.get(red).get_data(as_text=True)
    english = client.get(green).get_data(as_text=True)
    assert '<html lang="sv">' in swedish and "Ditt drag" in swedish and "Your move" not in swedish
    assert "Din tur: slå de 5 tärningarna som inte visar GW." in swedish
    assert '<html lang="en">' in english and "Your move" in english and "Ditt drag" not in english
    # The switch offers the other language, in its own name.
    assert ">English</button>" in swedish and ">Svenska</button>" in english
    # The seat's JSON regions and a refusal answer it gets speak its language.
    regions = client.get(f"{red}.json?html=1").get_json()["html"]
    assert "Logg" not in regions["prompts"] and "Slå" in regions["prompts"]
    refused = client.post(
        f"{green}/action".replace(seats["green"], seats["red"]).replace("/seat/", "/seat/"),
        json={"act": "gw_roll", "face": 3},
        headers={"X-Lawmaster-Token": seats["red"]},
    )
    assert refused.status_code == 409
    assert refused.get_json()["error"] == "bara gw kan skicka det här"
    assert client.post(
        f"{green}/action", json={"act": "gw_roll", "face": 3},
        headers={"X-Lawmaster-Token": seats["green"]},
    ).get_json()["error"] == "only gw can send 'gw_roll'"  # fmt: skip


def test_web_i18n_pushes_speak_the_language_of_the_page_they_go_to(host):
    table = host.table
    seats = tokens(table)
    sv = f"{COOKIE}={seat_key(seats['red'])}.sv"
    with live_server(host) as live:
        red = SseReader(live.port, f"/events/{seats['red']}", timeout=5, cookie=sv)
        green = SseReader(live.port, f"/events/{seats['green']}", timeout=5, cookie=sv)
        try:
            assert red.next_block() == ": connected" and green.next_block() == ": connected"
            # Green (English) makes the move; each push is in its own page's language.
            faces = ["1", "2", "3", "4", "arrow"]
            status, answer = live.post_json(
                f"/seat/{seats['red']}/action", {"act": "roll", "by": "red", "faces": faces}
            )
            assert status == 200, answer
            _, to_red = red.next_event()
            _, to_green = green.next_event()
        finally:
            red.close()
            green.close()
    assert "Röd slår 1, 2, 3, 4, pil." in to_red["html"]["log"]
    assert "Välj en av tärningarna" in to_red["html"]["extras"]
    assert "Red rolls 1, 2, 3, 4, arrow." in to_green["html"]["log"]
    assert "slår" not in to_green["html"]["log"]


def test_web_i18n_the_table_screen_keeps_its_own_choice(host):
    client = create_app(host).test_client()
    _switch(client, "/table", "sv")
    table = client.get("/table").get_data(as_text=True)
    assert '<html lang="sv">' in table and "Senaste dragen" in table and "bordsskärm" in table
    # The device's other pages, and the table's seats, are not the table screen.
    assert '<html lang="en">' in client.get("/host").get_data(as_text=True)
    seat = client.get(f"/seat/{tokens(host.table)['red']}").get_data(as_text=True)
    assert '<html lang="en">' in seat
    # The device's own choice: the host's pages, and any seat that chose nothing.
    _switch(client, "/host", "sv")
    assert '<html lang="sv">' in client.get("/host").get_data(as_text=True)
    assert '<html lang="sv">' in client.get(f"/seat/{tokens(host.table)['red']}").get_data(
        as_text=True
    )
    _switch(client, "/table", "en")
    assert '<html lang="en">' in client.get("/table").get_data(as_text=True)


def test_web_i18n_the_browser_language_decides_until_someone_chooses(host):
    client = create_app(host).test_client()
    red = f"/seat/{tokens(host.table)['red']}"
    swedish = client.get(red, headers={"Accept-Language": "sv-SE,sv;q=0.9,en;q=0.5"})
    assert '<html lang="sv">' in swedish.get_data(as_text=True)
    german = client.get(red, headers={"Accept-Language": "de-DE,de;q=0.9"})
    assert '<html lang="en">' in german.get_data(as_text=True)
    assert '<html lang="en">' in client.get(red).get_data(as_text=True)
    _switch(client, red, "en")
    chosen = client.get(red, headers={"Accept-Language": "sv"})
    assert '<html lang="en">' in chosen.get_data(as_text=True)


def test_web_i18n_the_switch_is_a_same_origin_form_of_ours(host):
    client = create_app(host).test_client()
    page = client.get("/table").get_data(as_text=True)
    field = page.split(f'name="{FORM_FIELD}" value="')[1].split('"')[0]
    form = {FORM_FIELD: field, "scope": "table", "next": "/table", "lang": "sv"}
    foreign = client.post("/language", data=form, headers={"Origin": "http://evil.example"})
    assert foreign.status_code == 403 and COOKIE not in foreign.headers.get("Set-Cookie", "")
    forged = client.post("/language", data={**form, FORM_FIELD: "nope"})
    assert forged.status_code == 403
    assert client.post("/language", data={**form, "lang": "de"}).status_code == 400
    # The way back is a page of this site, never another site.
    away = client.post("/language", data={**form, "next": "//evil.example/x"})
    assert away.status_code == 303 and away.headers["Location"] == "/"
    # The cookie keeps a hash of a seat's token, never the token.
    token = tokens(host.table)["red"]
    _switch(client, f"/seat/{token}", "sv")
    jar = client.get_cookie(COOKIE)
    assert jar is not None and token not in jar.value and seat_key(token) in jar.value
