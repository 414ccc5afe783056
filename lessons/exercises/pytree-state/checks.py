"""The checks of `pytree-state`: A state container that jit understands."""

import jax
import jax.numpy as jnp
import numpy as np

from tutor.child.library import (
    call,
    check,
    close,
    expect,
    expect_no_hidden_state,
    expect_traces,
    fail,
    global_changes,
    global_snapshot,
    is_defined,
    keeps_globals,
    on_failure,
    traced,
    type_of,
)


@check("defines")
def check_defines(StateHolder, update_state):
    is_defined(StateHolder=StateHolder, update_state=update_state)


@check("new-value", depends=["defines"])
def check_new_value(StateHolder, update_state):
    cases = [(10.0, 5.0), (-2.5, -0.5), (4.0, 0.0), ([1.0, 2.0, 3.0], 0.25), ([1.0, -1.0], -3.0)]
    for start, inc in cases:
        state = StateHolder(jnp.asarray(start, dtype=jnp.float32))
        out = call(update_state, state, jnp.float32(inc), label=f"update_state(StateHolder({start}), {inc})")
        several = isinstance(out, (tuple, list)) and not isinstance(out, StateHolder)
        got_en = (
            f"a {type(out).__name__} of {len(out)} value(s)" if several else f"{type(out).__name__} ({type_of(out)})"
        )
        got_zh = f"含 {len(out)} 个值的 {type(out).__name__}" if several else f"{type(out).__name__}({type_of(out)})"
        expect(
            isinstance(out, StateHolder),
            f"update_state(StateHolder({start}), {inc}) returned {got_en}, expected a new StateHolder. "
            "Wrap the result: `return StateHolder(state.value + increment)`; without the container the next "
            "step has no `.value` to read",
            f"update_state(StateHolder({start}), {inc}) 返回了 {got_zh}，应当返回一个新的 StateHolder。"
            "把结果装回容器：`return StateHolder(state.value + increment)`；没有容器，下一步就读不到 `.value`",
        )
        with on_failure(
            "The new value is `state.value + increment`, for any increment: zero and negative ones included",
            "新值就是 `state.value + increment`，对任何 increment 都一样，包括 0 和负数",
        ):
            close(
                out.value,
                np.asarray(start, dtype=np.float64) + inc,
                what=f"update_state(StateHolder({start}), {inc}).value",
            )
    # Past float16's largest value (65504) and finer than bfloat16's 8 significant bits: a sum taken
    # in a narrow dtype and cast back loses it, while float32 holds both exactly.
    start, inc = [70000.0, 1000.5], 0.25
    out = call(
        update_state,
        StateHolder(jnp.asarray(start, jnp.float32)),
        jnp.float32(inc),
        label=f"update_state(StateHolder({start}), {inc})",
    )
    close(
        out.value,
        np.asarray(start) + inc,
        what=(
            f"update_state(StateHolder({start}), {inc}).value: 70000 is past float16's largest value 65504, and "
            "1000.75 needs more than bfloat16's 8 significant bits; add in value's own dtype (float32 here)",
            f"update_state(StateHolder({start}), {inc}).value：70000 超出了 float16 的最大值 65504，"
            "1000.75 需要的有效位数超过 bfloat16 的 8 位；请在 value 自己的 dtype（这里是 float32）里相加",
        ),
    )


@check("input-untouched", depends=["new-value"])
def check_input_untouched(learner):
    state = learner.StateHolder(jnp.asarray([1.0, 2.0], dtype=jnp.float32))
    original_value = state.value
    snapshot = np.array(original_value, dtype=np.float64)
    attrs_before = global_snapshot(state)  # its attributes, if it has any (a NamedTuple has none)
    with keeps_globals(
        learner,
        ("calling update_state", "调用 update_state"),
        advice=(
            "The state must travel only through the arguments and the return value; under jax.jit "
            "whatever you store there is a tracer that escapes the trace",
            "状态只能通过参数和返回值传递；在 jax.jit 下，存到那里的是一个逃出追踪的追踪值",
        ),
    ):
        out = call(learner.update_state, state, jnp.float32(3.0), label="update_state(StateHolder([1, 2]), 3.0)")
        expect(
            state.value is original_value and np.array_equal(np.asarray(state.value, dtype=np.float64), snapshot),
            f"after update_state(state, 3.0) the caller's state.value is {np.asarray(state.value).tolist()}, "
            "it was [1.0, 2.0]: update_state modified its input",
            f"调用 update_state(state, 3.0) 之后，调用方的 state.value 变成了 {np.asarray(state.value).tolist()}，"
            "原来是 [1.0, 2.0]：update_state 修改了它的输入",
        )
        expect(
            out is not state,
            "update_state returned the very object it was given; return a new StateHolder instead",
            "update_state 返回的就是传入的那个对象；应当返回一个新的 StateHolder",
        )
        touched = global_changes(state, attrs_before).names
        expect(
            not touched,
            f"update_state(state, 3.0) changed the caller's StateHolder: attribute(s) {', '.join(touched)} "
            "were set, removed or changed in place",
            f"update_state(state, 3.0) 改动了调用方的 StateHolder：属性 {'、'.join(touched)} 被设置、删除或原地修改了",
        )
    fresh = learner.StateHolder(jnp.asarray([1.0, 2.0], dtype=jnp.float32))
    expect_no_hidden_state(
        learner, learner.update_state, fresh, jnp.float32(3.0), label="update_state(StateHolder([1, 2]), 3.0)"
    )


@check("is-pytree", depends=["defines"])
def check_is_pytree(StateHolder):
    marker = jnp.asarray([3.0, 1.0, 4.0], dtype=jnp.float32)
    holder = StateHolder(marker)
    leaves, treedef = jax.tree.flatten(holder)
    expect(
        not any(isinstance(leaf, StateHolder) for leaf in leaves),
        f"jax.tree.leaves(StateHolder(x)) returned the StateHolder object itself as a single leaf "
        f"(PyTree structure {treedef}): StateHolder is not registered as a PyTree, so jax.jit will reject it with a TypeError",
        f"jax.tree.leaves(StateHolder(x)) 把 StateHolder 对象本身当作唯一的叶子返回"
        f"（PyTree 结构为 {treedef}）：StateHolder 没有注册为 PyTree，jax.jit 会以 TypeError 拒绝它",
    )
    found = [leaf for leaf in leaves if np.shape(leaf) == (3,) and np.allclose(np.asarray(leaf), [3.0, 1.0, 4.0])]
    expect(
        found,
        f"jax.tree.leaves(StateHolder(x)) found {len(leaves)} leaves, none of them x: `value` is not a data field "
        f"(PyTree structure {treedef}). Is it declared static / meta?",
        f"jax.tree.leaves(StateHolder(x)) 找到 {len(leaves)} 个叶子，其中没有 x：`value` 不是数据字段"
        f"（PyTree 结构为 {treedef}）。它是否被声明成了静态字段 / meta 字段？",
    )
    rebuilt = jax.tree.unflatten(treedef, leaves)
    expect(
        isinstance(rebuilt, StateHolder),
        f"rebuilding from the leaves gave {type(rebuilt).__name__}, not a StateHolder: check tree_unflatten",
        f"用叶子重建得到的是 {type(rebuilt).__name__}，不是 StateHolder：请检查 tree_unflatten",
    )
    inner = jax.tree.structure(rebuilt.value)
    expect(
        inner == jax.tree.structure(marker),
        f"StateHolder rebuilt from its leaves has a .value of PyTree structure {inner}, not the single array "
        "it was built with: tree_flatten and tree_unflatten do not mirror each other. Flatten to the leaves "
        "themselves, `return (self.value,), None`, and rebuild with `cls(*children)`",
        f"用叶子重建的 StateHolder 的 .value 的 PyTree 结构是 {inner}，而不是构造时的那个数组："
        "tree_flatten 和 tree_unflatten 没有互为逆操作。展平时直接返回叶子 `return (self.value,), None`，"
        "重建时用 `cls(*children)`",
    )
    close(
        rebuilt.value,
        np.asarray([3.0, 1.0, 4.0]),
        what=("StateHolder rebuilt from its leaves, .value", "用叶子重建的 StateHolder 的 .value"),
    )


@check("jit-steps", depends=["new-value"])
def check_jit_steps(update_state, StateHolder, __file__):
    import traceback

    step = traced(update_state, "update_state")
    original = StateHolder(jnp.float32(10.0))
    state, total = original, 10.0
    for i, inc in enumerate([5.0, 3.0, 2.0, 1.0], start=1):
        try:
            state = step(state, jnp.float32(inc))
        except Exception as exc:
            frames = traceback.extract_tb(exc.__traceback__)
            if any(f.filename == __file__ for f in frames):
                raise
            first = str(exc).strip().splitlines()[0].rstrip(".") if str(exc).strip() else ""
            fail(
                f"jax.jit could not take a StateHolder argument (step {i}): {type(exc).__name__}: {first}. "
                "jit accepts only arrays and registered PyTrees",
                f"jax.jit 无法接受 StateHolder 参数（第 {i} 步）：{type(exc).__name__}：{first}。"
                "jit 只接受数组和注册过的 PyTree",
            )
        total += inc
        expect(
            isinstance(state, StateHolder),
            f"jitted update_state returned {type(state).__name__} at step {i}, expected a StateHolder",
            f"jit 后的 update_state 在第 {i} 步返回了 {type(state).__name__}，应为 StateHolder",
        )
        expect(
            not isinstance(state.value, jax.core.Tracer),
            f"after jitted step {i}, value is a tracer that leaked out of jit: JAX treated `value` as static "
            "metadata instead of a leaf",
            f"jit 第 {i} 步之后，value 是一个从 jit 里泄漏出来的追踪值：JAX 把 `value` 当成了静态元数据，而不是叶子",
        )
        close(state.value, np.float64(total), what=(f"value after jitted step {i}", f"jit 第 {i} 步之后的 value"))
    close(
        original.value,
        np.float64(10.0),
        what=(
            "the caller's original StateHolder after 4 jitted steps, .value",
            "jit 走完 4 步之后，调用方原来那个 StateHolder 的 .value",
        ),
    )
    expect_traces(step, 1, calls=4)
