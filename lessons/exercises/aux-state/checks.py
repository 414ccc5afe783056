"""The checks of `aux-state`: Carry running statistics out of a gradient (has_aux)."""

import jax
import jax.numpy as jnp
import numpy as np

from tutor.child.library import (
    as_float32,
    check,
    close,
    expect,
    expect_counts_past_edges,
    expect_no_hidden_state,
    fail,
    grad_check,
    is_defined,
    primitive_counts,
    special_where,
    structure,
)

# The exercise's data: inputs x and targets y, in float64 for the references.
X = np.array([1.0, 2.0, 3.0, -0.5, 0.0, 4.0])
Y = np.array([3.5, 5.5, 7.5, 0.0, 1.2, 11.0])
# Batches of other sizes: a loss or a mean that divides by the example's size (6) is wrong for them.
X4, Y4 = np.array([0.5, -1.0, 2.0, 3.0]), np.array([1.0, -2.5, 4.0, 6.5])
X9, Y9 = np.linspace(-2.0, 3.0, 9), np.linspace(-2.0, 3.0, 9) ** 2


def divisor_note(got, total, n, what):
    """A bilingual failure when `got` is total / m for a whole m other than the batch size n."""
    if got is None or got == 0 or total == 0:
        return
    m = total / got
    if abs(m - round(m)) < 1e-4 * abs(m) and round(m) not in (n, 0):
        fail(
            f"{what[0]} is {got:.6g} = (sum) / {round(m)}, but this batch has {n} values: a fixed divisor "
            f"is right for one batch size only. Take the mean over the batch (`jnp.mean`), whatever its size",
            f"{what[1]} 为 {got:.6g} = （总和）/ {round(m)}，但这一批有 {n} 个值：固定的除数只对一种批大小成立。"
            "请对整批取平均（`jnp.mean`），不管它有多大",
        )


def with_static_hint(fn, fn_name, params, stats, x=X, y=Y):
    """fn(params, x, y, stats) on the data as float32; jit's error about an unhashable static
    argument becomes this exercise's verdict (static_hash), any other error goes on."""
    try:
        return fn(params, as_float32(x), as_float32(y), stats)
    except ValueError as exc:
        static_hash(exc, fn_name)
        raise


def static_hash(exc, fn_name):
    """Turn jit's 'non-hashable static argument' error into a verdict; other errors go on."""
    if "Non-hashable static arguments" in str(exc):
        fail(
            f"{fn_name} raised ValueError: an argument holding arrays (a dict such as stats or params) is marked "
            "static in jax.jit (static_argnums / static_argnames), and a static argument must be a hashable Python "
            "value. Static means 'a compile-time constant', not 'left out of the gradient': value_and_grad "
            "differentiates only argnums (0, the params), so the stats need nothing special. Remove the static marking",
            f"{fn_name} 抛出 ValueError：一个装着数组的参数（例如 stats 或 params 这样的字典）在 jax.jit 中被标成了静态"
            "（static_argnums / static_argnames），而静态参数必须是可哈希的 Python 值。静态的意思是“编译期常量”，"
            "而不是“不参与求导”：value_and_grad 只对 argnums（0，即 params）求导，stats 不需要任何特殊处理。"
            "请去掉静态标记",
        )


@check("defines")
def check_defines(loss_with_stats, loss_stats_and_grads):
    is_defined(loss_with_stats=loss_with_stats, loss_stats_and_grads=loss_stats_and_grads)


@check("loss-value", depends=["defines"])
def check_loss_value(loss_with_stats):
    for w, b, x, y in [(2.0, 1.0, X, Y), (-0.5, 0.3, X4, Y4), (2.5, 1.0, X9, Y9)]:
        params = {"w": jnp.float32(w), "b": jnp.float32(b)}
        stats = {"pred_mean": jnp.float32(0.5), "calls": jnp.int32(3)}
        out = with_static_hint(loss_with_stats, "loss_with_stats", params, stats, x, y)
        expect(
            isinstance(out, (tuple, list)) and len(out) == 2,
            f"loss_with_stats should return a pair (loss, new_stats), got {type(out).__name__}",
            f"loss_with_stats 应返回二元组 (loss, new_stats)，实际返回 {type(out).__name__}",
        )
        expect(
            not isinstance(out[0], dict),
            "loss_with_stats returned (new_stats, loss): the pair is in the wrong order. has_aux expects the "
            "differentiated scalar first: return (loss, new_stats)",
            "loss_with_stats 返回的是 (new_stats, loss)：二元组的顺序反了。has_aux 要求被求导的标量在前："
            "应返回 (loss, new_stats)",
        )
        r = w * x + b - y
        scalar = isinstance(out[0], (jax.Array, np.ndarray, np.generic, float, int)) and np.size(out[0]) == 1
        got = float(np.asarray(out[0], np.float64)) if scalar else None

        def near(ref):
            return got is not None and abs(got - ref) <= 1e-5 * max(1.0, abs(ref))

        if got is not None and not near(np.mean(r**2)):
            if near(np.sum(r**2)):
                fail(
                    f"loss for w={w}, b={b} is {got:.6g}, the SUM of squared errors; the loss is their mean, "
                    f"{np.mean(r**2):.6g}: use `jnp.mean`, not `jnp.sum`",
                    f"w={w}, b={b} 时损失为 {got:.6g}，是误差平方的总和；损失应为它们的平均值 "
                    f"{np.mean(r**2):.6g}：请用 `jnp.mean` 而不是 `jnp.sum`",
                )
            if near(np.mean(r) ** 2):
                fail(
                    f"loss for w={w}, b={b} is {got:.6g} = mean(pred - y) ** 2, the square of the mean error; the MSE "
                    f"is the mean of the squares, `jnp.mean((pred - y) ** 2)` = {np.mean(r**2):.6g}: check the parentheses",
                    f"w={w}, b={b} 时损失为 {got:.6g} = mean(pred - y) ** 2，是平均误差的平方；MSE 是平方的平均，"
                    f"`jnp.mean((pred - y) ** 2)` = {np.mean(r**2):.6g}：请检查括号",
                )
            divisor_note(got, np.sum(r**2), x.size, (f"loss for w={w}, b={b}", f"w={w}、b={b} 时的损失"))
        close(
            out[0],
            np.mean(r**2),
            what=(f"loss for w={w}, b={b} on {x.size} examples", f"w={w}、b={b} 时 {x.size} 个样本上的损失"),
        )
    # The edges the task defines: the mean of the squared errors is NaN with a NaN target and inf
    # with an inf input; a nanmean or a finite mask would hide the bad example from the caller.
    stats = {"pred_mean": jnp.float32(0.5), "calls": jnp.int32(3)}
    params = {"w": jnp.float32(2.0), "b": jnp.float32(1.0)}
    for x, y, en, zh in [
        (X, np.where(np.arange(X.size) == 2, np.nan, Y), "a NaN target", "目标值含 NaN"),
        (np.where(np.arange(X.size) == 1, np.inf, X), Y, "an inf input", "输入含 inf"),
    ]:
        out = with_static_hint(loss_with_stats, "loss_with_stats", params, stats, x, y)
        with np.errstate(all="ignore"):
            want = np.mean((2.0 * x + 1.0 - y) ** 2)
        special_where(
            np.asarray(out[0], np.float64),
            want,
            (f"loss with {en}", f"{zh}时的损失"),
            (
                "The loss is the plain mean of (pred - y) ** 2 over every example: a NaN or inf there must show in "
                "the loss (jnp.nanmean, or a mask of the finite values, hides it from the caller)",
                "损失就是每个样本 (pred - y) ** 2 的普通平均：其中的 NaN 或 inf 必须体现在损失里"
                "（jnp.nanmean 或只保留有限值的掩码会把它对调用者藏起来）",
            ),
        )


@check("pred-mean", depends=["loss-value"])
def check_pred_mean(loss_with_stats):
    # The last case lists the keys of params and stats in the other order: leaves are read by name.
    cases = [(2.0, 1.0, 0.5, X, Y, False), (-0.5, 0.3, 4.0, X4, Y4, False), (1.0, -2.0, 3.0, X9, Y9, True)]
    for w, b, old, x, y, reordered in cases:
        params = {"w": jnp.float32(w), "b": jnp.float32(b)}
        stats = {"pred_mean": jnp.float32(old), "calls": jnp.int32(7)}
        if reordered:
            params, stats = dict(reversed(params.items())), dict(reversed(stats.items()))
        _, new_stats = loss_with_stats(params, as_float32(x), as_float32(y), stats)
        structure(new_stats, {"pred_mean": 0.0, "calls": 0}, what="new_stats")
        mean_pred = np.mean(w * x + b)
        want = 0.9 * old + 0.1 * mean_pred
        got = float(np.asarray(new_stats["pred_mean"], np.float64))
        if abs(got - want) > 1e-5 * max(1.0, abs(want)):
            if abs(got - (0.1 * old + 0.9 * mean_pred)) < 1e-5 * max(1.0, abs(want)):
                fail(
                    f"pred_mean is {got:.6g} = 0.1 * old + 0.9 * mean(pred); the weights are swapped: keep 0.9 of the old "
                    f"value and add 0.1 of the new mean, which gives {want:.6g} (old={old}, mean(pred)={mean_pred:.6g})",
                    f"pred_mean 为 {got:.6g} = 0.1 * 旧值 + 0.9 * mean(pred)；两个权重弄反了：应保留旧值的 0.9，"
                    f"再加上新均值的 0.1，结果应为 {want:.6g}（旧值={old}，mean(pred)={mean_pred:.6g}）",
                )
            if abs(got - (0.9 * old + 0.1 * np.mean(y))) < 1e-5 * max(1.0, abs(want)):
                fail(
                    f"pred_mean is {got:.6g} = 0.9 * old + 0.1 * mean(y): it averages the targets y, not the model's "
                    f"predictions pred = w * x + b; expected {want:.6g} (mean(pred)={mean_pred:.6g})",
                    f"pred_mean 为 {got:.6g} = 0.9 * 旧值 + 0.1 * mean(y)：它平均的是目标值 y，而不是模型的预测 "
                    f"pred = w * x + b；应为 {want:.6g}(mean(pred)={mean_pred:.6g})",
                )
            part = (got - 0.9 * old) / 0.1  # what was taken as mean(pred)
            divisor_note(
                part if abs(part) > 1e-9 else None,
                np.sum(w * x + b),
                x.size,
                ("the mean of pred in pred_mean", "pred_mean 里 pred 的平均值"),
            )
        order_en = (
            "; params and stats given with their keys in another order ({'b', 'w'}, {'calls', 'pred_mean'}): "
            "read each value by its key, never by position (.values(), zip)"
            if reordered
            else ""
        )
        order_zh = (
            "；params 和 stats 的键以另一种顺序给出（{'b', 'w'}、{'calls', 'pred_mean'}）："
            "每个值都要按键读取，不要按位置（如 `.values()` 或 `zip`）"
            if reordered
            else ""
        )
        close(
            new_stats["pred_mean"],
            want,
            what=(
                f"new_stats['pred_mean'] (old={old}, mean(pred)={mean_pred:.6g}{order_en})",
                f"new_stats['pred_mean']（旧值={old}，mean(pred)={mean_pred:.6g}{order_zh}）",
            ),
        )
        close(
            new_stats["calls"],
            np.float64(8),
            what=(f"new_stats['calls'] (old calls=7{order_en})", f"new_stats['calls']（旧 calls=7{order_zh}）"),
        )


@check("calls-count", depends=["loss-value"])
def check_calls_count(loss_with_stats):
    x, y = as_float32(X), as_float32(Y)
    params = {"w": jnp.float32(2.0), "b": jnp.float32(1.0)}
    stats = {"pred_mean": jnp.float32(0.0), "calls": jnp.int32(5)}
    for k in range(1, 4):
        _, stats = loss_with_stats(params, x, y, stats)
        close(
            stats["calls"],
            np.float64(5 + k),
            what=(
                f"new_stats['calls'] after {k} chained calls starting from 5",
                f"从 5 开始连续调用 {k} 次后的 new_stats['calls']",
            ),
        )
        # An integer of any width: int64 is what the learner's mode gives under JAX_ENABLE_X64.
        kind = np.asarray(stats["calls"]).dtype
        expect(
            np.issubdtype(kind, np.integer),
            f"new_stats['calls'] has dtype {kind}, but it is an integer counter (int32 given): add the int `1`, "
            "not `1.0`. A float counter also changes the stats' types, so a jitted step that receives them retraces",
            f"new_stats['calls'] 的 dtype 是 {kind}，但它是整数计数器（传入的是 int32）：应加整数 `1` 而不是 `1.0`。"
            "计数器变成浮点数还会改变统计量的类型，接收它们的 jit 函数因此会重新追踪",
        )

    # A long run in three calls: calls starts where a narrow dtype stops counting (float32 at 2**24)
    # or wraps (uint8 at 256), and each call must still add exactly one.
    def advance(start):
        stats = {"pred_mean": jnp.float32(0.0), "calls": jnp.int32(start)}
        seen = []
        for _ in range(3):
            _, stats = loss_with_stats(params, x, y, stats)
            seen.append(int(np.asarray(stats["calls"])))
        return seen

    expect_counts_past_edges(advance, ("new_stats['calls']", "new_stats['calls']"))


@check("no-mutation", depends=["defines"])
def check_no_mutation(learner):
    x, y = as_float32(X), as_float32(Y)
    params = {"w": jnp.float32(2.0), "b": jnp.float32(1.0)}
    for fn_name in ("loss_with_stats", "loss_stats_and_grads"):
        stats = {"pred_mean": jnp.float32(0.5), "calls": jnp.int32(3)}
        kept = dict(stats)
        try:
            getattr(learner, fn_name)(params, x, y, stats)
        except Exception:  # noqa: BLE001 - other checks report errors; this one only looks at the input dict
            pass
        changed = sorted(k for k in set(kept) | set(stats) if stats.get(k) is not kept.get(k))
        expect(
            not changed,
            f"{fn_name} modified the stats dict it was given (keys changed in place: {', '.join(changed)}); "
            "the caller's state must stay as it was",
            f"{fn_name} 修改了传入的 stats 字典（被原地改动的键：{'、'.join(changed)}）；调用方的状态必须保持原样",
        )
    stats = {"pred_mean": jnp.float32(0.5), "calls": jnp.int32(3)}
    expect_no_hidden_state(
        learner, learner.loss_with_stats, params, x, y, stats, label="loss_with_stats(params, x, y, stats)"
    )


@check("has-aux", depends=["pred-mean", "calls-count"])
def check_has_aux(loss_stats_and_grads, learner):
    x, y = X, Y
    params = {"w": jnp.float32(2.0), "b": jnp.float32(1.0)}
    stats = {"pred_mean": jnp.float32(0.5), "calls": jnp.int32(3)}
    try:
        out = with_static_hint(loss_stats_and_grads, "loss_stats_and_grads", params, stats)
    except TypeError as exc:
        text = str(exc)
        if "scalar-output" in text:
            fail(
                "loss_stats_and_grads raised TypeError: value_and_grad needs a scalar output, but loss_with_stats "
                "returns (loss, new_stats). Pass `has_aux=True` so only the loss is differentiated",
                "loss_stats_and_grads 抛出 TypeError：value_and_grad 要求输出是标量，而 loss_with_stats 返回的是 "
                "(loss, new_stats)。请传入 `has_aux=True`，只对损失求导",
            )
        if "requires real" in text:
            fail(
                "loss_stats_and_grads raised TypeError: a gradient was requested with respect to the integer "
                "stats['calls']. Differentiate with respect to params only (argnums=0, the default)",
                "loss_stats_and_grads 抛出 TypeError：要求对整数 stats['calls'] 求梯度。"
                "只应对 params 求导（argnums=0，即默认值）",
            )
        raise

    def is_stats(t):
        return isinstance(t, dict) and set(t) == {"pred_mean", "calls"}

    def is_grads(t):
        return isinstance(t, dict) and set(t) == set(params)

    if isinstance(out, (tuple, list)) and len(out) == 2 and is_grads(out[0]) and is_stats(out[1]):
        fail(
            "loss_stats_and_grads returned (grads, new_stats) with no loss: that is what "
            "`jax.grad(..., has_aux=True)` gives. Use `jax.value_and_grad(loss_with_stats, has_aux=True)`, "
            "which returns ((loss, new_stats), grads)",
            "loss_stats_and_grads 返回的是 (grads, new_stats)，没有损失：这是 `jax.grad(..., has_aux=True)` 的返回值。"
            "请用 `jax.value_and_grad(loss_with_stats, has_aux=True)`，它返回 ((loss, new_stats), grads)",
        )
    if (
        isinstance(out, (tuple, list))
        and len(out) == 2
        and isinstance(out[0], (tuple, list))
        and len(out[0]) == 2
        and is_grads(out[0][1])
        and is_stats(out[1])
    ):
        fail(
            "loss_stats_and_grads returned ((loss, grads), new_stats): grads and new_stats swapped places. "
            "The layout is ((loss, new_stats), grads), exactly what value_and_grad with has_aux=True returns",
            "loss_stats_and_grads 返回的是 ((loss, grads), new_stats)：grads 和 new_stats 的位置互换了。"
            "正确的布局是 ((loss, new_stats), grads)，也就是带 has_aux=True 的 value_and_grad 的返回值",
        )
    ok = isinstance(out, (tuple, list)) and len(out) == 2 and isinstance(out[0], (tuple, list)) and len(out[0]) == 2
    expect(
        ok,
        f"loss_stats_and_grads should return ((loss, new_stats), grads), got {jax.tree.structure(out)}",
        f"loss_stats_and_grads 应返回 ((loss, new_stats), grads)，实际得到 {jax.tree.structure(out)}",
    )
    (loss, new_stats), _ = out
    pred = 2.0 * x + 1.0
    close(loss, np.mean((pred - y) ** 2), what=("loss from loss_stats_and_grads", "loss_stats_and_grads 返回的损失"))
    structure(
        new_stats,
        {"pred_mean": 0.0, "calls": 0},
        what=("new_stats from loss_stats_and_grads", "loss_stats_and_grads 返回的 new_stats"),
    )
    close(
        new_stats,
        {"pred_mean": 0.9 * 0.5 + 0.1 * pred.mean(), "calls": 4.0},
        what=("new_stats from loss_stats_and_grads", "loss_stats_and_grads 返回的 new_stats"),
    )
    # One forward pass: has_aux carries the stats out of the pass that computes the loss. The task
    # names the mechanism, so the program may hold no more than value_and_grad's own. (Wrong grads
    # are grads-values' to name: something else is differentiated there, not a second pass.)
    r = pred - y
    grads = out[1]
    if not (
        isinstance(grads, dict)
        and set(grads) == {"w", "b"}
        and np.allclose(np.asarray(grads["w"], np.float64), 2 * np.mean(r * x), rtol=1e-4, atol=1e-5)
        and np.allclose(np.asarray(grads["b"], np.float64), 2 * np.mean(r), rtol=1e-4, atol=1e-5)
    ):
        return
    args = (params, as_float32(x), as_float32(y), stats)
    try:
        theirs = program_size(loss_stats_and_grads, args)
    except Exception as exc:
        # The numbers were right when called on arrays, yet tracing needs a value: part of the
        # result is computed on the host (NumPy, float()), outside the pass that computes the loss.
        if not {c.__name__ for c in type(exc).__mro__} & _NEEDS_A_VALUE:
            raise
        fail(
            f"loss_stats_and_grads gives the right numbers, but traced (as jax.jit traces it) it raised "
            f"{type(exc).__name__}: it turns an array into a host value (np.asarray, float(), .item()), so part "
            "of its result, such as the stats, is computed on the host with NumPy in a second forward pass "
            "outside JAX. Under jax.jit that fails, and the task asks for one pass: "
            "jax.value_and_grad(loss_with_stats, has_aux=True) hands the stats out of the pass that computes "
            "the loss and its gradient",
            f"loss_stats_and_grads 的数值正确，但在被追踪时（jax.jit 就会这样追踪它）抛出了 {type(exc).__name__}："
            "它把数组转换成了主机上的值（np.asarray、float()、x.item()），所以结果的一部分（例如统计量）是在 JAX "
            "之外用 NumPy 在主机上做第二次前向计算得到的。这在 jax.jit 下会失败，而题目要求只做一次前向计算："
            "jax.value_and_grad(loss_with_stats, has_aux=True) 会把统计量从计算损失和梯度的那一次前向计算中带出来",
        )
    one_pass = program_size(jax.value_and_grad(learner.loss_with_stats, has_aux=True), args)
    expect(
        theirs <= one_pass + 2,
        f"loss_stats_and_grads computes {theirs} operations where jax.value_and_grad(loss_with_stats, "
        f"has_aux=True) computes {one_pass}: the numbers are right, but the model runs a second forward pass "
        "(the stats from another call of loss_with_stats, or recomputed, after a gradient of the loss alone). "
        "has_aux=True hands the stats out of the one pass that computes the loss and its gradient",
        f"loss_stats_and_grads 计算了 {theirs} 个操作，而 jax.value_and_grad(loss_with_stats, has_aux=True) "
        f"只需 {one_pass} 个：数值没错，但模型多做了一次前向计算（先只对损失求梯度，再调用一次 loss_with_stats "
        "或重新计算统计量）。has_aux=True 让统计量从计算损失和梯度的那一次前向计算中直接带出来",
    )


# JAX's errors for Python needing a tracer's value (class names: stable on 0.10 and 0.12).
_NEEDS_A_VALUE = {
    "ConcretizationTypeError",
    "TracerBoolConversionError",
    "TracerIntegerConversionError",
    "TracerArrayConversionError",
}


def program_size(fn, args):
    """How many operations fn's program holds, nested programs included, jit wrappers not counted."""
    counts = primitive_counts(fn, *args)
    return sum(n for name, n in counts.items() if name not in ("jit", "pjit"))


@check("grads-params-only", depends=["defines"])
def check_grads_params_only(loss_stats_and_grads):
    params = {"w": jnp.float32(2.0), "b": jnp.float32(1.0)}
    stats = {"pred_mean": jnp.float32(0.5), "calls": jnp.int32(3)}
    try:
        out = with_static_hint(loss_stats_and_grads, "loss_stats_and_grads", params, stats)
    except TypeError as exc:
        if "scalar-output" in str(exc):
            fail(
                "loss_stats_and_grads raised TypeError: value_and_grad got (loss, new_stats) instead of a scalar, "
                "so no gradient came back to inspect; add `has_aux=True` (see the has-aux check)",
                "loss_stats_and_grads 抛出 TypeError：value_and_grad 收到的是 (loss, new_stats) 而不是标量，"
                "因此没有可检查的梯度；请加上 `has_aux=True`（见 has-aux 检查）",
            )
        if "requires real" not in str(exc):
            raise
        fail(
            "loss_stats_and_grads raised TypeError: it asked for a gradient with respect to the stats, whose "
            "`calls` is an integer. Only params are differentiated: drop `argnums=(0, 3)` (the default is 0)",
            "loss_stats_and_grads 抛出 TypeError：它要求对 stats 求梯度，而其中的 `calls` 是整数。"
            "只应对 params 求导：去掉 `argnums=(0, 3)`（默认值就是 0）",
        )
    expect(
        isinstance(out, (tuple, list)) and len(out) == 2,
        f"loss_stats_and_grads should return ((loss, new_stats), grads), got {type(out).__name__}",
        f"loss_stats_and_grads 应返回 ((loss, new_stats), grads)，实际返回 {type(out).__name__}",
    )
    grads = out[1]
    if isinstance(grads, (tuple, list)) and len(grads) == 2 and isinstance(grads[1], dict) and "calls" in grads[1]:
        fail(
            "grads is a pair (gradient for params, gradient for stats): the stats were differentiated too. "
            "Differentiate with respect to params only (argnums=0, the default)",
            "grads 是一个二元组（params 的梯度，stats 的梯度）：stats 也被求导了。只应对 params 求导（argnums=0，即默认值）",
        )
    if isinstance(grads, dict) and set(grads) == {"pred_mean", "calls"}:
        fail(
            "the second element of the result is the new stats, not the grads: the result is not laid out as "
            "((loss, new_stats), grads) (the has-aux check says how it is laid out instead)",
            "结果的第二个元素是新的统计量，而不是梯度：结果没有按 ((loss, new_stats), grads) 排列"
            "（has-aux 检查会说明实际的排列方式）",
        )
    if not isinstance(grads, dict) and np.shape(grads) == np.shape(X):
        fail(
            f"grads has shape {np.shape(grads)}, the shape of x: the gradient was taken with respect to the inputs x "
            "(argnums=1), not the params. Differentiate argument 0, the params (the default)",
            f"grads 的形状是 {np.shape(grads)}，与 x 相同：这是对输入 x 求的梯度（argnums=1），而不是对 params。"
            "应对第 0 个参数 params 求导（即默认值）",
        )
    structure(grads, params, what="grads")


@check("grads-values", depends=["has-aux", "grads-params-only"])
def check_grads_values(loss_stats_and_grads):
    x, y = X, Y

    def mse(p):
        w = float(np.asarray(p["w"], np.float64))
        b = float(np.asarray(p["b"], np.float64))
        return float(np.mean((w * x + b - y) ** 2))

    for w, b in [(2.0, 1.0), (-1.0, 0.5), (2.5, 1.0)]:
        params = {"w": jnp.float32(w), "b": jnp.float32(b)}
        stats = {"pred_mean": jnp.float32(0.5), "calls": jnp.int32(3)}
        _, grads = loss_stats_and_grads(params, as_float32(x), as_float32(y), stats)
        r = w * x + b - y
        close(
            grads,
            {"w": 2 * np.mean(r * x), "b": 2 * np.mean(r)},
            what=(f"grads at w={w}, b={b}", f"w={w}、b={b} 处的梯度"),
            atol=1e-5,
        )
        grad_check(mse, params, grads, what=(f"grads at w={w}, b={b}", f"w={w}、b={b} 处的梯度"))
