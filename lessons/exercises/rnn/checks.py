"""The checks of `rnn`: An RNN's hidden state as the carry of lax.scan."""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from tutor.child.library import (
    as_float32,
    check,
    close,
    expect,
    expect_no_hidden_state,
    expect_primitive,
    fail,
    grad_check,
    is_defined,
    primitive_counts,
    run_training,
    structure,
)

# output-shape, first-step and carries-state run rnn_forward on one shape (hidden size H, input
# size D, T steps; all different, so a mixed-up axis shows): one compiled program serves all three.
H, D, T = 6, 2, 9


@check("defines")
def check_defines(rnn_forward):
    is_defined(rnn_forward=rnn_forward)


@check("output-shape", depends=["defines"])
def check_output_shape(rnn_forward):
    rng = np.random.default_rng(3)
    params = {
        "Wh": as_float32(0.4 * rng.standard_normal((H, H))),
        "Wx": as_float32(rng.standard_normal((D, H))),
        "b": as_float32(0.1 * rng.standard_normal(H)),
        "Wo": as_float32(rng.standard_normal((H, 1))),
    }
    xs = as_float32(rng.uniform(-1, 1, (T, D)))
    ys = jax.jit(rnn_forward)(params, xs)
    shape = np.shape(ys)
    if shape != (T, 1):
        why_en, why_zh = "", ""
        if shape in ((), (1,), (1, 1), (H,), (1, H)):
            why_en = (
                ": that is only one step. Return the outputs stacked over all the steps (the second result of lax.scan)"
            )
            why_zh = "：这只是一步的结果。请返回所有步堆叠起来的输出（lax.scan 的第二个返回值）"
        elif shape == (T, H):
            why_en = f": these look like the hidden states h_t (H = {H}). Multiply each by Wo: y_t = h_t @ Wo"
            why_zh = f"：这看起来是隐藏状态 h_t(H = {H})。还要乘以 Wo：y_t = h_t @ Wo"
        elif shape == (T,):
            why_en = ": each y_t should keep its shape (1,), as h_t @ Wo gives with Wo of shape (H, 1); do not squeeze or index it"
            why_zh = (
                "：每个 y_t 应保持 (1,) 的形状，正如 Wo 形状为 (H, 1) 时 h_t @ Wo 给出的那样；不要 squeeze 或取下标"
            )
        elif len(shape) == 3 and shape[0] == T:
            why_en = ": each step emits a 2-D y_t. Keep the hidden state a vector of shape (H,): h_0 = jnp.zeros(H), not (1, H)"
            why_zh = "：每一步输出的 y_t 是二维的。隐藏状态应是形状为 (H,) 的向量：h_0 = jnp.zeros(H)，而不是 (1, H)"
        fail(
            f"for xs of shape {(T, D)} and H = {H} the output should have shape {(T, 1)}, one y_t per step; got {shape}{why_en}",
            f"xs 形状为 {(T, D)}、H = {H} 时输出应为 {(T, 1)}，每步一个 y_t；实际为 {shape}{why_zh}",
        )
    # A sequence of one step: squeezing the outputs and adding an axis back gives (T, 1) for any
    # other length. Shapes only (eval_shape): no extra compile.
    try:
        one = np.shape(jax.eval_shape(rnn_forward, params, xs[:1]))
    except (IndexError, ValueError, TypeError) as exc:
        fail(
            f"for a sequence of one step (xs of shape {(1, D)}) rnn_forward raised {type(exc).__name__}: {exc}. "
            "T = 1 is a sequence too: return lax.scan's stacked outputs as they are, (T, 1), without squeezing them",
            f"对只有一步的序列（xs 形状为 {(1, D)}），rnn_forward 抛出了 {type(exc).__name__}：{exc}。"
            "T = 1 也是一个序列：请原样返回 lax.scan 堆叠的输出 (T, 1)，不要 squeeze",
        )
    expect(
        one == (1, 1),
        f"for a sequence of one step (xs of shape {(1, D)}) the output has shape {one}, not (1, 1): a squeeze "
        "removed the time axis along with the size-1 output axis. Return lax.scan's stacked outputs as they are",
        f"对只有一步的序列（xs 形状为 {(1, D)}），输出形状是 {one} 而不是 (1, 1)：squeeze 把长度为 1 的时间轴"
        "和输出轴一起去掉了。请原样返回 lax.scan 堆叠的输出",
    )


@check("first-step", depends=["output-shape"])
def check_first_step(rnn_forward):
    rng = np.random.default_rng(31)
    P = {
        "Wh": 0.5 * rng.standard_normal((H, H)),
        "Wx": rng.standard_normal((D, H)),
        "b": 0.5 * rng.standard_normal(H),
        "Wo": rng.standard_normal((H, 1)),
    }
    xs = rng.uniform(-1.5, 1.5, (T, D))
    params = as_float32(P)
    ys = np.asarray(jax.jit(rnn_forward)(params, as_float32(xs)), np.float64)
    pre = xs[0] @ P["Wx"] + P["b"]
    want = np.tanh(pre) @ P["Wo"]

    def backwards(column):
        h, out = np.zeros(H), []
        for x in xs[::-1]:
            h = np.tanh((P["Wh"] @ h if column else h @ P["Wh"]) + x @ P["Wx"] + P["b"])
            out.append(h @ P["Wo"])
        return out[::-1][0]

    if not np.allclose(ys[0], want, rtol=1e-4, atol=1e-5):
        ones = np.ones(H)
        mistakes = [
            (
                np.zeros(1),
                "y_1 is 0: the output comes from the OLD hidden state h_0 = 0. Emit the NEW one: return h, h @ Wo after computing h",
                "y_1 是 0：输出来自旧的隐藏状态 h_0 = 0。应在算出新的 h 之后输出它：`return h, h @ Wo`",
            ),
            (
                pre @ P["Wo"],
                "y_1 = (x_1 Wx + b) Wo: tanh is missing on the hidden state",
                "y_1 = (x_1 Wx + b) Wo：隐藏状态上缺少 tanh",
            ),
            (
                np.tanh(xs[0] @ P["Wx"]) @ P["Wo"],
                "y_1 = tanh(x_1 Wx) Wo: the bias b is missing inside tanh",
                "y_1 = tanh(x_1 Wx) Wo：tanh 里缺少偏置 b",
            ),
            (
                np.tanh(np.tanh(pre) @ P["Wo"]),
                "y_1 = tanh(h_1 Wo): the output is linear, y_t = h_t Wo, without tanh",
                "y_1 = tanh(h_1 Wo)：输出是线性的，y_t = h_t Wo，不要套 tanh",
            ),
            (
                np.tanh(ones @ P["Wh"] + pre) @ P["Wo"],
                "your y_1 matches a start from h_0 = ones: the hidden state starts at zeros",
                "你的 y_1 对应的是 h_0 = 全 1 的起点：隐藏状态应从全零开始",
            ),
            (
                np.tanh(P["Wh"] @ ones + pre) @ P["Wo"],
                "your y_1 matches a start from h_0 = ones: the hidden state starts at zeros",
                "你的 y_1 对应的是 h_0 = 全 1 的起点：隐藏状态应从全零开始",
            ),
            (
                backwards(False),
                "your outputs match a scan that runs backwards over xs (reverse=True): read xs from t = 1 to T",
                "你的输出对应的是倒着遍历 xs 的 scan(reverse=True)：应从 t = 1 读到 T",
            ),
            (
                backwards(True),
                "your outputs match a scan that runs backwards over xs (reverse=True): read xs from t = 1 to T",
                "你的输出对应的是倒着遍历 xs 的 scan(reverse=True)：应从 t = 1 读到 T",
            ),
        ]
        for value, en, zh in mistakes:
            if np.allclose(ys[0], value, rtol=1e-4, atol=1e-5):
                fail(
                    f"first output: expected y_1 = tanh(x_1 Wx + b) Wo = {want[0]:.6g}, got {ys[0][0]:.6g}. {en}",
                    f"第一个输出：应为 y_1 = tanh(x_1 Wx + b) Wo = {want[0]:.6g}，得到 {ys[0][0]:.6g}。{zh}",
                )
    close(ys[0], want, what="y_1 (the first output)", rtol=1e-4, atol=1e-5)


@check("carries-state", depends=["first-step"])
def check_carries_state(rnn_forward):
    rng = np.random.default_rng(32)
    P = {
        "Wh": 0.6 * rng.standard_normal((H, H)),
        "Wx": rng.standard_normal((D, H)),
        "b": 0.3 * rng.standard_normal(H),
        "Wo": rng.standard_normal((H, 1)),
    }
    xs = rng.uniform(-1, 1, (T, D))
    params = as_float32(P)
    got = np.asarray(jax.jit(rnn_forward)(params, as_float32(xs)), np.float64)

    def reference(mode, xs=xs):
        h, ys = np.zeros(H), []
        for x in xs:
            if mode == "reset":
                h = np.zeros(H)
            rec = P["Wh"] @ h if mode == "column" else h @ P["Wh"]
            h = np.tanh(rec + x @ P["Wx"] + P["b"])
            ys.append(h @ P["Wo"])
        return np.array(ys)

    errors = {mode: float(np.max(np.abs(got - reference(mode)))) for mode in ("row", "column", "reset")}
    if min(errors["row"], errors["column"]) > 1e-4:
        best = "row" if errors["row"] <= errors["column"] else "column"
        diff = np.abs(got - reference(best)).reshape(-1)
        t_bad = int(np.argmax(diff > 1e-4)) + 1
        if errors["reset"] < 1e-4:
            fail(
                f"your outputs equal those of an RNN whose hidden state is reset to zero at every step "
                f"(first mismatch at t={t_bad}): the step must return the new h as the carry and use it next time",
                f"你的输出与每一步都把隐藏状态清零的 RNN 完全相同（第一次不一致出现在 t={t_bad}）："
                "step 必须把新的 h 作为 carry 返回，并在下一步使用它",
            )
        fail(
            f"outputs differ from h_t = tanh(h_(t-1) Wh + x_t Wx + b), y_t = h_t Wo (either orientation of Wh) "
            f"from t={t_bad} on: largest error {min(errors['row'], errors['column']):.3g}; got {got[:, 0].round(4).tolist()}, "
            f"expected {reference(best)[:, 0].round(4).tolist()}",
            f"从 t={t_bad} 开始，输出与 h_t = tanh(h_(t-1) Wh + x_t Wx + b)、y_t = h_t Wo（Wh 两种方向均可）不符："
            f"最大误差 {min(errors['row'], errors['column']):.3g}；得到 {got[:, 0].round(4).tolist()}，"
            f"应为 {reference(best)[:, 0].round(4).tolist()}",
        )
    # Inputs 100 times larger: pre-activations far past 88, where exp overflows float32. tanh
    # saturates at ±1 there; (e^z - e^-z) / (e^z + e^-z) gives inf / inf = NaN.
    best = "row" if errors["row"] <= errors["column"] else "column"
    big = 100.0 * xs
    got = np.asarray(jax.jit(rnn_forward)(params, as_float32(big)), np.float64)
    want = reference(best, big)
    bad = np.flatnonzero(~np.isfinite(got.reshape(-1)))
    expect(
        not len(bad),
        f"with inputs 100 times larger (pre-activations up to about {np.max(np.abs(big @ P['Wx'])):.0f}), the "
        f"outputs hold NaN or inf from t={int(bad[0]) + 1 if len(bad) else 0} on: tanh is 1 or -1 there, but "
        "(exp(z) - exp(-z)) / (exp(z) + exp(-z)) overflows once |z| passes about 88 (exp(89) is inf in float32). "
        "Use jnp.tanh",
        f"输入放大 100 倍后（预激活值最大约 {np.max(np.abs(big @ P['Wx'])):.0f}），从 "
        f"t={int(bad[0]) + 1 if len(bad) else 0} 起输出出现 NaN 或 inf：此时 tanh 应为 1 或 -1，但 "
        "(exp(z) - exp(-z)) / (exp(z) + exp(-z)) 在 |z| 超过约 88 时就会溢出（float32 中 exp(89) 是 inf）。"
        "请使用 jnp.tanh",
    )
    close(
        got,
        want,
        what=("outputs for inputs 100 times larger (saturated tanh)", "输入放大 100 倍时的输出（tanh 饱和）"),
        rtol=1e-4,
        atol=1e-4,
    )


@check("uses-scan", depends=["output-shape"])
def check_uses_scan(rnn_forward):
    params = {
        "Wh": as_float32(0.5 * np.eye(3)),
        "Wx": as_float32(np.ones((1, 3))),
        "b": as_float32(np.zeros(3)),
        "Wo": as_float32(np.ones((3, 1))),
    }
    xs = as_float32(np.linspace(-1.0, 1.0, 5).reshape(5, 1))
    expect_primitive(rnn_forward, (params, xs), "scan", what="rnn_forward")
    # The scan must carry the recurrence: a Python loop over the time steps beside a scan that only
    # maps hidden states to outputs is unrolled into one copy of the step per time step, so its
    # program grows with the length of the sequence; a scan's does not.
    sizes = [program_size(rnn_forward, params, as_float32(np.linspace(-1.0, 1.0, t).reshape(t, 1))) for t in (5, 9)]
    expect(
        sizes[1] <= sizes[0],
        f"rnn_forward's program has {sizes[0]} operations for a sequence of 5 steps and {sizes[1]} for 9: it grows "
        "with the sequence, so the recurrence is unrolled (a Python loop over the time steps) and the scan "
        "there does not carry h. Put the step itself in the scan's body: lax.scan(step, h0, xs), with "
        "step(h, x) -> (new_h, y)",
        f"rnn_forward 的程序在 5 步的序列上有 {sizes[0]} 个操作，在 9 步的序列上有 {sizes[1]} 个：程序随序列变长而增大，"
        "说明递推被展开了（对时间步的 Python 循环），程序里的 scan 并没有传递 h。请把这一步本身放进 scan 的循环体："
        "lax.scan(step, h0, xs)，其中 step(h, x) -> (new_h, y)",
    )
    # The task names the mechanism: h is a scan's carry. A scan that carries nothing of h's size
    # (the recurrence in a while_loop or a Python loop, the scan only mapping h_t to y_t) is not it.
    carried = scan_carries(rnn_forward, params, xs)
    expect(
        any(size == 3 for size in carried),
        f"the scan in rnn_forward carries {describe_carries(carried)}, nothing of the hidden state's size "
        "(H = 3 here): h is updated somewhere else (a lax.while_loop, a Python loop) and the scan only "
        "emits outputs. The task asks for the recurrence in lax.scan itself: lax.scan(step, h0, xs), with "
        "step(h, x) -> (new_h, y), so h is the scan's carry",
        f"rnn_forward 中的 scan 传递的是 {describe_carries(carried, zh=True)}，没有隐藏状态大小的值（这里 H = 3）："
        "h 在别处更新（lax.while_loop、Python 循环），scan 只负责输出。题目要求递推本身在 lax.scan 里："
        "lax.scan(step, h0, xs)，其中 step(h, x) -> (new_h, y)，这样 h 就是 scan 的 carry",
    )


def consts_and_carry(params) -> tuple[int, int]:
    """How many of a scan's operands are constants, and how many the carry, after them. JAX 0.10
    names the counts (num_consts, num_carry); JAX 0.12 groups the operands (ft_in, a FlatTree of consts,
    carry, xs), and moves a carry the body never changes to the constants."""
    if "num_carry" in params:
        return params["num_consts"], params["num_carry"]
    consts, carry, _ = params["ft_in"].unpack()  # a FlatTree of (consts, carry, xs)
    return len(list(consts.vals)), len(list(carry.vals))


def scan_carries(fn, *args) -> list[int]:
    """The sizes of the float values every scan in fn's program carries, nested scans included."""
    sizes, stack = [], [jax.make_jaxpr(fn)(*args).jaxpr]
    while stack:
        for eqn in stack.pop().eqns:
            if eqn.primitive.name == "scan":
                start, count = consts_and_carry(eqn.params)
                for var in eqn.invars[start : start + count]:
                    if jnp.issubdtype(var.aval.dtype, jnp.floating):
                        sizes.append(int(np.prod(var.aval.shape)))
            for value in eqn.params.values():
                for item in value if isinstance(value, (tuple, list)) else (value,):
                    inner = getattr(item, "jaxpr", item)
                    if hasattr(inner, "eqns"):
                        stack.append(inner)
    return sizes


def describe_carries(sizes: list[int], zh: bool = False) -> str:
    if not sizes:
        return "无浮点值" if zh else "no float value"
    return ("大小为 " if zh else "float values of sizes ") + ", ".join(map(str, sizes))


def program_size(fn, *args):
    """How many operations fn's program holds on these arguments, nested programs included."""
    return sum(primitive_counts(fn, *args).values())


@check("gradients", depends=["carries-state", "uses-scan"])
def check_gradients(rnn_forward):
    rng = np.random.default_rng(33)
    H, T = 5, 8
    P = {
        "Wh": 0.5 * rng.standard_normal((H, H)),
        "Wx": rng.standard_normal((1, H)),
        "b": 0.2 * rng.standard_normal(H),
        "Wo": rng.standard_normal((H, 1)),
    }
    params = as_float32(P)
    xs = as_float32(rng.uniform(-1, 1, (T, 1)))
    weights = as_float32(np.linspace(0.2, 1.0, T))

    def loss(p):
        return jnp.sum(weights * rnn_forward(p, xs)[:, 0] ** 2)

    # One compiled program for the gradient and every finite difference (each parameter's
    # dictionary is built outside it): a jit per parameter recompiled the RNN four more times.
    value_and_grad = jax.jit(jax.value_and_grad(loss))
    grads = value_and_grad(params)[1]
    structure(grads, params, what="jax.grad(loss)(params)")

    def loss_at(p):
        return value_and_grad(p)[0]

    for k in ("Wo", "b", "Wx", "Wh"):  # one parameter at a time, so the message names it
        loss_k = lambda leaf, k=k: loss_at({**params, k: leaf})  # noqa: E731
        grad_check(loss_k, params[k], grads[k], what=f"jax.grad(loss)(params)['{k}']", directions=2)
    grad_check(loss_at, params, grads, what="gradient of a loss on rnn_forward", directions=4)


@check("trains", depends=["carries-state", "uses-scan"], plots=True)
def check_trains(rnn_forward):
    rng = np.random.default_rng(21)
    H, T, N = 16, 12, 32
    X = rng.uniform(-1, 1, (N, T, 1))
    Xj = as_float32(X)
    Yj = as_float32(0.3 * np.cumsum(X, axis=1))
    P = {
        "Wh": rng.standard_normal((H, H)) * 0.5 / np.sqrt(H),
        "Wx": rng.standard_normal((1, H)),
        "b": np.zeros(H),
        "Wo": rng.standard_normal((H, 1)) / np.sqrt(H),
    }
    params = as_float32(P)
    batched = jax.vmap(rnn_forward, in_axes=(None, 0))
    lr = 0.01

    def loss_fn(p):
        return jnp.mean((batched(p, Xj) - Yj) ** 2)

    @jax.jit
    def twenty_steps(carry):
        def body(carry, _):
            p, m, v, t = carry
            loss, g = jax.value_and_grad(loss_fn)(p)
            t = t + 1
            m = jax.tree.map(lambda a, b: 0.9 * a + 0.1 * b, m, g)
            v = jax.tree.map(lambda a, b: 0.999 * a + 0.001 * b * b, v, g)
            p = jax.tree.map(
                lambda q, a, b: q - lr * (a / (1 - 0.9**t)) / (jnp.sqrt(b / (1 - 0.999**t)) + 1e-8), p, m, v
            )
            return (p, m, v, t), loss

        return lax.scan(body, carry, None, length=20)

    m = as_float32(jax.tree.map(np.zeros_like, P))  # (made in NumPy: no XLA program per shape)
    v = as_float32(jax.tree.map(np.zeros_like, P))
    steps = 3000  # long enough to watch the loss fall on the live chart, chunk by chunk
    _, losses = run_training(twenty_steps, (params, m, v, jnp.float32(0)), steps, long=True)
    final = float(np.median(losses[-100:]))  # the median: robust to Adam's brief late spikes
    expect(
        final < 0.01 * losses[0],
        f"after {steps} Adam steps the loss went from {losses[0]:.4g} to {final:.4g} (median of the last 100 steps); "
        "expected below 1% of the start",
        f"Adam 训练 {steps} 步后损失从 {losses[0]:.4g} 变为 {final:.4g}（最后 100 步的中位数）；应降到初始值的 1% 以下",
    )


@check("no-hidden-state", depends=["carries-state"])
def check_no_hidden_state(learner):
    rng = np.random.default_rng(32)
    params = as_float32(
        {
            "Wh": 0.5 * rng.standard_normal((H, H)),
            "Wx": rng.standard_normal((D, H)),
            "b": 0.5 * rng.standard_normal(H),
            "Wo": rng.standard_normal((H, 1)),
        }
    )
    xs = as_float32(rng.uniform(-1.5, 1.5, (T, D)))
    expect_no_hidden_state(learner, learner.rnn_forward, params, xs, label="rnn_forward(params, xs)")
