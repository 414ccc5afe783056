"""The checks of `scan-steps`: A jitted loop whose length you choose per call."""

import jax
import jax.numpy as jnp
import numpy as np

from tutor.child.library import (
    call,
    check,
    close,
    expect,
    expect_no_hidden_state,
    expect_one_program,
    expect_programs_reused,
    fail,
    is_defined,
    is_jitted,
    primitive_counts,
)


def final_state(got, call, call_zh=None, steps=None):
    """The returned final state as a NumPy array, after checking it is one scalar like init_state."""
    call_zh = call_zh or call
    if got is None:
        fail(
            f"{call} returned None; return the final state (the carry after the last step)",
            f"{call_zh} 返回了 None；应返回最终状态（最后一步之后的 carry）",
        )
    if isinstance(got, (tuple, list)):
        fail(
            f"{call} returned a {type(got).__name__} of {len(got)} items; return only the final state. "
            "`lax.scan` returns a pair (final_carry, ys): unpack it with `final, _ = lax.scan(...)`",
            f"{call_zh} 返回了含 {len(got)} 个元素的 {type(got).__name__}；只应返回最终状态。"
            "`lax.scan` 返回二元组 (final_carry, ys)：用 `final, _ = lax.scan(...)` 解包",
        )
    arr = np.asarray(got)
    if arr.shape != ():
        if steps is not None and arr.shape[:1] == (steps,):
            fail(
                f"{call} returned an array of shape {arr.shape}, one value per step: that is scan's stacked `ys`, "
                "not the final carry. Return the first element of scan's result, `final, _ = lax.scan(...)`",
                f"{call_zh} 返回了形状为 {arr.shape} 的数组，每步一个值：这是 scan 堆叠起来的 `ys`，"
                "而不是最终的 carry。应返回 scan 结果的第一个元素，`final, _ = lax.scan(...)`",
            )
        fail(
            f"{call} returned an array of shape {arr.shape}; the state is a scalar like init_state (shape ())",
            f"{call_zh} 返回了形状为 {arr.shape} 的数组；状态应与 init_state 一样是标量（形状 ()）",
        )
    return arr


@check("defines")
def check_defines(run_scan_jitted):
    is_defined(run_scan_jitted=run_scan_jitted)


@check("static-steps", depends=["defines"])
def check_static_steps(run_scan_jitted):
    try:
        run_scan_jitted(jnp.float32(0.0), 3)
    except TypeError as exc:
        kinds = {c.__name__ for c in type(exc).__mro__}
        if not kinds & {"ConcretizationTypeError", "TracerIntegerConversionError"}:
            raise
        name = type(exc).__name__
        fail(
            f"run_scan_jitted(0.0, 3) raised {name}: inside the jitted function `steps` is a tracer "
            "(an abstract int32[] without a value), but scan's `length` (or Python's `range`) needs a "
            "concrete Python int, because the number of steps fixes the shape of the compiled loop. "
            "A traced steps cannot be a scan length.",
            f"run_scan_jitted(0.0, 3) 抛出了 {name}：在 jit 编译的函数里，`steps` 是一个追踪值"
            "（只有 int32[] 这样的抽象类型，没有具体数值），而 scan 的 `length`（或 Python 的 `range`）"
            "需要具体的 Python 整数，因为步数决定了编译出的循环的形状。被追踪的 steps 不能当作 scan 的长度。",
        )
    except ValueError as exc:
        if "Non-hashable static arguments" not in str(exc):
            raise
        fail(
            "run_scan_jitted(jnp.float32(0.0), 3) raised ValueError (non-hashable static argument): the array "
            "`init_state` was passed to an argument marked static, and a static argument must be a hashable "
            "Python value. The static one should be `steps`: `static_argnums` counts from 0, so steps is "
            '`static_argnums=1` (or write `static_argnames="steps"`)',
            "run_scan_jitted(jnp.float32(0.0), 3) 抛出 ValueError（静态参数不可哈希）：数组 `init_state` "
            "被传给了标成静态的参数，而静态参数必须是可哈希的 Python 值。应当设为静态的是 `steps`："
            '`static_argnums` 从 0 开始数，steps 是 `static_argnums=1`（或写 `static_argnames="steps"`）',
        )


@check("values", depends=["static-steps"])
def check_values(run_scan_jitted):
    earlier = [3]  # the previous check called run_scan_jitted(0.0, 3)
    # 300 and 2100 steps: past 256 and 2048, where a count carried in bfloat16 or float16 stops
    # growing (x + 1 rounds back to x); float32 holds every one of these sums exactly.
    long = [(0.0, 300), (-5.0, 2100)]
    for init, steps in [(1.0, 0), (0.0, 1), (0.0, 3), (0.0, 10), (2.5, 3), (-4.0, 10), (1.5, 1), *long]:
        got = run_scan_jitted(jnp.float32(init), steps)
        g = np.asarray(final_state(got, f"run_scan_jitted({init}, {steps})", steps=steps), dtype=np.float64)
        want = np.float64(init) + steps
        for narrow in ("bfloat16", "float16") if (init, steps) in long else ():
            expect(
                not (np.isfinite(g) and g != want and g == counted_in(narrow, init, steps)),
                f"run_scan_jitted({init}, {steps}) returned {float(g):g}, expected {want:g}: exactly what adding 1 "
                f"in {narrow} gives, which stops growing once x + 1 rounds back to x ({narrow} holds every integer "
                f"only up to {2**8 if narrow == 'bfloat16' else 2**11}). Carry the state in its own dtype "
                "(float32 here): no cast to a narrower float inside the loop",
                f"run_scan_jitted({init}, {steps}) 返回 {float(g):g}，应为 {want:g}：这正是用 {narrow} 逐次加 1 "
                f"的结果，一旦 x + 1 舍入回 x 就不再增长（{narrow} 只能精确表示到 "
                f"{2**8 if narrow == 'bfloat16' else 2**11} 的每个整数）。请让状态保持自己的 dtype（这里是 float32）："
                "不要在循环里转换成更窄的浮点类型",
            )
        if np.isfinite(g) and abs(g - want) > 1e-4:
            ran = float(g) - init
            whole = abs(ran - round(ran)) < 1e-4
            odd = whole and steps % 2 == 1 and round(ran) == steps - 1
            if odd and _drops_odd_step(run_scan_jitted, init, steps, earlier):
                fail(
                    f"run_scan_jitted({init}, {steps}) returned {float(g):g}, expected {want:g}: the loop body ran "
                    f"{steps - 1} times for an odd steps = {steps}, one short, as a loop that takes two steps per "
                    "iteration over steps // 2 iterations does: the odd step is dropped. Run the body exactly steps "
                    "times (`length=steps`), or add the remaining step when steps is odd",
                    f"run_scan_jitted({init}, {steps}) 返回 {float(g):g}，应为 {want:g}：steps = {steps} 是奇数，"
                    f"循环体却只执行了 {steps - 1} 次，少了一次，就像每次迭代走两步、共迭代 steps // 2 次的循环那样："
                    "奇数时最后一步被丢掉了。请让循环体恰好执行 steps 次（`length=steps`），或在 steps 为奇数时补上剩下的一步",
                )
            if whole and round(ran) in earlier:
                fail(
                    f"run_scan_jitted({init}, {steps}) returned {float(g):g}, expected {want:g}: the loop body ran "
                    f"{round(ran)} times, the steps of an earlier call, so a loop compiled for an old steps "
                    "value was reused",
                    f"run_scan_jitted({init}, {steps}) 返回 {float(g):g}，应为 {want:g}：循环体执行了 {round(ran)} 次，"
                    "正是之前某次调用的 steps，说明复用了为旧 steps 编译的循环",
                )
            if abs(ran - round(ran)) < 1e-4:
                fail(
                    f"run_scan_jitted({init}, {steps}) returned {float(g):g}, expected {want:g}: "
                    f"the loop body ran {round(ran)} time{'' if round(ran) == 1 else 's'} instead of {steps}",
                    f"run_scan_jitted({init}, {steps}) 返回 {float(g):g}，应为 {want:g}："
                    f"循环体执行了 {round(ran)} 次，而不是 {steps} 次",
                )
        close(got, want, what=f"run_scan_jitted({init}, {steps})")
        earlier.append(steps)


def _drops_odd_step(fn, init: float, steps: int, earlier: list[int]) -> bool:
    """Whether an odd steps value never seen before runs one step short too: the loop drops the odd
    step by itself (two steps per iteration), not by reusing a loop compiled for an earlier value."""
    other = steps + 2
    while other in earlier:
        other += 2
    ran = float(np.asarray(fn(jnp.float32(init), other), np.float64)) - init
    return abs(ran - (other - 1)) < 1e-4


def counted_in(dtype: str, init: float, steps: int) -> float:
    """init + 1 + 1 + ... (steps times) with every sum rounded to dtype, as a loop in it would."""
    kind = jnp.dtype(dtype).type
    x, one = kind(init), kind(1)
    for _ in range(steps):
        x = kind(x + one)
    return float(x)


@check("int-state", depends=["values"])
def check_int_state(run_scan_jitted):
    # 2**24 + 1: past the integers float32 holds exactly, so a loop that counts in float32 and
    # casts back loses the count.
    for init, steps in [(7, 3), (-2, 10), (0, 1), (2**24 + 1, 3)]:
        try:
            got = run_scan_jitted(jnp.int32(init), steps)
        except TypeError as exc:
            if "carry" not in str(exc):
                raise
            fail(
                f"run_scan_jitted(int32 {init}, {steps}) raised TypeError: the loop carry changed type "
                f"(an int32 state came back as a float). {str(exc).splitlines()[0]}",
                f"run_scan_jitted(int32 {init}, {steps}) 抛出 TypeError：循环的 carry 改变了类型"
                f"（int32 状态变成了浮点数）。{str(exc).splitlines()[0]}",
            )
        # An integer of any width: int64 is what the learner's mode gives under JAX_ENABLE_X64.
        kind = final_state(got, f"run_scan_jitted(int32 {init}, {steps})", steps=steps).dtype
        expect(
            np.issubdtype(kind, np.integer),
            f"run_scan_jitted(int32 {init}, {steps}) returned dtype {kind}: an integer state should stay an integer",
            f"run_scan_jitted(int32 {init}, {steps}) 返回的 dtype 是 {kind}：整数状态应保持为整数",
        )
        edge = " (past 2**24, where float32 stops holding every integer)" if init > 2**24 else ""
        edge_zh = "（超过 2**24，float32 从这里起无法精确表示每个整数）" if init > 2**24 else ""
        close(
            got,
            np.float64(init + steps),
            what=(f"run_scan_jitted(int32 {init}, {steps}){edge}", f"run_scan_jitted(int32 {init}, {steps}){edge_zh}"),
        )


@check("new-steps", depends=["static-steps"])
def check_new_steps(run_scan_jitted):
    for steps in [4, 6, 4, 2, 9, 6]:
        got = run_scan_jitted(jnp.float32(1.0), steps)
        final_state(got, f"run_scan_jitted(1.0, {steps})", steps=steps)
        close(
            got,
            np.float64(1.0 + steps),
            what=(
                f"run_scan_jitted(1.0, {steps}) in the sequence of steps 4, 6, 4, 2, 9, 6",
                f"按 4、6、4、2、9、6 的顺序调用时，run_scan_jitted(1.0, {steps})",
            ),
        )


@check("jitted", depends=["static-steps"])
def check_jitted(run_scan_jitted):
    fn = run_scan_jitted
    if not is_jitted(fn):
        traced_call = (
            "run_scan_jitted(s, 3) with s a traced float32",
            "以追踪值 s（float32）调用 run_scan_jitted(s, 3)",
        )
        closed = jax.make_jaxpr(lambda s: call(fn, s, 3, label=traced_call))(jnp.float32(0.0))
        made_by = {}
        for eqn in closed.jaxpr.eqns:
            for var in eqn.outvars:
                made_by[id(var)] = eqn.primitive.name
        outs = closed.jaxpr.outvars
        found = sorted({e.primitive.name for e in closed.jaxpr.eqns})
        expect(
            outs and all(made_by.get(id(v)) in ("jit", "pjit") for v in outs),
            "run_scan_jitted is not compiled: it is not a `jax.jit` function, and its result is not produced "
            f"by a jitted call inside it (top-level operations: {', '.join(found) or 'none'})",
            "run_scan_jitted 没有经过编译：它本身不是 `jax.jit` 函数，结果也不是由其内部的 jit 调用产生的"
            f"（顶层操作：{'、'.join(found) or '无'}）",
        )


@check("loop", depends=["values"])
def check_loop(run_scan_jitted):
    # every equation, including those inside jit / scan / while sub-programs
    traced_call = ("run_scan_jitted(s, 10) with s traced", "run_scan_jitted(s, 10)（s 为追踪值）")
    counts = primitive_counts(lambda s: call(run_scan_jitted, s, 10, label=traced_call), jnp.float32(0.0))
    if "scan" not in counts and "while" not in counts:
        found = ", ".join(f"{n}×{k}" for n, k in sorted(counts.items())) or "nothing"
        adds = counts.get("add", 0)
        if adds >= 10:
            fail(
                f"the program of run_scan_jitted(s, 10) holds {adds} separate additions and no loop "
                f"(operations: {found}): a Python `for` loop runs while tracing and pastes its body into the "
                "program once per step, so the program grows with steps (10,000 copies for steps=10000) and "
                "compiles ever more slowly. Build the loop with `lax.scan(..., length=steps)` or "
                "`lax.fori_loop(0, steps, ...)`: one loop body, whatever steps is",
                f"run_scan_jitted(s, 10) 的程序里有 {adds} 个独立的加法，却没有循环（操作：{found}）："
                "Python 的 `for` 循环在追踪时执行，每一步都把循环体复制进程序一次，程序随 steps 变大"
                "（steps=10000 时就有 10000 份），编译也越来越慢。请用 `lax.scan(..., length=steps)` 或 "
                "`lax.fori_loop(0, steps, ...)` 构造循环：无论 steps 多大，都只有一份循环体",
            )
        fail(
            f"the program of run_scan_jitted(s, 10) contains no loop (operations: {found}): it computes the "
            "answer in closed form, like `init_state + steps`. The number is right, but the adding-one step "
            "stands for a real per-step update that has no closed form: run it `steps` times with "
            "`lax.scan(..., length=steps)` or `lax.fori_loop(0, steps, ...)`",
            f"run_scan_jitted(s, 10) 的程序里没有循环（操作：{found}）：它用闭式公式（例如 "
            "`init_state + steps`）直接算出了答案。数值没错，但“加一”代表的是没有闭式解的真实逐步更新："
            "请用 `lax.scan(..., length=steps)` 或 `lax.fori_loop(0, steps, ...)` 把它执行 `steps` 次",
        )


@check("reuses-compile", depends=["new-steps", "jitted"])
def check_reuses_compile(run_scan_jitted):
    fn = run_scan_jitted
    # steps=13 throughout: only the start changes, and the first call may trace and compile.
    results = expect_one_program(
        lambda s: fn(jnp.float32(s), 13),  # a new buffer each call: donating it is fine
        [0.5, -2.0, 3.0],
        "run_scan_jitted(x, 13)",
        ("start values with the same steps=13", "起始值（steps=13 不变）"),
        "`jax.jit(lambda s: loop(s, steps))` built inside run_scan_jitted",
    )[1:]
    for s, got in zip((-2.0, 3.0), results):
        close(got, np.float64(s + 13), what=f"run_scan_jitted({s}, 13)")
    # Steps values seen before, in another order: each must find its program again.
    starts = {3: 0.5, 10: -1.0, 7: 2.0}
    results = expect_programs_reused(
        lambda steps: fn(jnp.float32(starts[steps]), steps), [*starts], "run_scan_jitted", ("steps", "steps")
    )
    for (steps, s), got in zip(starts.items(), results):
        close(got, np.float64(s + steps), what=f"run_scan_jitted({s}, {steps})")


@check("no-hidden-state", depends=["values"])
def check_no_hidden_state(learner):
    expect_no_hidden_state(learner, learner.run_scan_jitted, jnp.float32(0.0), 3, label="run_scan_jitted(0.0, 3)")
