"""Sentences drawn as an HTML list, as the seat pages show what a seat knows."""

from __future__ import annotations

from collections.abc import Iterable

from markupsafe import Markup


def sentence_list(lines: Iterable[str], css: str) -> Markup:
    """``lines`` as a ``<ul>`` of class ``css``; blank lines are left out, and a list
    with nothing in it is not drawn at all."""
    items = Markup("").join(Markup("<li>{}</li>").format(line) for line in lines if line)
    return Markup('<ul class="{}">{}</ul>').format(css, items) if items else Markup("")
