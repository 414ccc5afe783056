"""The checks of `gradient-descent`: One gradient-descent step, learning rate kept dynamic."""

import jax
import jax.numpy as jnp
import numpy as np

from tutor.child import witness
from tutor.child.library import (
    call,
    check,
    close,
    expect,
    expect_no_hidden_state,
    expect_one_program,
    expect_traces,
    fail,
    is_defined,
    keeps_globals,
    on_failure,
    traced,
    type_of,
    x64_note,
)


@check("defines")
def check_defines(gradient_descent_step):
    is_defined(gradient_descent_step=gradient_descent_step)


@check("gradient", depends=["defines"])
def check_gradient(gradient_descent_step):
    lr = 0.1
    for x in [5.0, -3.0, 0.5, 12.0, -0.25, 0.0]:
        out = call(gradient_descent_step, jnp.float32(x), lr, label=f"gradient_descent_step({x:g}, {lr})")
        several = isinstance(out, (tuple, list, dict))
        expect(
            np.shape(out) == () and not several,
            f"gradient_descent_step({x:g}, {lr}) should return only the new params (a scalar here), got "
            + (f"a {type(out).__name__} of {len(out)} values" if several else f"{type(out).__name__} ({type_of(out)})"),
            f"gradient_descent_step({x:g}, {lr}) 应当只返回新的参数（这里是标量），实际返回"
            + (f"含 {len(out)} 个值的 {type(out).__name__}" if several else f" {type(out).__name__}({type_of(out)})"),
        )
        got = float(np.asarray(out, dtype=np.float64))
        want = x - lr * 2.0 * x
        if not np.isclose(got, want, rtol=1e-5, atol=1e-6):
            used = (x - got) / lr
            factor = used / x if x else None  # the gradient as a multiple of x
            if factor is not None and np.isclose(factor, -2.0, rtol=1e-4):
                why_en = (
                    ": it went uphill (it added the gradient instead of subtracting it). Subtract "
                    "`learning_rate * gradient` from params"
                )
                why_zh = "：它在往上坡走（加上了梯度，而不是减去）。请从 params 中减去 `learning_rate * 梯度`"
            elif factor is not None and abs(factor) > 1e-6 and np.isclose(used, factor * x, rtol=1e-4):
                why_en = (
                    f", {factor:.4g}x: that is the derivative of {factor / 2:.4g}x², not of x². Differentiate "
                    "f(x) = x² itself (no extra factor, no 0.5), then subtract `learning_rate * gradient`"
                )
                why_zh = (
                    f"，即 {factor:.4g}x：这是 {factor / 2:.4g}x² 的导数，而不是 x² 的。请对 f(x) = x² 本身求导"
                    "（不要多乘系数，也不要乘 0.5），再减去 `learning_rate * 梯度`"
                )
            else:
                why_en = (
                    ". The gradient of x² depends on x: take it with `jax.grad(f)(params)`, and subtract "
                    "`learning_rate * gradient` from params"
                )
                why_zh = (
                    "。x² 的梯度随 x 变化：用 `jax.grad(f)(params)` 求出它，再从 params 中减去 `learning_rate * 梯度`"
                )
            fail(
                f"gradient_descent_step({x:g}, {lr}) returned {got:.6g}, expected {want:.6g} = {x:g} - {lr} * f'({x:g}), "
                f"with f'(x) = 2x = {2 * x:g}. Your step used a gradient of {used:.6g}" + why_en,
                f"gradient_descent_step({x:g}, {lr}) 返回 {got:.6g}，应为 {want:.6g} = {x:g} - {lr} * f'({x:g})，"
                f"其中 f'(x) = 2x = {2 * x:g}。你的这一步相当于用了梯度 {used:.6g}" + why_zh,
            )
    # Far from the minimum and next to it the step is still params - lr * 2x: a gradient clipped
    # "for stability", or a step skipped once the gradient is small ("converged"), shows only there.
    # float32 holds every one of these exactly enough (relative error ~1e-7).
    edges = [
        (-3.0e6, "far from the minimum", "离最小值很远"),
        (1.0e20, "far from the minimum", "离最小值很远"),
        (1.0e-20, "next to the minimum", "紧挨着最小值"),
        (-3.0e-9, "next to the minimum", "紧挨着最小值"),
    ]
    for x, where_en, where_zh in edges:
        x32 = float(np.float32(x))
        out = call(gradient_descent_step, jnp.float32(x), lr, label=f"gradient_descent_step({x:g}, {lr})")
        got = float(np.asarray(out, dtype=np.float64))
        want = x32 - lr * 2.0 * x32
        if not np.isfinite(got) and x32 * x32 > float(np.finfo(np.float32).max):
            # 2x and x - lr * 2x fit float32 here; only a value that was never needed, x² itself
            # (a finite difference of f computes it twice), overflows on the way.
            fail(
                f"gradient_descent_step({x:g}, {lr}) returned {got:.6g}, expected {want:.6g}: {where_en} the "
                f"gradient 2x = {2 * x32:.6g} and the step both fit in float32, so something your step computes "
                f"on the way overflows float32 (largest ≈ 3.4e38): x² itself is {x32 * x32:.3g} here. A numerical derivative "
                "such as (f(x + h) - f(x - h)) / 2h evaluates f and overflows; jax.grad(f) gives 2x without "
                "computing x²: use it",
                f"gradient_descent_step({x:g}, {lr}) 返回 {got:.6g}，应为 {want:.6g}：{where_zh}时梯度 "
                f"2x = {2 * x32:.6g} 和这一步的结果都在 float32 范围内，所以是你的这一步中途算出的某个值超出了 "
                f"float32 的范围（最大约 3.4e38）：这里 x² 本身就是 {x32 * x32:.3g}。像 (f(x + h) - f(x - h)) / 2h "
                "这样的数值导数要计算 f，因而溢出；jax.grad(f) 直接给出 2x，不必计算 x²：请用它",
            )
        if not np.isclose(got, want, rtol=1e-5, atol=0.0):
            fail(
                f"gradient_descent_step({x:g}, {lr}) returned {got:.6g}, expected {want:.6g}: {where_en} the step is "
                f"still params - learning_rate * 2x, with the gradient 2x = {2 * x32:.6g}, but your step used "
                f"a gradient of {(x32 - got) / lr:.6g}. A gradient clipped or capped, or a step skipped once the "
                "gradient is small, is no longer gradient descent on x²: use the gradient jax.grad gives, as it is",
                f"gradient_descent_step({x:g}, {lr}) 返回 {got:.6g}，应为 {want:.6g}：{where_zh}时这一步仍然是 "
                f"params - learning_rate * 2x，梯度 2x = {2 * x32:.6g}，"
                f"而你的这一步相当于用了梯度 {(x32 - got) / lr:.6g}。"
                "把梯度裁剪或设上限，或者在梯度很小时跳过这一步，就不再是对 x² 的梯度下降了："
                "请原样使用 jax.grad 给出的梯度",
            )


@check("uses-grad", depends=["gradient"])
def check_uses_grad(learner):
    # On x² a hand-written 2 * params gives the right numbers, so swap in another f: code that
    # differentiates the module's f follows it, and code that differentiates its own copy of x²
    # (a lambda, a helper) cannot. Either way one of jax's derivatives must run in the step: a
    # numerical derivative of f (the complex-step trick) follows f too, and is not jax.grad.
    x, lr = 3.0, 0.1
    follows_f = False
    if callable(getattr(learner, "f", None)):
        original = learner.f
        learner.f = lambda v: v**3 / 3.0  # f'(x) = x²
        try:
            with jax.disable_jit():  # a jitted step would reuse the program traced with the old f
                got = float(np.asarray(learner.gradient_descent_step(jnp.float32(x), lr), np.float64))
        finally:
            learner.f = original
        follows_f = bool(np.isclose(got, x - lr * x**2, rtol=1e-5))
    with witness.ran() as ran:  # what runs, not what the file says: a self-test proves nothing
        call(learner.gradient_descent_step, jnp.float32(x), lr, label=f"gradient_descent_step({x}, {lr})")
    differentiated = bool(ran & witness.DIFFERENTIATION)
    expect(
        differentiated or not follows_f,
        "your step follows the module's f (with f swapped for x³/3 it stepped by x²), but no derivative of jax's "
        "(grad, value_and_grad, vjp...) ran while it computed: the derivative is taken numerically (a finite "
        "difference, the complex-step trick Im f(x + ih) / h), which the task does not ask for and which is only "
        "approximate for most f. Take it with jax.grad(f)(params)",
        "你的这一步会跟着模块里的 f 变（把 f 换成 x³/3 后，它按 x² 走了一步），但它计算时没有运行任何 JAX 求导"
        "（grad、value_and_grad、vjp……）：导数是数值求得的（有限差分，或复步法 Im f(x + ih) / h），这不是题目要求的，"
        "而且对大多数 f 只是近似。请用 jax.grad(f)(params) 求导",
    )
    expect(
        differentiated,
        "your step gives 2x for f(x) = x², but no derivative of jax's (grad, value_and_grad, vjp...) ran while it computed: "
        "the derivative is written by hand, so it would be wrong for any other f. Take it with "
        "jax.grad(f)(params), as the task asks",
        "你的这一步对 f(x) = x² 给出了 2x，但它计算时没有运行任何 JAX 求导（grad、value_and_grad、vjp……）："
        "导数是手写的，换一个 f 就错了。请按题目要求用 jax.grad(f)(params) 求导",
    )


@check("five-steps", depends=["gradient"])
def check_five_steps(gradient_descent_step):
    params = jnp.float32(5.0)
    ref = np.float64(5.0)
    for step in range(1, 6):
        params = call(gradient_descent_step, params, 0.1, label=f"gradient_descent_step, step {step}")
        ref = ref - 0.1 * 2.0 * ref
        with on_failure(
            "Each step must start from the params the previous step returned, and nothing may be "
            "remembered between calls",
            "每一步都应从上一步返回的参数出发，两次调用之间不能记住任何东西",
        ):
            close(params, ref, what=(f"params after step {step}", f"第 {step} 步之后的参数"))
        # The params' own dtype, in both modes: float32 params coming back float64 (under
        # JAX_ENABLE_X64, from e.g. jnp.asarray(learning_rate)) change type every step there too.
        x64_en, x64_zh = x64_note(params, expected=jnp.float32)
        expect(
            type_of(params) == "float32[]",
            f"after step {step} the params are {type_of(params)}, but they came in as float32[]: "
            "a training loop that feeds them back would change type every step (and, under jit, compile again). "
            "Keep the update in the params' dtype: a Python-float learning rate does that by itself, while "
            f"`jnp.asarray(learning_rate, jnp.float64)` or a NumPy float64 promotes the params{x64_en}",
            f"第 {step} 步之后参数的类型是 {type_of(params)}，但传入时是 float32[]：把它们传回去的训练循环"
            "每一步都会改变类型（在 jit 下还会重新编译）。更新要保持参数原来的 dtype：Python 浮点数学习率本身"
            f"就能做到，而 `jnp.asarray(learning_rate, jnp.float64)` 或 NumPy float64 会提升参数的类型{x64_zh}",
        )


@check("learning-rates", depends=["gradient"])
def check_learning_rates(gradient_descent_step):
    for x in [3.0, -2.0]:
        for lr in [0.01, 0.05, 0.25, 0.4, 0.7]:
            out = call(
                gradient_descent_step, jnp.float32(x), lr, label=f"gradient_descent_step({x:g}, learning_rate={lr})"
            )
            got = float(np.asarray(out, dtype=np.float64))
            want = x - lr * 2.0 * x
            if not np.isclose(got, want, rtol=1e-5, atol=1e-6):
                used = (x - got) / (2.0 * x)
                fail(
                    f"gradient_descent_step({x:g}, learning_rate={lr}) returned {got:.6g}, expected {want:.6g}; "
                    f"that step matches a learning rate of {used:.6g}, not {lr}",
                    f"gradient_descent_step({x:g}, learning_rate={lr}) 返回 {got:.6g}，应为 {want:.6g}；"
                    f"这一步对应的学习率是 {used:.6g}，而不是 {lr}",
                )


@check("no-global-writes", depends=["gradient"])
def check_no_global_writes(learner):
    with keeps_globals(
        learner,
        ("calling gradient_descent_step", "调用 gradient_descent_step"),
        advice=(
            "A step must only return the new params; under jax.jit whatever it stores is a tracer that escapes the trace",
            "一步更新只应返回新参数；在 jax.jit 下，它存下的是一个逃出追踪的追踪值",
        ),
    ):
        for x, lr in [(2.0, 0.1), (2.0, 0.3), (-1.0, 0.05)]:
            call(learner.gradient_descent_step, jnp.float32(x), lr, label=f"gradient_descent_step({x:g}, {lr})")
    expect_no_hidden_state(
        learner, learner.gradient_descent_step, jnp.float32(2.0), 0.1, label="gradient_descent_step(2.0, 0.1)"
    )


@check("dynamic-lr", depends=["learning-rates"])
def check_dynamic_lr(gradient_descent_step):
    step = traced(gradient_descent_step, "gradient_descent_step")
    for lr in [0.1, 0.05, 0.2, 0.01, 0.3]:
        out = call(step, jnp.float32(5.0), lr, label=f"jitted gradient_descent_step(5.0, {lr})")
        close(
            out,
            np.float64(5.0) * (1.0 - 2.0 * lr),
            what=(f"jitted step from 5.0 with learning_rate={lr}", f"jit 后从 5.0 出发、learning_rate={lr} 的一步"),
        )
    expect_traces(step, 1, calls=5)
    # The function as written, called directly: new learning rates must not build new programs.
    expect_one_program(
        lambda lr: call(gradient_descent_step, jnp.float32(5.0), lr, label=f"gradient_descent_step(5.0, {lr})"),
        [0.3, 0.15, 0.35, 0.45, 0.02],
        "gradient_descent_step",
        ("learning rates", "学习率"),
        "`jax.jit(partial(step, learning_rate=learning_rate))`",
    )
