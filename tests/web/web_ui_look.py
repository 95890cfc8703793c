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

#: The page frame every game shares (the rest is the game's board, panels and log).
FRAME = "header.top, #flash, [data-region=status], .panel > h2, .undo, form.release, "
FRAME += (
    "[data-region=joins], nav.actions, .side-toggle, .prompts-panel p.empty, .prompts-panel p.over"
)

_SMALL_TEXT = """([min, scope]) => {
  const out = [];
  const roots = scope ? [...document.querySelectorAll(scope)] : [document.body];
  for (const el of roots.flatMap(r => [r, ...r.querySelectorAll('*')])) {
    if (el.closest('svg') || el.closest('[hidden]')) continue;
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.getClientRects().length) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < min) out.push(`${el.tagName.toLowerCase()}.${el.className} ${size}px: `
      + el.textContent.trim().slice(0, 40));
  }
  return out;
}"""

_SMALL_TARGETS = """([min, scope]) => {
  const out = [];
  const sel = 'button, a[href], select, input:not([type=hidden]), textarea, summary';
  const roots = scope ? [...document.querySelectorAll(scope)] : [document.body];
  const inside = r => [...r.querySelectorAll(sel), ...(r.matches(sel) ? [r] : [])];
  for (const el of roots.flatMap(inside)) {
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


def small_text(page: Any, scope: str | None = None) -> list[str]:
    """Text outside the board drawing that is smaller than 16 px (within ``scope``)."""
    return [f"small text: {s}" for s in page.evaluate(_SMALL_TEXT, [MIN_TEXT_PX, scope])]


def small_targets(page: Any, scope: str | None = None) -> list[str]:
    """Buttons, links and fields outside the board drawing under 44 px either way."""
    found = page.evaluate(_SMALL_TARGETS, [MIN_TARGET_PX, scope])
    return [f"small target: {s}" for s in found]


def data_like(text: str) -> list[str]:
    """Places where ``text`` reads like data; each with what it looks like."""
    found = []
    for what, pattern in DATA_LIKE.items():
        for match in pattern.finditer(text):
            start = max(0, match.start() - 25)
            found.append(f"{what}: …{text[start : match.end() + 25]}…".replace("\n", " "))
    return found


def reads_like_data(page: Any, scope: str | None = None) -> list[str]:
    """What the page shows a person (its visible text) that reads like data."""
    where = scope or "body"
    texts = page.locator(where).all_inner_texts()
    # A prefilled text box shows its value, which inner text leaves out.
    texts += (
        page.locator(where)
        .locator("textarea, input[type=text]")
        .evaluate_all("fields => fields.filter(f => f.getClientRects().length).map(f => f.value)")
    )
    return [found for text in texts for found in data_like(text)]


def problems(page: Any, scope: str | None = None) -> list[str]:
    """Everything above, for the page or the part of it ``scope`` selects."""
    return small_text(page, scope) + small_targets(page, scope) + reads_like_data(page, scope)
