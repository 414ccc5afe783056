"""The checks of `pure-scale`: Make a function pure - pass the scale in."""

import jax.numpy as jnp
import numpy as np

from tutor.child.library import (
    call,
    check,
    close,
    expect_no_hidden_state,
    expect_one_program,
    expect_traces,
    fail,
    is_defined,
    keeps_globals,
    on_failure,
    traced,
)


@check("defines")
def check_defines(scaled):
    is_defined(scaled=scaled)


@check("values", depends=["defines"])
def check_values(learner):
    pairs = [(3.0, 2.0), (3.0, 10.0), (-1.5, 0.5), ([1.0, -2.0, 4.0], -3.0), (0.25, 4.0), (2.0, 0.0)]
    for x, s in pairs:
        x_ref = np.asarray(x, dtype=np.float64)
        got = call(learner.scaled, jnp.asarray(x, dtype=jnp.float32), s, label=f"scaled({x}, {float(s):g})")
        want = x_ref * np.float64(s)
        got64 = np.asarray(got, dtype=np.float64)
        if got64.shape == want.shape and not np.allclose(got64, want, rtol=1e-5, atol=1e-6):
            numbers = []  # module-level numbers, also one level inside module-level dicts
            for name, v in vars(learner).items():
                if name.startswith("_"):
                    continue
                inner = v.items() if isinstance(v, dict) else [(None, v)]
                for key, n in inner:
                    if isinstance(n, (int, float)) and not isinstance(n, bool):
                        numbers.append((name if key is None else f"{name}[{key!r}]", n))
            globals_used = [(g, n) for g, n in numbers if np.allclose(got64, x_ref * n, rtol=1e-5, atol=1e-6)]
            if globals_used:
                g, n = globals_used[0]
                # When the global and the parameter share a name, say which one was read.
                same = g == "scale"
                read_en = (
                    f"the module-level `scale` ({n!r}), not the `scale` argument ({float(s):g})"
                    if same
                    else f"the global `{g}` ({n!r}), not the `scale` argument ({float(s):g})"
                )
                read_zh = (
                    f"模块级的 `scale`({n!r})，而不是参数 `scale`({float(s):g})"
                    if same
                    else f"全局变量 `{g}`({n!r})，而不是参数 `scale`({float(s):g})"
                )
                fail(
                    f"scaled({x}, {float(s):g}) returned {np.round(got64, 6).tolist()}, expected {want.tolist()}: "
                    f"it multiplied by {read_en}. A function that reads a global gives the same answer "
                    "whatever scale you pass"
                    + (
                        ": the parameter must shadow the global, so check the "
                        "function's signature and the name you multiply by"
                        if same
                        else ": use the `scale` argument"
                    ),
                    f"scaled({x}, {float(s):g}) 返回 {np.round(got64, 6).tolist()}，应为 {want.tolist()}："
                    f"它乘的是{read_zh}。读取全局变量的函数，不管传入什么 scale 都给出同样的答案"
                    + (
                        "：参数应当遮蔽同名的全局变量，请检查函数签名和相乘时用的名字"
                        if same
                        else "：请使用参数 `scale`"
                    ),
                )
        with on_failure(
            "Return `x * scale`: the shape of x, every element multiplied by the `scale` argument "
            "(sign included), kept in floating point",
            "应返回 `x * scale`：形状与 x 相同，每个元素都乘以参数 `scale`（包括符号），结果保持浮点类型",
        ):
            close(got, want, what=f"scaled({x}, {float(s):g})")
    # Past float16's largest value (65504): a product computed in a narrow dtype overflows to inf.
    got = call(learner.scaled, jnp.asarray([30000.0, -1.0e5], jnp.float32), 4.0, label="scaled([30000, -1e5], 4)")
    close(
        got,
        np.array([120000.0, -4.0e5]),
        what=(
            "scaled([30000, -1e5], 4), past float16's largest value 65504: keep x's float32",
            "scaled([30000, -1e5], 4)，超出了 float16 的最大值 65504：请保持 x 的 float32",
        ),
    )
    # Scales a narrow dtype cannot hold: cast to float16, 1e5 overflows to inf and 0.1 rounds to
    # 0.0999756 (bfloat16: 0.100098); a float32 product is exact to about 1e-7.
    for s in (1.0e5, 0.1):
        got = call(learner.scaled, jnp.asarray([2.0, -3.0], jnp.float32), s, label=f"scaled([2, -3], {s:g})")
        close(
            got,
            np.array([2.0, -3.0]) * s,
            what=(
                f"scaled([2, -3], {s:g}), a scale float16 cannot hold (its largest value is 65504, and 0.1 rounds "
                "to 0.0999756 there): multiply by the scale as given, in x's float32",
                f"scaled([2, -3], {s:g})，这个 scale 在 float16 里放不下（float16 的最大值是 65504，0.1 会被舍入成 "
                "0.0999756）：请按原样乘以 scale，保持 x 的 float32",
            ),
        )


@check("no-global-writes", depends=["values"])
def check_no_global_writes(learner):
    with keeps_globals(learner, ("calling scaled", "调用 scaled")):
        for x, s in [(1.0, 2.0), (1.0, 7.0), (2.0, -1.0)]:
            call(learner.scaled, jnp.float32(x), s, label=f"scaled({x:g}, {s:g})")
    expect_no_hidden_state(learner, learner.scaled, jnp.float32(1.5), 2.0, label="scaled(1.5, 2.0)")


@check("jit-follows-scale", depends=["defines"])
def check_jit_follows_scale(scaled):
    step = traced(scaled, "scaled")
    x_ref = np.asarray([1.0, -2.0, 0.5], dtype=np.float64)
    previous = None
    for s in [2.0, 10.0, 0.5, -3.0]:
        x = jnp.asarray([1.0, -2.0, 0.5], dtype=jnp.float32)  # a fresh x each call: donating it is fine
        got = np.asarray(call(step, x, s, label=f"jitted scaled(x, {s:g})"), dtype=np.float64)
        if previous is not None and got.shape == previous[1].shape and np.allclose(got, previous[1]):
            fail(
                f"under jax.jit, scaled(x, {s:g}) returned {got.tolist()}, the same as scaled(x, {previous[0]:g}): "
                "the compiled program does not depend on scale",
                f"在 jax.jit 下，scaled(x, {s:g}) 返回 {got.tolist()}，与 scaled(x, {previous[0]:g}) 相同："
                "编译出的程序与 scale 无关",
            )
        close(
            got,
            x_ref * s,
            what=(f"jitted scaled(x, {s:g}) for x = [1, -2, 0.5]", f"jit 后的 scaled(x, {s:g})(x = [1, -2, 0.5])"),
        )
        previous = (s, got)


@check("no-retrace", depends=["jit-follows-scale"])
def check_no_retrace(scaled):
    step = traced(scaled, "scaled")
    for s in [1.0, 2.5, -4.0, 0.125, 8.0]:
        call(step, jnp.asarray([1.0, -2.0, 0.5], dtype=jnp.float32), s, label=f"jitted scaled(x, {s:g})")
    expect_traces(step, 1, calls=5)
    # The function as written, called directly: new scales must not build new programs.
    expect_one_program(
        lambda s: call(scaled, jnp.asarray([1.0, -2.0, 0.5], dtype=jnp.float32), s, label=f"scaled(x, {s:g})"),
        [3.0, 1.5, -0.5, 6.0, 0.75],
        "scaled",
        ("scales", "scale"),
        "`jax.jit(lambda v: v * scale)`",
    )
