"""The checks of `counter-jit`: A jitted counter with explicit state."""

import jax.numpy as jnp
import numpy as np

from tutor.child.library import (
    call,
    check,
    close,
    expect,
    expect_no_hidden_state,
    expect_traces,
    is_defined,
    keeps_globals,
    returns,
    traced,
    type_of,
    x64_note,
)


@check("defines")
def check_defines(update_counter):
    is_defined(update_counter=update_counter)


@check("returns-pair", depends=["defines"])
def check_returns_pair(update_counter):
    out = call(update_counter, jnp.int32(0), jnp.int32(7), label="update_counter(0, 7)")
    returns(out, ("new_count", "increment"), "update_counter(0, 7)")


@check("counts-up", depends=["returns-pair"])
def check_counts_up(update_counter):
    count = jnp.int32(0)
    for step, inc in enumerate([0, 3, -1, 10, -5, 2]):
        new, back = call(update_counter, count, jnp.int32(inc), label=f"update_counter(count, {inc})")
        expect(
            not (
                inc != step + 1 and np.array_equal(np.asarray(new), inc) and np.array_equal(np.asarray(back), step + 1)
            ),
            f"update_counter({step}, {inc}) returned ({inc}, {step + 1}): the pair is swapped. The new count "
            "comes first and the increment second: `return count + 1, increment`",
            f"update_counter({step}, {inc}) 返回了 ({inc}, {step + 1})：二元组的顺序反了。新的计数在前，"
            "increment 在后：`return count + 1, increment`",
        )
        count = new
        close(
            count,
            np.float64(step + 1),
            what=(
                f"count after call {step + 1} (increment={inc})",
                f"第 {step + 1} 次调用（increment={inc}）之后的计数",
            ),
        )

    # A count below zero (a countdown started at -3) counts up through zero like any other.
    count = jnp.int32(-3)
    for step, inc in enumerate([1, 0, 2, 5]):
        count, _ = call(update_counter, count, jnp.int32(inc), label=f"update_counter({step - 3}, {inc})")
        close(
            count,
            np.float64(step - 2),
            what=(
                f"count after update_counter({step - 3}, {inc}), on a count that started below zero at -3",
                f"从低于零的 -3 开始计数时，update_counter({step - 3}, {inc}) 之后的计数",
            ),
        )

    # A count that has run long: past int16 (wraps after 32767) and past the integers float32 holds
    # exactly (2**24 + 1 rounds to 2**24), so a count kept narrow or sent through a float shows. A
    # count that comes back as a float is jit-once's to name (its dtype changed between steps).
    start = 2**24 + 1
    count, _ = call(update_counter, jnp.int32(start), jnp.int32(1), label=f"update_counter({start}, 1)")
    if np.issubdtype(np.asarray(count).dtype, np.integer):
        got = int(np.asarray(count))
        expect(
            got == start + 1,
            f"update_counter({start}, 1) returned the count {got}, expected {start + 1}: on a count that has run "
            "long, an int16 count wraps after 32767 and one sent through float32 is not exact past 2**24. Add 1 "
            "to the count in its own integer dtype",
            f"update_counter({start}, 1) 返回的计数是 {got}，应为 {start + 1}：对于已经跑了很久的计数，int16 计数在 "
            "32767 之后回绕，经过 float32 的计数超过 2**24 就不再精确。请在计数自己的整数 dtype 里加 1",
        )


@check("increment-passthrough", depends=["returns-pair"])
def check_increment_passthrough(update_counter):
    for count, inc in [(0, 0), (4, 3), (9, -2), (2, 2.5)]:
        given = jnp.float32(inc) if isinstance(inc, float) else jnp.int32(inc)
        _, back = call(update_counter, jnp.int32(count), given, label=f"update_counter({count}, {inc})")
        close(
            back,
            np.float64(inc),
            what=(
                f"increment returned by update_counter({count}, {inc})",
                f"update_counter({count}, {inc}) 返回的 increment",
            ),
        )
        x64_en, x64_zh = x64_note(back, expected=given)
        expect(
            type_of(back) == type_of(given),
            f"update_counter({count}, {inc}) got an increment of type {type_of(given)} "
            f"and returned it as {type_of(back)}: it must come back unchanged, dtype included{x64_en}",
            f"update_counter({count}, {inc}) 收到的 increment 类型是 {type_of(given)}，"
            f"返回时却成了 {type_of(back)}：它必须原样返回，dtype 也不能变{x64_zh}",
        )


@check("pure", depends=["returns-pair"])
def check_pure(learner):
    with keeps_globals(
        learner,
        ("calling update_counter(4, 1) twice", "调用两次 update_counter(4, 1)"),
        advice=(
            "The count must travel only through the arguments and the return value; under jax.jit "
            "whatever you store there is a tracer that escapes the trace",
            "计数只能通过参数和返回值传递；在 jax.jit 下，存到那里的是一个逃出追踪的追踪值",
        ),
    ):
        first = call(learner.update_counter, jnp.int32(4), jnp.int32(1), label="update_counter(4, 1)")[0]
        second = call(learner.update_counter, jnp.int32(4), jnp.int32(1), label="update_counter(4, 1)")[0]
        expect(
            np.array_equal(np.asarray(first), np.asarray(second)),
            f"update_counter(4, 1) gave {first} the first time and {second} the second time: "
            "the result depends on something other than the arguments",
            f"update_counter(4, 1) 第一次返回 {first}，第二次返回 {second}：结果依赖于参数以外的东西",
        )
    expect_no_hidden_state(learner, learner.update_counter, jnp.int32(4), jnp.int32(1), label="update_counter(4, 1)")


@check("jit-once", depends=["counts-up"])
def check_jit_once(update_counter):
    step = traced(update_counter, "update_counter")
    count = jnp.int32(0)
    for i in range(5):
        count, back = call(step, count, jnp.int32(i), label=f"jitted update_counter, call {i + 1}")
        close(
            back,
            np.float64(i),
            what=(f"increment returned by jitted call {i + 1}", f"jit 后第 {i + 1} 次调用返回的 increment"),
        )
    close(count, np.float64(5), what=("count after 5 jitted calls", "jit 后调用 5 次之后的计数"))
    expect_traces(step, 1, calls=5)
