"""The house's size rules (issue 54), measured on the source: no function over 80 lines, no module
over 800, and at most 3 exception classes on a builtin base (TutorError, and the two whose callers
catch the builtin: ProtocolError, a ValueError; NotARegularFile, an OSError). This measures size
and shape, which a type checker does not; what the types say is mypy's (pyproject.toml)."""

from __future__ import annotations

import ast
import builtins
import functools
from pathlib import Path

TUTOR = Path(__file__).resolve().parents[2] / "tutor"
MAX_FUNCTION_LINES = 80
MAX_MODULE_LINES = 800
MAX_ON_BUILTIN_BASES = 3
BUILTIN_ERRORS = {name for name, v in vars(builtins).items() if isinstance(v, type) and issubclass(v, BaseException)}


@functools.cache
def _modules() -> list[tuple[str, str]]:
    return [(str(p.relative_to(TUTOR.parent)), p.read_text(encoding="utf-8")) for p in sorted(TUTOR.rglob("*.py"))]


@functools.cache
def _parsed(text: str) -> ast.Module:
    return ast.parse(text)  # once per module for all the scans


def _walk(node: ast.AST, where: str):
    """(qualified name, node) of every function and class, nested ones too."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            name = f"{where}.{child.name}" if where else child.name
            yield name, child
            yield from _walk(child, name)
        else:
            yield from _walk(child, where)


def _base_name(base: ast.expr) -> str | None:
    if isinstance(base, ast.Name):
        return base.id
    return base.attr if isinstance(base, ast.Attribute) else None


def long_functions(modules: list[tuple[str, str]]) -> list[str]:
    found = []
    for path, text in modules:
        for name, node in _walk(_parsed(text), ""):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    found.append(f"{path}:{node.lineno} {name}: {lines} lines")
    return found


def on_builtin_bases(modules: list[tuple[str, str]]) -> list[str]:
    found = []
    for path, text in modules:
        for name, node in _walk(_parsed(text), ""):
            if isinstance(node, ast.ClassDef):
                bases = [b for b in map(_base_name, node.bases) if b in BUILTIN_ERRORS]
                if bases:
                    found.append(f"{path}:{node.lineno} {name}({', '.join(bases)})")
    return found


def test_no_function_is_over_80_lines():
    assert long_functions(_modules()) == []


def test_no_module_is_over_800_lines():
    big = [f"{path}: {n} lines" for path, text in _modules() if (n := len(text.splitlines())) > MAX_MODULE_LINES]
    assert big == []


def test_at_most_3_exception_classes_sit_on_a_builtin_base():
    found = on_builtin_bases(_modules())
    assert len(found) <= MAX_ON_BUILTIN_BASES, found


def test_the_scans_see_what_they_measure():
    """Each rule finds its breach: a long function (nested in a class), an error class on a builtin base."""
    body = "\n".join(f"        x = {i}" for i in range(MAX_FUNCTION_LINES))
    source = (
        f"class A:\n    def long(self):\n{body}\n\n\nclass Bad(ValueError):\n    pass\n\n\nclass Fine(Bad):\n    pass\n"
    )
    assert long_functions([("m.py", source)]) == [f"m.py:2 A.long: {MAX_FUNCTION_LINES + 1} lines"]
    assert on_builtin_bases([("m.py", source)]) == [f"m.py:{MAX_FUNCTION_LINES + 5} Bad(ValueError)"]
