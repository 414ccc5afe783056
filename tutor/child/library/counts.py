"""Naming the dtype a count went through: a step counted in uint8 or int16 and cast back wraps, one
counted in a float and cast back stops where the float no longer holds every integer. The value a
count comes back with says which, so a message names that dtype instead of guessing. Runs inside
the worker."""

from __future__ import annotations

from collections.abc import Callable

import ml_dtypes
import numpy as np

from tutor.child.library.failures import Label

INTEGERS = ("uint8", "int8", "uint16", "int16")
FLOATS = ("float32", "float16", "bfloat16")  # the widest first: 2**24 + 1 rounds alike in all


def _in(dtype: str, start: int, step: int) -> int | None:
    """start + step computed in dtype and cast back to an integer, as `x.astype(d) + 1` then
    `.astype(int32)` would."""
    kind = np.dtype(getattr(ml_dtypes, dtype)) if dtype == "bfloat16" else np.dtype(dtype)
    with np.errstate(all="ignore"):
        total = np.array(start).astype(kind) + np.array(step).astype(kind)
        value = np.array(total, np.float64)
    return int(value) if np.isfinite(value) else None  # float16 overflows past 65504: nothing to name


def counted_through(start: int, got: int, step: int = 1) -> list[str]:
    """The narrower dtypes in which start + step gives got: the integers that wrap to it, else
    the widest float that rounds to it; [] where none does."""
    if got == start + step:
        return []
    wraps = [d for d in INTEGERS if _in(d, start, step) == got]
    return wraps or [d for d in FLOATS if _in(d, start, step) == got][:1]


# Starts where the narrow integers part ways: 200 wraps in int8 only, 40000 in int16 only (and
# every one of them wraps at 2**24 + 1).
PROBES = (200, 40000)


def counted_through_all(seen: list[tuple[int, int]], step: int = 1) -> list[str]:
    """The dtypes that explain every (start, got) of `seen`, as counted_through names them."""
    names = None
    for start, got in seen:
        here = [d for d in (*INTEGERS, *FLOATS) if _in(d, start, step) == got]
        names = here if names is None else [d for d in names if d in here]
    return names or []


def narrow_count_cause(dtypes: list[str]) -> Label:
    """Why a count through one of `dtypes` (from counted_through) went wrong, in both languages."""
    dtype = dtypes[0]
    if dtype in INTEGERS:
        names = " or ".join(dtypes)
        top = int(np.iinfo(dtype).max)
        return (
            f"it was counted through {names}, a narrow integer that holds values only up to {top} and wraps past "
            f"it (a cast such as .astype(jnp.{dtype}) before adding 1, then back). Add the integer 1 in the "
            "count's own dtype, with no cast",
            f"它经过了 {' 或 '.join(dtypes)} 计数：这种窄整数只能表示到 {top}，超过就回绕（例如加 1 之前做了 "
            f".astype(jnp.{dtype})，之后又转换回来）。请在计数自己的 dtype 里加整数 1，不要转换类型",
        )
    exact = {"bfloat16": "2**8", "float16": "2**11", "float32": "2**24"}[dtype]
    return (
        f"it was counted through a float ({dtype}) and cast back, and {dtype} holds every integer only up to {exact} "
        "(past it, x + 1 rounds). Add the integer 1 in the count's own dtype",
        f"它经过浮点数（{dtype}）计数后又转换回来，而 {dtype} 只能精确表示到 {exact} 的每个整数（超过后 x + 1 会被舍入）。"
        "请在计数自己的 dtype 里加整数 1",
    )


def narrow_count(step_from: Callable[[int], int], start: int, got: int) -> Label | None:
    """Why a count stepped from `start` came back as `got`, or None where no narrower dtype
    explains it; step_from(s) steps a count of s once more (called only to tell narrow integers
    apart)."""
    through = counted_through(start, got)
    if not through:
        return None
    if through[0] in INTEGERS:
        through = counted_through_all([(start, got), *((s, step_from(s)) for s in PROBES)]) or through
    return narrow_count_cause(through)
