"""The house's shape, read from the imports of every module of the package.

Parts are the package's top-level modules and subpackages. The blueprints (the parts that make
a ``flask.Blueprint``) are leaves: they import the rules core, the store and shared
infrastructure, never another blueprint. Neither the parts nor the modules import one another in
a cycle, lazy imports inside functions included.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

PACKAGE = "scorekeeper"
ROOT = Path(__file__).resolve().parents[2] / PACKAGE

FACTORY = f"{PACKAGE}"
"""The application factory: it registers every blueprint, so it may import them all."""


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path, known: set[str]) -> Iterator[str]:
    """The package's modules this file imports, wherever in the file the import is."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            # A name imported from a package is its submodule when there is one, else a name
            # the package's __init__ defines.
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                for alias in node.names
            ]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                yield target


def module_graph() -> dict[str, set[str]]:
    paths = {module_name(path): path for path in ROOT.rglob("*.py")}
    known = set(paths)
    return {name: set(imported_modules(path, known)) for name, path in paths.items()}


def part_of(module: str) -> str:
    pieces = module.split(".")
    return ".".join(pieces[:2]) if len(pieces) > 1 else module


def part_graph(modules: Mapping[str, set[str]]) -> dict[str, set[str]]:
    parts: dict[str, set[str]] = {}
    for module, targets in modules.items():
        if module == FACTORY:
            continue
        edges = parts.setdefault(part_of(module), set())
        edges.update(part_of(t) for t in targets if t != FACTORY and part_of(t) != part_of(module))
    return parts


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
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


def blueprint_parts() -> set[str]:
    return {
        part_of(module_name(path))
        for path in ROOT.rglob("*.py")
        if "Blueprint(" in path.read_text(encoding="utf-8") and path.parent != ROOT
    }


MODULES = module_graph()
PARTS = part_graph(MODULES)


def test_the_graph_is_read_from_the_code() -> None:
    assert "scorekeeper.store.games" in MODULES["scorekeeper.store.deal_writes"]
    assert {"scorekeeper.games", "scorekeeper.sheets", "scorekeeper.api"} <= blueprint_parts()
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_part_of_the_package_imports_another_in_a_cycle() -> None:
    assert cycles(PARTS) == []


def test_no_module_imports_another_in_a_cycle() -> None:
    assert cycles({m: t for m, t in MODULES.items() if m != FACTORY}) == []


@pytest.mark.parametrize("blueprint", sorted(blueprint_parts()))
def test_a_blueprint_imports_no_other_blueprint(blueprint: str) -> None:
    assert PARTS[blueprint] & blueprint_parts() == set()


@pytest.mark.parametrize("core", ["scorekeeper.rules", "scorekeeper.engine"])
def test_the_rules_core_and_the_engine_import_nothing_of_the_app(core: str) -> None:
    assert PARTS[core] <= {"scorekeeper.rules", "scorekeeper.engine"}


def test_the_store_imports_no_blueprint() -> None:
    assert PARTS["scorekeeper.store"] & blueprint_parts() == set()


def test_only_the_application_factory_imports_a_blueprint() -> None:
    below = {part for part in PARTS if part not in blueprint_parts()}
    assert {part: PARTS[part] & blueprint_parts() for part in below} == dict.fromkeys(below, set())
