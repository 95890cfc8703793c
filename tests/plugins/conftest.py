"""Fixtures of the plugin tests: the race installed through its entry point
(see ``plugins_support.py``), in this process and for subprocesses."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from plugins_support import plugged_in, plugin_env


@pytest.fixture(scope="module")
def toy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The race installed for this module's tests (taken off again after them)."""
    with plugged_in(tmp_path_factory.mktemp("site")) as folder:
        yield folder


@pytest.fixture(scope="module")
def toy_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A subprocess environment in which the race is installed."""
    return plugin_env(tmp_path_factory.mktemp("site"))
