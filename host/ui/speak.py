"""A :class:`~lawmaster.host.ui.text.Text` said in the language of the page being drawn.

Page code that draws a sentence the referee said once for every seat (a prompt's
message, a status) calls :func:`spoken`; outside a request (a test, the command
line) the sentence stays English.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask_babel import get_translations

from .text import Text


def spoken(value: Any, plain: Callable[[str], str] = lambda s: s) -> Any:
    """``value`` in the page's language when it is a :class:`Text`; a plain ``str`` goes
    through ``plain``; anything else is returned as it is."""
    if isinstance(value, Text):
        translations = get_translations()
        return value.render(translations.ugettext, translations.ungettext, plain)
    if isinstance(value, str):
        return plain(value)
    return value
