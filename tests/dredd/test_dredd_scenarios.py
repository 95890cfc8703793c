"""Every scenario under tests/dredd/scenarios/ replays with the outcomes it states."""

from __future__ import annotations

import pytest
from dredd_helpers import check_scenario, scenario_files


@pytest.mark.parametrize("path", scenario_files(), ids=lambda p: p.stem)
def test_dredd_scenario(path):
    check_scenario(path)


def test_dredd_there_are_scenarios():
    assert len(scenario_files()) >= 20
