"""Light live updates: each push carries what changed since this stream's last push.

A page's regions are HTML the server renders (:func:`.fragments.regions`). A stream
keeps, per region, the text it last sent (split into chunks: any text before the
first tag, then one chunk per tag with the text after it), and the next push sends,
for each region that changed, the edit from that text to the new one: a list of
operations, each a number (keep that many chunks when positive, drop them when
negative) or a string (insert it). The page script keeps the same chunks and applies
the edit (``lawmaster.js``: the same chunking, so both sides agree), then swaps the
region in as before.

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

#: An edit longer than this share of the whole text is sent as the whole text.
WHOLE_ABOVE = 0.7


def chunks(html: str) -> list[str]:
    """``html`` as the chunks an edit counts (``lawmaster.js`` splits the same way)."""
    return _CHUNK.findall(html)


def edit(before: list[str], after: list[str]) -> list[int | str]:
    """The operations that turn ``before`` into ``after`` (see the module docstring)."""
    ops: list[int | str] = []
    matcher = SequenceMatcher(None, before, after, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            ops.append(i2 - i1)
            continue
        if i2 > i1:
            ops.append(-(i2 - i1))
        if j2 > j1:
            ops.append("".join(after[j1:j2]))
    if ops and isinstance(ops[-1], int) and ops[-1] > 0:
        ops.pop()  # keeping the rest is what the page does anyway
    return ops


def apply(before: list[str], ops: list[int | str]) -> list[str]:
    """``before`` with ``ops`` applied (what the page script does; the tests use it)."""
    out: list[str] = []
    at = 0
    for op in ops:
        if isinstance(op, str):
            out.extend(chunks(op))
        elif op > 0:
            out.extend(before[at : at + op])
            at += op
        else:
            at -= op
    out.extend(before[at:])
    return out


class Delta:
    """One stream's pushes: the text it last sent per region, and the next push's edits."""

    def __init__(self) -> None:
        self._sent: dict[str, list[str]] = {}

    def push(self, regions: Mapping[str, str]) -> dict[str, Any]:
        """``{"html": {region: text}, "diff": {region: ops}}`` for the regions that changed
        (a region the page has no text of yet, or whose edit is nearly all of it, whole)."""
        whole: dict[str, str] = {}
        diff: dict[str, list[int | str]] = {}
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
            inserted = sum(len(op) for op in ops if isinstance(op, str))
            if inserted > WHOLE_ABOVE * len(html):
                whole[name] = html
            else:
                diff[name] = ops
        found: dict[str, Any] = {}
        if whole:
            found["html"] = whole
        if diff:
            found["diff"] = diff
        return found
