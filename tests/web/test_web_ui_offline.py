"""The dashboard needs no network beyond the table: every font, script and style ships
with the package, so nothing in the templates, the stylesheet or the script names
another host. (The browser check, that a page loads only from the table, is in
``test_web_ui_pages.py``.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import lawmaster.host.games as games
import lawmaster.host.ui as ui
import lawmaster.host.web as web

WEB = Path(web.__file__).parent
GAMES = Path(games.__file__).parent
SHIPPED = sorted(
    p
    for p in [
        *WEB.glob("templates/*.html"),
        *WEB.glob("static/*"),
        *WEB.glob("render/*.py"),
        *Path(ui.__file__).parent.glob("*.py"),
        *GAMES.glob("*/templates/*.html"),
        *GAMES.glob("*/*.py"),
    ]
    if p.is_file()
)
#: An address a browser would fetch: in an attribute, a CSS url() or @import, or a
#: script's string. SVG's xmlns names a namespace and is never fetched.
FETCHED = [
    re.compile(r"""(?:src|href|action|poster|srcset|data)\s*=\s*["']?\s*(?:https?:)?//""", re.I),
    re.compile(r"""url\(\s*["']?\s*(?:https?:)?//""", re.I),
    re.compile(r"""@import\s+(?:url\()?\s*["']?\s*(?:https?:)?//""", re.I),
    re.compile(r"""["'`](?:https?:|wss?:)?//[a-z0-9.-]+""", re.I),
]
NAMESPACE = re.compile(r"""xmlns(?::\w+)?=["']http://www\.w3\.org/[^"']*["']""")


def test_web_ui_offline_the_dashboard_files_are_there():
    names = {p.name for p in SHIPPED}
    assert {"base.html", "lawmaster.css", "lawmaster.js", "generic.py", "pages.py"} <= names


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_web_ui_offline_no_file_names_another_host(path):
    text = NAMESPACE.sub("", path.read_text(encoding="utf-8"))
    found = [m.group(0) for pattern in FETCHED for m in pattern.finditer(text)]
    assert found == [], f"{path.name} fetches from elsewhere: {found}"


def test_web_ui_offline_the_check_sees_an_external_font():
    # The patterns catch what a page would really fetch (and leave namespaces alone).
    css = "@import url('https://fonts.googleapis.com/css?family=Roboto');"
    html = '<script src="//cdn.example.org/x.js"></script><svg xmlns="http://www.w3.org/2000/svg">'
    for text in (css, html):
        assert any(p.search(NAMESPACE.sub("", text)) for p in FETCHED), text
    namespace_only = NAMESPACE.sub("", '<svg xmlns="http://www.w3.org/2000/svg">')
    assert not any(p.search(namespace_only) for p in FETCHED)
