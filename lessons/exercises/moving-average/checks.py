"""The checks of `moving-average`: A running average with tuple state."""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from tutor.child.library import (
    call,
    check,
    close,
    device_rtol,
    expect,
    expect_no_hidden_state,
    expect_traces,
    fail,
    finite_twin,
    is_defined,
    keeps_globals,
    on_failure,
    returns,
    special_where,
    traced,
    type_of,
)


def leaves_text(tree):
    try:
        return "(" + ", ".join(f"{float(np.asarray(leaf)):g}" for leaf in jax.tree.leaves(tree)) + ")"
    except Exception:  # noqa: BLE001 - e.g. a donated, deleted buffer: shown as it is
        return repr(tree)[:80]


@check("defines")
def check_defines(update_moving_average):
    is_defined(update_moving_average=update_moving_average)


@check("initial-state", depends=["defines"])
def check_initial_state(learner):
    expect(
        hasattr(learner, "initial_state"),
        "your file does not define `initial_state` at module level",
        "你的文件没有在模块顶层定义 `initial_state`",
    )
    init = learner.initial_state
    leaves = jax.tree.leaves(init)
    expect(
        isinstance(init, (tuple, list)) and len(init) == 2 and len(leaves) == 2,
        f"initial_state should be a pair (sum, count), got {type(init).__name__}"
        + (f" with {len(init)} entries" if isinstance(init, (tuple, list)) else f" ({type_of(init)})"),
        f"initial_state 应当是二元组 (sum, count)，实际是 {type(init).__name__}"
        + (f"，含 {len(init)} 个元素" if isinstance(init, (tuple, list)) else f"({type_of(init)})"),
    )
    # Shape and value only: the dtypes are the learner's (float64 and int64 from jnp.array(0.0) and
    # jnp.array(0) under JAX_ENABLE_X64); jit-once judges that a step keeps whichever they are.
    for i, (label, label_zh) in enumerate([("sum", "总和"), ("count", "计数")]):
        expect(
            np.shape(init[i]) == (),
            f"initial_state[{i}] ({label}) should be a scalar, got shape {np.shape(init[i])}",
            f"initial_state[{i}]（{label_zh}）应当是标量，实际形状为 {np.shape(init[i])}",
        )
        close(init[i], np.float64(0), what=(f"initial_state[{i}] ({label})", f"initial_state[{i}]（{label_zh}）"))


@check("state-structure", depends=["initial-state"])
def check_state_structure(initial_state, update_moving_average):
    like = jax.tree.structure(initial_state)
    state = jax.tree.unflatten(like, [jnp.float32(0.0), jnp.int32(0)])
    out = call(update_moving_average, state, jnp.float32(2.0), label="update_moving_average((0, 0), 2.0)")
    with on_failure(
        "End it with `return (new_sum, new_count), average`", "函数最后应写 `return (new_sum, new_count), average`"
    ):
        new_state, average = returns(out, ("new_state", "average"), "update_moving_average")
    expect(
        isinstance(new_state, (tuple, list)) and len(jax.tree.leaves(new_state)) == 2,
        f"the first element (new_state) should be a (sum, count) pair, got {type(new_state).__name__} "
        f"({type_of(new_state)}): return the state first, then the average",
        f"第一个元素 new_state 应当是二元组 (sum, count)，实际是 {type(new_state).__name__}"
        f"({type_of(new_state)})：先返回状态，再返回平均值",
    )
    got_def, want_def = jax.tree.structure(new_state), jax.tree.structure(state)
    expect(
        got_def == want_def,
        f"new_state is a {type(new_state).__name__} ({got_def}), but the state passed in was a "
        f"{type(state).__name__} ({want_def}): return the same kind of container you received, "
        "otherwise the next jitted step sees a new structure and compiles again",
        f"new_state 是 {type(new_state).__name__}({got_def})，但传入的状态是 {type(state).__name__}"
        f"({want_def})：返回与收到的相同类型的容器，否则下一步 jit 会看到新的结构而重新编译",
    )
    expect(
        np.shape(average) == (),
        f"the second element (average) should be a scalar, got shape {np.shape(average)}",
        f"第二个元素 average 应当是标量，实际形状为 {np.shape(average)}",
    )


@check("input-untouched", depends=["state-structure"])
def check_input_untouched(learner):
    like = jax.tree.structure(learner.initial_state)
    state = jax.tree.unflatten(like, [jnp.float32(6.0), jnp.int32(2)])
    kept = jax.tree.leaves(state)
    with keeps_globals(
        learner,
        ("calling update_moving_average", "调用 update_moving_average"),
        advice=(
            "The state must travel only through the arguments and the return value; under jax.jit "
            "whatever you store there is a tracer that escapes the trace",
            "状态只能通过参数和返回值传递；在 jax.jit 下，存到那里的是一个逃出追踪的追踪值",
        ),
    ):
        new_state, _ = call(
            learner.update_moving_average, state, jnp.float32(6.0), label="update_moving_average((6, 2), 6.0)"
        )
        now = jax.tree.leaves(state)
        if not (len(now) == len(kept) and all(a is b for a, b in zip(now, kept))):
            fail(
                f"after update_moving_average(state, 6.0) the caller's state is {leaves_text(state)}, it was (6, 2): "
                "your function changed its input in place. Build a new pair instead: `(total + new_value, count + 1)`",
                f"调用 update_moving_average(state, 6.0) 之后，调用方的 state 变成了 {leaves_text(state)}，原来是 (6, 2)："
                "你的函数原地修改了它的输入。应当构造一个新的二元组：`(total + new_value, count + 1)`",
            )
        expect(
            new_state is not state,
            "update_moving_average returned the very container it was given; return a new (sum, count) pair",
            "update_moving_average 返回的就是传入的那个容器；应当返回一个新的 (sum, count) 二元组",
        )
    fresh = jax.tree.unflatten(like, [jnp.float32(6.0), jnp.int32(2)])
    expect_no_hidden_state(
        learner, learner.update_moving_average, fresh, jnp.float32(6.0), label="update_moving_average((6, 2), 6.0)"
    )


@check("averages", depends=["state-structure"])
def check_averages(initial_state, update_moving_average):
    like = jax.tree.structure(initial_state)
    # zeros and negatives too: a count of nonzero values, or of positive ones, changes the answer
    for data in ([2.0, 4.0, 6.0, 8.0, 10.0], [1.5, -0.5, 3.25], [0.0, -3.0, 0.0, 7.5]):
        ref_sum, ref_count = 0.0, 0
        for v in data:
            state = jax.tree.unflatten(like, [jnp.float32(ref_sum), jnp.int32(ref_count)])
            before = f"({ref_sum:g}, {ref_count})"
            _, average = call(
                update_moving_average, state, jnp.float32(v), label=f"update_moving_average({before}, {v:g})"
            )
            ref_sum, ref_count = ref_sum + v, ref_count + 1
            close(
                average,
                np.float64(ref_sum) / np.float64(ref_count),
                what=(
                    f"average returned for state {before} and new_value {v:g}",
                    f"状态为 {before}、new_value 为 {v:g} 时返回的平均值",
                ),
            )

    # inf and NaN, where the task defines the average as for any value (sum / count, from a count
    # of 0): judged where the same stream with 5.0 in their place comes out right.
    for data in ([2.0, np.inf, 4.0], [1.0, np.nan, 3.0]):
        if _averages(update_moving_average, like, finite_twin(data)) is not None:
            continue  # wrong without the special values too: named above, or by state-values
        _averages(update_moving_average, like, np.asarray(data), judge=True)


def _averages(update_moving_average, like, data, judge=False):
    """Step a stream from (0, 0) and compare each average with sum / count: the first step that
    differs (None if none), or, with `judge`, a failure naming it with inf and NaN compared exactly."""
    state = jax.tree.unflatten(like, [jnp.float32(0.0), jnp.int32(0)])
    for k, v in enumerate(data, start=1):
        state, average = call(
            update_moving_average, state, jnp.float32(v), label=f"update_moving_average(state, {v:g})"
        )
        want = data[:k].sum() / k
        if judge:
            what = (f"the average after {data[:k].tolist()}", f"输入 {data[:k].tolist()} 之后的平均值")
            special_where(average, want, what, SPECIALS_DEFINED)
        elif not np.isclose(float(np.asarray(average, np.float64)), want, rtol=device_rtol(1e-5), atol=1e-6):
            return k
    return None


SPECIALS_DEFINED = (
    "The average is the sum divided by the count, whatever the values: an inf in the stream makes it inf, a NaN "
    "makes it NaN, from there on, so that the caller sees the bad value. Cleaning the value first "
    "(jnp.nan_to_num, a clip, skipping it) averages a stream that was not given",
    "平均值就是总和除以个数，不管值是什么：数据流里出现 inf，从那里起平均值就是 inf；出现 NaN 就是 NaN，"
    "调用方才能发现坏值。先“清洗”这个值（jnp.nan_to_num、截断、跳过）算出来的是另一条数据流的平均值",
)


@check("state-values", depends=["state-structure"])
def check_state_values(initial_state, update_moving_average):
    # From the learner's own initial_state (its dtypes are the learner's choice), copied: a step
    # that donates its input must not consume the module's state.
    state = jax.tree.map(lambda a: jnp.array(a, copy=True) if isinstance(a, jax.Array) else a, initial_state)
    ref_sum, ref_count = np.float64(0), np.float64(0)
    # A zero, a negative and a value past float16's range (65504): a sum kept in low precision shows.
    for step, v in enumerate([2.0, 4.0, 0.0, -6.0, 8.0, 70000.0, 0.25, 10.0], start=1):
        state, _ = call(update_moving_average, state, jnp.float32(v), label=f"update_moving_average, step {step}")
        ref_sum, ref_count = ref_sum + v, ref_count + 1
        got_sum, got_count = jax.tree.leaves(state)
        close(
            got_sum,
            ref_sum,
            what=(f"sum in the state after step {step} (value {v:g})", f"第 {step} 步（输入 {v:g}）之后状态中的总和"),
        )
        close(
            got_count,
            ref_count,
            what=(f"count in the state after step {step} (value {v:g})", f"第 {step} 步（输入 {v:g}）之后状态中的计数"),
        )


@check("jit-once", depends=["state-values", "averages"])
def check_jit_once(initial_state, update_moving_average):
    # a copy for the long stream below, taken before a donating step consumes initial_state
    start = jax.tree.map(lambda a: jnp.array(a, copy=True) if isinstance(a, jax.Array) else a, initial_state)
    step = traced(update_moving_average, "update_moving_average")
    state = initial_state
    data = jnp.asarray([2.0, 4.0, 6.0, 8.0, 10.0], dtype=jnp.float32)
    for i in range(5):
        state, average = call(step, state, data[i], label=f"jitted update_moving_average, step {i + 1}")
    close(average, np.float64(30.0) / 5, what=("average after 5 jitted steps", "jit 下走 5 步之后的平均值"))
    expect_traces(step, 1, calls=5)
    # A long stream from the learner's initial_state, past what a narrow count holds (int8 wraps
    # at 128, uint8 at 256, a float16 count stops at 2048, int16 wraps at 32768); the values keep
    # a float32 sum exact (multiples of 0.5 below 2**23).
    n = 33_000
    values = (np.arange(n) % 7 * 0.5).astype(np.float32)
    final, averages = lax.scan(update_moving_average, start, jnp.asarray(values))
    got_sum, got_count = jax.tree.leaves(final)
    edge = (
        f"a stream of {n} values run with lax.scan from your initial_state (an int8 count wraps at 128, uint8 at "
        "256, int16 at 32768, a float16 count stops at 2048: keep the count in int32)",
        f"用 lax.scan 从你的 initial_state 出发处理 {n} 个值的数据流（int8 计数在 128 处回绕，uint8 在 256，"
        "int16 在 32768，float16 计数停在 2048：请用 int32 保存计数）",
    )
    close(got_count, np.float64(n), what=(f"count after {edge[0]}", f"{edge[1]}之后的计数"))
    close(got_sum, np.float64(values.astype(np.float64).sum()), what=(f"sum after {edge[0]}", f"{edge[1]}之后的总和"))
    want = np.cumsum(values.astype(np.float64)) / np.arange(1, n + 1)
    close(averages, want, what=(f"averages along {edge[0]}", f"{edge[1]}时的各个平均值"), rtol=1e-5, atol=1e-5)
