"""Calling the learner's code: `call` tags an exception with the call that raised it, so the
harness can name it (and explain JAX errors with one generic cause); `raises` expects one."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from typing import Any, NamedTuple

from tutor.child.library.failures import Label, bilingual
from tutor.child.library.tracing import TraceCounter, is_jitted


def call(fn: Callable, *args, label: Label | None = None, **kwargs) -> Any:
    """fn(*args, **kwargs), for learner code: an exception names the call that raised it
    (`label`, default the function's name), and the harness reports it as a failure."""
    try:
        return fn(*args, **kwargs)
    except Exception as exc:
        if getattr(exc, "_tutor_call", None) is None:  # an inner call's label is more precise
            try:
                exc._tutor_call = (bilingual(label or f"{_name_of(fn)}(...)"), fn)  # type: ignore[attr-defined]
            except (AttributeError, TypeError):
                pass
        raise


def raises(
    fn: Callable, *args, types: tuple[str, ...] = (), match: str | None = None, **kwargs
) -> BaseException | None:
    """Call fn; return the exception if it raised one whose class (or a base) is named in types."""
    try:
        fn(*args, **kwargs)
    except Exception as exc:
        names = {c.__name__ for c in type(exc).__mro__}
        if types and not names & set(types):
            raise
        if match and match not in str(exc):
            raise
        return exc
    return None


def _name_of(fn: Any) -> str:
    return fn.name if isinstance(fn, TraceCounter) else getattr(fn, "__name__", "the function")


def _static_params(fn: Any) -> list[str]:
    """The parameters a jitted fn (or a traced() counter of one) marks static."""
    if isinstance(fn, TraceCounter):
        options, params = fn.options, fn.params
    elif is_jitted(fn):
        info = getattr(fn, "_jit_info", None)
        options = {k: getattr(info, k, None) for k in ("static_argnums", "static_argnames")}
        try:
            params = list(inspect.signature(fn).parameters)
        except (TypeError, ValueError):
            params = []
    else:
        return []
    static = [params[i] if 0 <= i < len(params) else f"argument {i}" for i in options.get("static_argnums") or ()]
    return static + [n for n in options.get("static_argnames") or () if n not in static]


_UNHASHABLE = re.compile(r"hash an object of type <class '([\w.]+)'>")


class Explanation(NamedTuple):
    """What the library can add to an exception raised while check code used learner code."""

    label_en: str = ""  # the `call` that raised it, e.g. "update_counter(0, 7)"
    label_zh: str = ""
    name: str = ""  # the called function's name
    hint_en: str = ""  # the cause of a JAX error that has one generic cause
    hint_zh: str = ""


def explain_error(exc: BaseException) -> Explanation:
    """The label of the `call` that raised exc, and a hint for JAX errors with one generic cause."""
    label_en = label_zh = name = hint_en = hint_zh = ""
    fn = None
    tagged = getattr(exc, "_tutor_call", None)
    if tagged is not None:
        (label_en, label_zh), fn = tagged
        name = _name_of(fn)
    text = str(exc)
    if "Non-hashable static arguments" in text:
        found = _UNHASHABLE.search(text)
        kind = found.group(1).rsplit(".", 1)[-1] if found else "value"
        kind = "jax.Array" if kind in ("ArrayImpl", "Array") else kind
        static = _static_params(fn) if fn is not None else []
        which_en = f": {name} marks {', '.join(f'`{p}`' for p in static)} static" if static else ""
        which_zh = f"：{name} 把 {'、'.join(f'`{p}`' for p in static)} 标成了静态参数" if static else ""
        hint_en = (
            f"jax.jit received a {kind} for an argument marked static (static_argnums / static_argnames)"
            f"{which_en}. A static argument is a compile-time setting and must be a hashable Python value "
            "(an int, a float, a str, a tuple of them); arrays, and lists, dicts or PyTrees holding them, "
            "are data, not settings: keep those arguments dynamic (traced)"
        )
        hint_zh = (
            f"jax.jit 在一个标成静态（static_argnums / static_argnames）的参数上收到了 {kind}{which_zh}。"
            "静态参数是编译期的设置，必须是可哈希的 Python 值（int、float、str 或由它们组成的元组）；"
            "数组以及装着数组的列表、字典或 PyTree 是数据，不是设置：让这些参数保持动态（被追踪）"
        )
    return Explanation(label_en, label_zh, name, hint_en, hint_zh)
