"""No import cycles in cdsim/, reports/ or strategies/, counting every import: at module
level, inside functions and under ``if TYPE_CHECKING`` (import-linter's contracts leave
those out: ``exclude_type_checking_imports``). A cycle that only type checking sees still
ties two modules into one concept; it shows where one of them wants splitting (issue 42:
the study's records and its folder imported each other). The graph is read from the source
with ``ast``, so it needs no import of the package and sees every branch."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("cdsim", "reports", "strategies")

# Cycles allowed as they are or smaller (a module added to one fails): none is left.
KNOWN: tuple[frozenset[str], ...] = ()


def modules(packages: Iterable[str] = PACKAGES, root: Path = ROOT) -> dict[str, Path]:
    """Every module of the packages by dotted name (a package by its own name)."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of ``known`` that ``name`` imports anywhere in its source: ``from a.b
    import c`` is a.b.c when that is a module, else a.b (the nearest module that exists)."""

    def nearest(dotted: str) -> str | None:
        while dotted and dotted not in known:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str | None] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {nearest(alias.name) for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: up from this module's package
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            found |= {nearest(f"{base}.{alias.name}") for alias in node.names}
    return {m for m in found if m is not None and m != name}


def graph(known: dict[str, Path]) -> dict[str, set[str]]:
    return {name: imports(name, path, known) for name, path in known.items()}


def cycles(edges: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
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
    return found


def explain(component: frozenset[str], edges: dict[str, set[str]]) -> str:
    return "; ".join(f"{a} -> {b}" for a in sorted(component)
                     for b in sorted(edges[a] & component))


def test_no_import_cycles() -> None:
    edges = graph(modules())
    new = [c for c in cycles(edges) if not any(c <= k for k in KNOWN)]
    assert not new, "import cycles (TYPE_CHECKING and function-level imports count): " + \
        " | ".join(explain(c, edges) for c in new)


def test_the_checker_sees_every_kind_of_import(tmp_path: Path) -> None:
    """A cycle closed by a TYPE_CHECKING import, a function-level import or a relative
    import is found; a one-way chain is not."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    for path, text in {
        "__init__.py": "",
        "a.py": "from pkg.b import x\n",
        "b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.a import y\n",
        "c.py": "def f():\n    import pkg.sub.d\n",
        "sub/__init__.py": "",
        "sub/d.py": "from ..c import f\n",
        "e.py": "from pkg import a\n",  # into a cycle, not part of it
    }.items():
        (pkg / path).write_text(text)
    edges = graph(modules(["pkg"], tmp_path))
    assert sorted(map(sorted, cycles(edges))) == [["pkg.a", "pkg.b"], ["pkg.c", "pkg.sub.d"]]
