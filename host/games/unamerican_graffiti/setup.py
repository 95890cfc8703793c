"""Setting up Unamerican Graffiti: dealing the Dredd roll, and the demo's game.

The game needs no names (its seats are chopper and phantom). One die says
which Sector House Judge 1 starts from: rolled at the table and typed, or
dealt here when the host asks the tablet to deal.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from lawmaster.host.plugin import Setup


def deal(header: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    """``header`` with the Dredd roll, if it has none."""
    if "dredd_roll" in header:
        return dict(header)
    return {**header, "dredd_roll": rng.randint(1, 6)}


def demo_header(seed: int) -> dict[str, Any]:
    """The demo's game, its Dredd roll taken from the seed."""
    return {"game": "unamerican-graffiti", "dredd_roll": seed % 6 + 1}


SETUP = Setup(
    header=lambda form: {},
    deal=deal,
    deals="the Dredd roll",
    demo=demo_header,
    hint="No names needed: the seats are chopper and phantom.",
)
