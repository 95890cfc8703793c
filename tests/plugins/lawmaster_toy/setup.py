"""Setting the race up: who moves first, from the setup page or the demo's seed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lawmaster.host.plugin import Setup, SetupField

from .engine import PLAYERS


def header(form: Mapping[str, str]) -> dict[str, Any]:
    """The game's part of a scenario header, from the setup page's fields."""
    return {"first": form.get("first") or PLAYERS[0]}


def demo_header(seed: int) -> dict[str, Any]:
    """The demo's race: the seed says who moves first."""
    return {"first": PLAYERS[seed % 2]}


SETUP = Setup(
    fields=(
        SetupField(
            "first",
            "Who moves first",
            "select",
            PLAYERS[0],
            choices=tuple((p, p.capitalize()) for p in PLAYERS),
        ),
    ),
    header=header,
    demo=demo_header,
    hint="Red races along lane a, blue along lane b.",
)
