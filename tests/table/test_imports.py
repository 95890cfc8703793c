"""No import cycle among the project's modules, and no import of our own hidden in a function.

An import inside a function hides a cycle from the reader and from this test;
the one kind allowed is an optional third-party hardware library (Blinka's
``board``, the PN532 driver) that a PC without the Pi's pins cannot import, with
a comment saying so. Imports under ``if TYPE_CHECKING:`` are for the type
checker only and are not followed.
"""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
#: Import name → folder, as ``setup.py`` maps them.
ROOTS = {
    "lawmaster": "lawmaster",
    "lawmaster.rules": "rules",
    "lawmaster.host": "host",
    "lawmaster.firmware": "firmware",
    "lawmaster.hardware": "hardware",
}


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for name, folder in ROOTS.items():
        root = REPO / folder
        paths = [root / "__init__.py"] if name == "lawmaster" else sorted(root.rglob("*.py"))
        for path in paths:
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join((name, *parts))] = path
    return found


def _type_checking(node: ast.stmt) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _imports(module: str, path: Path, known: set[str]) -> tuple[set[str], list[int]]:
    """The project modules ``module`` imports when it is imported, and the lines of
    imports of our own inside functions."""
    tree = ast.parse(path.read_text())
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    at_import: set[int] = set()
    for_types = {id(sub) for node in tree.body if _type_checking(node) for sub in ast.walk(node)}

    def collect(statements: list[ast.stmt]) -> None:
        for node in statements:
            if _type_checking(node):
                continue
            if isinstance(node, ast.Import | ast.ImportFrom):
                at_import.add(id(node))
            for block in ("body", "orelse", "finalbody", "handlers"):
                if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    collect(getattr(node, block, []) or [])
            if isinstance(node, ast.ClassDef):
                collect(node.body)

    collect(tree.body)
    edges: set[str] = set()
    hidden: list[int] = []
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                for alias in node.names
            ]
        ours = [t for t in targets if t in known]
        if not ours or id(node) in for_types:
            continue
        if id(node) in at_import:
            edges.update(ours)
        else:
            hidden.append(node.lineno)
    edges.discard(module)
    return edges, hidden


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_imports_no_cycle_among_the_projects_modules():
    modules = _modules()
    graph = {name: _imports(name, path, set(modules))[0] for name, path in modules.items()}
    assert _cycles(graph) == []


#: Imports of our own left inside a function, and why: each stands for a library of
#: an optional extra that a table need not have installed.
ALLOWED = {
    # The circuits import SKiDL (the [hardware] extra); `lawmaster --help` imports
    # every command's module, so at the top they would break it on a table without it.
    "host/commands/hardware.py": "SKiDL",
}


def test_imports_none_of_our_own_inside_a_function_in_the_host():
    modules = _modules()
    hidden = {
        f"{path.relative_to(REPO)}:{line}"
        for name, path in modules.items()
        if name.startswith("lawmaster.host") and str(path.relative_to(REPO)) not in ALLOWED
        for line in _imports(name, path, set(modules))[1]
    }
    assert hidden == set()


def test_imports_the_checker_sees_a_cycle_and_a_hidden_import(tmp_path):
    """The test above would fail: a made-up pair of modules that import each other."""
    a = tmp_path / "a.py"
    a.write_text("from lawmaster.host import b\n\ndef f():\n    from lawmaster.host import c\n")
    b = tmp_path / "b.py"
    b.write_text("from . import a\n")
    known = {"lawmaster.host", "lawmaster.host.a", "lawmaster.host.b", "lawmaster.host.c"}
    edges_a, hidden_a = _imports("lawmaster.host.a", a, known)
    edges_b, _ = _imports("lawmaster.host.b", b, known)
    assert edges_a == {"lawmaster.host.b"} and hidden_a == [4]
    graph = {"lawmaster.host.a": edges_a, "lawmaster.host.b": edges_b}
    assert _cycles(graph) == [["lawmaster.host.a", "lawmaster.host.b"]]
