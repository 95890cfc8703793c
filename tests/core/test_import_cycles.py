"""The project's import graph has no cycle: dependencies point one way.

Every module of the installed folders (``setup.py``'s ``ROOTS``: ``lawmaster/``,
``rules/``, ``host/``, ``firmware/``, ``hardware/``) is read with :mod:`ast`, never
imported. An edge is any import of a project module, at module level or inside a
function alike (a function-level import hides a cycle, it does not remove it):
``import lawmaster.x.y``, ``from lawmaster.x import y``, ``from . import y`` and
``from .x import name``, which counts as an import of the submodule ``x.name`` when
``name`` is a module. Imports under ``if TYPE_CHECKING:`` never run and are left out.
A cycle is a strongly connected component of more than one module.
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

#: Imports of our own left inside a function, and why: each stands for a library of
#: an optional extra that a table need not have installed.
ALLOWED_HIDDEN = {
    # The circuits import SKiDL (the [hardware] extra); `lawmaster --help` imports
    # every command's module, so at the top they would break it on a table without it.
    "host/commands/hardware.py": "SKiDL",
}


@dataclass
class Graph:
    """The project's modules, the project modules each imports, its function-level imports."""

    #: Module name → the file it is read from.
    files: dict[str, Path] = field(default_factory=dict)
    #: Module name → the project modules it imports.
    edges: dict[str, set[str]] = field(default_factory=dict)
    #: Top-level folder → how many import statements sit inside a function there.
    function_level: Counter[str] = field(default_factory=Counter)
    #: Every function-level import, as "file:line".
    function_level_sites: list[str] = field(default_factory=list)
    #: The function-level imports of project modules, as "file:line".
    hidden_own: list[str] = field(default_factory=list)


def roots(repo: Path) -> dict[str, str]:
    """``setup.py``'s ``ROOTS``: import name → folder, read without running setup.py."""
    tree = ast.parse((repo / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "ROOTS" for t in node.targets
        ):
            value = ast.literal_eval(node.value)
            assert isinstance(value, dict)
            return {str(k): str(v) for k, v in value.items()}
    raise AssertionError("setup.py has no ROOTS mapping")


def modules(repo: Path) -> dict[str, Path]:
    """Every module an install holds: ``.py`` files of the packages under each root."""
    found: dict[str, Path] = {}
    for name, folder in roots(repo).items():
        base = repo / folder
        for path in sorted(base.rglob("*.py")):
            rel = path.relative_to(base)
            packages = [base.joinpath(*rel.parts[:i]) for i in range(len(rel.parts))]
            if not all((p / "__init__.py").is_file() for p in packages):
                continue  # not inside a package: not installed as a module
            parts = [name, *rel.with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _imports(tree: ast.AST) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Each import statement that runs, and whether it sits inside a function."""

    def walk(
        node: ast.AST, in_function: bool
    ) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for other in child.orelse:
                    yield from walk_one(other, in_function)
                continue
            yield from walk_one(child, in_function)

    def walk_one(
        node: ast.AST, in_function: bool
    ) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node, in_function
            return
        inside = in_function or isinstance(
            node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
        )
        yield from walk(node, inside)

    yield from walk(tree, False)


def _package_of(module: str, path: Path) -> str:
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def _targets(
    node: ast.Import | ast.ImportFrom, module: str, path: Path, known: dict[str, Path]
) -> set[str]:
    """The project modules one import statement loads."""

    def deepest(name: str) -> str | None:
        # ``import a.b.c`` loads a.b.c; a name below a module is an attribute of it.
        parts = name.split(".")
        while parts:
            candidate = ".".join(parts)
            if candidate in known:
                return candidate
            parts.pop()
        return None

    out: set[str] = set()
    if isinstance(node, ast.Import):
        for alias in node.names:
            target = deepest(alias.name)
            if target is not None:
                out.add(target)
        return out
    if node.level:
        base = _package_of(module, path)
        for _ in range(node.level - 1):
            base = base.rpartition(".")[0]
        source = f"{base}.{node.module}" if node.module else base
    else:
        source = node.module or ""
    for alias in node.names:
        submodule = f"{source}.{alias.name}"
        target = submodule if submodule in known else deepest(source)
        if target is not None:
            out.add(target)
    return out


def build(repo: Path) -> Graph:
    """The import graph of every project module under ``repo``."""
    graph = Graph(files=modules(repo))
    root_folder = roots(repo)
    for module, path in graph.files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        edges = graph.edges.setdefault(module, set())
        for node, in_function in _imports(tree):
            if in_function:
                folder = (
                    root_folder[".".join(module.split(".")[:2])] if "." in module else "lawmaster"
                )
                graph.function_level[folder] += 1
                graph.function_level_sites.append(f"{path.relative_to(repo)}:{node.lineno}")
            targets = _targets(node, module, path, graph.files) - {module}
            if in_function and targets:
                graph.hidden_own.append(f"{path.relative_to(repo)}:{node.lineno}")
            edges |= targets
    return graph


def cycles(graph: Graph) -> list[frozenset[str]]:
    """Every strongly connected component of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    counter = 0
    for start in sorted(graph.edges):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph.edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return sorted(found, key=sorted)


def _named(components: list[frozenset[str]]) -> str:
    return "\n".join(" <-> ".join(sorted(c)) for c in components)


@pytest.fixture(scope="module")
def graph() -> Graph:
    return build(REPO)


def test_the_graph_reads_every_installed_folder(graph):
    folders = {m.split(".")[1] for m in graph.files if m.count(".") >= 1}
    assert {"rules", "host", "firmware", "hardware"} <= folders
    # The forms the graph must resolve, each seen in the tree today.
    assert "lawmaster.rules.core.errors" in graph.edges["lawmaster.rules.core.actions"]
    assert "lawmaster.rules.core" in graph.edges["lawmaster.rules.judge_dredd.state"]
    assert "lawmaster.firmware.config" in graph.edges["lawmaster.firmware.main"]


def test_the_graph_finds_a_cycle_made_of_every_import_form(tmp_path):
    (tmp_path / "setup.py").write_text(
        'ROOTS = {"lawmaster": "lawmaster", "lawmaster.rules": "rules"}\n'
    )
    (tmp_path / "lawmaster").mkdir()
    (tmp_path / "lawmaster" / "__init__.py").write_text("")
    pkg = tmp_path / "rules" / "game"
    pkg.mkdir(parents=True)
    (tmp_path / "rules" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("from . import a\n")
    (pkg / "a.py").write_text("from .b import helper\n")
    (pkg / "b.py").write_text("def helper():\n    from .c import thing\n")
    (pkg / "c.py").write_text("from lawmaster.rules.game import d\n")
    (pkg / "d.py").write_text("import lawmaster.rules.game.a\n")
    (pkg / "e.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import a\n"
        "from lawmaster.rules import game\n"
    )
    built = build(tmp_path)
    game = "lawmaster.rules.game"
    assert cycles(built) == [frozenset({f"{game}.{m}" for m in "abcd"})]
    assert built.edges[f"{game}.e"] == {game}
    assert built.function_level == {"rules": 1}


def test_rules_has_no_import_cycle(graph):
    in_rules = [c for c in cycles(graph) if any(m.startswith("lawmaster.rules.") for m in c)]
    assert not in_rules, "import cycles in rules/:\n" + _named(in_rules)


def test_rules_has_no_function_level_import(graph):
    sites = [s for s in graph.function_level_sites if s.startswith("rules/")]
    counts = ", ".join(f"{folder}: {n}" for folder, n in sorted(graph.function_level.items()))
    assert graph.function_level["rules"] == 0, (
        f"function-level imports ({counts}); in rules/: {', '.join(sites)}"
    )


def test_project_has_no_import_cycle(graph):
    found = cycles(graph)
    assert not found, "import cycles:\n" + _named(found)


def test_host_hides_no_import_of_its_own_in_a_function(graph):
    hidden = [
        site
        for site in graph.hidden_own
        if site.startswith("host/") and site.rpartition(":")[0] not in ALLOWED_HIDDEN
    ]
    assert not hidden, "imports of project modules inside functions: " + ", ".join(hidden)
