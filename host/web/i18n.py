"""The players' language: which one a page speaks, and the switch on every page.

**Where the choice is kept.** One cookie per device, ``lawmaster_lang``, holds a
few entries: ``dev`` (the device's own choice: the host console, setup, error
pages), ``table`` (the table screen, its replay) and one per seat the device
opened, keyed by a short hash of the seat's token (never the token itself).
A seat's choice is kept per device rather than with its claim in
:mod:`.access`: a seat's join page is drawn before any claim (and after a release), the
choice is nobody's secret and no business of the table's record, and a tablet
that two players pass between (or a laptop with every seat open in tabs) keeps
each seat in its own language without a write to the access file.

**How a page picks.** The page's own entry, else the device's, else the browser's
``Accept-Language`` between English and Swedish, else English. A seat's page,
its JSON, its form answers and its event stream all read the same entry, so a
push speaks the language of the page it goes to, never that of whoever made the
change (each stream is its own request, with its own cookie).

**What is translated where.** Templates use ``_()`` / ``{% trans %}``; page code
``gettext``/``ngettext``. Sentences the referee builds once for every seat are
:class:`~lawmaster.host.ui.text.Text` and are translated by :func:`translate`
when a page draws them. Refusals from the rules engines are plain English; the
common ones are recognised and translated (:mod:`.refusals`), the rest are shown
as the engine wrote them.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, redirect, request
from flask_babel import Babel, get_locale, get_translations
from flask_babel import gettext as _
from markupsafe import Markup, escape
from werkzeug.wrappers import Response

from lawmaster.host.ui.speak import spoken

from .errors import BAD_TOKEN, MALFORMED, WebError
from .guard import access
from .refusals import refusal

#: The languages the pages speak, the source language first.
LANGUAGES = ("en", "sv")
#: Each language by its own name, as the switch shows it.
NAMES = {"en": "English", "sv": "Svenska"}
COOKIE = "lawmaster_lang"
#: A season of game nights, as the device cookie.
COOKIE_SECONDS = 120 * 24 * 3600
#: The form token scope of the switch (any of our pages may post it), and its field.
FORM_SCOPE = "language"
FORM_FIELD = "language_token"
DEVICE = "dev"
TABLE = "table"
#: Seats a device remembers a language for (the oldest is forgotten first).
MAX_SEATS = 12
TRANSLATIONS = Path(__file__).with_name("translations")

_ENTRY = re.compile(r"^(dev|table|s[0-9a-f]{12})\.([a-z]{2})$")

bp = Blueprint("language", __name__)


def seat_key(token: str) -> str:
    """A seat's entry in the cookie: a short hash of its token (the token stays secret)."""
    return "s" + hashlib.sha256(token.encode("utf-8")).hexdigest()[:12]


def read_choices(raw: str | None) -> dict[str, str]:
    """The cookie's entries (``scope → language``), anything malformed left out."""
    found: dict[str, str] = {}
    for item in (raw or "")[:600].split("|"):
        match = _ENTRY.match(item)
        if match and match.group(2) in LANGUAGES:
            found[match.group(1)] = match.group(2)
    return found


def write_choices(choices: dict[str, str]) -> str:
    seats = [k for k in choices if k.startswith("s")][-MAX_SEATS:]
    kept = [k for k in choices if not k.startswith("s")] + seats
    return "|".join(f"{k}.{choices[k]}" for k in kept)


def page_scope() -> str:
    """Whose choice this request reads: a seat's (by token), the table screen's, or the device's."""
    endpoint = request.endpoint or ""
    blueprint = endpoint.partition(".")[0]
    token = (request.view_args or {}).get("token")
    if isinstance(token, str) and blueprint in ("seat", "events", "join"):
        return seat_key(token)
    if (blueprint == "table" and endpoint != "table.home") or endpoint == "events.table_events":
        return TABLE
    return DEVICE


def select_locale() -> str:
    """The language of this request's page (see the module docstring)."""
    choices = read_choices(request.cookies.get(COOKIE))
    chosen = choices.get(page_scope()) or choices.get(DEVICE)
    if chosen:
        return chosen
    return request.accept_languages.best_match(LANGUAGES) or LANGUAGES[0]


def language() -> str:
    """The current page's language code."""
    locale = get_locale()
    return locale.language if locale is not None else LANGUAGES[0]


# -- translating what was said before the page existed --------------------------------
def translate(value: Any) -> Any:
    """A :class:`Text` (or a known refusal) in this page's language; anything else as it is."""
    return spoken(value, refusal)


def known(text: object) -> str:
    """A game's own English words (a setup label, say) in this page's language, when the
    catalogue has them (see :mod:`.known_words`); else as the game wrote them."""
    text = str(text or "")
    return get_translations().ugettext(text) if text else text


def language_field() -> Markup:
    """The switch's hidden proof that it came from one of our pages."""
    value = escape(access().form_token(FORM_SCOPE))
    return Markup(f'<input type="hidden" name="{FORM_FIELD}" value="{value}">')


def directions() -> list[tuple[str, str]]:
    """The four directions a move may take: the action's word and the page's word."""
    return [("up", _("up")), ("down", _("down")), ("left", _("left")), ("right", _("right"))]


# -- the switch -------------------------------------------------------------------------
def switch_context() -> dict[str, Any]:
    """What the switch on this page needs: where to come back to, and the other languages."""
    here = request.full_path if request.method == "GET" else ""
    if not here:
        # A page drawn as the answer to a post (a refused form): come back to its page.
        here = _same_site(request.referrer or "") or "/"
    here = here.rstrip("?") or "/"
    current = language()
    return {
        "scope": page_scope(),
        "next": here,
        "current": current,
        "others": [(code, NAMES[code]) for code in LANGUAGES if code != current],
    }


def _same_site(url: str) -> str:
    r"""``url`` as a path on this site, or ``""`` when it names another site.

    A browser drops tabs and line breaks from a URL before following it and reads a
    backslash as a slash (``/\t/evil.example/`` is ``//evil.example/`` to it), so an
    address with any control character or backslash is no path of ours.
    """
    if url.startswith(request.host_url):
        url = "/" + url[len(request.host_url) :]
    if any(ch < " " or ch in "\x7f\\" for ch in url):
        return ""
    if not url.startswith("/") or url.startswith("//"):
        return ""
    return url


@bp.post("/language")
def choose() -> Response:
    """Keep this page's language on this device and go back to the page."""
    # Its own field name: a page's first form_token stays the page's own forms' one.
    if not access().form_token_valid(request.form.get(FORM_FIELD, ""), FORM_SCOPE):
        raise WebError(
            BAD_TOKEN, _("this form is out of date or not from this table: reload the page")
        )
    code = request.form.get("lang", "")
    scope = request.form.get("scope", DEVICE)
    if code not in LANGUAGES:
        raise WebError(MALFORMED, _("choose English or Swedish"))
    if not _ENTRY.match(f"{scope}.{code}"):
        raise WebError(MALFORMED, _("choose English or Swedish"))
    back = _same_site(request.form.get("next", "")) or "/"
    choices = read_choices(request.cookies.get(COOKIE))
    choices.pop(scope, None)  # re-added last: the newest seat is the last forgotten
    choices[scope] = code
    response = redirect(back, code=303)
    response.set_cookie(
        COOKIE,
        write_choices(choices),
        max_age=COOKIE_SECONDS,
        # Not a secret: Lax lets the language ride along when a QR scan opens a seat.
        samesite="Lax",
        secure=request.is_secure,
        httponly=True,
    )
    return response


def init_app(app: Flask) -> None:
    """Flask-Babel with the page's language, the switch's route and the template helpers."""
    Babel(
        app,
        locale_selector=select_locale,
        default_locale=LANGUAGES[0],
        default_translation_directories=str(TRANSLATIONS),
    )
    # {% trans %} blocks over several lines read as one line in the catalogue.
    app.jinja_env.policies["ext.i18n.trimmed"] = True
    app.register_blueprint(bp)
    app.jinja_env.filters["tr"] = translate
    tools: dict[str, Callable[..., Any]] = {
        "language": language,
        "language_switch": switch_context,
        "known": known,
        "directions": directions,
        "language_field": language_field,
    }
    app.jinja_env.globals.update(tools)
