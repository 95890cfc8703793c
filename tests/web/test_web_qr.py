"""The seat links' QR codes: the test reader agrees with segno, and the table screen's
codes decode to each seat's own link."""

from __future__ import annotations

import re

import pytest
import segno
from hypothesis import given, settings
from hypothesis import strategies as st
from web_qr import decode_matrix, decode_svg
from web_support import gw_header, make_host, tokens

from lawmaster.host.web import create_app
from lawmaster.host.web.qr import qr_svg


@settings(max_examples=60, deadline=None)
@given(
    # Printable ASCII plus letters only UTF-8 holds: Latin-1 bytes that also read as
    # UTF-8, and byte pairs that read as Shift JIS (kanji mode), are ambiguous by design.
    text=st.text(
        alphabet=st.characters(min_codepoint=32, max_codepoint=126)
        | st.characters(min_codepoint=0x100, max_codepoint=0x17F),
        min_size=1,
        max_size=120,
    ),
    error=st.sampled_from("LMQH"),
)
def test_web_qr_reader_reads_what_segno_writes(text, error):
    qr = segno.make(text, error=error, micro=False, boost_error=False)
    if qr.version > 10:
        return
    matrix = [[bool(v) for v in row] for row in qr.matrix]
    assert decode_matrix(matrix) == text


@pytest.mark.parametrize(
    "text", ["12345678901234", "HELLO WORLD 42", "http://10.0.0.7:8080/join/x"]
)
def test_web_qr_reader_handles_each_mode(text):
    assert decode_svg(str(qr_svg(text, "t"))) == text


def test_web_qr_table_screen_codes_decode_to_each_seats_link(tmp_path):
    host = make_host(tmp_path)
    table = host.new_game(gw_header(5, ["red", "green", "yellow", "blue"]))
    client = create_app(host).test_client()
    page = client.get("/table", base_url="http://192.168.1.20:8080").get_data(as_text=True)
    cards = re.findall(r'<li class="qr-card" data-seat="([^"]+)">(.*?)</li>', page, re.S)
    assert [seat for seat, _ in cards] == table.seats()
    for seat, card in cards:
        href = re.search(r'href="([^"]+)"', card).group(1)
        svg = re.search(r"<svg.*?</svg>", card, re.S).group(0)
        expected = f"http://192.168.1.20:8080/join/{tokens(table)[seat]}"
        assert href == expected
        assert decode_svg(svg) == expected
        assert client.get(href, follow_redirects=True).status_code == 200


def test_web_qr_links_use_the_public_url_and_warn_on_loopback(tmp_path):
    host = make_host(tmp_path)
    table = host.new_game(gw_header(5, ["red", "green"]))
    local = create_app(host).test_client()
    page = local.get("/table", base_url="http://127.0.0.1:8080").get_data(as_text=True)
    assert "only-here" in page  # a tablet cannot reach 127.0.0.1: say so on the screen
    public = create_app(host, PUBLIC_URL="http://10.1.2.3:8080/").test_client()
    page = public.get("/table", base_url="http://127.0.0.1:8080").get_data(as_text=True)
    assert "only-here" not in page
    card = re.search(r'<li class="qr-card" data-seat="gw">(.*?)</li>', page, re.S).group(1)
    expected = f"http://10.1.2.3:8080/join/{table.token('gw')}"
    assert decode_svg(re.search(r"<svg.*?</svg>", card, re.S).group(0)) == expected
