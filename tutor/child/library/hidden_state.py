"""The hidden-state checks every exercise gets from the library: on one call of the learner's
function, its input is untouched (read again after a real run; a buffer donated to a jitted call is
consumed, not changed: an exercise whose task forbids that says so itself, as the optimizers'
`update` does), the same input gives the same output, and nothing outside the call changed (the module's globals at any
depth, and what the whole process keeps outside it: tutor.child.library.outside).

An exercise's checks.py calls `expect_no_hidden_state` in one of its checks; a part that cannot
apply is skipped by name with a reason (`skip={"input-untouched": "the task donates the state"}`),
and `validate` reports a checks.py that never calls it or skips without a reason
(tutor.course.checks_source owns the part names)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import jax
import numpy as np

from tutor.child.library.calling import call
from tutor.child.library.failures import CheckFailed, Label, append, bilingual, fail
from tutor.child.library.originals import keystr, tree_flatten_with_path, tree_structure
from tutor.child.library.purity import Changes, global_changes, global_snapshot
from tutor.child.library.recording import Recording
from tutor.child.library.tracing import is_jitted
from tutor.course.checks_source import HIDDEN_STATE_PARTS


def _fresh(tree: Any) -> Any:
    """A copy of the arguments whose buffers the first call cannot consume or write."""

    def copy(leaf: Any) -> Any:
        if isinstance(leaf, jax.Array):
            return jax.numpy.array(leaf, copy=True)
        if isinstance(leaf, np.ndarray):
            return leaf.copy()
        return leaf

    return jax.tree.map(copy, tree)


def _prints(tree: Any) -> tuple[Any, list[tuple[str, Any]]]:
    """The structure of the arguments and, per leaf, its bytes (an array or a number) or identity."""

    def one(leaf: Any) -> Any:
        if isinstance(leaf, jax.Array) and leaf.is_deleted():
            return ("deleted",)
        try:
            a = np.asarray(leaf)
        except Exception:  # noqa: BLE001 - an object that is no array is told by identity
            return ("id", id(leaf))
        if a.dtype.kind not in "biufc":
            return ("id", id(leaf))
        return (a.shape, a.dtype.str, a.tobytes())

    flat, _ = tree_flatten_with_path(tree)
    return str(tree_structure(tree)), [(keystr(path), one(leaf)) for path, leaf in flat]


def _trace_afresh(learner: Any, fn: Callable, args: tuple) -> None:
    """Run the Python of fn once more as a first call under jit would: traced, with every jit
    inside it run as plain Python. A function jitted (and called) at import, or by an earlier
    check, runs its body only when it traces: a log it keeps at trace time would never show in
    calls that reuse its compiled program. Only where the module holds a jitted function; a
    body that cannot be traced with these arguments is left to the real calls."""
    if not (is_jitted(fn) or any(is_jitted(v) for v in vars(learner).values())):
        return
    args = jax.tree.map(lambda leaf: leaf, args)  # containers of its own; a trace consumes no buffer
    static = tuple(i for i, a in enumerate(args) if isinstance(a, (bool, int, float, complex, str)))
    try:
        with jax.disable_jit():
            jax.make_jaxpr(fn, static_argnums=static)(*args)
    except Exception:  # noqa: BLE001 - the calls judge a body that only runs on values
        pass


def _python_value(a: Any) -> bool:
    return a is None or isinstance(a, (bool, int, float, complex, str))


def _proved_by_trace(learner: Any, fn: Callable, args: tuple, skip: Mapping[str, str], shot: Any) -> bool:
    """Whether a trace of the two calls (tutor.child.library.recording: Python runs as it would,
    nothing is compiled) proves every part: the arguments' containers hold the same leaves after
    the first call, no jitted call inside donates them, nothing outside changed, and both calls
    are the same computation on the same inputs. False means only "not proved": the calls then
    run for real. Run without jit, each operation of a learner's step compiles once per shape
    on a first check (adam's update: 14 programs); here none does. Python values stay Python
    values, as in a plain call; a NumPy leaf, which a real call could write in place, is not
    proved. `shot` is the process before this trace and _trace_afresh's (one comparison for both)."""
    if not all(isinstance(leaf, (jax.Array, bool, int, float, complex)) for leaf in jax.tree.leaves(args)):
        return False
    slots = [i for i, a in enumerate(args) if not _python_value(a)]
    touched: list[bool] = []

    def both(parts: list) -> tuple:
        first, second = list(args), list(args)
        for i, part, again in zip(slots, parts, jax.tree.map(lambda x: x, parts), strict=True):
            first[i], second[i] = part, again  # the same inputs, in containers of their own
        held = [(jax.tree.structure(a), jax.tree.leaves(a)) for a in first]
        out = fn(*first)
        touched.append(
            any(
                jax.tree.structure(a) != kept or any(x is not y for x, y in zip(jax.tree.leaves(a), leaves))
                for a, (kept, leaves) in zip(first, held)
            )
        )
        return out, fn(*second)

    try:
        recording = Recording(both, [args[i] for i in slots])
    except CheckFailed:
        raise
    except Exception:  # noqa: BLE001 - whatever stops a trace, the real calls judge
        return False
    if recording.calls_python or recording.donates:
        return False
    if touched[0] and "input-untouched" not in skip:
        return False
    if "no-writes-outside" not in skip and global_changes(learner, shot):  # since shot: both traces
        return False
    return "same-output" in skip or recording.same(recording.outputs[0], recording.outputs[1])


def _differs(a: Any, b: Any) -> str | None:
    """Where two outputs of the same call differ (`[1]['m']`), '' for the structure, or None."""
    try:
        if tree_structure(a) != tree_structure(b):
            return ""
        for (path, x), (_, y) in zip(tree_flatten_with_path(a)[0], tree_flatten_with_path(b)[0]):
            xa, ya = np.asarray(x), np.asarray(y)
            if (
                xa.shape != ya.shape
                or xa.dtype != ya.dtype
                or not np.array_equal(xa, ya, equal_nan=xa.dtype.kind in "fc")
            ):
                return keystr(path)
    except (TypeError, ValueError):
        return None  # outputs that are not arrays (a function, an object): the value checks judge them
    return None


def _merged(found: Changes, late: Changes) -> Changes:
    """What either call changed (`late`: what only the second did), each thing named once."""
    return Changes(
        sorted({*found.added, *late.added}),
        sorted({*found.removed, *late.removed}),
        sorted({*found.rebound, *late.rebound}),
        list(dict.fromkeys([*found.mutated, *late.mutated])),
        list(dict.fromkeys([*found.tracers, *late.tracers])),
        list(dict.fromkeys([*found.outside, *late.outside])),
    )


def expect_no_hidden_state(
    learner: Any,
    fn: Callable,
    *args: Any,
    label: Label,
    skip: Mapping[str, str] | None = None,
    advice: Label | None = None,
) -> Any:
    """Call fn(*args) twice, as plain Python would, and fail unless: the arguments hold what they
    held (nothing written in place), both calls give the same output, and
    nothing the module reaches or the process keeps outside it changed. `label` names the call
    ("update_counter(4, 1)"); `skip` names parts that cannot apply, each with its reason; `advice`
    is added to a failure. Returns the first output where the calls ran for real; None where a
    trace proved every part (nothing computed)."""
    skip = dict(skip or {})
    unknown = sorted(set(skip) - set(HIDDEN_STATE_PARTS))
    if unknown:
        raise ValueError(f"expect_no_hidden_state: unknown part(s) {unknown}; the parts are {HIDDEN_STATE_PARTS}")
    label_en, label_zh = bilingual(label)

    def failing(en: str, zh: str) -> None:
        if advice is not None:
            advice_en, advice_zh = bilingual(advice)
            en, zh = append(en, advice_en, "en"), append(zh, advice_zh, "zh")
        fail(en, zh)

    before_trace = global_snapshot(learner) if "no-writes-outside" not in skip else None
    if before_trace is not None:
        _trace_afresh(learner, fn, args)
    if _proved_by_trace(learner, fn, args, skip, before_trace):
        return None
    again = _fresh(args)
    kept = _prints(args) if "input-untouched" not in skip else None
    first_shot = before_trace if before_trace is not None else global_snapshot(learner)
    first = call(fn, *args, label=label)
    if kept is not None:
        now = _prints(args)
        if now[0] != kept[0]:
            failing(
                f"{label_en} changed the structure of an argument it was given in place: {now[0]} instead of "
                f"{kept[0]}. Return new containers instead of writing into the inputs",
                f"{label_zh} 原地改变了传给它的参数的结构：现在是 {now[0]}，原来是 {kept[0]}。"
                "请返回新的容器，不要写进输入",
            )
        for (where, was), (_, is_now) in zip(kept[1], now[1]):
            if was != is_now and is_now != ("deleted",):  # a donated buffer is consumed, not changed
                failing(
                    f"{label_en} changed an argument it was given in place: args{where} holds another value after "
                    "the call. Return new values instead of writing into the inputs",
                    f"{label_zh} 原地修改了传给它的参数：调用之后 args{where} 的值变了。请返回新的值，不要写进输入",
                )
    second_shot = global_snapshot(learner)
    second = call(fn, *again, label=label)
    if "no-writes-outside" not in skip:
        found = global_changes(learner, first_shot)
        late = global_changes(learner, second_shot)  # what only the second call changed (a cache filled by the first)
        merged = _merged(found, late)
        if merged:
            failing(
                f"calling {label_en} twice left something behind between calls: it {merged.en}. A pure function "
                "only returns values; under jax.jit whatever it stores runs once, at trace time, and holds tracers",
                f"调用两次 {label_zh} 在两次调用之间留下了东西：它{merged.zh}。纯函数只返回值；"
                "在 jax.jit 下它存下的东西只在追踪时执行一次，存的是追踪值",
            )
    if "same-output" not in skip:
        differs = _differs(first, second)
        if differs is not None:
            failing(
                f"{label_en} gave another result the second time with the same input (at output{differs}): "
                "the result depends on something other than the arguments, a state kept between calls",
                f"用相同的输入第二次调用 {label_zh} 得到了不同的结果（在 output{differs}）："
                "结果依赖于参数以外的东西，也就是在调用之间保留的状态",
            )
    return first
