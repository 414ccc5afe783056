"""Test modules share through fixtures (conftest.py), never by importing conftest or each other:
such imports depend on pytest's sys.path, and a helper imported from another test file drags
that file's module-level setup along."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def imported_names(path: Path) -> set[str]:
    """Top-level names of every module `path` imports, also inside functions."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names


def test_no_test_module_imports_conftest_or_another_test_file():
    modules = sorted([*TESTS.glob("*.py"), *TESTS.glob("plugins/*.py"), *TESTS.glob("*/test_*.py")])
    local = {p.stem for p in modules} | {"plugins"}  # conftest, its plugins, test_*
    offenders = {p.name: sorted(imported_names(p) & local) for p in modules}
    assert {name: found for name, found in offenders.items() if found} == {}
