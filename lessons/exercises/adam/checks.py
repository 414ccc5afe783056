"""The checks of `adam`: Adam with its state as a PyTree."""

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
    fail,
    finite,
    is_defined,
    kept_cause,
    moving_average,
    on_failure,
    rounded_cause,
    rounded_through,
    run_training,
    structure,
    type_of,
    x64_note,
)
from tutor.child.optimizers import (
    KEY_ORDER,
    departure,
    expect_against_gradient,
    expect_defaults,
    expect_keeps_no_history,
    expect_state_follows_param_dtypes,
    expect_state_untouched,
    expect_steps_past_lr,
    jitted_update,
    nested_problem,
    run_updates,
    same_updates,
    small_problem,
    unpack,
    update_without_params,
    with_zero_gradients,
)


def reference_steps(grads_seq, lr, b1, b2, eps, mode="adam"):
    """Float64 NumPy Adam, step by step: (m, v, updates) for each gradient tree. The other modes
    are typical mistakes, used only to name what went wrong: "frozen" keeps t = 1 (the count never
    advances), "reset" carries nothing from one call to the next, "swapped" mixes up b1 and b2,
    "eps-inside" divides by sqrt(v_hat + eps), "default-eps" uses 1e-8 whatever eps is given."""
    if mode == "swapped":
        b1, b2 = b2, b1
    if mode == "default-eps":
        eps = 1e-8

    def denominator(v_hat):
        return np.sqrt(v_hat + eps) if mode == "eps-inside" else np.sqrt(v_hat) + eps

    m = jax.tree.map(np.zeros_like, grads_seq[0])
    v = jax.tree.map(np.zeros_like, grads_seq[0])
    for t, g in enumerate(grads_seq, start=1):
        if mode == "reset":
            m, v = jax.tree.map(np.zeros_like, m), jax.tree.map(np.zeros_like, v)
        if mode in ("frozen", "reset"):
            t = 1
        m_old, v_old = m, v
        m = jax.tree.map(lambda m_, g_: b1 * m_ + (1 - b1) * g_, m, g)
        v = jax.tree.map(lambda v_, g_: b2 * v_ + (1 - b2) * g_**2, v, g)
        if mode == "lazy":  # moments left as they were where the gradient is exactly 0
            m = jax.tree.map(lambda new, old, g_: np.where(g_ == 0, old, new), m, m_old, g)
            v = jax.tree.map(lambda new, old, g_: np.where(g_ == 0, old, new), v, v_old, g)
        yield m, v, jax.tree.map(lambda m_, v_: -lr * (m_ / (1 - b1**t)) / denominator(v_ / (1 - b2**t)), m, v)


def reference_updates(grads_seq, lr, b1, b2, eps, mode="adam"):
    """The updates of reference_steps, one tree per gradient tree."""
    return [updates for _, _, updates in reference_steps(grads_seq, lr, b1, b2, eps, mode)]


def edge_reference(grads, lr, b1, b2, eps):
    """The float64 Adam's updates for a long run given stacked (one array per key, steps first),
    stacked likewise: both moments are moving averages, taken over every step at once
    (moving_average: the step-by-step recurrence's numbers, in milliseconds)."""
    out = {}
    for k, g in grads.items():
        t = np.arange(1, len(g) + 1).reshape(-1, *(1,) * (g.ndim - 1))
        m, v = moving_average(g, b1), moving_average(g**2, b2)
        out[k] = -lr * (m / (1 - b1**t)) / (np.sqrt(v / (1 - b2**t)) + eps)
    return out


def adam_departure(update, init, params, grads_seq, lr, b1, b2, eps):
    """Where the learner's Adam first leaves the float64 reference, as (en, zh), or None: a
    moment m or v no state leaf holds, or, with both right, the first update that differs."""
    steps = (
        ([("the first moment m", "一阶矩 m ", m), ("the second moment v", "二阶矩 v ", v)], updates)
        for m, v, updates in reference_steps(grads_seq, lr, b1, b2, eps)
    )
    return departure(
        update,
        init,
        params,
        grads_seq,
        steps,
        "Adam",
        right=("your m and v are right", "你的 m 和 v 都正确"),
        look=(
            "look at the bias correction (1 - b1**t, 1 - b2**t with t = count + 1) and the update formula",
            "请检查偏差修正（1 - b1**t、1 - b2**t，其中 t = count + 1）和更新公式",
        ),
    )


# lr, b1, b2, eps of matches-reference: b1 and b2 away from the defaults, so that a swap shows,
# and eps as large as small gradients, so that where it goes shows (eps-placement steps it too)
MATCHES = (0.05, 0.8, 0.95, 0.1)


@check("defines")
def check_defines(adam, apply_updates):
    is_defined(adam=adam, apply_updates=apply_updates)


@check("optimizer", depends=["defines"])
def check_optimizer(adam, apply_updates):
    init, update = unpack(adam(0.1), "adam(0.1)")
    params, grads = small_problem()
    state = init(params)
    expect(
        state is not None and len(jax.tree.leaves(state)) > 0,
        "init(params) returned an empty state; it should hold the step count, m and v",
        "init(params) 返回了空状态；状态里应有步数、m 和 v",
    )
    updates, new_state = jitted_update(update, grads, state, params)
    structure(
        new_state, state, what="new_state from jax.jit(update)(grads, state, params) (it must match init's state)"
    )
    new_params = apply_updates(params, updates)
    structure(new_params, params, what="apply_updates(params, updates)")
    update_without_params(update, init, params, grads)  # Adam does not need params


@check("state-types", depends=["optimizer"])
def check_state_types(adam):
    # nested dicts, lists, tuples and a scalar, with the hyperparameters of matches-reference:
    # types do not depend on either, and one compiled update serves both checks
    lr, b1, b2, eps = MATCHES
    init, update = unpack(adam(lr, b1=b1, b2=b2, eps=eps))
    _, _, params = nested_problem(seed=6, steps=1, decades=1.5)
    state = init(params)
    grads = as_float32(jax.tree.map(lambda p: np.full(p.shape, 0.5), params))
    _, new_state = jax.jit(update)(grads, state, params)
    structure(new_state, state, what="new_state from jax.jit(update) (compared with init's state)")
    for (path, old), new in zip(jax.tree_util.tree_flatten_with_path(state)[0], jax.tree.leaves(new_state)):
        was, now = type_of(old), type_of(new)
        if was != now:
            where = jax.tree_util.keystr(path)
            note_en = (
                " (only the weak-type mark ~ differs: it comes from a Python scalar such as 0 or 0.0)"
                if was.lstrip("~") == now.lstrip("~")
                else ""
            )
            note_zh = (
                "（只差弱类型标记 ~：它来自 0 或 0.0 这样的 Python 标量）" if was.lstrip("~") == now.lstrip("~") else ""
            )
            # 64-bit on one side only: a default dtype of JAX_ENABLE_X64 crept in there
            x64_en, x64_zh = x64_note(now, expected=was)
            if not x64_en:
                x64_en, x64_zh = x64_note(was, expected=now)
            fail(
                f"state{where} is {was} in init(params) but {now} in the state that update returns{note_en}: "
                f"the state must keep its types from one step to the next{x64_en}",
                f"state{where} 在 init(params) 中是 {was}，在 update 返回的状态中却是 {now}{note_zh}："
                f"状态的类型在每一步之间都必须保持不变{x64_zh}",
            )
    expect_state_follows_param_dtypes(init, update)


@check("pure", depends=["optimizer"])
def check_pure(learner, adam):
    opt = adam(0.1)
    init, update = unpack(opt)
    expect_state_untouched(init, update, example="state['m'] = ...")
    expect_keeps_no_history(learner, opt, init, update, "adam(0.1)")
    params, grads = small_problem()
    expect_no_hidden_state(learner, update, grads, init(params), params, label="update(grads, state, params)")


@check("descends", depends=["optimizer"])
def check_descends(adam, apply_updates):
    # adam(0.1) on two leaves of shape (3,), as in `optimizer`: the same compiled update
    opt = adam(0.1)
    init, update = unpack(opt)
    params = as_float32({"w": np.array([1.0, -2.0, 0.5]), "b": np.array([0.3, -0.1, 0.0])})
    grads = as_float32({"w": np.array([0.5, -3.0, 2.0]), "b": np.array([-1.0, 0.25, 4.0])})
    updates, _ = jax.jit(update)(grads, init(params), params)
    with on_failure(
        "Is t 0 at the first step? 1 - b1**0 = 0 divides by zero: use t = count + 1",
        "第一步时 t 是不是 0？1 - b1**0 = 0 会导致除以零：请用 t = count + 1",
    ):
        finite(updates, what="the first update: updates")  # NaN first: before direction and values
    expect_against_gradient(
        updates,
        grads,
        still=(
            "Compute the step from the NEW m and v (after mixing in g), not from the zeros in the old state",
            "步长要用新的 m 和 v（已经混入 g 之后）来算，而不是旧状态里的零",
        ),
    )
    moved = apply_updates(params, updates)
    want = {k: np.asarray(params[k], np.float64) + np.asarray(updates[k], np.float64) for k in params}
    close(moved, want, what="apply_updates(params, updates)", rtol=1e-6, atol=1e-7)


@check("bias-correction", depends=["descends"])
def check_bias_correction(adam):
    # adam(0.1) on small_problem's shapes, as in `optimizer`: the same compiled update
    lr = 0.1
    init, update = unpack(adam(lr))
    grads = {"w": np.array([0.02, 150.0, -5.0]), "b": np.array([1.0, -0.03, 3e-3])}
    params = as_float32({"w": np.zeros(3), "b": np.zeros(3)})
    updates, first_state = jax.jit(update)(as_float32(grads), init(params), params)
    g = np.concatenate([grads["w"], grads["b"]])
    got = np.concatenate([np.asarray(updates["w"], np.float64), np.asarray(updates["b"], np.float64)])
    ratio = np.abs(got) / lr
    rounded = rounded_through(first_state) if not np.allclose(ratio, 1.0, rtol=1e-3) else None
    if rounded is not None:
        cause = rounded_cause(rounded, ("the moments m and v", "一阶矩 m 和二阶矩 v"))
        fail(
            f"after one step, |update| should be ≈ lr = {lr} for every gradient size, but one is "
            f"{np.max(np.abs(ratio - 1)):.2%} off: {cause[0]}",
            f"第一步之后，无论梯度大小，|增量| 都应约等于 lr = {lr}，但有一个偏差了 {np.max(np.abs(ratio - 1)):.2%}："
            f"{cause[1]}",
        )
    expect(
        np.all(np.isfinite(got)),
        f"the first update contains NaN or inf: {got}; does t start at 1 (t = count + 1)?",
        f"第一步的增量里出现 NaN 或 inf：{got}；t 是否从 1 开始（t = count + 1）？",
    )
    worst = int(np.argmax(np.abs(ratio - 1)))
    expect(
        np.allclose(ratio, 1.0, rtol=1e-3),
        f"after one step, |update| should be ≈ lr = {lr} for every gradient size "
        f"(gradients {g.tolist()}), but the update for gradient {g[worst]:g} is {got[worst]:.4g}, "
        f"{ratio[worst]:.3g} × lr",
        f"第一步之后，无论梯度大小，|增量| 都应约等于 lr = {lr}（梯度为 {g.tolist()}），"
        f"但梯度 {g[worst]:g} 对应的增量是 {got[worst]:.4g}，是 lr 的 {ratio[worst]:.3g} 倍",
    )

    # A long run with a bfloat16 parameter first in the tree: the step count must keep counting past
    # 256 (bfloat16 holds every integer only up to 256) and past 2048 (float16's limit: by step
    # 2200, 1 - b2**t has moved 2 % from its value at 2048). Bias-corrected, a constant gradient g
    # gives -lr * g / (|g| + eps) at every step, if t is right. A scan step is microseconds.
    made = {"a": np.ones(3, jnp.bfloat16), "w": np.ones(3, np.float32)}
    params = jax.tree.map(jax.device_put, made)
    grads = jax.tree.map(lambda p: jax.device_put(np.full(p.shape, 0.5, p.dtype)), made)

    def body(state, _):
        step, new_state = update(grads, state, params)
        return new_state, step["w"]

    _, steps = jax.jit(lambda s: lax.scan(body, s, None, length=2200))(init(params))
    narrow_count_kept(init(params), np.asarray(steps)[[99, 255, 299, 2199]], -lr)
    close(
        np.asarray(steps)[[99, 255, 299, 2199]],
        np.full((4, 3), -lr),
        what=(
            "updates['w'] at steps 100, 256, 300 and 2200 of a constant gradient 0.5, with a bfloat16 parameter "
            "first in the tree (a step count kept in a parameter's dtype stops at 256 in bfloat16, one kept in "
            "float16 at 2048: keep it int32)",
            "在常数梯度 0.5 下第 100、256、300、2200 步的 updates['w']，树中第一个参数是 bfloat16"
            "（沿用参数 dtype 的步数在 bfloat16 下停在 256，用 float16 保存的停在 2048：请用 int32 保存）",
        ),
        rtol=1e-3,
        atol=1e-6,
    )


def narrow_count_kept(state, got, want):
    """A failure naming the dtype of the state's count (its one scalar leaf) where it wraps (int8,
    uint8, int16) or stops counting (float16, bfloat16) and the long run's updates are off."""
    scalars = [leaf for leaf in jax.tree.leaves(state) if isinstance(leaf, jax.Array) and leaf.shape == ()]
    if len(scalars) != 1 or np.allclose(got, want, rtol=1e-3, atol=1e-6):
        return
    kept = str(scalars[0].dtype)
    cause = kept_cause(kept)
    if cause is not None:
        shown = ", ".join(f"{x:.4g}" for x in got[:, 0])
        fail(
            f"updates['w'] at steps 100, 256, 300 and 2200 of a constant gradient 0.5 should all be {want:g}, got "
            f"[{shown}] (first entry of each): {cause[0]}, so that t = count + 1 is right at every step",
            f"在常数梯度 0.5 下，第 100、256、300、2200 步的 updates['w'] 都应为 {want:g}，实际为 [{shown}]"
            f"（各取第一个分量）：{cause[1]}，这样每一步的 t = count + 1 才正确",
        )


@check("eps-placement", depends=["descends", "state-types"])
def check_eps_placement(adam):
    # The first step of matches-reference's optimizer, on its tree: one compiled update serves
    # both. Bias-corrected, a first step is -lr * g / (|g| + eps) whatever b1 and b2, and these
    # gradients are as large as eps, where sqrt(v_hat + eps) or a constant eps of one's own differ
    lr, b1, b2, eps = MATCHES
    init, update = unpack(adam(lr, b1=b1, b2=b2, eps=eps))
    _, _, params = nested_problem(seed=6, steps=1, decades=1.5)
    scales = np.array([0.1, -0.5, 1.0, -2.0, 10.0, 0.3])
    grads = jax.tree.map(lambda p: eps * np.resize(scales, np.shape(p)), params)
    updates, _ = jax.jit(update)(as_float32(grads), init(params), params)
    label = f"adam({lr}, b1={b1}, b2={b2}, eps={eps})"

    def first_step(mode="adam"):
        return reference_updates([grads], lr, b1, b2, eps, mode)

    if same_updates([updates], first_step("eps-inside")):
        fail(
            f"{label}: your first update matches -lr * m_hat / sqrt(v_hat + eps): eps belongs outside the root, "
            "sqrt(v_hat) + eps",
            f"{label}：你的第一步增量对应 -lr * m_hat / sqrt(v_hat + eps)：eps 应在根号外，即 sqrt(v_hat) + eps",
        )
    if same_updates([updates], first_step("default-eps")):
        fail(
            f"{label}: your first update matches eps=1e-8, not the eps={eps} passed in: use the eps argument, "
            "not a constant of your own",
            f"{label}：你的第一步增量对应 eps=1e-8，而不是传入的 eps={eps}：请使用参数 eps，而不是自己写的常数",
        )
    close(updates, first_step()[0], what=f"first update with {label}", rtol=1e-4, atol=1e-7)


@check("matches-reference", depends=["descends"])
def check_matches_reference(adam, apply_updates):
    lr, b1, b2, eps = MATCHES
    init, update = unpack(adam(lr, b1=b1, b2=b2, eps=eps))
    p0, grads_seq, params = nested_problem(seed=6, steps=4, decades=1.5)
    grads_seq = with_zero_gradients(grads_seq)  # step 2 has gradients that are exactly 0
    got_seq = run_updates(update, init, params, grads_seq)
    label = f"adam({lr}, b1={b1}, b2={b2}, eps={eps})"
    if not same_updates(got_seq, reference_updates(grads_seq, lr, b1, b2, eps)):
        in_order = run_updates(update, init, params, grads_seq, reorder=False)
        if same_updates(in_order, reference_updates(grads_seq, lr, b1, b2, eps)):
            fail(f"{label}: {KEY_ORDER[0]}", f"{label}：{KEY_ORDER[1]}")
        if same_updates(got_seq, reference_updates(grads_seq, lr, b1, b2, eps, "frozen")):
            fail(
                f"{label}: step 1 is right, but from step 2 on your updates match an Adam whose step count stays at 1. "
                "The bias correction must use t = count + 1 with the count taken from the state, and the new state must "
                "hold the new count. (A Python counter, e.g. a closure variable, only runs while jax.jit traces: it is frozen afterwards)",
                f"{label}：第 1 步正确，但从第 2 步起，你的增量与一个步数始终停在 1 的 Adam 一致。偏差修正必须使用 t = count + 1，"
                "其中 count 来自状态，并且新状态里要存入新的步数。（Python 计数器，比如闭包变量，只在 jax.jit 追踪时运行一次，之后就固定不变了）",
            )
        if same_updates(got_seq, reference_updates(grads_seq, lr, b1, b2, eps, "reset")):
            fail(
                f"{label}: every step behaves like a first step: nothing is carried from one call to the next. "
                "update must return the NEW state (new count, m and v), not the state it was given",
                f"{label}：每一步都表现得像第一步，调用之间什么也没有传递下去。update 必须返回新的状态"
                "（新的步数、m 和 v），而不是传进来的旧状态",
            )
        if same_updates(got_seq, reference_updates(grads_seq, lr, b1, b2, eps, "swapped")):
            fail(
                f"{label}: your updates match an Adam with b1 and b2 swapped. b1 goes with m (from g), b2 with v (from g**2), "
                "in the moving averages and in the bias corrections",
                f"{label}：你的增量与 b1、b2 对调后的 Adam 一致。b1 属于 m（由 g 累积），b2 属于 v（由 g**2 累积），"
                "滑动平均和偏差修正里都是如此",
            )
        if same_updates(got_seq, reference_updates(grads_seq, lr, b1, b2, eps, "lazy")):
            fail(
                f"{label}: step 2 has gradients that are exactly 0, and from step 3 on your updates match an Adam "
                "that leaves m and v as they were there (a lazy update). Adam decays both moments at every step, "
                "whatever g is: m = b1 * m + (1 - b1) * g is b1 * m for g = 0",
                f"{label}：第 2 步有恰好为 0 的梯度，而从第 3 步起，你的增量与一个在这些位置保持 m 和 v 不变的 Adam"
                "（惰性更新）一致。Adam 每一步都要衰减两个矩，不管 g 是多少：g = 0 时 m = b1 * m + (1 - b1) * g 就是 b1 * m",
            )
        where = adam_departure(update, init, params, grads_seq, lr, b1, b2, eps)
        if where is not None:
            fail(f"{label}: {where[0]}", f"{label}:{where[1]}")
    for t, (got, want) in enumerate(zip(got_seq, reference_updates(grads_seq, lr, b1, b2, eps)), start=1):
        close(got, want, what=f"step {t} with {label}: updates", rtol=1e-4, atol=1e-6)
    for updates in got_seq:
        params = apply_updates(params, updates)
    ref = jax.tree.map(lambda p_, *us: p_ + sum(us), p0, *reference_updates(grads_seq, lr, b1, b2, eps))
    close(params, ref, what="params after 4 steps", rtol=1e-4, atol=1e-5)
    # The edge every optimizer gets: with b1 < b2, after n small gradients a large one has
    # |m_hat| / sqrt(v_hat) near (1 - b1) * sqrt(n) while n * (1 - b2) is small: 10,000 steps (one
    # lax.scan) with b2 = 1 - 2**-17 (exact in float32) reach 70 x lr, past any clip a learner
    # writes as a safeguard (100 steps reached 8.8 x lr, and an update clipped to 12 lr passed).
    edge_lr, edge_b1, edge_b2 = 0.01, 0.1, 1 - 2**-17
    expect_steps_past_lr(
        adam(edge_lr, b1=edge_b1, b2=edge_b2, eps=1e-8),  # eps given: the defaults are judged by `defaults`
        edge_lr,
        lambda grads: edge_reference(grads, edge_lr, edge_b1, edge_b2, 1e-8),
        f"adam({edge_lr}, b1={edge_b1}, b2=1 - 2**-17, eps=1e-8)",
        quiet_steps=10_000,
        stacked=True,
        # Judged from step 2000, where 1 - b2**t is 0.015: at step 2 it is 2**-16, and a TPU's
        # float32 power (exp of a log, ~1e-6 off near 1) put the reference solution's update 4 %
        # off there. The jump, where a clip shows, is step 10001.
        judged_from=2_000,
    )


@check("defaults", depends=["matches-reference", "bias-correction", "eps-placement"])
def check_defaults(adam):
    # adam(0.1) on small_problem's shapes, as in `optimizer`: the same compiled update. Tiny
    # gradients make eps visible, changing ones make b1 and b2 visible
    lr = 0.1
    init, update = unpack(adam(lr))
    grads_seq = [
        {"w": np.array(w), "b": np.array(b)}
        for w, b in (
            ([1e-7, 0.5, 3e-3], [-2.0, 0.7, -4e-7]),
            ([3e-7, -1.0, 1e-3], [-1.0, -0.4, 2e-7]),
            ([-2e-7, 4.0, -5e-3], [4.0, 0.1, -1e-7]),
            ([1e-7, 0.5, 2e-3], [0.5, -0.9, 3e-7]),
        )
    ]
    expect_defaults(
        adam,
        f"adam({lr})",
        {"b1": 0.9, "b2": 0.999, "eps": 1e-8},
        run_updates(update, init, as_float32({"w": np.zeros(3), "b": np.zeros(3)}), grads_seq),
        reference_updates(grads_seq, lr, 0.9, 0.999, 1e-8),
        grads_seq,
        note=("Optax's; Keras uses eps=1e-7", "与 Optax 相同；Keras 的 eps 是 1e-7"),
    )


def regression():
    """The linear regression trains and independent-buffers fit: (X, Y) in float64, 64 rows."""
    rng = np.random.default_rng(66)
    X = rng.standard_normal((64, 3))  # three weights: small_problem's shape, whose zeros are compiled
    Y = X @ np.array([1.5, -2.0, 3.0]) + 0.7 + 0.05 * rng.standard_normal(64)
    return X, Y


def regression_step(update, apply_updates):
    """One donated Adam step on the regression's mean squared error: carry (params, state) ->
    (new carry, loss). The same program for both checks that train, so it compiles once."""
    X, Y = regression()
    Xj, Yj = as_float32(X), as_float32(Y)

    def loss_fn(p):
        return jnp.mean((Xj @ p["w"] + p["b"] - Yj) ** 2)

    def step(carry):
        p, s = carry
        loss, grads = jax.value_and_grad(loss_fn)(p)
        updates, s = update(grads, s, p)
        return (apply_updates(p, updates), s), loss

    return jax.jit(step, donate_argnums=0)


@check("independent-buffers", depends=["matches-reference", "defaults"])
def check_independent_buffers(adam, apply_updates):
    lr = 0.05
    init, update = unpack(adam(lr))
    params = as_float32({"w": np.zeros(3), "b": np.zeros(())})
    state = init(params)
    seen = {}
    for tree, tree_name in ((params, "params"), (state, "state")):
        for path, leaf in jax.tree_util.tree_flatten_with_path(tree)[0]:
            if not isinstance(leaf, jax.Array):
                continue
            try:
                ptr = leaf.unsafe_buffer_pointer()
            except Exception:  # noqa: BLE001 - a leaf without one buffer (sharded, deleted) is not compared
                continue
            where = tree_name + jax.tree_util.keystr(path)
            expect(
                ptr not in seen,
                f"{where} and {seen.get(ptr)} are the same buffer: init must create m and v separately",
                f"{where} 与 {seen.get(ptr)} 是同一块缓冲区：init 必须分别创建 m 和 v",
            )
            seen[ptr] = where
    step = regression_step(update, apply_updates)
    carry = (params, state)
    for i in range(3):
        try:
            carry, _ = step(carry)
        except Exception as exc:  # noqa: BLE001 - whatever the donated step raises is the learner's to see
            text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            fail(
                f"the jitted step with donate_argnums=0 (params and state donated) failed at call {i + 1}: "
                f"{type(exc).__name__}: {text}",
                f"带 donate_argnums=0（捐赠 params 和 state）的 jit 训练步在第 {i + 1} 次调用时失败："
                f"{type(exc).__name__}：{text}",
            )
    X, Y = regression()
    w, b = np.zeros(3), 0.0
    mw, vw, mb, vb = np.zeros(3), np.zeros(3), 0.0, 0.0
    for t in range(1, 4):
        r = X @ w + b - Y
        gw, gb = 2 * X.T @ r / len(Y), 2 * np.mean(r)
        mw, vw = 0.9 * mw + 0.1 * gw, 0.999 * vw + 0.001 * gw**2
        mb, vb = 0.9 * mb + 0.1 * gb, 0.999 * vb + 0.001 * gb**2
        w = w - lr * (mw / (1 - 0.9**t)) / (np.sqrt(vw / (1 - 0.999**t)) + 1e-8)
        b = b - lr * (mb / (1 - 0.9**t)) / (np.sqrt(vb / (1 - 0.999**t)) + 1e-8)
    close(carry[0], {"w": w, "b": b}, what="params after 3 donated steps", rtol=1e-4, atol=1e-5)


@check("trains", depends=["descends"], plots=True)
def check_trains(adam, apply_updates):
    init, update = unpack(adam(0.05))
    params = as_float32({"w": np.zeros(3), "b": np.zeros(())})
    # every leaf in a buffer of its own: a state whose m and v share one still trains here
    # (independent-buffers says why a donated step refuses it)
    carry = jax.tree.map(
        lambda leaf: jax.device_put(leaf, may_alias=False) if isinstance(leaf, jax.Array) else leaf,
        (params, init(params)),
    )
    _, losses = run_training(regression_step(update, apply_updates), carry, 200)
    final = float(np.mean(losses[-10:]))
    expect(
        final < 0.05 * losses[0],
        f"after 200 Adam steps (lr=0.05) the loss went from {losses[0]:.4g} to {final:.4g}; "
        "expected it to fall below 5% of the start",
        f"`Adam(lr=0.05)` 训练 200 步后损失从 {losses[0]:.4g} 变为 {final:.4g}；应降到初始值的 5% 以下",
    )
