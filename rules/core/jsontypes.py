"""The JSON shapes every layer passes around, defined once.

``JsonValue`` is anything :func:`json.dumps` writes as JSON. Its containers are
the read-only ``Sequence`` and ``Mapping``, so an engine can put a ``list[str]``
or a ``dict[str, int]`` in an event as it is (a ``list`` of ``JsonValue`` would
refuse both: lists are invariant). Input not yet checked is ``object``, narrowed
with ``isinstance`` where it is read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeAlias

JsonValue: TypeAlias = (
    "str | int | float | bool | None | Sequence[JsonValue] | Mapping[str, JsonValue]"
)
#: A JSON object an engine builds (an event, a piece of a view).
JsonObject: TypeAlias = dict[str, JsonValue]
