"""No import cycle between tutor's packages, read from the source (every import statement,
also those inside functions), and the parent side of the sandbox never imports the child side."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "tutor"


def _module_name(path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path) -> set[str]:
    """Every tutor module this file imports, as dotted names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = _module_name(path).split(".")
    if path.name != "__init__.py":
        here = here[:-1]  # the package the file is in
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(here[: len(here) - node.level + 1] + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{a.name}" for a in node.names)  # `from tutor.x import module`
    return {name for name in found if name == "tutor" or name.startswith("tutor.")}


def _unit(module: str) -> str:
    """The unit whose imports must not form a cycle: a subpackage (tutor.sandbox), or a
    module directly in tutor (tutor.protocol)."""
    return ".".join(module.split(".")[:2])


def import_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        source = _unit(_module_name(path))
        graph.setdefault(source, set())
        for target in _imports(path):
            unit = _unit(target)
            if unit != source and unit != "tutor":
                graph[source].add(unit)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One path per cycle found by a depth-first search."""
    found, state = [], {}

    def visit(node, stack):
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                found.append(stack[stack.index(nxt) :] + [nxt])
            elif nxt not in state:
                visit(nxt, stack)
        stack.pop()
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node, [])
    return found


def test_the_cycle_finder_sees_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


# Cycles that other work still has to remove (each named by the units on it). Any other cycle fails.
KNOWN: set[frozenset[str]] = set()  # none left; a cycle that must stay is listed here with its reason


def test_no_import_cycle_between_tutor_packages():
    graph = import_graph()
    assert "tutor.protocol" in graph["tutor.sandbox"] and "tutor.protocol" in graph["tutor.child"]
    assert [c for c in cycles(graph) if frozenset(c) not in KNOWN] == []


def test_the_protocol_is_a_leaf():
    """Both sides import it; it imports only the standard library and tutor.i18n."""
    assert import_graph()["tutor.protocol"] <= {"tutor.i18n"}


def test_the_parent_side_imports_no_child_module():
    parent = {_unit(m) for p in (PACKAGE / "sandbox").rglob("*.py") for m in _imports(p)}
    assert "tutor.sandbox" in parent and "tutor.child" not in parent


def test_no_import_cycle_between_modules():
    """Inside a package too: every module's imports, also those inside functions, form no cycle
    (a package's own __init__ re-exporting its modules is not an edge back)."""
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph = {
        name: {
            t
            for t in _imports(path)
            if t in modules and t != name and not (modules[t].name == "__init__.py" and name.startswith(t + "."))
        }
        for name, path in modules.items()
    }
    assert "tutor.progress.store" in graph["tutor.progress.changes"]
    assert cycles(graph) == []
