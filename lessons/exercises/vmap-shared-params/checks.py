"""The checks of `vmap-shared-params`: Batch the data, share the params (vmap in_axes / out_axes)."""

import jax.numpy as jnp
import numpy as np

from tutor.child import witness
from tutor.child.library import (
    as_float32,
    call,
    check,
    close,
    expect,
    expect_no_hidden_state,
    fail,
    host_calls_per_example,
    is_defined,
    primitive_counts,
    primitives,
    returns,
    structure,
)


@check("defines")
def check_defines(batched_predict):
    is_defined(batched_predict=batched_predict)


@check("runs", depends=["defines"])
def check_runs(batched_predict):
    params = {"w": jnp.float32(2.0), "b": jnp.float32(1.0)}
    xs = jnp.array([1.0, 2.0, 3.0, -1.0, 0.5], jnp.float32)
    try:
        out = batched_predict(params, xs)
    except ValueError as exc:
        text = str(exc)
        first = text.splitlines()[0].rstrip("; ")
        if "requested to map" in text and "its shape is (5,)" in text:
            fail(
                "batched_predict(params with scalar w and b, xs of shape (5,)) raised ValueError: vmap was asked to "
                f"map xs along an axis it does not have ({first}). The examples are stacked along axis 0 of xs, "
                "so the entry for xs in in_axes must be 0",
                "batched_predict（w、b 为标量的 params，形状 (5,) 的 xs）抛出 ValueError：vmap 被要求沿 xs 并不存在的"
                f"维度映射（{first}）。样本沿 xs 的第 0 维堆叠，所以 xs 在 in_axes 中对应的值应为 0",
            )
        if "requested to map" in text:
            fail(
                "batched_predict(params with scalar w and b, xs of shape (5,)) raised ValueError: vmap tried to map "
                f"the params along an axis ({first}). The params are shared, not batched: "
                "their entry in in_axes must be None",
                "batched_predict（w、b 为标量的 params，形状 (5,) 的 xs）抛出 ValueError：vmap 试图沿某一维映射 params"
                f"({first})。params 是共享的，不带批维度：它在 in_axes 中对应的值应为 None",
            )
        if "out_axes" in text and "tree prefix" in text:
            if "<class 'list'>" in text:
                fail(
                    "batched_predict raised ValueError: out_axes was given as a list, but the per-example function "
                    "returns a tuple (pred, params). out_axes must have the same container type as the outputs: "
                    "write the tuple `out_axes=(0, None)`",
                    "batched_predict 抛出 ValueError：out_axes 写成了列表，而逐样本函数返回的是元组 (pred, params)。"
                    "out_axes 的容器类型必须与输出一致：请写成元组 `out_axes=(0, None)`",
                )
            fail(
                f"batched_predict raised ValueError: {first}. out_axes must mirror what the per-example function "
                "returns, one entry per output: `(0, None)` for `(pred, params)`",
                f"batched_predict 抛出 ValueError：{first}。out_axes 必须与逐样本函数的返回值一一对应："
                "对 `(pred, params)` 写 `(0, None)`",
            )
        if "out_axes[1]" in text:
            fail(
                f"batched_predict raised ValueError: {first}. The params output has out_axes None, but it depends "
                "on the example: the per-example function must hand the params back untouched, not mixed with x",
                f"batched_predict 抛出 ValueError：{first}。params 这个输出的 out_axes 为 None，它却依赖于样本："
                "逐样本函数应原样交回 params，而不是把 x 混进去",
            )
        if "out_axes" in text:
            fail(
                f"batched_predict raised ValueError: {first}. An output that differs per example "
                "(the predictions) needs out_axes 0; only the shared params can use None",
                f"batched_predict 抛出 ValueError：{first}。随样本变化的输出（预测值）"
                "需要 out_axes 为 0；只有共享的 params 可以用 None",
            )
        if "in_axes" in text:
            fail(
                f"batched_predict raised ValueError: {first}. in_axes needs one entry per positional argument of "
                "the per-example function: `(None, 0)` for `predict(params, x)`",
                f"batched_predict 抛出 ValueError：{first}。in_axes 要为逐样本函数的每个位置参数各给一项："
                "对 `predict(params, x)` 写 `(None, 0)`",
            )
        raise
    returns(out, ("preds", "params"), "batched_predict")
    expect(
        not (isinstance(out[0], dict) and not isinstance(out[1], dict)),
        "batched_predict returned (params, preds): the pair is in the wrong order. Return the predictions "
        "first and the params second, `(preds, params)`",
        "batched_predict 返回的是 (params, preds)：二元组的顺序反了。应先返回预测值、再返回参数，即 `(preds, params)`",
    )


@check("preds", depends=["runs"])
def check_preds(batched_predict):
    xs = np.array([1.0, 2.0, 3.0, -1.0, 0.5])
    preds, _ = batched_predict({"w": jnp.float32(2.0), "b": jnp.float32(1.0)}, jnp.asarray(xs, jnp.float32))
    close(
        preds,
        2.0 * xs + 1.0,
        what=("preds for w=2, b=1, xs=[1, 2, 3, -1, 0.5]", "w=2、b=1、xs=[1, 2, 3, -1, 0.5] 时的 preds"),
    )
    # The same shapes, other params: the predictions must follow the params of this call.
    for w_new, b_new in [(-3.0, 0.5), (0.25, -2.0)]:
        preds, _ = batched_predict({"w": jnp.float32(w_new), "b": jnp.float32(b_new)}, jnp.asarray(xs, jnp.float32))
        got = np.asarray(preds, np.float64)
        expect(
            not (got.shape == xs.shape and np.allclose(got, 2.0 * xs + 1.0, rtol=1e-5, atol=1e-6)),
            f"preds for w={w_new:g}, b={b_new:g} on xs of the same shape as an earlier call are that earlier call's "
            "(w=2, b=1): the batched function keeps the params it saw first (a vmapped closure over params, "
            "cached by shape?). Pass params in as an argument every call: in_axes=(None, 0)",
            f"在与之前某次调用形状相同的 xs 上，w={w_new:g}、b={b_new:g} 时的 preds 却是那次调用（w=2、b=1）的结果："
            "批处理函数记住了第一次见到的参数（按形状缓存了一个闭包引用 params 的 vmap 函数？）。"
            "每次都把 params 作为参数传入：in_axes=(None, 0)",
        )
        close(
            preds,
            w_new * xs + b_new,
            what=(
                f"preds for w={w_new:g}, b={b_new:g} after a call with w=2, b=1",
                f"在 w=2、b=1 的调用之后，w={w_new:g}、b={b_new:g} 时的 preds",
            ),
        )
    rng = np.random.default_rng(9)
    w, b, X = rng.standard_normal(3), rng.standard_normal(3), rng.standard_normal((6, 3))

    preds, _ = batched_predict({"w": as_float32(w), "b": as_float32(b)}, as_float32(X))
    got, want = np.asarray(preds, np.float64), X * w + b
    label = "preds for w, b of shape (3,) and xs of shape (6, 3)"
    label_zh = "w、b 形状为 (3,)、xs 形状为 (6, 3) 时的 preds"
    if (
        got.shape != want.shape
        and got.ndim == 2
        and got.shape == want.T.shape
        and np.allclose(got.T, want, rtol=1e-5, atol=1e-6)
    ):
        fail(
            f"{label} has shape {got.shape}, expected {want.shape}: the values are right, but the batch axis came out "
            "last instead of first. The predictions' entry in out_axes must be 0",
            f"{label_zh} 的形状是 {got.shape}，应为 {want.shape}：数值没错，但批维度跑到了最后而不是最前。"
            "预测值在 out_axes 中对应的值应为 0",
        )
    if got.shape == want.shape and not np.allclose(got, want, rtol=1e-5, atol=1e-6):
        if np.allclose(got, (X @ w)[:, None] + b, rtol=1e-5, atol=1e-6):
            fail(
                f"{label}: each prediction is dot(w, x) + b, a dot product that sums over the features. The model is "
                "elementwise: `params['w'] * x + params['b']`",
                f"{label_zh}：每个预测值都等于 dot(w, x) + b，即对特征求和的点积。模型是逐元素的："
                "`params['w'] * x + params['b']`",
            )
    close(preds, want, what=(label, label_zh))


@check("params-unbatched", depends=["runs"])
def check_params_unbatched(batched_predict):
    rng = np.random.default_rng(10)

    cases = [
        (
            {"w": np.array(2.0), "b": np.array(1.0)},
            rng.standard_normal(5),
            "scalar w, b; xs of shape (5,)",
            "w、b 为标量；xs 形状为 (5,)",
        ),
        (
            {"w": rng.standard_normal(3), "b": rng.standard_normal(3)},
            rng.standard_normal((4, 3)),
            "w, b of shape (3,); xs of shape (4, 3)",
            "w、b 形状为 (3,)；xs 形状为 (4, 3)",
        ),
    ]
    for given, xs, label, label_zh in cases:
        _, back = batched_predict({k: as_float32(v) for k, v in given.items()}, as_float32(xs))
        structure(back, given, what=(f"returned params ({label})", f"返回的 params({label_zh})"))
        for name in ("w", "b"):
            got_shape, want_shape = np.shape(back[name]), np.shape(given[name])
            if got_shape != want_shape:
                n = xs.shape[0]
                if got_shape == (n,) + want_shape:
                    fail(
                        f"returned params['{name}'] has shape {got_shape}, but was given with shape {want_shape} ({label}): "
                        f"vmap stacked one copy per example along a new leading axis of {n}, because out_axes defaults to 0",
                        f"返回的 params['{name}'] 形状为 {got_shape}，传入时是 {want_shape}({label_zh}):"
                        f"out_axes 默认为 0，vmap 沿新增的长度为 {n} 的前导维度为每个样本堆叠了一份拷贝",
                    )
                fail(
                    f"returned params['{name}'] has shape {got_shape}, expected {want_shape} ({label})",
                    f"返回的 params['{name}'] 形状为 {got_shape}，应为 {want_shape}({label_zh})",
                )
        for name in ("w", "b"):
            got, want = np.asarray(back[name], np.float64), given[name]
            expect(
                np.allclose(got, want, rtol=1e-6, atol=1e-7),
                f"returned params['{name}'] is {np.round(got, 6).tolist()}, but was given as {np.round(want, 6).tolist()} "
                f"({label}): the shared params must come back unchanged",
                f"返回的 params['{name}'] 是 {np.round(got, 6).tolist()}，而传入的是 {np.round(want, 6).tolist()}"
                f"({label_zh})：共享的参数必须原样返回",
            )


@check("per-example", depends=["preds"])
def check_per_example(batched_predict):
    rng = np.random.default_rng(11)

    cases = [
        (
            rng.standard_normal(3),
            rng.standard_normal(3),
            rng.standard_normal(4),
            "w, b of shape (3,) and xs of shape (4,): each scalar xs[i] gives a prediction of shape (3,)",
            "w、b 形状为 (3,)，xs 形状为 (4,)：每个标量 xs[i] 给出形状为 (3,) 的预测",
        ),
        (
            rng.standard_normal((2, 3)),
            rng.standard_normal(3),
            rng.standard_normal((5, 3)),
            "w of shape (2, 3), b of shape (3,), xs of shape (5, 3): each row xs[i] gives a prediction of shape (2, 3)",
            "w 形状为 (2, 3)，b 形状为 (3,)，xs 形状为 (5, 3)：每一行 xs[i] 给出形状为 (2, 3) 的预测",
        ),
        (
            rng.standard_normal(4),
            rng.standard_normal(4),
            rng.standard_normal(4),
            "w, b of shape (4,) and xs of shape (4,): each scalar xs[i] gives a prediction of shape (4,)",
            "w、b 形状为 (4,)，xs 形状为 (4,)：每个标量 xs[i] 给出形状为 (4,) 的预测",
        ),
        (
            rng.standard_normal(3),
            rng.standard_normal(3),
            rng.standard_normal((1, 3)),
            "a batch of one example: w, b of shape (3,) and xs of shape (1, 3), preds of shape (1, 3)",
            "只有一个样本的批：w、b 形状为 (3,)，xs 形状为 (1, 3)，preds 形状为 (1, 3)",
        ),
        (
            np.array(1.5),
            np.array(-0.5),
            rng.standard_normal(1),
            "a batch of one example: scalar w, b and xs of shape (1,), preds of shape (1,)",
            "只有一个样本的批：w、b 为标量，xs 形状为 (1,)，preds 形状为 (1,)",
        ),
        (
            np.array(-2.0),
            np.array(0.25),
            rng.standard_normal((4, 1)),
            "scalar w, b and xs of shape (4, 1): each example xs[i] has shape (1,), and so has its prediction",
            "w、b 为标量，xs 形状为 (4, 1)：每个样本 xs[i] 的形状是 (1,)，它的预测也是",
        ),
    ]
    for w, b, xs, label, label_zh in cases:
        want = np.stack([w * x + b for x in xs])
        try:
            preds, _ = batched_predict({"w": as_float32(w), "b": as_float32(b)}, as_float32(xs))
        except (TypeError, ValueError) as exc:
            first = str(exc).splitlines()[0].rstrip(".")
            fail(
                f"batched_predict failed for {label}: {type(exc).__name__}: {first}. "
                "Broadcasting the whole batch against the params at once is not the same as applying the model "
                "to each example",
                f"batched_predict 在以下情形失败：{label_zh}。{type(exc).__name__}：{first}。"
                "把整批数据直接与参数做广播，并不等于把模型逐个应用到每个样本上",
            )
        if np.shape(preds) != want.shape and len(xs) == 1 and np.shape(preds) == want.shape[1:]:
            fail(
                f"for {label}, preds has shape {np.shape(preds)}, expected {want.shape}: the batch axis of length 1 "
                "was dropped (jnp.squeeze, or indexing [0]?). The batch axis stays whatever its length",
                f"对于「{label_zh}」，preds 的形状是 {np.shape(preds)}，应为 {want.shape}：长度为 1 的批维度被去掉了"
                "（jnp.squeeze，或者取了 [0]？）。无论批有多长，批维度都要保留",
            )
        squeezed = want.shape[:1] + tuple(d for d in want.shape[1:] if d != 1)
        if np.shape(preds) != want.shape and np.shape(preds) == squeezed:
            fail(
                f"for {label}, preds has shape {np.shape(preds)}, expected {want.shape}: an axis of length 1 of "
                "each prediction was dropped (jnp.squeeze or [0] on an example?). An example of shape (1,) is an "
                "array, not a scalar: keep its shape",
                f"对于「{label_zh}」，preds 的形状是 {np.shape(preds)}，应为 {want.shape}：每个预测里长度为 1 的维度"
                "被去掉了（对样本用了 jnp.squeeze 或 [0]？）。形状为 (1,) 的样本是数组而不是标量：请保留它的形状",
            )
        if np.shape(preds) != want.shape:
            fail(
                f"for {label}, preds has shape {np.shape(preds)}, expected {want.shape}: the model was not applied "
                "to each example separately",
                f"对于「{label_zh}」，preds 的形状是 {np.shape(preds)}，应为 {want.shape}：模型没有被逐个应用到每个样本上",
            )
        close(preds, want, what=(f"preds ({label})", f"preds({label_zh})"))


@check("vectorized", depends=["per-example"])
def check_vectorized(batched_predict):
    def size_of_program(n):
        """How many operations the program of batched_predict has for a batch of n examples."""
        rng = np.random.default_rng(12)
        params = {
            "w": jnp.asarray(rng.standard_normal(3), jnp.float32),
            "b": jnp.asarray(rng.standard_normal(3), jnp.float32),
        }
        xs = jnp.asarray(rng.standard_normal((n, 3)), jnp.float32)
        return primitive_counts(batched_predict, params, xs).total()  # nested programs (jit, scan, ...) too

    small, large = size_of_program(3), size_of_program(12)
    expect(
        large <= small,
        f"the program of batched_predict grows with the batch: {small} operations for 3 examples, {large} for 12. "
        "The model is applied in a Python loop, one copy per example, so a batch of 10,000 traces 10,000 copies. "
        "Let `jax.vmap` batch it: one vectorized program, whatever the batch size",
        f"batched_predict 的程序随批大小增长：3 个样本时有 {small} 个操作，12 个样本时有 {large} 个。"
        "模型是在 Python 循环里逐个样本应用的，每个样本复制一份，10000 个样本就要追踪 10000 份。"
        "请交给 `jax.vmap` 来加批维度：无论批多大，都只有一个向量化的程序",
    )
    # Right numbers and a program that does not grow are not yet "built with jax.vmap": lax.map
    # loops in a scan, and a broadcast can be written by hand. What ran decides.
    rng = np.random.default_rng(5)
    params = {"w": jnp.asarray(rng.standard_normal(2), jnp.float32), "b": jnp.float32(0.5)}
    xs = jnp.asarray(rng.standard_normal(7), jnp.float32)
    with witness.ran() as ran:
        call(batched_predict, params, xs, label="batched_predict(params, xs of shape (7,))")
    host = host_calls_per_example(batched_predict, params, xs)
    if host:
        # What a vmap wrote is judged by its content: a callback it loops over is Python per example.
        fail(
            f"batched_predict's program calls back to Python once per example ({host[0]} inside a loop): "
            "a jax.pure_callback with vmap_method='sequential', an io_callback, or a host function under vmap "
            "computes the batch on the host, one example after another, whether or not jax.vmap ran. "
            "Write predict with jnp operations, so that vmap can batch them into one vectorized program",
            f"batched_predict 的程序对每个样本回调一次 Python（循环里的 {host[0]}）："
            "vmap_method='sequential' 的 jax.pure_callback、io_callback 或 vmap 下的主机函数，"
            "都是在主机上逐个样本地计算这一批，不管 jax.vmap 有没有运行。"
            "请用 jnp 运算写 predict，让 vmap 把它们批成一个向量化的程序",
        )
    if "vmap" not in ran:
        loops = "scan" in primitives(batched_predict, params, xs)
        fail(
            "batched_predict gives the right predictions, but no function made by jax.vmap ran while it computed "
            + (
                "them: it loops over the examples with a scan (jax.lax.map is one), one example after another. "
                if loops
                else "them: the batching is written by hand. "
            )
            + "The task asks for `jax.vmap(predict, in_axes=(None, 0), out_axes=(0, None))`: vmap writes the batched "
            "program for you, and in_axes / out_axes say which values are shared",
            "batched_predict 的预测是对的，但它计算时没有运行任何由 jax.vmap 生成的函数："
            + ("它用 scan 逐个样本循环（jax.lax.map 就是 scan）。" if loops else "批处理是手写的。")
            + "题目要求用 `jax.vmap(predict, in_axes=(None, 0), out_axes=(0, None))`：批处理程序由 vmap 替你写出，"
            "in_axes / out_axes 说明哪些值是共享的",
        )


@check("no-hidden-state", depends=["preds"])
def check_no_hidden_state(learner):
    params = {"w": jnp.float32(2.0), "b": jnp.float32(1.0)}
    xs = jnp.asarray([0.5, -1.0, 2.0, 3.0, 0.0], jnp.float32)
    expect_no_hidden_state(learner, learner.batched_predict, params, xs, label="batched_predict(params, xs)")
