"""Sentences the table says once for every seat, kept translatable until a page draws them.

The referee, the host rules and the health report build a status line, a prompt
or a banner once, for every seat, long before any page draws it, and every page
may read another language. A :class:`Text` is that sentence in English (it *is*
a ``str``: logs, JSON answers, scenario files and the tests read English as
before) that also keeps its message id and its values, so a page translates it
into its own language at the moment it draws it (``translate`` in
:mod:`lawmaster.host.web.i18n`).

Mark sentences with :func:`told` and :func:`told_n` (the extractor knows both
names, see ``babel.cfg``). Values are named (``%(piece)s``), never glued
together, so a translation may put them in any order; a value that is itself a
:class:`Text` is translated too. Nothing here knows Flask.

>>> line = told("put %(piece)s back on %(cell)s", piece="red", cell="C7")
>>> line, line.msgid
('put red back on C7', 'put %(piece)s back on %(cell)s')
>>> told_n("%(num)d handcuff", "%(num)d handcuffs", 2)
'2 handcuffs'
>>> sentence(told("the game is over"))
'The game is over'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any


class Text(str):
    """An English sentence that remembers how to say it in another language."""

    msgid: str
    plural: str | None
    n: int | None
    params: Mapping[str, Any]
    parts: tuple[Any, ...] | None
    cap: bool

    def __new__(
        cls,
        msgid: str,
        params: Mapping[str, Any] | None = None,
        *,
        plural: str | None = None,
        n: int | None = None,
        parts: Iterable[Any] | None = None,
        cap: bool = False,
    ) -> Text:
        values = dict(params or {})
        joined = tuple(parts) if parts is not None else None
        if joined is not None:
            english = msgid.join(str(p) for p in joined)
        else:
            chosen = plural if plural is not None and n != 1 else msgid
            english = chosen % values if values else chosen
        if cap:
            english = english[:1].upper() + english[1:]
        self = super().__new__(cls, english)
        self.msgid = msgid
        self.plural = plural
        self.n = n
        self.params = values
        self.parts = joined
        self.cap = cap
        return self

    def render(
        self,
        gettext: Callable[[str], str],
        ngettext: Callable[[str, str, int], str],
        plain: Callable[[str], str] = lambda s: s,
    ) -> str:
        """This sentence in the language of ``gettext``/``ngettext``; a plain ``str``
        value (an engine's reason, say) goes through ``plain``."""

        def one(value: Any) -> Any:
            if isinstance(value, Text):
                return value.render(gettext, ngettext, plain)
            if isinstance(value, str):
                return plain(value)
            return value

        if self.parts is not None:
            text = str(one(self.msgid)).join(str(one(p)) for p in self.parts)
        else:
            if self.plural is not None:
                chosen = ngettext(self.msgid, self.plural, int(self.n or 0))
            else:
                chosen = gettext(self.msgid)
            values = {k: one(v) for k, v in self.params.items()}
            text = chosen % values if values else chosen
        return text[:1].upper() + text[1:] if self.cap else text


def told(msgid: str, /, **params: Any) -> Text:
    """A sentence with named values (``%(name)s``), translated when a page draws it."""
    return Text(msgid, params)


def told_n(singular: str, plural: str, n: int, /, **params: Any) -> Text:
    """A sentence that depends on a count; the count is the value ``num``."""
    return Text(singular, {"num": n, **params}, plural=plural, n=n)


def joined(separator: str, parts: Iterable[Any]) -> Text:
    """Whole sentences or clauses, each translated alone, one after another (a
    :class:`Text` separator is translated too)."""
    return Text(separator, parts=[p for p in parts])


def sentence(text: str) -> str:
    """``text`` with a capital first letter (a :class:`Text` stays translatable)."""
    if isinstance(text, Text):
        return Text(
            text.msgid,
            text.params,
            plural=text.plural,
            n=text.n,
            parts=text.parts,
            cap=True,
        )
    return text[:1].upper() + text[1:]
