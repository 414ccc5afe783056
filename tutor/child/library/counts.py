"""Naming the dtype a count went through: a step counted in uint8 or int16 and cast back wraps, one
counted in a float and cast back stops where the float no longer holds every integer. The value a
count comes back with says which, so a message names that dtype instead of guessing. Runs inside
the worker."""

from __future__ import annotations

from collections.abc import Callable

import ml_dtypes
import numpy as np

from tutor.child.library.failures import Label, bilingual, fail

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


# Counts where a narrow dtype breaks within three steps: uint8 wraps past 255 and bfloat16 stops at
# 256, float16 stops at 2048, float32 at 2**24 (int8 and int16 cannot even hold the first). A check
# starts a count there instead of stepping it thousands of times.
EDGE_STARTS = (254, 2046, 2**24 - 2)
EXACT_UP_TO = {"bfloat16": 256, "float16": 2048, "float32": 2**24}
KEEP_INT32: tuple[str, str] = ("keep it an int32 (jnp.int32)", "请用 int32（jnp.int32）保存它")


def _kind(dtype: str) -> np.dtype:
    return np.dtype(getattr(ml_dtypes, dtype)) if dtype == "bfloat16" else np.dtype(dtype)


def holds(dtype: str, value: int) -> bool:
    """Whether `dtype` holds the integer `value` exactly."""
    with np.errstate(all="ignore"):
        return bool(np.array(value).astype(_kind(dtype)).astype(np.float64) == value)


def kept_cause(dtype: str, fix: tuple[str, str] = KEEP_INT32) -> tuple[str, str] | None:
    """Why a count kept in the narrow `dtype` goes wrong, ending with `fix`; None for a dtype that
    holds every count a run reaches (int32, int64)."""
    if dtype in INTEGERS:
        top, low = int(np.iinfo(dtype).max), int(np.iinfo(dtype).min)
        return (
            f"the count is kept as {dtype}, which holds values only up to {top} and wraps past it "
            f"({top} + 1 reads {low}): {fix[0]}",
            f"计数用 {dtype} 保存，它只能表示到 {top}，超过就回绕（{top} + 1 变成 {low}）：{fix[1]}",
        )
    if dtype in EXACT_UP_TO:
        edge = EXACT_UP_TO[dtype]
        return (
            f"the count is kept as {dtype}, which holds every integer only up to {edge}: the count stops at "
            f"{edge} (x + 1 rounds back to x there). {fix[0][:1].upper()}{fix[0][1:]}",
            f"计数用 {dtype} 保存，它只能精确表示到 {edge} 的每个整数：到了那里 x + 1 会被舍入回 x，"
            f"计数停在 {edge} 不再增加。{fix[1]}",
        )
    return None


def expect_counts_past_edges(
    advance: Callable[[int], list[int]],
    label: tuple[str, str],
    kept: str | None = None,
    fix: tuple[str, str] = KEEP_INT32,
    steps: int = 3,
    starts: tuple[int, ...] = EDGE_STARTS,
) -> None:
    """A count started at each of EDGE_STARTS goes up by one per step: advance(start) runs `steps`
    steps from a count of start and gives the count after each. `kept` is the dtype the learner's
    own state keeps the count in (None: the dtype is the checks'); the failure names it where it is
    narrow, else the dtype the wrong values were counted through. A count the task keeps in float32
    passes `starts` below 2**24."""
    for start in starts:
        if kept is not None and not holds(kept, start):
            cause = kept_cause(kept, fix)
            if cause is not None:
                fail(
                    f"{label[0]} cannot start from {start}: {cause[0]}",
                    f"{label[1]} 无法从 {start} 开始：{cause[1]}",
                )
            continue
        got = [int(g) for g in advance(start)]
        want = [start + k for k in range(1, steps + 1)]
        wrong = [k for k, (g, w) in enumerate(zip(got, want)) if g != w]
        if not wrong:
            continue
        k = wrong[0]
        through = counted_through(want[k] - 1, got[k])
        cause = (kept_cause(kept, fix) if kept is not None else None) or (
            bilingual(narrow_count_cause(through)) if through else _lost_cause(start, got, k)
        )
        fail(
            f"{label[0]} stepped {steps} times from {start} reads {got}, expected {want}: {cause[0]}",
            f"{label[1]} 从 {start} 开始走 {steps} 步，得到 {got}，应为 {want}：{cause[1]}",
        )


def _lost_cause(start: int, got: list[int], k: int) -> tuple[str, str]:
    """Why a count that no narrow dtype explains went wrong: it did not go on from the count it was
    given, or it went up by something else than one."""
    if k == 0 and abs(got[0] - start) > 2:
        return (
            f"the first step did not go on from {start}, the count it was given, but gave {got[0]}: the count is "
            "not read from the state (is it kept somewhere else, such as a Python variable?). Add one to the "
            "count the state holds",
            f"第一步没有从给定的计数 {start} 继续，而是得到 {got[0]}：计数不是从状态里读出来的"
            "（是不是放在了别处，比如一个 Python 变量？）。请在状态保存的计数上加一",
        )
    return ("a count goes up by exactly one per step", "计数每一步应恰好加一")
