"""What the hall knows: each table's last state and health, the finished games, the wins.

The listener (:mod:`.listener`) puts in what the broker delivers; the pages
(:mod:`.views`) read copies. Every change bumps a version: the whole hall's, and
the one of the part that changed (a table's tile, the results), so a stream sends
only what changed. Thread-safe.

A table is *offline* when its health says so (its clean goodbye, or the last will
the broker published for it); it is *blind* when its referee is paused because its
board cannot be read. The results are the finished games whose ``ended`` falls in
the evening (the last :data:`EVENING_S` seconds), one per table and game number.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

#: How far back "this evening" reaches: results older than this are not counted.
EVENING_S = 12 * 3600

#: The hall's own connection to the broker, as its banner says it.
CONNECTED, LOST, NOT_YET, REFUSED = "connected", "lost", "not connected yet", "refused"


@dataclass
class TableSeen:
    """One table as the hall last heard of it."""

    name: str
    state: dict[str, Any] | None = None
    health: dict[str, Any] | None = None
    #: Bumped whenever its tile would be drawn differently.
    version: int = 0

    @property
    def online(self) -> bool:
        return self.health is None or bool(self.health.get("online", True))

    @property
    def blind(self) -> bool:
        return bool(self.online and self.health and self.health.get("blind"))


@dataclass(frozen=True)
class HallView:
    """A copy of everything the page draws, taken at one version."""

    version: int
    tables: list[TableSeen]
    results: list[dict[str, Any]]
    wins: list[tuple[str, int]]
    results_version: int
    connection: str
    detail: str = ""
    tile_versions: dict[str, int] = field(default_factory=dict)


class Hall:
    """See the module docstring."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self._cond = threading.Condition()
        self._tables: dict[str, TableSeen] = {}
        self._results: dict[tuple[str, Any], dict[str, Any]] = {}
        self.version = 0
        self._results_version = 0
        self._connection = NOT_YET
        self._detail = ""

    # -- what the listener puts in ----------------------------------------------------------
    def receive(self, table: str, kind: str, payload: Any) -> None:
        """One message of ``table`` (``kind``: the topic's last level); anything that is not
        a JSON object is ignored, and so are the events (the state repeats the last few)."""
        if not isinstance(payload, Mapping) or kind not in ("state", "health", "result"):
            return
        with self._cond:
            if kind == "result":
                key = (table, payload.get("game_id"))
                if self._results.get(key) == payload:
                    return
                self._results[key] = dict(payload)
                self._results_version += 1
            else:
                seen = self._tables.setdefault(table, TableSeen(table))
                if getattr(seen, kind) == payload:
                    return
                setattr(seen, kind, dict(payload))
                seen.version += 1
            self.version += 1
            self._cond.notify_all()

    def forget(self, table: str, kind: str) -> None:
        """A retained message cleared on the broker (an empty payload): drop what it said."""
        with self._cond:
            seen = self._tables.get(table)
            if kind in ("state", "health") and seen is not None:
                setattr(seen, kind, None)
                seen.version += 1
                if seen.state is None and seen.health is None:
                    del self._tables[table]
                self.version += 1
                self._cond.notify_all()

    def connection(self, state: str, detail: str = "") -> None:
        """The hall's own connection to the broker."""
        with self._cond:
            if (state, detail) == (self._connection, self._detail):
                return
            self._connection, self._detail = state, detail
            self.version += 1
            self._cond.notify_all()

    # -- what the pages read ------------------------------------------------------------------
    def wait(self, version: int, timeout: float) -> int:
        """The version once it differs from ``version``, or after ``timeout`` seconds."""
        with self._cond:
            if self.version == version:
                self._cond.wait(timeout)
            return self.version

    def view(self) -> HallView:
        """A copy of the hall now (tables by name, results newest first)."""
        with self._cond:
            # Payloads are replaced whole, never changed in place: sharing them is safe.
            tables = [dataclasses.replace(self._tables[name]) for name in sorted(self._tables)]
            since = self.clock() - EVENING_S
            results = [
                dict(r) for r in self._results.values() if _number(r.get("ended")) >= since
            ]
            return HallView(
                version=self.version,
                tables=tables,
                results=sorted(results, key=lambda r: -_number(r.get("ended"))),
                wins=wins(results),
                results_version=self._results_version,
                connection=self._connection,
                detail=self._detail,
                tile_versions={t.name: t.version for t in tables},
            )


def wins(results: list[dict[str, Any]]) -> list[tuple[str, int]]:
    """Wins per player name, most first (a draw is nobody's win)."""
    counted: Counter[str] = Counter()
    for result in results:
        winner = result.get("winner")
        name = result.get("winner_name") or winner
        if isinstance(winner, str) and winner != "draw" and isinstance(name, str):
            counted[name] += 1
    return sorted(counted.items(), key=lambda item: (-item[1], item[0].lower()))


def _number(value: Any) -> float:
    return float(value) if isinstance(value, int | float) else 0.0
