"""The race is named in its own folder only: plugging it in took no edit anywhere else.

Every text file of the repository (tracked, or new and not ignored) outside
``tests/plugins/`` is read, and every file's path; none may name the game's
slug or its module.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from plugins_support import HERE, MODULE, ROOT, SLUG

#: The slug as a word (any case: "Toy" in a sentence names it too), or the module name.
NAMES = re.compile(rf"\b{re.escape(SLUG)}\b|{re.escape(MODULE)}", re.IGNORECASE)
SKIP_DIRS = {".git", ".venv", "venv", "build", "dist", "node_modules", "__pycache__"}


def _repository_files() -> list[Path]:
    """The repository's files: git's list when there is one, else the folders walked."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        ).stdout
        return [ROOT / name for name in sorted(set(listed.decode().split("\0"))) if name]
    except (OSError, subprocess.CalledProcessError):
        found = []
        for folder, dirs, files in os.walk(ROOT):
            dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.endswith(".egg-info")]
            found += [Path(folder) / f for f in files]
        return sorted(found)


def _naming(path: Path) -> list[str]:
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError:
        return []  # listed but gone (a file deleted in the working tree)
    except UnicodeDecodeError:
        text = ""  # a picture or other binary file: letters in it are chance, not a name
    hits = [f"{path.relative_to(ROOT)}: {m.group(0)!r}" for m in NAMES.finditer(text)]
    return hits + ([f"{path.relative_to(ROOT)} (its path)"] if NAMES.search(path.name) else [])


def test_plugins_named_once_only_the_games_own_folder_names_it():
    inside: list[str] = []
    outside: list[str] = []
    for path in _repository_files():
        (inside if path.is_relative_to(HERE) else outside).extend(_naming(path))
    assert outside == []
    # The search does find the names where they are (it is no search that cannot fail).
    assert any(MODULE in hit for hit in inside) and any(repr(SLUG) in hit for hit in inside)
