"""The checks of `ema`: A train state with an exponential moving average of the params."""

import jax
import jax.numpy as jnp
import numpy as np

from tutor.child.library import (
    as_float32,
    call,
    check,
    close,
    expect,
    expect_compiled,
    expect_no_hidden_state,
    expect_one_program,
    expect_traces,
    fail,
    is_defined,
    is_jitted,
    metric,
    narrow_count,
    traced,
)

# The exercise's data: inputs x and targets y, in float64 for the references.
XN = np.array([0.5, -1.0, 2.0, 3.0, -2.5, 1.0])
YN = np.array([1.0, 0.0, 4.0, 7.5, -4.0, 3.0])
# Batches of other sizes: a loss that divides by the example's size (6) is wrong for them.
X4, Y4 = np.array([1.5, -0.5, 2.5, 0.0]), np.array([3.0, -1.0, 6.0, 1.0])
X9, Y9 = np.linspace(-2.0, 2.0, 9), 2.0 * np.linspace(-2.0, 2.0, 9) + 1.0
# A batch where the loss is steep (the gradient there is in the thousands): a clipped gradient shows.
XB = np.array([12.0, -15.0, 20.0, 8.0, -10.0])
YB = -3.0 * XB + 5.0


def linear(w, b):
    """The linear model's params {w, b} as float32 scalars, new buffers each call (a step may donate them)."""
    return {"w": jnp.float32(w), "b": jnp.float32(b)}


@check("defines")
def check_defines(TrainState, ema_train_step):
    is_defined(TrainState=TrainState, ema_train_step=ema_train_step)


@check("state-type", depends=["defines"])
def check_state_type(TrainState):
    params, ema = linear(1.5, -0.5), linear(0.2, 0.3)
    try:
        state = TrainState(step=jnp.int32(3), params=params, ema_params=ema)
    except TypeError as exc:
        fail(
            f"TrainState(step=..., params=..., ema_params=...) raised TypeError: {exc}; it needs exactly these three fields",
            f"TrainState(step=..., params=..., ema_params=...) 抛出 TypeError：{exc}；它需要且只需要这三个字段",
        )
    for field in ("step", "params", "ema_params"):
        expect(hasattr(state, field), f"a TrainState has no attribute `{field}`", f"TrainState 没有属性 `{field}`")
    leaves = jax.tree.leaves(state)
    n = len(leaves)

    def found(a):
        return any(leaf is a for leaf in leaves)

    if n == 4 and not found(state.step) and all(found(a) for a in (*params.values(), *ema.values())):
        fail(
            "JAX sees 4 leaves in a TrainState holding a step, 2 params and 2 EMA params (expected 5): `step` is "
            "not a leaf but metadata (a meta / static field), so it is part of the tree structure. Every new step "
            "value is then a new structure, and jax.jit compiles the step function again on every call. "
            "Register step as a data field",
            "一个装有 step、2 个参数和 2 个 EMA 参数的 TrainState，JAX 在其中只看到 4 个叶子（应为 5 个）："
            "`step` 不是叶子，而是元数据（meta / 静态字段），因而属于树结构的一部分。于是每个新的 step 值都是"
            "新的结构，jax.jit 每次调用都要重新编译训练步。请把 step 注册为数据字段",
        )
    expect(
        n == 5,
        f"JAX sees {n} leaves in a TrainState holding a step, 2 params and 2 EMA params (expected 5): "
        "JAX does not know how to look inside it, so it cannot pass through jax.jit",
        f"一个装有 step、2 个参数和 2 个 EMA 参数的 TrainState，JAX 在其中只看到 {n} 个叶子（应为 5 个）："
        "JAX 不知道如何拆开它，所以它无法穿过 jax.jit",
    )


@check("jitted", depends=["defines"])
def check_jitted(ema_train_step, TrainState):
    fn = ema_train_step
    if is_jitted(fn):
        return
    # A thin wrapper around a jitted call is fine: every output must come out of a compiled program.
    x, y = as_float32(XN[:3]), as_float32(YN[:3])
    try:
        state = TrainState(step=jnp.int32(0), params=linear(0.0, 0.0), ema_params=linear(0.0, 0.0))
    except TypeError:
        state = None  # the state-type check reports this
    run = None if state is None else lambda s, xx, yy: fn(s, xx, yy, 0.1, 0.9)
    expect_compiled(fn, "ema_train_step", run, state, x, y)


@check("step", depends=["state-type"])
def check_step(TrainState, ema_train_step):
    x, y = as_float32(XN), as_float32(YN)
    state = TrainState(step=jnp.int32(3), params=linear(1.5, -0.5), ema_params=linear(0.2, 0.3))
    new = call(ema_train_step, state, x, y, 0.1, 0.8, label="ema_train_step(state, x, y, 0.1, 0.8)")
    for field in ("step", "params", "ema_params"):
        expect(
            hasattr(new, field),
            f"ema_train_step returned a {type(new).__name__} without `{field}`; return a new TrainState",
            f"ema_train_step 返回的 {type(new).__name__} 没有 `{field}`；应返回新的 TrainState",
        )
    # An integer of any width: int64 is what the learner's mode gives under JAX_ENABLE_X64.
    kind = np.asarray(new.step).dtype
    expect(
        np.issubdtype(kind, np.integer),
        f"the new step has dtype {kind}; the step counter should stay an integer (add the int 1)",
        f"新的 step 的 dtype 是 {kind}；步数计数器应保持为整数（加整数 1）",
    )
    close(new.step, np.float64(4), what=("step after one call starting from step=3", "从 step=3 开始调用一次后的 step"))
    # A run resumed past 2**24 steps: float32 holds integers exactly only up to there, so a step
    # counted through a float and cast back stops counting; an integer step counts on.
    big = 2**24 + 1
    state = TrainState(step=jnp.int32(big), params=linear(1.5, -0.5), ema_params=linear(0.2, 0.3))
    resumed = call(ema_train_step, state, x, y, 0.1, 0.8, label=f"ema_train_step(state at step {big}, ...)").step
    got, narrow = int(resumed), np.asarray(resumed).dtype
    top = int(np.iinfo(narrow).max) if np.issubdtype(narrow, np.integer) else big + 1
    # An integer narrower than the given int32 wraps long before 2**24: name the dtype, not a float.
    expect(
        got == big + 1 or top >= big + 1,
        f"from step={big} (2**24 + 1, a run resumed after many steps) the new step is {got}, not {big + 1}: "
        f"it comes back as {narrow}, which holds integers only up to {top} and wraps. Keep the "
        "step in its own dtype: `state.step + 1`, with no cast to a narrower integer",
        f"从 step={big}（2**24 + 1，训练了很多步之后恢复）开始，新的 step 是 {got}，而不是 {big + 1}："
        f"它以 {narrow} 返回，而 {narrow} 只能表示到 {top} 的整数，超过就会回绕。"
        "请让 step 保持自己的 dtype：`state.step + 1`，不要转换成更窄的整数",
    )

    def step_from(start):
        state = TrainState(step=jnp.int32(start), params=linear(1.5, -0.5), ema_params=linear(0.2, 0.3))
        return int(
            call(ema_train_step, state, x, y, 0.1, 0.8, label=f"ema_train_step(state at step {start}, ...)").step
        )

    cause = narrow_count(step_from, big, got)
    if cause is not None:
        fail(
            f"from step={big} (2**24 + 1, a run resumed after many steps) the new step is {got}, not {big + 1}: "
            f"{cause[0]}",
            f"从 step={big}（2**24 + 1，训练了很多步之后恢复）开始，新的 step 是 {got}，而不是 {big + 1}：{cause[1]}",
        )
    expect(
        got == big + 1,
        f"from step={big} (2**24 + 1, a run resumed past the integers float32 holds exactly) the new step is "
        f"{got}, not {big + 1}: the step was counted through a float and cast back. Add the integer 1 in the "
        "step's own dtype: `state.step + 1`",
        f"从 step={big}（2**24 + 1，恢复的训练已超过 float32 能精确表示的整数范围）开始，新的 step 是 {got}，"
        f"而不是 {big + 1}：step 经过了浮点数再转换回来。请在 step 自己的 dtype 里加整数 1：`state.step + 1`",
    )


@check("sgd", depends=["step"])
def check_sgd(TrainState, ema_train_step):
    w, b = 1.5, -0.5
    state = TrainState(step=jnp.int32(0), params=linear(w, b), ema_params=linear(0.0, 0.0))
    steps = [(0.1, 0.8, XN, YN), (0.05, 0.9, X4, Y4), (0.02, 0.5, X9, Y9), (0.001, 0.7, XB, YB)]
    for k, (lr, decay, xn, yn) in enumerate(steps, start=1):
        state = ema_train_step(state, as_float32(xn), as_float32(yn), lr, decay)
        r = w * xn + b - yn
        gw, gb = 2 * np.mean(r * xn), 2 * np.mean(r)
        got = np.array([float(state.params["w"]), float(state.params["b"])])
        if np.allclose(got, [w, b], rtol=1e-7, atol=1e-9):
            fail(
                f"step {k}: the params did not move ({np.round(got, 6).tolist()} before and after) although the "
                f"gradient of the loss there is ({gw:.4g}, {gb:.4g}): nothing flows back to them. Is the loss "
                "differentiated with respect to something else, or are the params under `lax.stop_gradient`?",
                f"第 {k} 步：参数没有移动（前后都是 {np.round(got, 6).tolist()}），而那里损失的梯度是 "
                f"({gw:.4g}, {gb:.4g})：没有梯度传回到它们。是不是对别的东西求了导，或者参数被包在 `lax.stop_gradient` 里？",
            )
        for m in (6,) if xn.size != 6 else ():
            gw_m, gb_m = 2 * np.sum(r * xn) / m, 2 * np.sum(r) / m
            if np.allclose(got, [w - lr * gw_m, b - lr * gb_m], rtol=1e-5, atol=1e-6):
                fail(
                    f"step {k}: params moved to {np.round(got, 6).tolist()}: your loss divides the sum by {m}, but "
                    f"this batch has {xn.size} examples. Take the mean over the batch (`jnp.mean`), whatever its size",
                    f"第 {k} 步：参数变成 {np.round(got, 6).tolist()}：你的损失把总和除以 {m}，但这一批有 {xn.size} 个样本。"
                    "请对整批取平均（`jnp.mean`），不管它有多大",
                )
        if np.allclose(got, [w - lr * gw / 2, b - lr * gb / 2], rtol=1e-5, atol=1e-6):
            fail(
                f"step {k}: params moved to {np.round(got, 6).tolist()}, half the SGD step: the gradient misses the "
                "factor 2 of d/dp (pred - y)^2. Let `jax.grad(loss_fn)` derive it",
                f"第 {k} 步：参数变成 {np.round(got, 6).tolist()}，只走了 SGD 的一半：梯度漏掉了 "
                "d/dp (pred - y)^2 中的因子 2。请让 `jax.grad(loss_fn)` 来求导",
            )
        if k == 1:
            ew, eb = 0.0, 0.0  # the EMA params of this first step
            re = ew * xn + eb - yn
            if np.allclose(got, [w - lr * 2 * np.mean(re * xn), b - lr * 2 * np.mean(re)], rtol=1e-5, atol=1e-6):
                fail(
                    f"step {k}: params moved to {np.round(got, 6).tolist()}: the gradient was taken at the EMA params. "
                    "Differentiate the loss at the current params, `jax.grad(loss_fn)(state.params, x, y)`",
                    f"第 {k} 步：参数变成 {np.round(got, 6).tolist()}：梯度是在 EMA 参数处求的。"
                    "应在当前参数处对损失求导，`jax.grad(loss_fn)(state.params, x, y)`",
                )
        for fixed in (0.1, 0.01, 0.001):
            if fixed != lr and np.allclose(got, [w - fixed * gw, b - fixed * gb], rtol=1e-5, atol=1e-6):
                fail(
                    f"step {k}: params moved to {np.round(got, 6).tolist()}, a step with learning rate {fixed}, but "
                    f"this call passed lr={lr}: the `lr` argument is ignored (a hard-coded constant?)",
                    f"第 {k} 步：参数变成 {np.round(got, 6).tolist()}，对应学习率 {fixed}，而本次调用传入的是 "
                    f"lr={lr}：`lr` 参数被忽略了（是否写死了常数？）",
                )
        if np.allclose(got, [w + lr * gw, b + lr * gb], rtol=1e-5, atol=1e-6):
            fail(
                f"step {k}: params moved to {np.round(got, 6).tolist()} = p + lr * grad: that climbs the loss; subtract the gradient",
                f"第 {k} 步：参数变成 {np.round(got, 6).tolist()} = p + lr * grad：这是沿损失上升；应减去梯度",
            )
        clipped_note(k, (w, b), got, lr, (gw, gb))
        w, b = w - lr * gw, b - lr * gb
        close(
            state.params,
            {"w": w, "b": b},
            what=(
                f"params after step {k} (lr={lr}, {xn.size} examples)",
                f"第 {k} 步后的参数（lr={lr}，{xn.size} 个样本）",
            ),
        )


def clipped_note(k, before, got, lr, grad):
    """A failure where the step taken is the gradient's, shortened where the gradient is large: the
    gradient (or the update) was clipped, which the task's SGD does not do."""
    moved, g = (np.asarray(before) - got) / lr, np.asarray(grad)
    if np.allclose(moved, g, rtol=1e-3, atol=1e-3) or not np.all(np.sign(moved) == np.sign(g)):
        return
    if np.all(np.abs(moved) <= np.abs(g) * 1.001) and np.max(np.abs(moved)) < 0.99 * np.max(np.abs(g)):
        fail(
            f"step {k} (lr={lr}, a batch where the loss is steep): params moved by lr × {fmt_pair(moved)}, but the "
            f"gradient there is {fmt_pair(g)}: the step is shorter where the gradient is large, as if the gradient "
            "(or the update) were clipped. Plain SGD has no clip: p - lr * grad, whatever the gradient's size",
            f"第 {k} 步（lr={lr}，损失很陡的一批）：参数移动了 lr × {fmt_pair(moved)}，而那里的梯度是 "
            f"{fmt_pair(g)}：梯度大的地方步子反而变短，像是梯度（或更新量）被截断了。普通 SGD 没有截断："
            "p - lr * grad，不管梯度多大",
        )


def fmt_pair(v):
    return f"({v[0]:.4g}, {v[1]:.4g})"


@check("ema", depends=["sgd"])
def check_ema(TrainState, ema_train_step):
    xn, yn = XN, YN
    x, y = as_float32(xn), as_float32(yn)

    def as_np(tree):
        return np.array([float(tree["w"]), float(tree["b"])])

    state = TrainState(step=jnp.int32(0), params=linear(1.5, -0.5), ema_params=linear(0.2, 0.3))
    # decay 0.999 (a usual value, past where a clip to 0.99 would show) and 0: the formula holds at both ends
    for k, (lr, decay) in enumerate([(0.1, 0.8), (0.05, 0.9), (0.2, 0.6), (0.1, 0.999), (0.1, 0.0)], start=1):
        before, ema = as_np(state.params), as_np(state.ema_params)
        state = ema_train_step(state, x, y, lr, decay)
        after, got = as_np(state.params), as_np(state.ema_params)

        def same(want):
            return np.allclose(got, want, rtol=1e-5, atol=1e-6)

        from_before = decay * ema + (1 - decay) * before
        from_after = decay * ema + (1 - decay) * after
        if same(from_before) or same(from_after):
            continue
        if same((1 - decay) * ema + decay * before) or same((1 - decay) * ema + decay * after):
            fail(
                f"step {k} (decay={decay}): ema_params = {np.round(got, 6).tolist()} = (1 - decay) * ema + decay * params; "
                "the weights are swapped, so the EMA mostly follows the current params. It should keep `decay` of the old EMA",
                f"第 {k} 步（decay={decay}）：ema_params = {np.round(got, 6).tolist()} = (1 - decay) * ema + decay * params；"
                "权重弄反了，EMA 基本上跟着当前参数走。应保留旧 EMA 的 `decay` 倍",
            )
        for fixed in (0.9, 0.99, 0.999):
            if fixed != decay and (same(fixed * ema + (1 - fixed) * before) or same(fixed * ema + (1 - fixed) * after)):
                if k > 3 and decay > fixed:  # the first three decays were followed: this one was bounded
                    fail(
                        f"step {k}: ema_params = {np.round(got, 6).tolist()} is an EMA with decay {fixed}, but this "
                        f"call passed decay={decay}, and the decays of the steps before were followed: decay looks "
                        f"clipped to at most {fixed}. The formula holds for any decay in [0, 1], 0.999 included",
                        f"第 {k} 步：ema_params = {np.round(got, 6).tolist()} 对应的衰减率是 {fixed}，而本次调用传入的是 "
                        f"decay={decay}，之前几步的 decay 都被采用了：decay 像是被截断到不超过 {fixed}。"
                        "公式对 [0, 1] 内的任何 decay 都成立，包括 0.999",
                    )
                fail(
                    f"step {k}: ema_params = {np.round(got, 6).tolist()} is an EMA with decay {fixed}, but this call "
                    f"passed decay={decay}: the `decay` argument is ignored (a hard-coded constant?)",
                    f"第 {k} 步：ema_params = {np.round(got, 6).tolist()} 对应的衰减率是 {fixed}，而本次调用传入的是 "
                    f"decay={decay}：`decay` 参数被忽略了（是否写死了常数？）",
                )
        if same(ema):
            fail(
                f"step {k}: ema_params did not change ({np.round(got, 6).tolist()}); the new state must carry the updated EMA",
                f"第 {k} 步：ema_params 没有变化（{np.round(got, 6).tolist()}）；新状态必须带上更新后的 EMA",
            )
        fail(
            f"step {k} (decay={decay}): ema_params (w, b) = {np.round(got, 6).tolist()}; expected "
            f"{np.round(from_after, 6).tolist()} (EMA of the updated params) or {np.round(from_before, 6).tolist()} "
            "(EMA of the params before the update)",
            f"第 {k} 步（decay={decay}）：ema_params (w, b) = {np.round(got, 6).tolist()}；应为 "
            f"{np.round(from_after, 6).tolist()}（对更新后参数取 EMA）或 {np.round(from_before, 6).tolist()}"
            "（对更新前参数取 EMA）",
        )


@check("dynamic", depends=["jitted", "ema"])
def check_dynamic(ema_train_step, TrainState):
    x, y = as_float32(XN), as_float32(YN)
    state = TrainState(step=jnp.int32(0), params=linear(1.5, -0.5), ema_params=linear(1.5, -0.5))
    settings = [(0.1, 0.9), (0.05, 0.8), (0.2, 0.95), (0.01, 0.5)]
    fn = ema_train_step
    if is_jitted(fn):
        step = traced(fn, "ema_train_step")
        for lr, decay in settings:
            state = step(state, x, y, lr, decay)
        expect_traces(step, 1, calls=len(settings))
    else:
        box = [state]  # a wrapper: the first (lr, decay) may compile, the others must not

        def one(setting):
            lr, decay = setting
            box[0] = call(fn, box[0], x, y, lr, decay, label=f"ema_train_step(state, x, y, {lr}, {decay})")

        expect_one_program(
            one, settings, "ema_train_step", ("(lr, decay) values", "(lr, decay) 取值"), "`static_argnames=('decay',)`"
        )
        state = box[0]
    close(state.step, np.float64(len(settings)), what=("step after 4 calls", "调用 4 次后的 step"))


@check("training", depends=["dynamic"], plots=True)
def check_training(TrainState, ema_train_step):
    rng = np.random.default_rng(8)
    xn = rng.uniform(-1.0, 1.0, 32)
    true_w, true_b = 2.5, 1.0
    x, y = jnp.asarray(xn, jnp.float32), jnp.asarray(true_w * xn + true_b, jnp.float32)

    state = TrainState(step=jnp.int32(0), params=linear(0.0, 0.0), ema_params=linear(0.0, 0.0))

    def dist(tree):
        return float(np.hypot(float(tree["w"]) - true_w, float(tree["b"]) - true_b))

    start = dist({"w": 0.0, "b": 0.0})
    p_hist, e_hist = [], []
    for t in range(1, 101):
        state = ema_train_step(state, x, y, 0.1, 0.9)
        p_hist.append(dist(state.params))
        e_hist.append(dist(state.ema_params))
        metric("params", t, p_hist[-1])
        metric("ema", t, e_hist[-1])
    close(state.step, np.float64(100), what=("step after 100 calls", "调用 100 次后的 step"))
    expect(
        p_hist[-1] < 0.05 * start,
        f"after 100 steps the params are still {p_hist[-1]:.4g} away from the true (w, b) (they started {start:.4g} away); "
        "expected under 5% of the starting distance",
        f"100 步后参数离真实 (w, b) 仍有 {p_hist[-1]:.4g}（起点距离 {start:.4g}）；应降到起点距离的 5% 以下",
    )
    expect(
        e_hist[-1] < 0.2 * start,
        f"after 100 steps the EMA is still {e_hist[-1]:.4g} away from the true (w, b) (start {start:.4g}); "
        "expected under 20% of the starting distance",
        f"100 步后 EMA 离真实 (w, b) 仍有 {e_hist[-1]:.4g}（起点距离 {start:.4g}）；应降到起点距离的 20% 以下",
    )
    lead = [t + 1 for t in range(100) if e_hist[t] < p_hist[t] - 1e-4]
    expect(
        not lead,
        f"at step {lead[0] if lead else 0} the EMA is closer to the truth than the params themselves "
        f"({e_hist[lead[0] - 1] if lead else 0:.4g} < {p_hist[lead[0] - 1] if lead else 0:.4g}); "
        "an average of past params should lag behind them",
        f"第 {lead[0] if lead else 0} 步时 EMA 比参数本身更接近真值"
        f"（{e_hist[lead[0] - 1] if lead else 0:.4g} < {p_hist[lead[0] - 1] if lead else 0:.4g}）；"
        "对历史参数的平均应当落后于参数本身",
    )
    jumps = [t + 1 for t in range(1, 100) if e_hist[t] > e_hist[t - 1] + 1e-4]
    expect(
        not jumps,
        f"the EMA moved away from the truth at step {jumps[0] if jumps else 0}; on this smooth problem it should approach steadily",
        f"EMA 在第 {jumps[0] if jumps else 0} 步远离了真值；在这个平滑的问题上它应当稳步接近",
    )


@check("no-hidden-state", depends=["step"])
def check_no_hidden_state(learner):
    state = learner.TrainState(step=jnp.int32(3), params=linear(1.5, -0.5), ema_params=linear(0.2, 0.3))
    expect_no_hidden_state(
        learner,
        learner.ema_train_step,
        state,
        as_float32(XN),
        as_float32(YN),
        0.1,
        0.8,
        label="ema_train_step(state, x, y, 0.1, 0.8)",
    )
