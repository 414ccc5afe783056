"""Calling the learner's code: `call` tags an exception with the call that raised it, so the
harness can name it (and explain JAX errors with one generic cause); `raises` expects one."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from typing import Any, NamedTuple

from tutor.child.library.failures import Label, bilingual
from tutor.child.library.tracing import TraceCounter, is_jitted
from tutor.child.library.values import type_of


def call(fn: Callable, *args, label: Label | None = None, **kwargs) -> Any:
    """fn(*args, **kwargs), for learner code: an exception names the call that raised it
    (`label`, default the function's name), and the harness reports it as a failure."""
    try:
        return fn(*args, **kwargs)
    except Exception as exc:
        if getattr(exc, "_tutor_call", None) is None:  # an inner call's label is more precise
            try:
                exc._tutor_call = (bilingual(label or f"{_name_of(fn)}(...)"), fn)  # type: ignore[attr-defined]
                exc._tutor_args = describe_arguments(args, kwargs)  # type: ignore[attr-defined]
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


def _shape(value: Any, depth: int = 0) -> str:
    """A value as a learner reads what was passed: `float32[4]`, `{'w': float32[], 'b': float32[]}`, `0.1`."""
    if isinstance(value, (bool, int, float, str)) or value is None:
        return repr(value)
    if depth > 2:
        return "..."
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {_shape(v, depth + 1)}" for k, v in list(value.items())[:6]) + "}"
    if isinstance(value, (tuple, list)) and not hasattr(value, "_fields"):
        inner = ", ".join(_shape(v, depth + 1) for v in value[:6])
        return f"({inner})" if isinstance(value, tuple) else f"[{inner}]"
    if hasattr(value, "_fields"):  # a NamedTuple state
        return (
            type(value).__name__
            + "("
            + ", ".join(f"{f}={_shape(getattr(value, f), depth + 1)}" for f in value._fields)
            + ")"
        )
    return type_of(value)


def describe_arguments(args: tuple, kwargs: dict) -> str:
    """What a call passed, by type and shape; at most 300 characters."""
    text = ", ".join([_shape(a) for a in args] + [f"{k}={_shape(v)}" for k, v in kwargs.items()])
    return text if len(text) <= 300 else text[:297] + "..."


_UNHASHABLE = re.compile(r"hash an object of type <class '([\w.]+)'>")


class Explanation(NamedTuple):
    """What the library can add to an exception raised while check code used learner code."""

    label_en: str = ""  # the `call` that raised it, e.g. "update_counter(0, 7)"
    label_zh: str = ""
    name: str = ""  # the called function's name
    hint_en: str = ""  # the cause of a JAX error that has one generic cause
    hint_zh: str = ""
    arguments: str = ""  # what the call passed, by type and shape


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
    elif type(exc).__name__ in _NEEDS_A_VALUE:
        who = f"`{name}`" if name else "your function"
        hint_en = (
            f"The check ran {who} under a JAX transformation (jax.jit, vmap, scan or make_jaxpr, as the task "
            "asks): there its array arguments are tracers, with a shape and a dtype but no value yet. "
            "float(), int(), bool(), a Python `if`, or a dict key made from one needs the value: compute with "
            "jnp operations instead, or make that argument static (a Python number decided before the call)"
        )
        hint_zh = (
            f"检查程序在 JAX 变换下运行了 {who}（jax.jit、vmap、scan 或 make_jaxpr，正如题目要求）："
            "这时数组参数是追踪值，只有形状和 dtype，还没有具体数值。float()、int()、bool()、Python 的 `if`，"
            "或者用它们做字典的键，都需要具体数值：请改用 jnp 运算，或者把这个参数设为静态参数（调用前就确定的 Python 数）"
        )
    elif multiprocessing_hint(exc):
        hint_en, hint_zh = multiprocessing_hint(exc) or ("", "")
    return Explanation(label_en, label_zh, name, hint_en, hint_zh, getattr(exc, "_tutor_args", ""))


def multiprocessing_hint(exc: BaseException) -> tuple[str, str] | None:
    """(en, zh) saying why multiprocessing failed, for a refusal raised from its own code (in a
    check, or at the top of the learner's file, which a check runs too); else None."""
    if not _from_multiprocessing(exc):
        return None
    return (
        "multiprocessing (a Pool, a Process, a Queue, a Lock or a Semaphore, concurrent.futures' ProcessPoolExecutor) "
        "is not available inside a check: its semaphores are new files in /dev/shm, and a check lets your code "
        "create files only in its own run folder, so that it cannot change the rest of the machine. Nothing in this "
        "exercise needs a second process: do the work in the function itself (jax.vmap maps it over a batch)",
        "检查里不能使用 multiprocessing（Pool、Process、Queue、Lock、Semaphore，以及 concurrent.futures 的 "
        "ProcessPoolExecutor）：它的信号量要在 /dev/shm 里新建文件，而检查只允许你的代码在它自己的运行目录里建文件，"
        "这样它改不了机器上的其他东西。这个练习不需要第二个进程：在函数本身里完成计算（jax.vmap 可以把它映射到一批数据上）",
    )


def _from_multiprocessing(exc: BaseException) -> bool:
    """A file refused to multiprocessing's own code (its semaphores, in /dev/shm)."""
    if not isinstance(exc, PermissionError):
        return False
    tb = exc.__traceback__
    while tb is not None:
        if "multiprocessing" in tb.tb_frame.f_code.co_filename:
            return True
        tb = tb.tb_next
    return False


# JAX's errors for Python needing the value of a tracer (class names: stable on 0.10 and 0.12).
_NEEDS_A_VALUE = {
    "ConcretizationTypeError",
    "TracerBoolConversionError",
    "TracerIntegerConversionError",
    "TracerArrayConversionError",
}
