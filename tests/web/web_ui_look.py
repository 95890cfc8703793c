"""What a player at arm's length sees on a page, measured in the browser.

Each function takes a playwright page and returns the problems it finds, as short
sentences, so a test can show all of them at once: text smaller than 16 px, touch
targets under 44 px, and text that reads like data (JSON, a dict, an internal name
or a card id) instead of words.
"""

from __future__ import annotations

import re
from typing import Any

#: Body text at arm's length on a 10-inch tablet; WCAG's 44 px for a finger.
MIN_TEXT_PX = 16
MIN_TARGET_PX = 44

#: Text that is data, not words: a JSON object or list, a Python dict/list repr,
#: a snake_case name, a card id such as "fergee-1".
DATA_LIKE = {
    "JSON": re.compile(r"""[{\[]\s*"|"\w+"\s*:"""),
    "a dict or list repr": re.compile(r"""[{\[]'|'\w+'\s*:|\[\["""),
    "an internal name": re.compile(r"\b[a-z]+_[a-z0-9_]+\b"),
    "a card id": re.compile(r"\b[a-z]+(?:-[a-z]+)*-\d+\b"),
}

_SMALL_TEXT = """(min) => {
  const out = [];
  for (const el of document.body.querySelectorAll('*')) {
    if (el.closest('svg') || el.closest('[hidden]')) continue;
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.getClientRects().length) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < min) out.push(`${el.tagName.toLowerCase()}.${el.className} ${size}px: `
      + el.textContent.trim().slice(0, 40));
  }
  return out;
}"""

_SMALL_TARGETS = """(min) => {
  const out = [];
  const sel = 'button, a[href], select, input:not([type=hidden]), textarea, summary';
  for (const el of document.body.querySelectorAll(sel)) {
    if (el.closest('svg')) continue;
    // A box inside its label is hit through the whole label.
    const hit = (el.type === 'checkbox' || el.type === 'radio') && el.closest('label')
      ? el.closest('label') : el;
    const r = hit.getBoundingClientRect();
    if (!r.width || !r.height) continue;  // not shown
    const what = (el.textContent || el.name || '').trim().slice(0, 30);
    const size = `${Math.round(r.width)}x${Math.round(r.height)}`;
    if (r.width < min || r.height < min) out.push(`${el.tagName.toLowerCase()} "${what}" ${size}`);
  }
  return out;
}"""


def small_text(page: Any) -> list[str]:
    """Text outside the board drawing that is smaller than 16 px."""
    return [f"small text: {s}" for s in page.evaluate(_SMALL_TEXT, MIN_TEXT_PX)]


def small_targets(page: Any) -> list[str]:
    """Buttons, links and fields outside the board drawing under 44 px either way."""
    return [f"small target: {s}" for s in page.evaluate(_SMALL_TARGETS, MIN_TARGET_PX)]


def data_like(text: str) -> list[str]:
    """Places where ``text`` reads like data; each with what it looks like."""
    found = []
    for what, pattern in DATA_LIKE.items():
        for match in pattern.finditer(text):
            start = max(0, match.start() - 25)
            found.append(f"{what}: …{text[start : match.end() + 25]}…".replace("\n", " "))
    return found


def reads_like_data(page: Any) -> list[str]:
    """What the page shows a person (its visible text) that reads like data."""
    return data_like(page.locator("body").inner_text())
