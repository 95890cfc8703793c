"""Plugging the race in the way a game distribution is: through an entry point.

:func:`plugged_in` writes a ``toy-0.0.dist-info`` (METADATA and
``entry_points.txt`` naming ``lawmaster_toy:GAME`` in the ``lawmaster.games``
group) into a folder, and puts that folder and ``tests/plugins`` (where the
game's code lives) on the import path of this process; :func:`plugin_env` is
the environment that does the same for a subprocess. Nothing calls
``games.register``: the registry finds the game as it finds the shipped ones.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from lawmaster.host import games

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SLUG = "toy"
MODULE = "lawmaster_toy"
#: The scenario file of a whole race (three inputs refused on the way).
RACE = HERE / MODULE / "scenarios" / "race.jsonl"
ENTRY_POINTS = f"[{games.GROUP}]\n{SLUG} = {MODULE}:GAME\n"


def write_distribution(folder: Path) -> Path:
    """An installed distribution's metadata in ``folder``: what ``pip install`` leaves."""
    info = folder / f"{SLUG}-0.0.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {SLUG}\nVersion: 0.0\n", "utf-8")
    (info / "entry_points.txt").write_text(ENTRY_POINTS, "utf-8")
    return folder


@contextmanager
def plugged_in(folder: Path) -> Iterator[Path]:
    """The game's distribution on this process's import path, and the registry refreshed."""
    paths = [str(write_distribution(folder)), str(HERE)]
    added = [p for p in paths if p not in sys.path]
    sys.path[:0] = added
    games.refresh()
    try:
        yield folder
    finally:
        for path in added:
            sys.path.remove(path)
        games.refresh()


def plugin_env(folder: Path) -> dict[str, str]:
    """The environment of a subprocess that finds the game through the entry point."""
    env = dict(os.environ)
    paths = [str(write_distribution(folder)), str(HERE)]
    if env.get("PYTHONPATH"):
        paths.append(env["PYTHONPATH"])
    env["PYTHONPATH"] = os.pathsep.join(paths)
    return env


def lawmaster(
    *args: str, env: Mapping[str, str], timeout: float = 120, check: bool = True
) -> subprocess.CompletedProcess[str]:
    """The real ``lawmaster`` command in a subprocess."""
    return subprocess.run(
        [sys.executable, "-m", "lawmaster.host", *args],
        capture_output=True,
        text=True,
        env=dict(env),
        timeout=timeout,
        check=check,
        cwd=ROOT,
    )
