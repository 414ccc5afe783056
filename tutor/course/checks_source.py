"""What an exercise's checks.py declares, read from its source without running it.

The loader never imports checks.py (that needs JAX): it parses it. Every top-level function
decorated `@check("id", depends=[...], plots=True)` is a check; its parameters name what it
takes from the learner's file. The worker runs the same functions (tutor.child.harness).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class CheckDecl:
    id: str
    function: str
    needs: tuple[str, ...]
    depends: tuple[str, ...]
    plots: bool
    line: int


def _decorator(node: ast.expr) -> ast.Call | None:
    """The `check(...)` call of a decorator, however `check` was imported."""
    if isinstance(node, ast.Call):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name == "check":
            return node
    return None


def _strings(node: ast.expr) -> tuple[str, ...] | None:
    if not isinstance(node, (ast.List, ast.Tuple)):
        return None
    values = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return tuple(values) if len(values) == len(node.elts) else None


def read_checks(source: str) -> tuple[list[CheckDecl], list[tuple[int, str]]]:
    """The checks a checks.py declares, in order, and (line, message) for what is wrong."""
    problems: list[tuple[int, str]] = []
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        return [], [(exc.lineno or 1, f"Python syntax error: {exc.msg}")]
    found: list[CheckDecl] = []
    for node in tree.body:
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        calls = [c for c in map(_decorator, node.decorator_list) if c is not None]
        if not calls:
            continue
        call = calls[0]
        if not call.args or not isinstance(call.args[0], ast.Constant) or not isinstance(call.args[0].value, str):
            problems.append((node.lineno, f"@check on {node.name} needs the check id as its first argument, a string"))
            continue
        depends: tuple[str, ...] = ()
        plots = False
        for kw in call.keywords:
            if kw.arg == "depends" and (value := _strings(kw.value)) is not None:
                depends = value
            elif kw.arg == "plots" and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, bool):
                plots = kw.value.value
            else:
                problems.append(
                    (
                        node.lineno,
                        f"@check on {node.name}: {kw.arg}= must be a list of check ids (depends) or True (plots)",
                    )
                )
        args = node.args
        if args.vararg or args.kwarg or args.kwonlyargs or args.defaults:
            problems.append(
                (
                    node.lineno,
                    f"check function {node.name} takes plain parameters only: each names a learner definition",
                )
            )
        needs = tuple(a.arg for a in args.posonlyargs + args.args)
        found.append(CheckDecl(call.args[0].value, node.name, needs, depends, plots, node.lineno))
    return found, problems


# The library's hidden-state checks (tutor.child.library.hidden_state), by the names an exercise
# skips them with: every exercise calls them unless it says, part by part, why one cannot apply.
HIDDEN_STATE_CALL = "expect_no_hidden_state"
HIDDEN_STATE_PARTS = ("input-untouched", "same-output", "no-writes-outside")


def hidden_state_problems(source: str) -> list[tuple[int, str]]:
    """(line, message) when checks.py never calls the library's hidden-state checks, or skips a
    part of them that does not exist or without a reason."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []  # read_checks reports it
    calls = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and (node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")) == HIDDEN_STATE_CALL
    ]
    if not calls:
        return [
            (
                1,
                f"checks.py never calls {HIDDEN_STATE_CALL} (from tutor.child.library): every exercise gets the "
                f"hidden-state checks ({', '.join(HIDDEN_STATE_PARTS)}) on one call of the learner's function; "
                'a part that cannot apply is skipped by name with its reason: skip={"input-untouched": "why"}',
            )
        ]
    problems = []
    for node in calls:
        for kw in node.keywords:
            if kw.arg != "skip":
                continue
            if not isinstance(kw.value, ast.Dict):
                problems.append(
                    (node.lineno, f"{HIDDEN_STATE_CALL}(skip=...) must be a dict literal: part name -> reason")
                )
                continue
            for key, value in zip(kw.value.keys, kw.value.values):
                name = key.value if isinstance(key, ast.Constant) else None
                if name not in HIDDEN_STATE_PARTS:
                    problems.append(
                        (
                            node.lineno,
                            f"{HIDDEN_STATE_CALL} skips {name!r}: the parts are {', '.join(HIDDEN_STATE_PARTS)}",
                        )
                    )
                if not (isinstance(value, ast.Constant) and isinstance(value.value, str) and value.value.strip()):
                    problems.append((node.lineno, f"{HIDDEN_STATE_CALL} skips {name!r} without a reason (a string)"))
    return problems


def chinese_strings(source: str) -> list[tuple[int, str]]:
    """Every string literal of checks.py that holds Chinese (the zh half of its messages), as
    (line, text); in an f-string each {field} reads as 0."""
    from tutor.course.cjk import CJK

    has_cjk = re.compile(f"[{CJK}]")
    found = []
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []  # read_checks reports it
    inner: set[int] = set()  # the constant parts of f-strings are read with their f-string
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            inner.update(id(v) for v in node.values)
            text = "".join(str(v.value) if isinstance(v, ast.Constant) else "0" for v in node.values)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in inner:
            text = node.value
        else:
            continue
        if has_cjk.search(text):
            found.append((node.lineno, text))
    return sorted(found)
