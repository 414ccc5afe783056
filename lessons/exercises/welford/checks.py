"""The checks of `welford`: Welford's online variance with scan and vmap."""

import math

import jax
import jax.numpy as jnp
import numpy as np

from tutor.child.library import (
    check,
    close,
    expect,
    expect_no_hidden_state,
    fail,
    holds,
    is_defined,
    kept_cause,
    primitive_counts,
    primitives,
    returns,
    special_where,
)


@check("defines")
def check_defines(welford_step, online_var):
    is_defined(welford_step=welford_step, online_var=online_var)


@check("step-body", depends=["defines"])
def check_step_body(welford_step):
    cases = [
        ((3.0, 2.0, 8.0), 6.0, (4.0, 3.0, 20.0)),  # [0, 2, 4] then 6
        ((1.0, 10.0, 0.0), 12.0, (2.0, 11.0, 2.0)),  # [10] then 12
        ((2.0, -1.0, 2.0), 5.0, (3.0, 1.0, 26.0)),
        ((0.0, 0.0, 0.0), 5.0, (1.0, 5.0, 0.0)),  # the first value: stepped from a count of 0, as scan starts
    ]  # [-2, 0] then 5
    for state, x, (n, mean, m2) in cases:
        label = f"welford_step(({state[0]:g}, {state[1]:g}, {state[2]:g}), {x:g})"
        out = welford_step(tuple(jnp.float32(v) for v in state), jnp.float32(x))
        new_state, var = returns(out, ("new_state", "var"), label)
        expect(
            isinstance(new_state, (tuple, list)) and len(new_state) == 3,
            f"{label}: new_state should be the tuple (n, mean, m2), got {type(new_state).__name__}",
            f"{label}：new_state 应为元组 (n, mean, m2)，实际是 {type(new_state).__name__}",
        )
        close(new_state[0], np.float64(n), what=f"{label} → n")
        close(new_state[1], np.float64(mean), what=f"{label} → mean")
        close(new_state[2], np.float64(m2), what=f"{label} → m2")
        close(var, np.float64(m2 / n), what=f"{label} → var = m2 / n")


@check("returns-triple", depends=["defines"])
def check_returns_triple(online_var):
    xs = jnp.asarray([1.0, 3.0, 2.0, 6.0, 4.0], jnp.float32)
    mean, var, trace = returns(online_var(xs), ("mean", "var", "var_trace"), "online_var")
    for value, label in ((mean, "mean"), (var, "var")):
        expect(
            np.shape(value) == (),
            f"{label} should be a scalar, got shape {np.shape(value)}",
            f"{label} 应为标量，实际形状为 {np.shape(value)}",
        )
    expect(
        np.shape(trace) == (5,),
        f"var_trace should have the shape of xs, (5,), got {np.shape(trace)}",
        f"var_trace 的形状应与 xs 相同，即 (5,)，实际为 {np.shape(trace)}",
    )


@check("values", depends=["returns-triple"])
def check_values(online_var):
    rng = np.random.default_rng(8)
    xs = (2.0 + 1.5 * rng.standard_normal(40)).astype(np.float32)
    x64 = xs.astype(np.float64)
    mean, var, trace = online_var(jnp.asarray(xs))
    close(mean, x64.mean(), what="online_var(xs) mean", rtol=1e-5, atol=1e-5)
    close(var, x64.var(), what="online_var(xs) variance (population, ddof=0)", rtol=1e-4, atol=1e-5)
    running = np.array([x64[: k + 1].var() for k in range(len(x64))])
    close(trace, running, what="var_trace (variance of xs[:k+1], ddof=0)", rtol=1e-4, atol=1e-5)
    # A long stream, past the counts a narrow count dtype can hold (bfloat16 stops at 256, float16
    # at 2048: n + 1 == n there), whose mean moves late, so a count that stalls shows. A float32
    # count is exact far beyond it. Not for a program that grows with the stream (a Python loop
    # over the values, which uses-scan names): 3000 eager steps ran past the time limit on JAX 0.12.
    if not grows_with_the_stream(online_var):
        long_stream(online_var, rng)
    expect_no_floor(online_var, rng)
    # A NaN in the stream, where the formulas define the answer: from it on, mean and variance are
    # NaN (delta = NaN - mean). A step that skips it hides a bad value the caller must see.
    xs = np.array([1.0, 2.0, np.nan, 4.0, 0.5])
    mean, var, trace = online_var(jnp.asarray(xs, jnp.float32))
    skip = (
        "Welford's formulas take every value: a NaN in the stream makes delta, the mean and m2 NaN from there on, "
        "so the caller sees the bad value. A step that skips NaN (jnp.where(jnp.isnan(x), ...), jnp.nan_to_num) "
        "gives statistics of a stream that was not given",
        "Welford 公式会用到每一个值：数据流里出现 NaN，从那里起 delta、均值和 m2 都是 NaN，调用方才能发现坏值。"
        "跳过 NaN 的步骤（jnp.where(jnp.isnan(x), ...)、jnp.nan_to_num）给出的是另一条数据流的统计量",
    )
    with np.errstate(invalid="ignore"):
        running = np.array([xs[: k + 1].var() for k in range(xs.size)])
    special_where(trace, running, ("var_trace of [1, 2, NaN, 4, 0.5]", "[1, 2, NaN, 4, 0.5] 的 var_trace"), skip)
    special_where(
        mean, np.nan, ("online_var([1, 2, NaN, 4, 0.5]) mean", "online_var([1, 2, NaN, 4, 0.5]) 的均值"), skip
    )


def long_stream(online_var, rng):
    long = np.concatenate([rng.standard_normal(2100), 5.0 + rng.standard_normal(900)]).astype(np.float32)
    l64 = long.astype(np.float64)
    mean, var, trace = online_var(jnp.asarray(long))
    narrow_count_note(online_var, long, (mean, var), (l64.mean(), l64.var()), "3000 values")
    edge = (
        "on a stream of 3000 values whose mean moves after 2100 (a count kept in float16 stops at 2048, in "
        "bfloat16 at 256: keep n in float32 or int32)",
        "在 3000 个值的数据流上，其均值在第 2100 个之后改变（用 float16 保存的计数停在 2048，bfloat16 停在 256："
        "请用 float32 或 int32 保存 n）",
    )
    close(mean, l64.mean(), what=(f"online_var mean {edge[0]}", f"online_var 的均值，{edge[1]}"), rtol=1e-4, atol=1e-4)
    close(
        var, l64.var(), what=(f"online_var variance {edge[0]}", f"online_var 的方差，{edge[1]}"), rtol=1e-3, atol=1e-4
    )


def program_sizes(online_var) -> list[int]:
    """online_var's operation counts for 6 and 11 values: equal when a scan carries the recurrence."""
    return [sum(primitive_counts(online_var, jnp.arange(n, dtype=jnp.float32)).values()) for n in (6, 11)]


def grows_with_the_stream(online_var) -> bool:
    try:
        small, large = program_sizes(online_var)
    except Exception:  # noqa: BLE001 - not traceable: uses-scan says why
        return True
    return large > small


def narrow_count_note(online_var, xs, got, want, what):
    """A failure naming the dtype n is carried in, where the statistics of a long stream are off and
    the scan carries a scalar in a dtype that wraps (uint8, int8, int16) or stops counting (float16,
    bfloat16) before the stream ends."""
    if all(np.isclose(float(g), w, rtol=1e-3, atol=1e-4) for g, w in zip(got, want)):
        return
    try:
        kinds = scan_carry_dtypes(jax.make_jaxpr(online_var)(jnp.asarray(xs)))
    except Exception:  # noqa: BLE001 - the values judge a program that cannot be traced again
        return
    for kind in kinds:
        cause = kept_cause(kind, ("keep n an int32 (or a float32)", "请用 int32（或 float32）保存 n"))
        if cause is not None and not holds(kind, xs.size):
            fail(
                f"online_var on a stream of {what}: mean {float(got[0]):.6g} and variance {float(got[1]):.6g}, "
                f"expected {want[0]:.6g} and {want[1]:.6g}, where the scan carries n: {cause[0]}",
                f"online_var 在 {what} 的数据流上：均值 {float(got[0]):.6g}、方差 {float(got[1]):.6g}，"
                f"应为 {want[0]:.6g} 和 {want[1]:.6g}，而 scan 传递着 n：{cause[1]}",
            )


def expect_no_floor(online_var, rng):
    """Streams whose variance is 0 (every value alike: m2 is exactly 0) or tiny (values of about
    0.001 around 0, where no offset makes float32 sums cancel), where a floor on m2 or on the
    variance (jnp.maximum(m2, eps)) shows: every entry is then at or above the reference."""
    for xs, en, zh in (
        (np.full(12, 3.0), "a constant stream (twelve 3.0s)", "常数数据流（12 个 3.0）"),
        (1e-3 * rng.standard_normal(30), "30 values of about 0.001 around 0", "30 个约为 0.001、围绕 0 的值"),
    ):
        xs = xs.astype(np.float32)
        x64 = xs.astype(np.float64)
        _, _, trace = online_var(jnp.asarray(xs))
        got = np.asarray(trace, np.float64)
        running = np.array([x64[: k + 1].var() for k in range(x64.size)])
        off = np.abs(got - running) > 1e-9 + 1e-2 * running
        if not off.any() or np.any(got < running - 1e-9 - 1e-2 * running):
            continue  # right, or also below the reference somewhere: not a floor (values judges it)
        k = int(np.argmax(off))
        floor = float(np.min(got))
        fail(
            f"var_trace of {en}: {got[k]:.3g} at index {k}, expected {running[k]:.3g}; no entry is below {floor:.3g}, "
            "as if m2 or the variance had a floor (jnp.maximum(m2, eps), jnp.clip(var, eps, None)). m2 is a sum of "
            "squared deviations: exactly 0 while every value is alike, and tiny when they are close. It needs no floor",
            f"{zh}的 var_trace：下标 {k} 处是 {got[k]:.3g}，应为 {running[k]:.3g}；没有一项低于 {floor:.3g}，"
            "像是 m2 或方差被设了下限（jnp.maximum(m2, eps)、jnp.clip(var, eps, None)）。m2 是偏差平方之和："
            "所有值都相同时恰好为 0，值彼此接近时很小。它不需要下限",
        )


def scan_carry_dtypes(closed) -> list[str]:
    """The dtypes of the scalars every scan in a program (nested ones included) carries."""
    kinds, stack = [], [closed.jaxpr]
    while stack:
        for eqn in stack.pop().eqns:
            if eqn.primitive.name == "scan":
                start, count = consts_and_carry(eqn.params)
                kinds += [str(v.aval.dtype) for v in eqn.invars[start : start + count] if v.aval.shape == ()]
            for value in eqn.params.values():
                for item in value if isinstance(value, (tuple, list)) else (value,):
                    inner = getattr(item, "jaxpr", item)
                    if hasattr(inner, "eqns"):
                        stack.append(inner)
    return kinds


@check("uses-scan", depends=["returns-triple"])
def check_uses_scan(learner):
    import traceback

    xs = jnp.arange(6, dtype=jnp.float32)
    try:
        found = primitives(learner.online_var, xs)
    except (
        jax.errors.ConcretizationTypeError,
        jax.errors.TracerBoolConversionError,
        jax.errors.TracerIntegerConversionError,
        jax.errors.TracerArrayConversionError,
    ) as exc:
        mine = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == getattr(learner, "__file__", None)]
        at = f" at line {mine[-1].lineno}: `{mine[-1].line}`" if mine else ""
        at_zh = f"，位于第 {mine[-1].lineno} 行：`{mine[-1].line}`" if mine else ""
        fail(
            f"online_var cannot be traced: it needs the concrete value of the data ({type(exc).__name__}){at}. "
            "Under jax.jit, jax.vmap and lax.scan the values of xs are abstract: no float(), int(), bool() or Python `if` on them",
            f"online_var 无法被追踪：它需要数据的具体数值（{type(exc).__name__}{at_zh}）。"
            "在 jax.jit、jax.vmap 和 lax.scan 中，xs 的值是抽象的：不能对它们用 float()、int()、bool() 或 Python 的 `if`",
        )
    expect(
        "scan" in found,
        f"no `scan` primitive in the compiled program of online_var; found only: {', '.join(sorted(found))}. "
        "A Python loop is unrolled into one copy of the body per element",
        f"online_var 编译出的程序里没有 `scan` 原语；只找到：{'、'.join(sorted(found))}。"
        "Python 循环会被展开成每个元素一份循环体",
    )
    # The scan must carry the recurrence: a Python loop over the values beside a scan that only
    # maps stacked states to variances is unrolled, one step per value, so its program grows.
    sizes = program_sizes(learner.online_var)
    expect(
        sizes[1] <= sizes[0],
        f"online_var's program has {sizes[0]} operations for 6 values and {sizes[1]} for 11: it grows with the "
        "stream, so the recurrence is unrolled (a Python loop over the values) and the scan there does not carry "
        "(n, mean, m2). Hand welford_step itself to the scan: lax.scan(welford_step, init, xs)",
        f"online_var 的程序在 6 个值上有 {sizes[0]} 个操作，在 11 个值上有 {sizes[1]} 个：程序随数据流变长而增大，"
        "说明递推被展开了（对数值的 Python 循环），程序里的 scan 并没有传递 (n, mean, m2)。请把 welford_step 本身交给 "
        "scan：lax.scan(welford_step, init, xs)",
    )
    # The task names the mechanism: the state (n, mean, m2) is a scan's carry. A scan that carries
    # no float (lax.map over prefixes, or the updates in a while_loop and the scan only mapping
    # stacked states to variances) is not it, however right its numbers.
    carried = scan_carries(jax.make_jaxpr(learner.online_var)(xs))
    expect(
        any(total >= 2 for total in carried),
        "the scan in online_var carries no running mean and m2 (float values carried: "
        f"{', '.join(map(str, carried)) or 'none'}): the state is updated somewhere else, or each prefix's "
        "variance is computed from scratch (lax.map is a scan with no carry). The task asks for the recurrence "
        "in lax.scan itself: lax.scan(welford_step, (n, mean, m2), xs) carries the state from value to value",
        "online_var 中的 scan 没有传递滑动均值和 m2（传递的浮点值大小："
        f"{'、'.join(map(str, carried)) or '无'}）：状态在别处更新，或者每个前缀的方差都从头计算"
        "（lax.map 是没有 carry 的 scan）。题目要求递推本身在 lax.scan 里："
        "lax.scan(welford_step, (n, mean, m2), xs) 把状态从一个值传到下一个值",
    )


def consts_and_carry(params) -> tuple[int, int]:
    """How many of a scan's operands are constants, and how many the carry, after them. JAX 0.10
    names the counts (num_consts, num_carry); JAX 0.12 groups the operands (ft_in, a FlatTree of consts,
    carry, xs), and moves a carry the body never changes to the constants."""
    if "num_carry" in params:
        return params["num_consts"], params["num_carry"]
    consts, carry, _ = params["ft_in"].unpack()  # a FlatTree of (consts, carry, xs)
    return len(list(consts.vals)), len(list(carry.vals))


def scan_carries(closed) -> list[int]:
    """For every scan in a program (nested ones included), the total size of the floats it carries."""
    totals, stack = [], [closed.jaxpr]
    while stack:
        for eqn in stack.pop().eqns:
            if eqn.primitive.name == "scan":
                start, count = consts_and_carry(eqn.params)
                carry = eqn.invars[start : start + count]
                totals.append(
                    sum(int(np.prod(v.aval.shape)) for v in carry if jnp.issubdtype(v.aval.dtype, jnp.floating))
                )
            for value in eqn.params.values():
                for item in value if isinstance(value, (tuple, list)) else (value,):
                    inner = getattr(item, "jaxpr", item)
                    if hasattr(inner, "eqns"):
                        stack.append(inner)
    return totals


@check("stable", depends=["values", "uses-scan"])
def check_stable(online_var):
    rng = np.random.default_rng(1000)
    xs = (1000.0 + 0.5 * rng.standard_normal(1000)).astype(np.float32)
    x64 = xs.astype(np.float64)
    want = x64.var()
    n = np.arange(1, xs.size + 1, dtype=np.float32)
    s1 = np.cumsum(xs, dtype=np.float32)
    s2 = np.cumsum(xs * xs, dtype=np.float32)
    naive = s2 / n - (s1 / n) ** 2
    naive_err = abs(float(naive[-1]) - want) / want
    mean, var, trace = jax.jit(online_var)(jnp.asarray(xs))
    err = abs(float(var) - want) / want
    expect(
        math.isfinite(err) and err < 1e-3,
        f"variance of 1000 float32 values near 1000: expected {want:.6f}, got {float(var):.6f} "
        f"(relative error {err:.2e}). The sum-of-squares formula E[x²]-E[x]² is off by {naive_err:.0%} "
        "here; Welford's update should be within 0.1%",
        f"对 1000 个约为 1000 的 float32 数据求方差：应为 {want:.6f}，得到 {float(var):.6f}"
        f"（相对误差 {err:.2e}）。平方和公式 E[x²]-E[x]² 在这里的误差是 {naive_err:.0%}；"
        "Welford 更新的误差应在 0.1% 以内",
    )
    running = np.array([x64[: k + 1].var() for k in range(0, xs.size, 50)])
    close(
        np.asarray(trace)[::50],
        running,
        what="var_trace on the large-offset data (every 50th entry)",
        rtol=5e-3,
        atol=2e-3,
    )
    close(mean, x64.mean(), what="mean on the large-offset data", rtol=1e-6, atol=1e-4)
    # A longer stream, past int16's 32767 (a count kept there wraps to negative), whose mean moves
    # late. Here, after uses-scan: a Python loop over 33800 values would run out of time instead.
    long = np.concatenate([rng.standard_normal(32_900), 5.0 + rng.standard_normal(900)]).astype(np.float32)
    l64 = long.astype(np.float64)
    mean, var, _ = jax.jit(online_var)(jnp.asarray(long))
    edge = (
        "on a stream of 33800 values whose mean moves after 32900 (an int16 count wraps at 32768: keep n in "
        "float32 or int32)",
        "在 33800 个值的数据流上，其均值在第 32900 个之后改变（int16 计数在 32768 处回绕：请用 float32 或 int32 保存 n）",
    )
    close(mean, l64.mean(), what=(f"online_var mean {edge[0]}", f"online_var 的均值，{edge[1]}"), rtol=1e-4, atol=1e-4)
    close(
        var, l64.var(), what=(f"online_var variance {edge[0]}", f"online_var 的方差，{edge[1]}"), rtol=1e-3, atol=1e-4
    )


@check("vmap", depends=["values", "uses-scan"])
def check_vmap(online_var):
    rng = np.random.default_rng(9)
    offsets = np.array([0.0, 10.0, -5.0, 100.0])[:, None]
    scales = np.array([1.0, 2.0, 0.5, 3.0])[:, None]
    batch = (offsets + scales * rng.standard_normal((4, 200))).astype(np.float32)
    b64 = batch.astype(np.float64)
    out = jax.jit(jax.vmap(online_var))(jnp.asarray(batch))
    expect(
        isinstance(out, (tuple, list)) and len(out) == 3,
        "jax.vmap(online_var) should return three batched values",
        "jax.vmap(online_var) 应返回三个带批维度的值",
    )
    mean, var, trace = out
    expect(
        np.shape(mean) == (4,) and np.shape(var) == (4,) and np.shape(trace) == (4, 200),
        f"over a batch of 4 streams of 200 values the shapes should be (4,), (4,), (4, 200); "
        f"got {np.shape(mean)}, {np.shape(var)}, {np.shape(trace)}",
        f"对 4 条长度为 200 的数据流，输出形状应为 `(4,)`、`(4,)`、`(4, 200)`；"
        f"实际为 {np.shape(mean)}、{np.shape(var)}、{np.shape(trace)}",
    )
    close(mean, b64.mean(axis=1), what="batched mean", rtol=1e-5, atol=1e-4)
    close(var, b64.var(axis=1), what="batched variance", rtol=1e-4, atol=1e-5)
    running = np.stack([np.array([row[: k + 1].var() for k in range(0, 200, 20)]) for row in b64])
    close(np.asarray(trace)[:, ::20], running, what="batched var_trace (every 20th entry)", rtol=1e-4, atol=1e-5)


@check("no-hidden-state", depends=["values"])
def check_no_hidden_state(learner):
    xs = jnp.asarray([1.0, 3.0, 2.0, 6.0, 4.0], jnp.float32)
    expect_no_hidden_state(learner, learner.online_var, xs, label="online_var(xs of 5 values)")
