"""The small holes of issue 20 (finding 6): a redirect, a header of the wrong type, a seat
name that is no URL segment."""

from __future__ import annotations

import pytest
from security_support import served

from lawmaster.host.games.gw_brott.setup import DEMO_HEADER


@pytest.mark.parametrize(
    "target",
    ["/\t/evil.example/", "/\n/evil.example/", "/\\evil.example", "//evil.example/",
     "/ /evil.example/", "\t//evil.example", "https://evil.example/", "/%09/evil.example/"],
)  # fmt: skip
def test_security_the_language_switch_never_leaves_the_site(tmp_path, target):
    with served(tmp_path, DEMO_HEADER) as world:
        device = world.device()
        page = device.get("/table")
        raw = device.post_form(
            "/language", {**_language_fields(page.text), "lang": "sv", "next": target}
        )
        assert raw.status == 303
        location = raw.location
        own = f"http://127.0.0.1:{world.port}"
        if location.startswith(own):
            location = location[len(own) :]
        # A browser drops tabs and newlines from a URL before it follows it.
        followed = "".join(ch for ch in location if ch not in "\t\n\r")
        assert followed.startswith("/") and followed[1:2] not in ("/", "\\"), location


def _language_fields(page: str) -> dict[str, str]:
    from security_support import form_fields

    fields = form_fields(page, "/language")
    assert fields is not None
    return fields


def test_security_a_header_of_the_wrong_type_is_a_plain_refusal(tmp_path):
    with served(tmp_path, DEMO_HEADER) as world:
        console = world.host_device()
        for header in ({"game": ["gw-brott"]}, {"game": {"a": 1}}, {"game": 7}, {"game": None}):
            answer = console.post_json("/setup", {"header": header, "replace": True})
            assert 400 <= answer.status < 500 and answer.json()["error"], header
        assert world.runtime.web.server.app.extensions["lawmaster.unexpected"] == []


def test_security_a_seat_named_with_a_slash_is_granted_and_released(tmp_path):
    header = {**DEMO_HEADER, "criminals": ["a/b", "green"],
              "abilities": {"a/b": "helicopter", "green": "informer"},
              "evidence": {"a/b": DEMO_HEADER["evidence"]["red"],
                           "green": DEMO_HEADER["evidence"]["green"]}}  # fmt: skip
    with served(tmp_path, header) as world:
        table = world.table
        token = table.token("a/b")
        first = world.device()
        assert first.claim(token).status == 200
        console = world.host_device()
        page = console.get("/host")
        assert page.status == 200
        import re

        releases = [a for a in re.findall(r'<form[^>]*action="([^"]+)"', page.text)
                    if "release" in a]  # fmt: skip
        assert releases, page.text[:3000]
        answer = None
        for action in releases:
            fields_page = page
            answer = console.submit(fields_page, action)
            if not world.access.is_claimed(token):
                break
        assert answer is not None and answer.status == 200
        assert not world.access.is_claimed(token)
