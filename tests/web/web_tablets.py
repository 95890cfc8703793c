"""What a player at arm's length checks on a tablet, measured in the browser: the marks on
the maps, text cut off at its box, the colours each seat is drawn in, and English words
left on a Swedish page.

Each function takes a playwright page and returns its findings as short sentences (an
empty list: nothing wrong), so a test can show every finding at once.
"""

from __future__ import annotations

import io
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

from lawmaster.host.games.judge_dredd import pages as dredd_pages
from lawmaster.host.games.unamerican_graffiti import know as graffiti_know
from lawmaster.rules.judge_dredd.board import Board as DreddBoard
from lawmaster.rules.judge_dredd.cards import CardBook
from lawmaster.rules.unamerican_graffiti import Board as GraffitiBoard

PO = (
    Path(__file__).resolve().parents[2]
    / "host"
    / "web"
    / "translations"
    / "sv"
    / "LC_MESSAGES"
    / "messages.po"
)
MIN_MAP_PX = 16
DOC_SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def doc_shot(page: Any, name: str) -> None:
    """With ``LAWMASTER_DOC_SHOTS=1``, ``page`` as ``docs/screenshots/<name>.png`` (a
    256-colour PNG, as the other pictures there); otherwise nothing: a test run leaves
    the tree as it was."""
    if os.environ.get("LAWMASTER_DOC_SHOTS") != "1":
        return
    from PIL import Image

    image = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
    DOC_SHOTS.mkdir(parents=True, exist_ok=True)
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(
        DOC_SHOTS / f"{name}.png", optimize=True
    )

#: Every text element drawn on a map (the boards and GW's per-criminal maps) that shows,
#: with its size on the screen: its font size times the map's scale.
_MAP_TEXT = """(min) => {
  const out = [];
  for (const t of document.querySelectorAll('svg.board text, svg.gw-mini text')) {
    if (!t.getClientRects().length || !t.textContent.trim()) continue;
    const style = getComputedStyle(t);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    const svg = t.ownerSVGElement;
    const ctm = svg.getScreenCTM();
    const px = parseFloat(style.fontSize) * Math.hypot(ctm.a, ctm.b);
    if (px < min - 0.05) out.push(`${t.textContent.trim().slice(0, 30)}: ${px.toFixed(1)} px`);
  }
  return out;
}"""

#: Text boxes narrower than their text (scrollWidth > clientWidth): cut off or run out.
_CLIPPED = """() => {
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('svg') || el.closest('[hidden]') || el.closest('.sr-only')) continue;
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.getClientRects().length) continue;
    const display = getComputedStyle(el).display;
    if (display === 'inline' || el.clientWidth === 0) continue;
    if (el.scrollWidth > el.clientWidth + 1) {
      out.push(`${el.tagName.toLowerCase()}.${el.className}: ${el.scrollWidth} > ${el.clientWidth}`
        + ` "${el.textContent.trim().slice(0, 30)}"`);
    }
  }
  return out;
}"""

#: Map text boxes that overlap another map text box (by more than a sliver).
_OVERLAP = """() => {
  const boxes = [];
  for (const t of document.querySelectorAll('svg.board text')) {
    if (!t.getClientRects().length || !t.textContent.trim()) continue;
    const style = getComputedStyle(t);
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    if (t.closest('.caption, .map-hint, .threat-pct')) continue;
    const r = t.getBoundingClientRect();
    // The glyphs, not the line box: a line's ascent and descent leave room above and below.
    const pad = r.height * 0.2;
    boxes.push({text: t.textContent.trim(), l: r.left, r: r.right,
      t: r.top + pad, b: r.bottom - pad});
  }
  const out = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i], b = boxes[j];
    const w = Math.min(a.r, b.r) - Math.max(a.l, b.l), h = Math.min(a.b, b.b) - Math.max(a.t, b.t);
    if (w > 2 && h > 2) out.push(`"${a.text}" over "${b.text}"`);
  }
  return out;
}"""

#: Each seat's colour wherever a chip names it: seat → the colours seen.
_CHIP_COLOURS = """() => {
  const found = {};
  for (const c of document.querySelectorAll('.chip[data-seat]')) {
    const seat = c.dataset.seat;
    if (!seat) continue;
    (found[seat] = found[seat] || []).push(getComputedStyle(c).backgroundColor);
  }
  const bar = document.querySelector('.bar[data-seat]');
  if (bar) (found[bar.dataset.seat] = found[bar.dataset.seat] || [])
    .push(getComputedStyle(bar).backgroundColor);
  return found;
}"""


def map_text_too_small(page: Any) -> list[str]:
    return [f"map text under {MIN_MAP_PX} px: {s}" for s in page.evaluate(_MAP_TEXT, MIN_MAP_PX)]


def clipped_text(page: Any) -> list[str]:
    return [f"text cut off: {s}" for s in page.evaluate(_CLIPPED)]


def overlapping_map_text(page: Any) -> list[str]:
    return [f"map text overlaps: {s}" for s in page.evaluate(_OVERLAP)]


def chip_colours(page: Any) -> dict[str, set[str]]:
    return {seat: set(colours) for seat, colours in page.evaluate(_CHIP_COLOURS).items()}


# -- English left on a Swedish page ---------------------------------------------------
_WORD = re.compile(r"[A-Za-zÅÄÖåäöÉé][A-Za-zÅÄÖåäöÉé'’-]*")
_PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sd]|%%|<[^>]+>")


def words(text: str) -> set[str]:
    """The words of ``text``, lower case (a word of two letters or fewer is left out:
    piece marks, cell names, "GW")."""
    found = set()
    for w in _WORD.findall(_PLACEHOLDER.sub(" ", text)):
        for part in re.split(r"[-’']", w):
            if len(part) > 2:
                found.add(part.lower())
    return found


@lru_cache(maxsize=1)
def vocabularies() -> tuple[frozenset[str], frozenset[str]]:
    """The words of the pages' English (the catalogue's message ids) and of their Swedish
    (its translations)."""
    english: set[str] = set()
    swedish: set[str] = set()
    with PO.open("rb") as f:
        catalogue = read_po(f, locale="sv")
    for message in catalogue:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in ids:
            english |= words(str(text))
        for text in strings:
            swedish |= words(str(text or ""))
    return frozenset(english), frozenset(swedish)


@lru_cache(maxsize=1)
def proper_names() -> frozenset[str]:
    """Names the pages keep as printed: the games' and the program's names, Judge Dredd's
    cards and Sectors, Graffiti's places and players, the seats of the tests' tables."""
    names = {"Lawmaster", "English", "Svenska", "GW:s brott", "Judge Dredd", "Unamerican"}
    names |= {"Graffiti", "Mega-City One", "Hotdog Run", "Dredd", "Hershey", "Anderson"}
    cards = CardBook.load("standard")
    names |= set(cards.names.values())
    sectors = DreddBoard.load("standard").sectors.values()
    names |= {s.name for s in sectors}
    # The map's shorter names of long ones ("Space-" "port"), parts of those names.
    names |= {line for s in sectors for line in dredd_pages.map_lines(s.name)}
    grid = GraffitiBoard.load("standard")
    names |= {h.name for h in grid.hexes.values() if h.is_location}
    names |= set(graffiti_know.PLAYER_NAMES.values())
    found: set[str] = set()
    for name in names:
        found |= words(name)
    return frozenset(found)


def english_words(page: Any) -> list[str]:
    """English words a player reads on the page (its visible text) that no Swedish
    sentence of the pages uses and that are no proper name."""
    english, swedish = vocabularies()
    shown = words(page.locator("body").inner_text())
    names = proper_names()
    stray = sorted(w for w in shown if w in english and w not in swedish and w not in names)
    return [f"English on a Swedish page: {w}" for w in stray]
