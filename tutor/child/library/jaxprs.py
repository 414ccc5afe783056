"""What a function compiles to: the primitives of its jaxpr, nested sub-jaxprs (jit, cond,
scan, remat) included; never text matching on the printed program."""

from __future__ import annotations

import collections
from collections.abc import Callable, Iterator

from tutor.child.library.failures import Label, bilingual, fail
from tutor.child.library.originals import make_jaxpr


def _subjaxprs(params: dict):
    for value in params.values():
        items = value if isinstance(value, (tuple, list)) else (value,)
        for item in items:
            if hasattr(item, "jaxpr") and hasattr(item, "consts"):  # ClosedJaxpr
                yield item.jaxpr
            elif hasattr(item, "eqns"):  # Jaxpr
                yield item


def _equations(jaxpr) -> Iterator:
    """Every equation of a jaxpr (or ClosedJaxpr), those of nested sub-jaxprs included."""
    if hasattr(jaxpr, "jaxpr") and hasattr(jaxpr, "consts"):
        jaxpr = jaxpr.jaxpr
    stack = [jaxpr]
    while stack:
        for eqn in stack.pop().eqns:
            yield eqn
            stack.extend(_subjaxprs(eqn.params))


def primitive_names(jaxpr) -> set[str]:
    """Every primitive name in a jaxpr, including those in nested sub-jaxprs."""
    return {eqn.primitive.name for eqn in _equations(jaxpr)}


def primitive_counts(fn: Callable, *args, **kwargs) -> collections.Counter[str]:
    """How many equations of each primitive fn's program holds on these arguments, nested
    sub-jaxprs included: a Python loop shows as one `add` per iteration, `scan` as one scan."""
    return collections.Counter(eqn.primitive.name for eqn in _equations(make_jaxpr(fn)(*args, **kwargs)))


def primitives(fn: Callable, *args, **kwargs) -> set[str]:
    """Primitive names used when fn is traced on these arguments."""
    return primitive_names(make_jaxpr(fn)(*args, **kwargs))


def expect_primitive(fn: Callable, args: tuple, name: str, what: Label | None = None) -> None:
    found = primitives(fn, *args)
    en, zh = bilingual(what or getattr(fn, "__name__", "the function"))
    if name not in found:
        fail(
            f"no `{name}` primitive in the compiled program of {en}; found only: {', '.join(sorted(found)) or 'nothing'}",
            f"{zh} 编译出的程序里没有 `{name}` 原语；只找到：{', '.join(sorted(found)) or '无'}",
        )
