"""What a function compiles to: the primitives of its jaxpr, nested sub-jaxprs (jit, cond,
scan, remat) included; never text matching on the printed program."""

from __future__ import annotations

from collections.abc import Callable

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


def primitive_names(jaxpr) -> set[str]:
    """Every primitive name in a jaxpr, including those in nested sub-jaxprs."""
    if hasattr(jaxpr, "jaxpr") and hasattr(jaxpr, "consts"):
        jaxpr = jaxpr.jaxpr
    names: set[str] = set()
    stack = [jaxpr]
    while stack:
        current = stack.pop()
        for eqn in current.eqns:
            names.add(eqn.primitive.name)
            stack.extend(_subjaxprs(eqn.params))
    return names


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
