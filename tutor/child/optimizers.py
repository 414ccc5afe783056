"""Checking an optimizer the learner writes as `(init, update)` (adam, rmsprop): its interface,
a purity check of its state, its dtypes, its direction and defaults, and where it first departs
from a float64 reference. Each exercise keeps its own reference formulas and its own advice.
Runs inside the worker."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from tutor.child import reach
from tutor.child.library import (
    CheckFailed,
    Label,
    as_float32,
    close,
    expect,
    fail,
    returns,
    structure,
    type_of,
    x64_enabled,
)
from tutor.child.library.edges import expect_steps_beyond_lr, jumping_gradients, largest_step, stacked_steps
from tutor.child.library.failures import bilingual
from tutor.child.library.jaxprs import donates
from tutor.child.library.originals import device_put, eval_shape, keystr, make_jaxpr, tree_flatten_with_path
from tutor.child.library.purity import Changes, TreeCopy, global_changes, global_snapshot
from tutor.child.library.recording import Recording, traced_call
from tutor.child.library.values import device_rtol, leaves

# A moment the reference keeps for every parameter, as the messages name it: (en, zh, tree like the params).
Moment = tuple[str, str, Any]


def unpack(opt: Any, made: str = "the optimizer") -> tuple[Callable, Callable]:
    """(init, update) of an Optimizer-like object or a pair; `made` is how it was made, for the
    message when it is neither (`adam(0.1)`)."""
    if hasattr(opt, "init") and hasattr(opt, "update"):
        init, update = opt.init, opt.update
    elif isinstance(opt, (tuple, list)) and len(opt) == 2:
        init, update = opt
    else:
        fail(
            f"{made} returned {type(opt).__name__}; expected an Optimizer with fields init and update (or a pair)",
            f"{made} 返回了 {type(opt).__name__}；应返回带 init、update 字段的 Optimizer（或二元组）",
        )
    expect(callable(init) and callable(update), "init and update must both be functions", "init 和 update 都必须是函数")
    return init, update


def small_problem() -> tuple[dict, dict]:
    """(params, grads) of two small leaves, new buffers on every call (a step may donate them).
    One shape for both: every operation an optimizer runs without jit is compiled once for it,
    not once per leaf (rank, dtype and nesting vary in the checks that run it under jit). The
    checks' other flat problems use (3,) too, for the same reason."""
    params = {"w": np.ones(3), "b": np.zeros(3)}
    return as_float32(params), as_float32({"w": np.full(3, 0.5), "b": np.ones(3)})


def nested_problem(seed: int, steps: int, decades: float) -> tuple[Any, list, Any]:
    """(params in float64, `steps` gradient trees, the params as float32) on nested dicts, lists
    and tuples, with gradients spread over +-`decades` decades (bias correction and eps show)."""
    rng = np.random.default_rng(seed)
    shapes = {"layers": [{"w": (2, 3), "b": (3,)}, ({"w": (3,)}, ())]}

    def is_shape(s):
        return isinstance(s, tuple) and all(isinstance(n, int) for n in s)

    p0 = jax.tree.map(lambda s: rng.standard_normal(s), shapes, is_leaf=is_shape)
    grads_seq = [
        jax.tree.map(
            lambda s: rng.standard_normal(s) * 10.0 ** rng.uniform(-decades, decades, s), shapes, is_leaf=is_shape
        )
        for _ in range(steps)
    ]
    return p0, grads_seq, as_float32(p0)


def with_zero_gradients(grads_seq: list, step: int = 1) -> list:
    """grads_seq with the first element of every leaf exactly 0 at `step` (0-based): an optimizer
    that skips its state's decay where a gradient is 0 (a "lazy" update) differs at the next step."""
    out = list(grads_seq)
    out[step] = jax.tree.map(lambda g: np.where(np.arange(np.size(g)).reshape(np.shape(g)) == 0, 0.0, g), out[step])
    return out


KEY_ORDER = (
    "with the gradients' dicts listing their keys in another order than the state's ({'w': ..., 'b': ...} "
    "against {'b': ..., 'w': ...}) your updates are wrong, and right when the orders agree: the state's leaves "
    "are paired with the gradients by position (zipping dict values), not by key. jax.tree.map(f, state_tree, "
    "grads) pairs them by key, at any depth",
    "当梯度字典的键顺序与状态的不同时（{'w': ..., 'b': ...} 对 {'b': ..., 'w': ...}），你的增量就错了，顺序相同时"
    "却是对的：状态的叶子是按位置（把字典的值 zip 在一起）而不是按键与梯度配对的。jax.tree.map(f, state_tree, grads) "
    "在任何深度都按键配对",
)


def jitted_update(update: Callable, grads: Any, state: Any, params: Any) -> tuple[Any, Any]:
    """(updates, new_state) of jax.jit(update)(grads, state, params), once update is known to be
    callable without params as well (Optax's signature) and its updates are shaped like params."""
    try:
        inspect.signature(update).bind(grads, state)
    except TypeError:
        fail(
            "update(grads, state) cannot be called without params: give it the signature update(grads, state, params=None)",
            "update(grads, state) 不传 params 就无法调用：请把签名写成 update(grads, state, params=None)",
        )
    except ValueError:
        pass  # no signature to read (a builtin, a C function): the calls below say the rest
    label = "jax.jit(update)(grads, state, params)"
    updates, new_state = returns(jax.jit(update)(grads, state, params), ("updates", "new_state"), label)
    structure(updates, params, what=f"updates from {label}")
    return updates, new_state


def update_without_params(update: Callable, init: Callable, params: Any, grads: Any) -> None:
    """update(grads, state), as Optax callers often write it, gives updates shaped like params
    (traced, not run: only the structure is read; run for real if only a real run can say)."""
    state = init(params)
    out = _traced_or_plain(lambda: traced_call(lambda g, s: update(g, s), grads, state), lambda: update(grads, state))
    out = returns(out, ("updates", "new_state"), "update(grads, state) without params")
    structure(out[0], params, what="updates from update(grads, state) without params")


def expect_state_untouched(init: Callable, update: Callable, example: str) -> None:
    """update(grads, state), called without jax.jit as plain Python code would, leaves the state
    passed in as it was; `example` is the in-place write the message suggests (`state['m'] = ...`)."""
    params, grads = small_problem()
    state = init(params)
    untouched, donating = _untouched_when_traced(update, grads, state, params)
    if untouched:
        if donating:  # a jitted call inside donates: one real run shows whether the state is deleted
            update(grads, state, params)
            expect_not_donated(state, "update(grads, state)")
        return
    kept = TreeCopy(state)
    update(grads, state, params)
    expect_not_donated(state, "update(grads, state)")
    now = jax.tree.structure(state)
    expect(
        now == kept.structure,
        f"after update(grads, state), the state passed in has a different structure: "
        f"{now} instead of {kept.structure}. update modified its input instead of returning a new state",
        f"调用 update(grads, state) 之后，传入的状态结构变了：{now}，原来是 {kept.structure}。"
        "update 修改了它的输入，而不是返回一个新状态",
    )
    changed = kept.first_change(state)
    if changed is not None:
        where, old, leaf = changed
        fail(
            f"after update(grads, state), the state passed in has changed: state{where} was {_show(old)}, "
            f"now {_show(leaf)}. update modified its input (e.g. {example}) instead of returning a new state",
            f"调用 update(grads, state) 之后，传入的状态被改了：state{where} 原来是 {_show(old)}，现在是 {_show(leaf)}。"
            f"update 修改了它的输入（例如 {example}），而不是返回一个新状态",
        )


def expect_not_donated(tree: Any, label: str) -> None:
    """No array of tree, passed to `label` and read again after it ran, was deleted: a function
    jitted with donate_argnums consumes the caller's buffers, which then cannot be read, retried
    or compared."""
    for path, leaf in tree_flatten_with_path(tree)[0]:
        if isinstance(leaf, jax.Array) and leaf.is_deleted():
            fail(
                f"after {label}, the state passed in is gone: state{keystr(path)} was deleted, donated to a "
                "jitted function (jax.jit(..., donate_argnums=...)). The caller still owns the state it passes: "
                "it may retry the step, compare or log it. Leave donation to the caller's own jitted training "
                "step, and return a new state without consuming the old one",
                f"调用 {label} 之后，传入的状态没了：state{keystr(path)} 被删除了，它被捐赠给了一个 jit 函数"
                "（jax.jit(..., donate_argnums=...)）。调用方仍然拥有它传入的状态：它可能要重试这一步、做比较或记录日志。"
                "请把捐赠留给调用方自己的 jit 训练步，返回一个新状态而不消耗旧状态",
            )


def _untouched_when_traced(update: Callable, grads: Any, state: Any, params: Any) -> tuple[bool, bool]:
    """(whether update, traced (nothing compiled), hands the state it was given back as it was:
    the same leaves, the same structure; whether the program donates an input to a jitted call).
    Only a state whose leaves cannot change in place (JAX arrays, Python numbers) can be judged
    so; False also means "not proved", and the caller then runs update as plain Python and
    compares values."""
    if not all(isinstance(leaf, (jax.Array, int, float, complex)) for leaf in jax.tree.leaves(state)):
        return False, True  # a NumPy leaf can be written in place, which only a real run shows
    kept: list[bool] = []

    def call(g, s, p):
        structure, held = jax.tree.structure(s), jax.tree.leaves(s)
        update(g, s, p)
        now = jax.tree.leaves(s)
        kept.append(jax.tree.structure(s) == structure and all(a is b for a, b in zip(held, now, strict=True)))

    program = _traced_or_plain(lambda: make_jaxpr(call)(grads, state, params), lambda: kept.append(False))
    return kept[0], program is None or donates(program)


def _traced_or_plain(traced: Callable[[], Any], plain: Callable[[], Any]) -> Any:
    """traced(), or plain() where a trace cannot run the learner's code (a value read in Python,
    a NumPy array made from a traced value): plain() runs it for real, raising the learner's own
    error if there is one. A check's own failure is never taken for that."""
    try:
        return traced()
    except CheckFailed:
        raise
    except Exception:  # noqa: BLE001 - whatever stops a trace, only a real run can judge
        return plain()


def _history(seed: int, steps: int) -> tuple[dict, list[dict]]:
    """(params, `steps` gradient trees) of small_problem's shapes, with distinct values."""
    rng = np.random.default_rng(seed)
    params = {"w": rng.standard_normal(3), "b": rng.standard_normal(3)}
    grads = [{"w": rng.standard_normal(3), "b": rng.standard_normal(3)} for _ in range(steps)]
    return as_float32(params), [as_float32(g) for g in grads]


def _same(a: Any, b: Any) -> bool:
    la, lb = jax.tree.leaves(a), jax.tree.leaves(b)
    return len(la) == len(lb) and all(
        np.shape(x) == np.shape(y)
        and np.allclose(np.asarray(x, np.float64), np.asarray(y, np.float64), rtol=1e-6, equal_nan=True)
        for x, y in zip(la, lb)
    )


def _calls(init: Callable, update: Callable, params, grads, other_params, other_grads) -> dict:
    """The calls that show a history kept between calls: a first update on a fresh state, four
    updates carrying the state, the first update again, then two states (A on params, B on
    other_params) stepped in turn. Their updates, by name."""
    first, _ = returns(update(grads[0], init(params), params), ("updates", "new_state"), "update(grads, state)")
    alone, state = [], init(params)
    for g in grads:
        updates, state = update(g, state, params)
        alone.append(updates)
    again, _ = update(grads[0], init(params), params)
    a, b = init(params), init(other_params)
    in_turn = []
    for g, h in zip(grads, other_grads):
        updates, a = update(g, a, params)
        _, b = update(h, b, other_params)
        in_turn.append(updates)
    return {"first": first, "alone": alone, "again": again, "in_turn": in_turn}


def expect_keeps_no_history(learner: Any, opt: Any, init: Callable, update: Callable, made: str) -> None:
    """update is a function of its arguments only: called without jax.jit as plain Python code
    would, the same grads and state give the same updates whatever was called before, two
    optimizer states stepped in turn give what each gives alone, and nothing the optimizer or
    the module can reach (closure cells, defaults, attributes, globals at any depth) changed.

    The calls are traced, not run (tutor.child.library.recording): Python runs as it would, and
    where the results are provably the same computations nothing is compiled. They run for real
    where the trace fails, where the program calls back into Python, or where something changed
    between calls, so that every number a message shows is one plain Python computes."""
    home = getattr(learner, "__name__", "")
    roots = {"update": update, "init": init, made: opt}  # dicts keep order: the shortest paths first
    reached, module = reach.snapshot_of(roots, home), global_snapshot(learner)

    def changes() -> Changes:
        found = reach.changed_since(None, reached, reach.snapshot_of(roots, home))
        module_changes = global_changes(learner, module)
        # No note of tracers held: the calls were traced, so any record they kept holds
        # tracers, which the message below explains for jax.jit anyway.
        return Changes(
            module_changes.added,
            module_changes.removed,
            module_changes.rebound,
            [*module_changes.mutated, *(c.path for c in found)],
            outside=module_changes.outside,
        )

    params, grads = _history(11, 4)
    inputs = (params, grads, *_history(12, 4))
    recording = _traced_or_plain(lambda: Recording(functools.partial(_calls, init, update), *inputs), lambda: None)
    changed = changes()
    calls: dict | None
    if recording is None or recording.calls_python or changed:
        calls = _calls(init, update, *inputs)
        changed = changes()
    elif recording.same(recording.outputs["first"], recording.outputs["again"]) and recording.same(
        recording.outputs["alone"], recording.outputs["in_turn"]
    ):
        calls = None  # proved: nothing to compute
    else:
        calls = recording.values()
    where_en = f" Between calls it {changed.en}." if changed else ""
    where_zh = f"它在调用之间{changed.zh}。" if changed else ""
    if calls is not None:
        _expect_same_calls(calls, len(grads), where_en, where_zh)
    expect(
        not where_en,
        f"update keeps a history outside its state:{where_en} Its results are right, but an optimizer keeps "
        "nothing between calls: under jax.jit such a record holds tracers, not numbers, and two states would share it",
        f"update 在状态之外保存了历史：{where_zh}结果没错，但优化器不能在调用之间保留任何东西："
        "在 jax.jit 下这样的记录里存的是追踪值而不是数，两个状态还会共用它",
    )


def _expect_same_calls(calls: dict, steps: int, where_en: str, where_zh: str) -> None:
    """The numbers of _calls: the first update again, and each state stepped alone or in turn."""
    first, again = calls["first"], calls["again"]
    if not _same(first, again):
        fail(
            f"update(grads, init(params)) gave other updates after {steps + 1} earlier calls than the first "
            f"time (same grads, same fresh state): first {_show(jax.tree.leaves(first)[0])}, now "
            f"{_show(jax.tree.leaves(again)[0])}. update remembers something between calls outside the state it "
            f"returns.{where_en} Everything a step needs must come in through state and go out in new_state",
            f"同样的 grads、同样新建的状态，update(grads, init(params)) 在先调用了 {steps + 1} 次之后给出的增量"
            f"与第一次不同：第一次 {_show(jax.tree.leaves(first)[0])}，这次 {_show(jax.tree.leaves(again)[0])}。"
            f"update 在返回的状态之外记住了以往的调用。{where_zh}每一步需要的东西都必须经由 state 传入、经由 new_state 传出",
        )
    for t, (one, both) in enumerate(zip(calls["alone"], calls["in_turn"]), start=1):
        if not _same(one, both):
            fail(
                f"two optimizer states stepped in turn (update on state A, then on state B, and so on) give other "
                f"updates for A at step {t} than A stepped alone: {_show(jax.tree.leaves(both)[0])} instead of "
                f"{_show(jax.tree.leaves(one)[0])}. update shares something between states outside the state it is "
                f"given.{where_en} Everything a step needs must come in through state and go out in new_state",
                f"两个优化器状态轮流更新（先更新状态 A，再更新状态 B，依此类推）时，A 在第 {t} 步的增量与 A 单独更新时不同："
                f"{_show(jax.tree.leaves(both)[0])}，而不是 {_show(jax.tree.leaves(one)[0])}。update 在传入的状态之外"
                f"让不同状态共享了东西。{where_zh}每一步需要的东西都必须经由 state 传入、经由 new_state 传出",
            )


def _show(a: Any) -> Any:
    return np.asarray(a, np.float64).round(4).tolist() if np.size(a) < 7 else f"{np.shape(a)}"


def expect_state_follows_param_dtypes(init: Callable, update: Callable) -> None:
    """Mixed precision: the state follows each parameter's dtype, from init and after a step."""
    # made in NumPy and put on the device: no XLA program per shape and dtype
    made = {"w": np.ones((2, 3), jnp.float32), "b": np.ones((3,), jnp.bfloat16), "s": np.ones((4,), jnp.float16)}
    mixed = jax.tree.map(device_put, made)
    mixed_grads = jax.tree.map(lambda p: device_put(np.full(p.shape, 0.5, p.dtype)), made)
    mixed_state, mixed_new = _init_and_step(init, update, mixed_grads, mixed)
    state_follows_params(mixed_state, mixed, what="init(params) with float32, bfloat16 and float16 params: state")
    state_follows_params(mixed_new, mixed, what="the state update returns for mixed-dtype params: state")


def _init_and_step(init: Callable, update: Callable, grads: Any, params: Any) -> tuple[Any, Any]:
    """The types of init(params) and of the state one update later, as jax.eval_shape traces them:
    dtypes and weak types are known from the trace, so nothing is compiled. init runs as plain
    Python first where a trace cannot run it (a NumPy array made from a parameter's values)."""

    def init_and_step(g, p):
        state = init(p)
        return state, update(g, state, p)[1]

    def plain():
        state = init(params)
        return state, eval_shape(update, grads, state, params)[1]

    return _traced_or_plain(lambda: eval_shape(init_and_step, grads, params), plain)


def expect_against_gradient(updates: dict, grads: dict, still: Label | None = None) -> None:
    """Every entry of the first updates moves against its gradient. `still`: the advice when an
    entry does not move at all (checked first), for an optimizer where that has one cause."""
    for name in grads:
        u = np.asarray(updates[name], np.float64).reshape(-1)
        g = np.asarray(grads[name], np.float64).reshape(-1)
        for i in range(g.size):
            if still is not None:
                still_en, still_zh = bilingual(still)
                expect(
                    u[i] != 0,
                    f"updates['{name}'] entry {i} is 0 for a gradient of {g[i]:+.4g}: the first update does not move at all. "
                    + still_en,
                    f"updates['{name}'] 第 {i} 个元素为 0，而梯度是 {g[i]:+.4g}：第一步完全没有移动。" + still_zh,
                )
            expect(
                np.sign(u[i]) == -np.sign(g[i]),
                f"updates['{name}'] entry {i} is {u[i]:+.4g} for a gradient of {g[i]:+.4g}: "
                "an update must move against the gradient",
                f"updates['{name}'] 第 {i} 个元素为 {u[i]:+.4g}，而梯度是 {g[i]:+.4g}：增量必须与梯度方向相反",
            )


def expect_defaults(
    make: Callable, made: str, spec: dict[str, float], got_seq, want_seq, grads_seq, note: Label, rtol=2e-4, atol=1e-9
) -> None:
    """The updates of `made` (an optimizer built with its default hyperparameters, on trees of
    vectors) match the reference with the `spec` defaults; the failure names the first step that
    differs (every leaf's values, in order), the defaults it should have, those the signature of
    `make` declares, and `note` (what other libraries choose)."""
    rtol = device_rtol(rtol)
    if same_updates(got_seq, want_seq, rtol=rtol, atol=atol):
        return
    try:
        sig = inspect.signature(make).parameters
        off = [
            f"{k}={sig[k].default!r}"
            for k in spec
            if k in sig and sig[k].default is not inspect.Parameter.empty and sig[k].default != spec[k]
        ]
    except (TypeError, ValueError):
        off = []
    seen_en = f" Your signature has {', '.join(off)}." if off else ""
    seen_zh = f"你的函数签名里写的是 {', '.join(off)}。" if off else ""
    names = list(spec)
    names_en = ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else names[0]
    values = [f"{k}={v:g}".replace("e-0", "e-") for k, v in spec.items()]
    note_en, note_zh = bilingual(note)

    def flat(tree):
        return np.concatenate([np.ravel(np.asarray(leaf, np.float64)) for leaf in jax.tree.leaves(tree)])

    def fmt(tree):
        return "[" + ", ".join(f"{x:.5g}" for x in flat(tree)) + "]"

    for t, (got, want) in enumerate(zip(got_seq, want_seq), start=1):
        if not np.allclose(flat(got), flat(want), rtol=rtol, atol=atol):
            fail(
                f"{made} with its default {names_en}: the update at step {t} is {fmt(got)}, expected {fmt(want)} "
                f"(gradients {fmt(grads_seq[t - 1])}). The defaults must be {', '.join(values)} "
                f"({note_en}).{seen_en}",
                f"使用默认 {'、'.join(names)} 的 {made}：第 {t} 步的增量是 {fmt(got)}，应为 {fmt(want)}"
                f"（梯度为 {fmt(grads_seq[t - 1])}）。默认值必须是 {'、'.join(values)}"
                f"（{note_zh}）。{seen_zh}",
            )


def same_updates(got_seq, want_seq, rtol=1e-4, atol=1e-6) -> bool:
    """Whether every update tree of a sequence matches its reference (leaf by leaf, float64)."""
    try:
        for got, want in zip(got_seq, want_seq):
            close(got, want, rtol=rtol, atol=atol)
    except CheckFailed:
        return False
    return True


def keys_reversed(tree: Any) -> Any:
    """tree with every dict listing its keys the other way round (lists and tuples followed):
    the same tree to JAX, whose flattening sorts a dict's keys."""
    if isinstance(tree, dict):
        return {k: keys_reversed(tree[k]) for k in reversed(list(tree))}
    if isinstance(tree, list):
        return [keys_reversed(t) for t in tree]
    if type(tree) is tuple:
        return tuple(keys_reversed(t) for t in tree)
    return tree


def run_updates(update, init, params, grads_seq, reorder=True):
    """The learner's updates for each gradient tree, through jax.jit(update), state carried.
    Inside the program every dict arrives with its keys sorted, the state's too; with `reorder`
    update is handed the gradients with their keys the other way round (in the same program), so
    an update that pairs leaves by position (zipping dict values) instead of by key goes wrong."""
    state = init(params)
    step = jax.jit((lambda g, s, p: update(keys_reversed(g), s, p)) if reorder else update)
    # NumPy float32 gradients, which the jitted step puts on the device itself (the edge runs a
    # hundred steps: a device_put per leaf and step cost more than the steps themselves)
    got = []
    for g in jax.tree.map(lambda a: np.asarray(a, np.float32), list(grads_seq)):
        updates, state = step(g, state, params)
        got.append(updates)
    return got


def departure(
    update: Callable,
    init: Callable,
    params: Any,
    grads_seq: list,
    reference: Iterable[tuple[list[Moment], Any]],
    algorithm: str,
    right: Label,
    look: Label,
) -> tuple[str, str] | None:
    """Where the learner's optimizer first leaves a float64 reference, as (en, zh), or None:
    the first step at which no floating state leaf holds a reference moment of some parameter,
    or, with every moment right (`right`: "your s is right"), the first update that differs
    (`look`: which formula to look at). `reference` gives, step by step, (moments, updates)."""
    state, step = init(params), jax.jit(update)

    def fmt(a):
        return np.array2string(np.asarray(a, np.float64).reshape(-1)[:4], precision=5, separator=", ")

    for t, (g, (moments, want)) in enumerate(zip(grads_seq, reference), start=1):
        updates, state = step(as_float32(g), state, params)
        held = [
            np.asarray(l, np.float64)
            for l in jax.tree.leaves(state)
            if hasattr(l, "dtype") and jnp.issubdtype(l.dtype, jnp.inexact)
        ]
        for en, zh, ref in moments:
            for where, r in leaves(ref):
                same_shape = [l for l in held if l.shape == np.shape(r)]
                if not any(np.allclose(l, r, rtol=1e-4, atol=1e-7) for l in same_shape):
                    near = min(same_shape, key=lambda l: float(np.max(np.abs(l - r))), default=None)
                    yours = fmt(near) if near is not None else "nothing of that shape"
                    return (
                        f"at step {t} your state first departs from {algorithm} in {en} of params{where}: "
                        f"expected {fmt(r)}, the nearest your state holds is {yours}",
                        f"在第 {t} 步，你的状态首先在 params{where} 的{zh}上偏离了 {algorithm}："
                        f"应为 {fmt(r)}，你的状态里最接近的是 {yours}",
                    )
        right_en, right_zh = bilingual(right)
        look_en, look_zh = bilingual(look)
        for (where, w), u in zip(leaves(want), jax.tree.leaves(updates)):
            if not np.allclose(np.asarray(u, np.float64), w, rtol=1e-4, atol=1e-6):
                return (
                    f"at step {t} {right_en}, but updates{where} is {fmt(u)}, expected {fmt(w)}: {look_en}",
                    f"在第 {t} 步，{right_zh}，但 updates{where} 是 {fmt(u)}，应为 {fmt(w)}：{look_zh}",
                )
    return None


def state_follows_params(state: Any, params: Any, what: Label = "state") -> None:
    """Every floating leaf of an optimizer state shaped like a parameter has that parameter's
    dtype. Use params of distinct shapes and mixed dtypes (float32, bfloat16, float16): a state
    built with jnp.zeros(p.shape) has JAX's default float dtype (float32, float64 under
    JAX_ENABLE_X64) whatever the parameter, which only such a test sees."""
    en, zh = bilingual(what)
    by_shape: dict = {}
    for path, p in tree_flatten_with_path(params)[0]:
        by_shape.setdefault(np.shape(p), set()).add((keystr(path), str(jnp.result_type(p))))
    for path, leaf in tree_flatten_with_path(state)[0]:
        if not hasattr(leaf, "dtype") or not jnp.issubdtype(leaf.dtype, jnp.inexact):
            continue
        mirrors = by_shape.get(np.shape(leaf))
        if not mirrors or len({d for _, d in mirrors}) != 1:
            continue  # no parameter of this shape, or several of different dtypes: nothing to say
        where, dtype = sorted(mirrors)[0]
        if str(jnp.result_type(leaf)) != dtype:
            # The state follows the parameters in both modes: under JAX_ENABLE_X64 a float64 state
            # beside float32 params would promote them after one update, as float32 does bfloat16.
            default_en, default_zh = (
                ("float64 (JAX_ENABLE_X64 is on, as here)", "float64（这里 JAX_ENABLE_X64 已打开）")
                if x64_enabled()
                else ("float32", "float32")
            )
            fail(
                f"{en}{keystr(path)} is {type_of(leaf)}, but the parameter it mirrors, params{where}, is {dtype}: "
                "optimizer state must follow each parameter's dtype. Build it with jnp.zeros_like(p) (or "
                f"jnp.zeros(p.shape, p.dtype)), not jnp.zeros(p.shape), which is always {default_en}",
                f"{zh}{keystr(path)} 是 {type_of(leaf)}，但它对应的参数 params{where} 是 {dtype}："
                "优化器状态必须跟随每个参数的 dtype。请用 jnp.zeros_like(p)（或 jnp.zeros(p.shape, p.dtype)）构造，"
                f"不要用 jnp.zeros(p.shape)，它总是 {default_zh}",
            )


# How far past lr the edge's reference must reach: a "safety" clip of the update at any bound a
# learner writes (lr, 5 lr, 12 lr, 40 lr) is below it, so the clip shows as a wrong step.
EDGE_REACH = 50.0


def expect_steps_past_lr(
    opt: Any,
    lr: float,
    reference: Callable[[Any], Any],
    label: str,
    quiet_steps: int,
    stacked: bool = False,
    judged_from: int = 1,
) -> None:
    """The library's edge for every optimizer: `opt` (built with lr and hyperparameters where one
    update can exceed lr) run on gradients that jump after quiet_steps small ones, against
    `reference(grads_seq)`, its float64 updates. The reference must reach past EDGE_REACH x lr
    (else a clip at a bound above its reach would pass: adam's first edge reached 8.8 lr and an
    update clipped to 12 lr passed); a clip of the update, at any usual bound, fails here.
    stacked: the trajectory goes as one array per key, steps first (jumping_gradients), to
    `reference` and back: a reference that takes it so spares a long edge thousands of dicts.
    judged_from: the first step compared (expect_steps_beyond_lr), the jump always among them."""
    judged_from = min(judged_from, quiet_steps + 1)
    init, update = unpack(opt)
    grads_seq = jumping_gradients({"w": (3,), "b": (3,)}, quiet_steps, stacked=stacked)
    want = reference(grads_seq)
    assert largest_step(want, lr) > EDGE_REACH, f"the edge's reference never moves past {EDGE_REACH} x lr"
    params = as_float32({"w": np.zeros(3), "b": np.zeros(3)})
    got = run_updates_scanned(update, init, params, grads_seq)
    expect_steps_beyond_lr(got, want, lr, label, judged_from=judged_from)


def run_updates_scanned(update: Callable, init: Callable, params: Any, grads_seq: Any) -> Any:
    """run_updates(..., reorder=False) as one lax.scan over the stacked gradients: thousands of
    steps cost one compilation and microseconds each. A state whose types change between steps
    cannot be a scan carry (state-types names that): it is stepped one call at a time instead.
    Gradients given stacked (one array per key, steps first) give the updates stacked too."""
    given_stacked = isinstance(grads_seq, dict)
    stacked = {k: np.asarray(v, np.float32) for k, v in stacked_steps(grads_seq).items()}
    steps = len(next(iter(stacked.values())))

    def one_by_one() -> Any:
        trees = [{k: v[t] for k, v in stacked.items()} for t in range(steps)] if given_stacked else grads_seq
        out = run_updates(update, init, params, trees, reorder=False)
        return stacked_steps(out) if given_stacked else out

    def body(state, g):
        updates, new_state = update(g, state, params)
        return new_state, updates

    try:
        _, out = jax.jit(lambda s, gs: jax.lax.scan(body, s, gs))(init(params), stacked)
    except TypeError:
        return one_by_one()
    if not isinstance(out, dict) or set(out) != set(stacked):
        return one_by_one()
    out = {k: np.asarray(v, np.float64) for k, v in out.items()}
    if given_stacked:
        return out
    return [{k: v[t] for k, v in out.items()} for t in range(steps)]
