"""Every file a document or a docstring names exists in the repository.

Markdown links, back-quoted paths in Markdown and in Python docstrings are
collected; a name counts as a file reference when it has a folder part or a file
extension we ship. Each must resolve against the document's own folder or the
repository root (or, for installed-name paths such as ``lawmaster/host/...``, the
folder that name maps to). A reference that reaches outside the repository, or
names something absent, fails the test with the place it was found.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SKIP_DIRS = {".git", ".venv", "venv", "build", "dist", "node_modules", "__pycache__"}
EXTENSIONS = (
    ".md", ".py", ".json", ".jsonl", ".toml", ".txt", ".svg", ".png", ".rules",
    ".service", ".html", ".css", ".js", ".net", ".csv", ".sh",
)  # fmt: skip
#: The installed import names of the top-level folders (setup.py's package_dir).
IMPORT_ROOTS = {"lawmaster/rules": "rules", "lawmaster/host": "host",
                "lawmaster/firmware": "firmware", "lawmaster/hardware": "hardware"}  # fmt: skip

_LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")
_TICKS = re.compile(r"``?([^`\s]+)``?")


def _files(pattern: str) -> list[Path]:
    return sorted(
        p for p in ROOT.rglob(pattern) if not SKIP_DIRS.intersection(p.relative_to(ROOT).parts)
    )


def _repo_paths() -> set[str]:
    paths = set()
    for path in ROOT.rglob("*"):
        relative = path.relative_to(ROOT)
        if not SKIP_DIRS.intersection(relative.parts):
            paths.add(relative.as_posix())
    return paths


_PATHS = _repo_paths()


def _resolves(name: str, base: Path) -> bool:
    """Whether ``name`` (as written in a file in ``base``) names a file of the repository.

    A path relative to the document, to the root, through an import name, or a
    trailing part of a repository path (``protocol.py``, ``games/judge_dredd/pages.py``)
    counts; an absolute path or one that climbs out of the repository never does.
    """
    if name.startswith("/"):
        return False
    for prefix, folder in IMPORT_ROOTS.items():
        if name.startswith(prefix + "/"):
            name = folder + name[len(prefix) :]
    for candidate in (base / name, ROOT / name):
        resolved = candidate.resolve()
        if resolved.is_relative_to(ROOT) and resolved.exists():
            return True
    if ".." in Path(name).parts:
        return False
    return any(path == name or path.endswith("/" + name) for path in _PATHS)


def _markdown_references(path: Path) -> list[tuple[int, str]]:
    found = []
    in_code = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        for match in _LINK.finditer(line):
            found.append((number, match.group(1)))
        for match in _TICKS.finditer(line):
            found.append((number, match.group(1)))
    return found


def _docstring_references(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = ast.get_docstring(node, clean=False)
            if not doc:
                continue
            start = node.body[0].lineno if node.body else 1
            for offset, line in enumerate(doc.splitlines()):
                for match in _TICKS.finditer(line):
                    found.append((start + offset, match.group(1)))
    return found


def _is_reference(name: str) -> bool:
    if not name or "://" in name or any(c in name for c in "*{}<>|$@=,()[]\\"):
        return False
    if name.startswith(("/dev/", "/sys/", "/etc/", "/tmp/", "/proc/", "/run/", "/var/", "/usr/",
                        "/opt/", "/lib/", "/boot/", "~")):  # fmt: skip
        return False  # places on the Pi or a PC, not files of ours
    if name.startswith("/") and "/" not in name[1:]:
        return False  # a URL route such as /setup
    if name.startswith(".") and "/" not in name:
        return False  # an extension on its own (".json"), not a file
    if name.endswith(".rules") and "/" not in name and "-" not in name:
        return False  # a dotted import name such as lawmaster.rules, not a udev rules file
    return name.endswith(EXTENSIONS)


def _clean(raw: str) -> str:
    return raw.rstrip(".,;:)'\"").lstrip("('\"")


def _problems() -> list[str]:
    problems = []
    sources = [(p, _markdown_references(p)) for p in _files("*.md")]
    sources += [(p, _docstring_references(p)) for p in _files("*.py")]
    for path, references in sources:
        for line, raw in references:
            name = _clean(raw)
            if _is_reference(name) and not _resolves(name, path.parent):
                problems.append(f"{path.relative_to(ROOT)}:{line}: {name}")
    return problems


def test_every_named_file_is_in_the_repository() -> None:
    problems = _problems()
    assert not problems, "files named but not in the repository:\n" + "\n".join(problems)


@pytest.mark.parametrize(
    ("name", "expected"),
    [("docs/SCENARIOS.md", True), ("../shared/SCENARIOS.md", False),
     ("/work/table-contract.md", False), ("lawmaster/host/cli.py", True),
     ("hardware/maps/gw-brott-standard.json", True), ("no-such-file.md", False)],
)  # fmt: skip
def test_the_checker_itself(name: str, expected: bool) -> None:
    assert _is_reference(_clean(name))
    assert _resolves(_clean(name), ROOT) is expected
