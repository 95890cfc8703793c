"""Every scenario file under tests/gw/scenarios replays with its written expectations."""

from __future__ import annotations

from pathlib import Path

import pytest
from gwtest_support import SCENARIOS, check_scenario

FILES = sorted(SCENARIOS.glob("*.jsonl"))


def test_there_are_scenarios():
    assert len(FILES) >= 10


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_gw_scenario(path: Path):
    check_scenario(path)
