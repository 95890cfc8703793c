"""Light live updates: each push carries what changed since this stream's last push.

A page's regions are HTML the server renders (:func:`.fragments.regions`). A stream
keeps, per region, the text it last sent (split into chunks: any text before the
first tag, then one chunk per tag with the text after it), and the next push sends,
for each region that changed, the edit from that text to the new one: a list of
operations, each a number (keep that many chunks when positive, drop them when
negative), a string (insert it) or a list (edit the next chunk: its own numbers keep or
drop that many characters of it, its strings are inserted). So a cell whose shade
changed sends the few characters that changed in its tag, not the tag, and a new log
line sends that line. The page script keeps the same chunks and applies the edit
(``lawmaster.js``: the same chunking, so both sides agree; each side splits the
edited text again), then swaps the region in as before.

The first push of a stream (or the first of a region) carries the whole text: the
page's own drawing is the browser's, and the script only knows the server's text
once it has been sent. The page asks for that at once when its stream opens, so
every later push is an edit.

**Secrecy.** A :class:`Delta` belongs to one stream, and a stream to one seat (or the
table screen): an edit is computed from that stream's own earlier pushes only,
never from another seat's, so it can say nothing the seat's own pages did not.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from difflib import SequenceMatcher
from typing import Any

_CHUNK = re.compile(r"<[^<]*|[^<]+")
#: The pieces an edit inside a chunk counts in: words, runs of spaces, single signs.
_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")

#: An edit longer than this share of the whole text is sent as the whole text.
WHOLE_ABOVE = 0.7
#: A chunk is edited inside when its edit is at most this share of the new chunk.
INSIDE_BELOW = 0.9

Op = int | str | list[int | str]


def chunks(html: str) -> list[str]:
    """``html`` as the chunks an edit counts (``lawmaster.js`` splits the same way)."""
    return _CHUNK.findall(html)


def _inside(before: str, after: str) -> list[int | str] | None:
    """The edit of one chunk by characters (``None`` when it saves too little)."""
    a, b = _TOKEN.findall(before), _TOKEN.findall(after)
    ops: list[int | str] = []
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            ops.append(sum(len(t) for t in a[i1:i2]))
            continue
        if i2 > i1:
            ops.append(-sum(len(t) for t in a[i1:i2]))
        if j2 > j1:
            ops.append("".join(b[j1:j2]))
    if ops and isinstance(ops[-1], int) and ops[-1] > 0:
        ops.pop()
    if _size(ops) > INSIDE_BELOW * len(after):
        return None
    return ops


def _size(ops: list[int | str]) -> int:
    """About what ``ops`` weigh as JSON (a number's digits and a comma, a string and quotes)."""
    return sum(len(op) + 3 if isinstance(op, str) else len(str(op)) + 1 for op in ops)


def _changed(before: list[str], after: list[str], ops: list[Op]) -> None:
    """Append the edit of a replaced run of chunks: each pair edited inside where that is
    small, the rest dropped and inserted whole."""
    pending = ""  # whole chunks to insert, kept together as one string
    dropped = 0
    for old, new in zip(before, after, strict=False):
        inside = _inside(old, new)
        if inside is None:
            dropped += 1
            pending += new
            continue
        if dropped:
            ops.append(-dropped)
            dropped = 0
        if pending:
            ops.append(pending)
            pending = ""
        ops.append(inside)
    rest = len(before) - len(after)
    dropped += max(rest, 0)
    if dropped:
        ops.append(-dropped)
    pending += "".join(after[len(before) :])
    if pending:
        ops.append(pending)


def edit(before: list[str], after: list[str]) -> list[Op]:
    """The operations that turn ``before`` into ``after`` (see the module docstring)."""
    ops: list[Op] = []
    matcher = SequenceMatcher(None, before, after, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            ops.append(i2 - i1)
        elif tag == "replace":
            _changed(before[i1:i2], after[j1:j2], ops)
        else:
            if i2 > i1:
                ops.append(-(i2 - i1))
            if j2 > j1:
                ops.append("".join(after[j1:j2]))
    if ops and isinstance(ops[-1], int) and ops[-1] > 0:
        ops.pop()  # keeping the rest is what the page does anyway
    return ops


def _apply_inside(chunk: str, ops: list[int | str]) -> str:
    out: list[str] = []
    at = 0
    for op in ops:
        if isinstance(op, str):
            out.append(op)
        elif op > 0:
            out.append(chunk[at : at + op])
            at += op
        else:
            at -= op
    out.append(chunk[at:])
    return "".join(out)


def apply(before: list[str], ops: list[Op]) -> list[str]:
    """``before`` with ``ops`` applied (what the page script does; the tests use it)."""
    out: list[str] = []
    at = 0
    for op in ops:
        if isinstance(op, str):
            out.append(op)
        elif isinstance(op, list):
            out.append(_apply_inside(before[at], op))
            at += 1
        elif op > 0:
            out.extend(before[at : at + op])
            at += op
        else:
            at -= op
    out.extend(before[at:])
    return chunks("".join(out))


def size(ops: list[Op]) -> int:
    """What an edit weighs as JSON, about (to choose between it and the whole text)."""
    total = 0
    for op in ops:
        total += _size(op) + 2 if isinstance(op, list) else _size([op])
    return total


class Delta:
    """One stream's pushes: the text it last sent per region, and the next push's edits."""

    def __init__(self) -> None:
        self._sent: dict[str, list[str]] = {}

    def push(self, regions: Mapping[str, str]) -> dict[str, Any]:
        """``{"html": {region: text}, "diff": {region: ops}}`` for the regions that changed
        (a region the page has no text of yet, or whose edit is nearly all of it, whole)."""
        whole: dict[str, str] = {}
        diff: dict[str, list[Op]] = {}
        for name, html in regions.items():
            after = chunks(html)
            before = self._sent.get(name)
            self._sent[name] = after
            if before == after:
                continue
            if before is None:
                whole[name] = html
                continue
            ops = edit(before, after)
            if size(ops) > WHOLE_ABOVE * len(html):
                whole[name] = html
            else:
                diff[name] = ops
        found: dict[str, Any] = {}
        if whole:
            found["html"] = whole
        if diff:
            found["diff"] = diff
        return found
