"""Topic names and payload encoding, shared by the tables that publish and the hall that reads.

Every payload is one JSON object in UTF-8; a topic is ``<prefix>/<table>/<kind>``.
"""

from __future__ import annotations

import json
from typing import Any

#: The topics of one table, by their last level.
EVENTS, STATE, HEALTH, RESULT = "events", "state", "health", "result"
KINDS = (EVENTS, STATE, HEALTH, RESULT)


def topic(prefix: str, table: str, kind: str) -> str:
    """``<prefix>/<table>/<kind>``."""
    if kind not in KINDS:
        raise ValueError(f"no topic kind {kind!r}; kinds are {KINDS}")
    return f"{prefix}/{table}/{kind}"


def wildcard(prefix: str, kind: str) -> str:
    """Every table's topic of one kind (what the hall subscribes to)."""
    return f"{prefix}/+/{kind}"


def parse(prefix: str, name: str) -> tuple[str, str] | None:
    """``(table, kind)`` of a topic under ``prefix``, or ``None`` for any other topic."""
    parts = name.split("/")
    if len(parts) != 3 or parts[0] != prefix or parts[2] not in KINDS or not parts[1]:
        return None
    return parts[1], parts[2]


def encode(payload: Any) -> bytes:
    """A payload as compact UTF-8 JSON (sentences stay readable, not \\u-escaped)."""
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def decode(raw: bytes) -> Any:
    """A payload back (``ValueError`` when it is no JSON)."""
    return json.loads(raw.decode("utf-8"))
