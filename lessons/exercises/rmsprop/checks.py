"""The checks of `rmsprop`: RMSProp, an optimizer whose state is a PyTree."""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from tutor.child.library import (
    as_float32,
    check,
    close,
    dtypes,
    expect,
    expect_no_hidden_state,
    fail,
    finite,
    is_defined,
    on_failure,
    run_training,
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


def reference_steps(grads_seq, lr, rho, eps, mode="rmsprop"):
    """Float64 NumPy RMSProp, step by step: (s, updates) for each gradient tree. The other modes
    are typical mistakes, used only to name what went wrong."""
    s = jax.tree.map(np.zeros_like, grads_seq[0])
    for g in grads_seq:
        old = jax.tree.map(np.zeros_like, s) if mode == "reset" else s
        a, b = (1 - rho, rho) if mode == "swapped" else (rho, 1 - rho)
        s = jax.tree.map(lambda s_, g_: a * s_ + b * g_**2, old, g)
        if mode == "lazy":  # s left as it was where the gradient is exactly 0
            s = jax.tree.map(lambda new, s_, g_: np.where(g_ == 0, s_, new), s, old, g)
        denom = {
            "old-s": lambda s_: np.sqrt(s_) + eps,
            "eps-inside": lambda s_: np.sqrt(s_ + eps),
            "no-sqrt": lambda s_: s_ + eps,
            "default-eps": lambda s_: np.sqrt(s_) + 1e-8,
        }.get(mode, lambda s_: np.sqrt(s_) + eps)
        used = old if mode == "old-s" else s
        yield s, jax.tree.map(lambda g_, s_: -lr * g_ / denom(s_), g, used)


def reference_updates(grads_seq, lr, rho, eps, mode="rmsprop"):
    """The updates of reference_steps, one tree per gradient tree."""
    return [updates for _, updates in reference_steps(grads_seq, lr, rho, eps, mode)]


def rmsprop_departure(update, init, params, grads_seq, lr, rho, eps):
    """Where the learner's RMSProp first leaves the float64 reference, as (en, zh), or None: an
    s no state leaf holds, or, with s right, the first update that differs."""
    return departure(
        update,
        init,
        params,
        grads_seq,
        (([("s", " s ", s)], updates) for s, updates in reference_steps(grads_seq, lr, rho, eps)),
        "RMSProp",
        right=("your s is right", "你的 s 正确"),
        look=(
            "look at the update formula, -lr * g / (sqrt(s) + eps) with the new s",
            "请检查更新公式：-lr * g / (sqrt(s) + eps)，其中 s 是新的 s",
        ),
    )


# lr, rho, eps of matches-reference: rho away from the default, so that a swap shows, and eps as
# large as small gradients' square roots of s, so that where it goes shows
MATCHES = (0.05, 0.8, 0.1)


@check("defines")
def check_defines(rmsprop):
    is_defined(rmsprop=rmsprop)


@check("optimizer", depends=["defines"])
def check_optimizer(rmsprop):
    init, update = unpack(rmsprop(0.1), "rmsprop(0.1)")
    params, grads = small_problem()
    state = init(params)
    expect(
        len(jax.tree.leaves(state)) > 0,
        "init(params) returned an empty state; it should hold s, one array per parameter",
        "init(params) 返回了空状态；状态里应有 s，每个参数对应一个数组",
    )
    jitted_update(update, grads, state, params)
    update_without_params(update, init, params, grads)  # RMSProp does not need params


@check("state-structure", depends=["optimizer"])
def check_state_structure(rmsprop):
    # nested dicts, lists, tuples and a scalar, with the hyperparameters of matches-reference:
    # the structure does not depend on either, and one compiled update serves both checks
    lr, rho, eps = MATCHES
    init, update = unpack(rmsprop(lr, rho=rho, eps=eps))
    _, _, params = nested_problem(seed=13, steps=1, decades=1.0)
    state = init(params)
    # s is one zero array per parameter; anything else in the state (a step count, the
    # learning rate, as Optax's inject_hyperparams keeps) is the learner's business.
    state_leaves = [l for l in jax.tree.leaves(state) if hasattr(l, "shape")]
    zeros = [(tuple(np.shape(l)), str(jnp.result_type(l))) for l in state_leaves if np.all(np.asarray(l) == 0)]
    for path, p in jax.tree_util.tree_flatten_with_path(params)[0]:
        want = (tuple(p.shape), str(p.dtype))
        if want in zeros:
            zeros.remove(want)
            continue
        like = [l for l in state_leaves if tuple(np.shape(l)) == want[0] and str(jnp.result_type(l)) == want[1]]
        where = jax.tree_util.keystr(path)
        if like:
            first = "[" + ", ".join(f"{v:.3g}" for v in np.asarray(like[0], np.float64).reshape(-1)[:3]) + "]"
            fail(
                f"the state's array for params{where} (shape {p.shape}, {p.dtype}) starts at {first}, not at zero: "
                "s is a running average of g**2 and starts at zero",
                f"状态中对应 params{where}（形状 {p.shape}，{p.dtype}）的数组初值是 {first}，而不是零："
                "s 是 g**2 的滑动平均，初值应为零",
            )
        # The parameter's dtype, in both modes: a float64 s beside float32 params (jnp.zeros(p.shape)
        # under JAX_ENABLE_X64) would promote them after one update; the note names that cause.
        x64_en, x64_zh = x64_note(*(l for l in state_leaves if tuple(np.shape(l)) == want[0]), expected=p)
        fail(
            f"params{where} has shape {p.shape} and dtype {p.dtype}, but the state has no "
            f"array like it (init's state leaves: {', '.join(type_of(l) for l in jax.tree.leaves(state)) or 'none'}; "
            "~ marks a weak type, as from a Python scalar); s needs one array of zeros per parameter, with its shape "
            f"and dtype{x64_en}",
            f"params{where} 的形状为 {p.shape}、dtype 为 {p.dtype}，但状态里没有与之对应的数组"
            f"（init 给出的状态叶子：{'、'.join(type_of(l) for l in jax.tree.leaves(state)) or '无'}；~ 表示弱类型，例如来自 Python 标量）；"
            f"s 需要为每个参数准备一个形状和 dtype 都相同的全零数组{x64_zh}",
        )
    grads = as_float32(jax.tree.map(lambda p: np.full(p.shape, 0.5), params))
    _, new_state = jax.jit(update)(grads, state, params)
    dtypes(new_state, state, what="new_state (compared with init's state)")
    for (path, a), (_, b) in zip(
        jax.tree_util.tree_flatten_with_path(new_state)[0], jax.tree_util.tree_flatten_with_path(state)[0]
    ):
        expect(
            np.shape(a) == np.shape(b),
            f"new_state{jax.tree_util.keystr(path)} has shape {np.shape(a)}, but init made it {np.shape(b)}",
            f"new_state{jax.tree_util.keystr(path)} 的形状是 {np.shape(a)}，而 init 给出的是 {np.shape(b)}",
        )
    expect_state_follows_param_dtypes(init, update)


@check("descends", depends=["optimizer"])
def check_descends(rmsprop):
    # rmsprop(0.1) on two leaves of shape (3,), as in `optimizer`: the same compiled update
    opt = rmsprop(0.1)
    init, update = unpack(opt)
    params = as_float32({"w": np.array([1.0, -2.0, 0.5]), "b": np.array([0.3, -0.1, 0.0])})
    grads = as_float32({"w": np.array([0.5, -3.0, 2.0]), "b": np.array([-1.0, 0.25, 4.0])})
    updates, _ = jax.jit(update)(grads, init(params), params)
    with on_failure(
        "Is eps added where it belongs, and is s updated before it divides? sqrt(0) + 0 divides by zero",
        "eps 是否加在了正确的位置？s 是否在相除之前就已更新？sqrt(0) + 0 会导致除以零",
    ):
        finite(updates, what="the first update: updates")  # NaN first: before direction and values
    expect_against_gradient(updates, grads)


@check("matches-reference", depends=["descends"])
def check_matches_reference(rmsprop):
    lr, rho, eps = MATCHES
    init, update = unpack(rmsprop(lr, rho=rho, eps=eps))
    _, grads_seq, params = nested_problem(seed=13, steps=3, decades=1.0)
    grads_seq = with_zero_gradients(grads_seq)  # step 2 has gradients that are exactly 0
    got_seq = run_updates(update, init, params, grads_seq)
    label = f"rmsprop({lr}, rho={rho}, eps={eps})"
    mistakes = {
        "reset": (
            "every step behaves like a first step: s is not carried from one call to the next. "
            "update must return the NEW state (holding the new s), not the state it was given",
            "每一步都表现得像第一步：s 没有从一次调用带到下一次。update 必须返回新的状态（里面是新的 s），"
            "而不是传进来的旧状态",
        ),
        "old-s": (
            "your updates divide by the square root of the OLD s (before g**2 is mixed in): update s first, then use the new s",
            "你的增量除以的是旧的 s（混入 g**2 之前）的平方根：应先更新 s，再用新的 s",
        ),
        "swapped": (
            "your updates match s = (1 - rho) * s + rho * g**2: rho must weight the old s, 1 - rho the new g**2",
            "你的增量对应 s = (1 - rho) * s + rho * g**2：rho 应当乘旧的 s，1 - rho 乘新的 g**2",
        ),
        "eps-inside": (
            "your updates match -lr * g / sqrt(s + eps): eps belongs outside the root, sqrt(s) + eps",
            "你的增量对应 -lr * g / sqrt(s + eps)：eps 应在根号外，即 sqrt(s) + eps",
        ),
        "no-sqrt": (
            "your updates match -lr * g / (s + eps): the square root of s is missing",
            "你的增量对应 -lr * g / (s + eps)：缺少对 s 开平方",
        ),
        "lazy": (
            "step 2 has gradients that are exactly 0, and from step 3 on your updates match an RMSProp that leaves "
            "s as it was there (a lazy update). s decays at every step, whatever g is: rho * s + (1 - rho) * g**2 "
            "is rho * s for g = 0",
            "第 2 步有恰好为 0 的梯度，而从第 3 步起，你的增量与一个在这些位置保持 s 不变的 RMSProp（惰性更新）一致。"
            "s 每一步都要衰减，不管 g 是多少：g = 0 时 rho * s + (1 - rho) * g**2 就是 rho * s",
        ),
        "default-eps": (
            f"your updates match eps=1e-8, not the eps={eps} passed in: use the eps argument, not a constant of your own",
            f"你的增量对应 eps=1e-8，而不是传入的 eps={eps}：请使用参数 eps，而不是自己写的常数",
        ),
    }
    if not same_updates(got_seq, reference_updates(grads_seq, lr, rho, eps)):
        if same_updates(
            run_updates(update, init, params, grads_seq, reorder=False), reference_updates(grads_seq, lr, rho, eps)
        ):
            fail(f"{label}: {KEY_ORDER[0]}", f"{label}：{KEY_ORDER[1]}")
        for mode, (en, zh) in mistakes.items():
            if same_updates(got_seq, reference_updates(grads_seq, lr, rho, eps, mode)):
                fail(f"{label}: {en}", f"{label}:{zh}")
        where = rmsprop_departure(update, init, params, grads_seq, lr, rho, eps)
        if where is not None:
            fail(f"{label}: {where[0]}", f"{label}:{where[1]}")
        for t, (got, want) in enumerate(zip(got_seq, reference_updates(grads_seq, lr, rho, eps)), start=1):
            close(got, want, what=f"step {t} with {label}: updates", rtol=1e-4, atol=1e-6)
    # The edge every optimizer gets: with rho near 1, s lags a jump of the gradient, and the
    # update is about 1 / sqrt(1 - rho) x lr: rho = 1 - 2**-17 (exact in float32) gives 362 x lr,
    # past any clip a learner writes as a safeguard (rho 0.999 gave 31 x lr: a clip to 40 lr passed).
    edge_lr, edge_rho = 0.01, 1 - 2**-17
    expect_steps_past_lr(
        rmsprop(edge_lr, rho=edge_rho, eps=1e-8),  # eps given: the defaults are judged by `defaults`
        edge_lr,
        lambda grads: reference_updates(grads, edge_lr, edge_rho, 1e-8),
        f"rmsprop({edge_lr}, rho=1 - 2**-17, eps=1e-8)",
        quiet_steps=3,
    )


@check("defaults", depends=["matches-reference"])
def check_defaults(rmsprop):
    # rmsprop(0.1) on small_problem's shapes, as in `optimizer`: the same compiled update. Tiny
    # gradients make eps visible, changing ones make rho visible
    lr = 0.1
    init, update = unpack(rmsprop(lr))
    grads_seq = [
        {"w": np.array(w), "b": np.array(b)}
        for w, b in (
            ([1e-7, 0.5, 3e-3], [-2.0, 0.7, -4e-7]),
            ([3e-7, -1.0, 1e-3], [-1.0, -0.4, 2e-7]),
            ([-2e-7, 4.0, -5e-3], [4.0, 0.1, -1e-7]),
        )
    ]
    expect_defaults(
        rmsprop,
        f"rmsprop({lr})",
        {"rho": 0.9, "eps": 1e-8},
        run_updates(update, init, as_float32({"w": np.zeros(3), "b": np.zeros(3)}), grads_seq),
        reference_updates(grads_seq, lr, 0.9, 1e-8),
        grads_seq,
        note=(
            "PyTorch's RMSprop uses alpha=0.99, Keras eps=1e-7",
            "PyTorch 的 RMSprop 用 alpha=0.99，Keras 用 eps=1e-7",
        ),
    )


@check("pure", depends=["optimizer"])
def check_pure(learner, rmsprop):
    opt = rmsprop(0.1)
    init, update = unpack(opt)
    expect_state_untouched(init, update, example="state['s'] = ...")
    expect_keeps_no_history(learner, opt, init, update, "rmsprop(0.1)")
    params, grads = small_problem()
    expect_no_hidden_state(learner, update, grads, init(params), params, label="update(grads, state, params)")


@check("trains", depends=["descends", "state-structure"], plots=True)
def check_trains(rmsprop):
    rng = np.random.default_rng(7)
    X = np.linspace(-3.0, 3.0, 512)[:, None]  # 512 points: 4000 steps last long enough to watch live
    Xj, Yj = as_float32(X), as_float32(np.sin(X))
    sizes = [1, 16, 16, 1]
    params = [
        as_float32({"w": rng.standard_normal((a, b)) / np.sqrt(a), "b": np.zeros(b)})
        for a, b in zip(sizes[:-1], sizes[1:])
    ]

    def mlp(p, x):
        for layer in p[:-1]:
            x = jnp.tanh(x @ layer["w"] + layer["b"])
        return x @ p[-1]["w"] + p[-1]["b"]

    def loss_fn(p):
        return jnp.mean((mlp(p, Xj) - Yj) ** 2)

    opt = rmsprop(0.003)
    init, update = unpack(opt)

    @jax.jit
    def fifty_steps(carry):
        def body(carry, _):
            p, s = carry
            loss, grads = jax.value_and_grad(loss_fn)(p)
            updates, s = update(grads, s, p)
            return (jax.tree.map(lambda a, u: a + u, p, updates), s), loss

        return lax.scan(body, carry, None, length=50)

    steps = 4000  # long enough to watch the loss fall on the live chart, chunk by chunk
    # init under jit: one program, not a zeros program per layer shape (init's types are state-structure's)
    _, losses = run_training(fifty_steps, (params, jax.jit(init)(params)), steps, long=True)
    final = float(np.median(losses[-100:]))
    expect(
        final < 0.05 * losses[0],
        f"after {steps} RMSProp steps (lr=0.003) the loss went from {losses[0]:.4g} to {final:.4g} "
        "(median of the last 100 steps); expected it to fall below 5% of the start",
        f"`RMSProp(lr=0.003)` 训练 {steps} 步后损失从 {losses[0]:.4g} 变为 {final:.4g}（最后 100 步的中位数）；"
        "应降到初始值的 5% 以下",
    )
