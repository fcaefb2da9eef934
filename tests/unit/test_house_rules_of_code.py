"""No module imports another module's private name (``from x import _name``) or a private
module, at run time, under ``TYPE_CHECKING`` or inside a function alike: a name shared between
modules is a public name of the module that owns it. (``test_import_graph`` reads the same
imports for cycles.)"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import scorekeeper

PACKAGE = Path(scorekeeper.__file__).parent

TYPING_ONLY_MODULES = frozenset({"_typeshed"})
"""Private by name, yet made to be imported: the standard library's stubs for annotations
(imported under ``TYPE_CHECKING``, never at run time)."""


def module_name(path: Path, root: Path = PACKAGE) -> str:
    """``scorekeeper.live.poll`` for ``scorekeeper/sharing/poll.py``."""
    parts = [root.name, *path.relative_to(root).with_suffix("").parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_names(path: Path, root: Path = PACKAGE) -> Iterator[tuple[int, str, str | None]]:
    """(line, module, name) of every import in the file; name is None for ``import module``.
    Relative imports are resolved against the file's package."""
    own = module_name(path, root)
    package = own if path.name == "__init__.py" else own.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, None
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join([*base, module] if module else base)
            for alias in node.names:
                yield node.lineno, module, alias.name


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_imports(path: Path, root: Path = PACKAGE) -> list[str]:
    """Each import of the file that reaches a private name or a private module."""
    found = []
    for line, module, name in imported_names(path, root):
        parts = module.split(".")
        if parts[0] in TYPING_ONLY_MODULES:
            continue
        if any(_is_private(part) for part in parts) or (name is not None and _is_private(name)):
            shown = f"from {module} import {name}" if name else f"import {module}"
            found.append(f"{path.relative_to(root.parent)}:{line}: {shown}")
    return found


def test_no_module_imports_a_private_name() -> None:
    found = [line for path in sorted(PACKAGE.rglob("*.py")) for line in private_imports(path)]
    assert found == []


def _package(root: Path, files: dict[str, str]) -> Path:
    package = root / "pkg"
    for name, text in files.items():
        path = package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return package


def test_a_private_name_or_module_is_found_wherever_it_is_imported(tmp_path: Path) -> None:
    package = _package(
        tmp_path,
        {
            "__init__.py": "",
            "rules/__init__.py": "",
            "rules/params.py": "def _problem(): ...\ndef quoted(): ...\n",
            "rules/checks.py": (
                "from __future__ import annotations\n"
                "from typing import TYPE_CHECKING\n"
                "from flask_babel import gettext as _\n"
                "from .params import _problem, quoted\n"
                "if TYPE_CHECKING:\n"
                "    from _typeshed.wsgi import StartResponse\n"
                "def late():\n"
                "    from pkg.rules import _hidden\n"
                "    import pkg._private.tools\n"
            ),
        },
    )
    found = private_imports(package / "rules" / "checks.py", package)
    assert found == [
        "pkg/rules/checks.py:4: from pkg.rules.params import _problem",
        "pkg/rules/checks.py:8: from pkg.rules import _hidden",
        "pkg/rules/checks.py:9: import pkg._private.tools",
    ]
