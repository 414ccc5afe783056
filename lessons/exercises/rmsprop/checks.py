"""The checks of `rmsprop`: RMSProp, an optimizer whose state is a PyTree."""

import math

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from tutor.child.library import (
    check,
    close,
    dtypes,
    expect,
    fail,
    finite,
    is_defined,
    metric,
    on_failure,
    structure,
    type_of,
)
from tutor.child.optimizers import run_updates, same_updates, state_follows_params, unpack


def reference_updates(grads_seq, lr, rho, eps, mode="rmsprop"):
    """Float64 NumPy RMSProp updates for a list of gradient trees. The other modes are typical
    mistakes, used only to name what went wrong."""
    s = jax.tree.map(np.zeros_like, grads_seq[0])
    out = []
    for g in grads_seq:
        old = jax.tree.map(np.zeros_like, s) if mode == "reset" else s
        a, b = (1 - rho, rho) if mode == "swapped" else (rho, 1 - rho)
        s = jax.tree.map(lambda s_, g_: a * s_ + b * g_**2, old, g)
        denom = {
            "old-s": lambda s_: np.sqrt(s_) + eps,
            "eps-inside": lambda s_: np.sqrt(s_ + eps),
            "no-sqrt": lambda s_: s_ + eps,
        }.get(mode, lambda s_: np.sqrt(s_) + eps)
        used = old if mode == "old-s" else s
        out.append(jax.tree.map(lambda g_, s_: -lr * g_ / denom(s_), g, used))
    return out


def departure(update, init, params, grads_seq, lr, rho, eps):
    """Where the learner's RMSProp first leaves a float64 reference, as (en, zh), or None: the
    first step at which no state leaf holds the reference s of some parameter, or, with s
    right, the first update that differs."""
    state, step = init(params), jax.jit(update)
    s_ref = jax.tree.map(np.zeros_like, grads_seq[0])

    def fmt(a):
        return np.array2string(np.asarray(a, np.float64).reshape(-1)[:4], precision=5, separator=", ")

    for t, g in enumerate(grads_seq, start=1):
        updates, state = step(jax.tree.map(lambda a: jnp.asarray(a, jnp.float32), g), state, params)
        s_ref = jax.tree.map(lambda s_, g_: rho * s_ + (1 - rho) * g_**2, s_ref, g)
        held = [
            np.asarray(l, np.float64)
            for l in jax.tree.leaves(state)
            if hasattr(l, "dtype") and jnp.issubdtype(l.dtype, jnp.inexact)
        ]
        for path, r in jax.tree_util.tree_flatten_with_path(s_ref)[0]:
            same_shape = [l for l in held if l.shape == r.shape]
            if not any(np.allclose(l, r, rtol=1e-4, atol=1e-7) for l in same_shape):
                near = min(same_shape, key=lambda l: float(np.max(np.abs(l - r))), default=None)
                yours = fmt(near) if near is not None else "nothing of that shape"
                where = jax.tree_util.keystr(path)
                return (
                    f"at step {t} your state first departs from RMSProp in s for params{where}: "
                    f"expected {fmt(r)}, the nearest your state holds is {yours}",
                    f"在第 {t} 步，你的状态首先在 params{where} 的 s 上偏离了 RMSProp："
                    f"应为 {fmt(r)}，你的状态里最接近的是 {yours}",
                )
        want = jax.tree.map(lambda g_, s_: -lr * g_ / (np.sqrt(s_) + eps), g, s_ref)
        for (path, w), u in zip(jax.tree_util.tree_flatten_with_path(want)[0], jax.tree.leaves(updates)):
            if not np.allclose(np.asarray(u, np.float64), w, rtol=1e-4, atol=1e-6):
                where = jax.tree_util.keystr(path)
                return (
                    f"at step {t} your s is right, but updates{where} is {fmt(u)}, expected {fmt(w)}: "
                    "look at the update formula, -lr * g / (sqrt(s) + eps) with the new s",
                    f"在第 {t} 步，你的 s 正确，但 updates{where} 是 {fmt(u)}，应为 {fmt(w)}："
                    "请检查更新公式：-lr * g / (sqrt(s) + eps)，其中 s 是新的 s",
                )
    return None


@check("defines")
def check_defines(rmsprop):
    is_defined(rmsprop=rmsprop)


@check("optimizer", depends=["defines"])
def check_optimizer(rmsprop):
    opt = rmsprop(0.1)
    if hasattr(opt, "init") and hasattr(opt, "update"):
        init, update = opt.init, opt.update
    elif isinstance(opt, (tuple, list)) and len(opt) == 2:
        init, update = opt
    else:
        fail(
            f"rmsprop(0.1) returned {type(opt).__name__}; expected an Optimizer with fields init and update (or a pair)",
            f"rmsprop(0.1) 返回了 {type(opt).__name__}；应返回带 init、update 字段的 Optimizer（或二元组）",
        )
    expect(callable(init) and callable(update), "init and update must both be functions", "init 和 update 都必须是函数")
    params = {"w": jnp.ones((2, 3)), "b": jnp.zeros(3)}
    grads = {"w": jnp.full((2, 3), 0.5), "b": jnp.ones(3)}
    state = init(params)
    expect(
        len(jax.tree.leaves(state)) > 0,
        "init(params) returned an empty state; it should hold s, one array per parameter",
        "init(params) 返回了空状态；状态里应有 s，每个参数对应一个数组",
    )
    try:
        import inspect

        inspect.signature(update).bind(grads, state)
    except TypeError:
        fail(
            "update(grads, state) cannot be called without params: give it the signature update(grads, state, params=None)",
            "update(grads, state) 不传 params 就无法调用：请把签名写成 update(grads, state, params=None)",
        )
    except ValueError:
        pass
    label = "jax.jit(update)(grads, state, params)"
    out = jax.jit(update)(grads, state, params)
    expect(
        isinstance(out, (tuple, list)) and len(out) == 2,
        f"{label} should return a pair (updates, new_state), got {type(out).__name__}",
        f"{label} 应返回二元组 (updates, new_state)，实际返回 {type(out).__name__}",
    )
    structure(out[0], params, what=f"updates from {label}")
    # Optax callers often leave params out: RMSProp does not need them.
    out = update(grads, init(params))
    expect(
        isinstance(out, (tuple, list)) and len(out) == 2,
        f"update(grads, state) without params should return (updates, new_state), got {type(out).__name__}",
        f"不传 params 调用 update(grads, state) 时应返回 (updates, new_state)，实际返回 {type(out).__name__}",
    )
    structure(out[0], params, what="updates from update(grads, state) without params")


@check("state-structure", depends=["optimizer"])
def check_state_structure(rmsprop):
    opt = rmsprop(0.1)
    init, update = unpack(opt)
    params = {"dense": [{"w": jnp.ones((2, 3)), "b": jnp.zeros(3)}], "scale": jnp.ones(())}
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
        fail(
            f"params{where} has shape {p.shape} and dtype {p.dtype}, but the state has no "
            f"array like it (init's state leaves: {', '.join(type_of(l) for l in jax.tree.leaves(state)) or 'none'}; "
            "~ marks a weak type, as from a Python scalar); s needs one array of zeros per parameter, with its shape and dtype",
            f"params{where} 的形状为 {p.shape}、dtype 为 {p.dtype}，但状态里没有与之对应的数组"
            f"（init 给出的状态叶子：{'、'.join(type_of(l) for l in jax.tree.leaves(state)) or '无'}；~ 表示弱类型，例如来自 Python 标量）；"
            "s 需要为每个参数准备一个形状和 dtype 都相同的全零数组",
        )
    grads = jax.tree.map(lambda p: jnp.full(p.shape, 0.5, p.dtype), params)
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
    # Mixed precision: s must follow each parameter's dtype, before and after a step.
    mixed = {"w": jnp.ones((2, 3), jnp.float32), "b": jnp.ones((3,), jnp.bfloat16), "s": jnp.ones((4,), jnp.float16)}
    mixed_state = init(mixed)
    state_follows_params(mixed_state, mixed, what="init(params) with float32, bfloat16 and float16 params: state")
    mixed_grads = jax.tree.map(lambda p: jnp.full(p.shape, 0.5, p.dtype), mixed)
    _, mixed_new = jax.jit(update)(mixed_grads, mixed_state, mixed)
    state_follows_params(mixed_new, mixed, what="the state update returns for mixed-dtype params: state")


@check("descends", depends=["optimizer"])
def check_descends(rmsprop):
    opt = rmsprop(0.05)
    init, update = unpack(opt)
    params = {"w": jnp.array([1.0, -2.0, 0.5]), "b": jnp.array(0.3)}
    grads = {"w": jnp.array([0.5, -3.0, 2.0]), "b": jnp.array(-1.0)}
    updates, _ = jax.jit(update)(grads, init(params), params)
    with on_failure(
        "Is eps added where it belongs, and is s updated before it divides? sqrt(0) + 0 divides by zero",
        "eps 是否加在了正确的位置？s 是否在相除之前就已更新？sqrt(0) + 0 会导致除以零",
    ):
        finite(updates, what="the first update: updates")  # NaN first: before direction and values
    for name in ("w", "b"):
        u = np.asarray(updates[name], np.float64).reshape(-1)
        g = np.asarray(grads[name], np.float64).reshape(-1)
        for i in range(g.size):
            expect(
                np.sign(u[i]) == -np.sign(g[i]),
                f"updates['{name}'] entry {i} is {u[i]:+.4g} for a gradient of {g[i]:+.4g}: "
                "an update must move against the gradient",
                f"updates['{name}'] 第 {i} 个元素为 {u[i]:+.4g}，而梯度是 {g[i]:+.4g}：增量必须与梯度方向相反",
            )


@check("matches-reference", depends=["descends"])
def check_matches_reference(rmsprop):
    lr, rho, eps = 0.05, 0.8, 1e-8
    opt = rmsprop(lr, rho=rho, eps=eps)
    init, update = unpack(opt)
    rng = np.random.default_rng(13)
    shapes = {"layers": [{"w": (2, 3), "b": (3,)}, ({"w": (3,)}, ())]}

    def is_shape(s):
        return isinstance(s, tuple) and all(isinstance(n, int) for n in s)

    p0 = jax.tree.map(lambda s: rng.standard_normal(s), shapes, is_leaf=is_shape)
    grads_seq = [
        jax.tree.map(lambda s: rng.standard_normal(s) * 10.0 ** rng.uniform(-1.0, 1.0, s), shapes, is_leaf=is_shape)
        for _ in range(3)
    ]
    params = jax.tree.map(lambda a: jnp.asarray(a, jnp.float32), p0)
    # eps belongs outside the square root: visible with a large eps and small gradients
    small = [{"x": np.array([0.01, 0.05, -0.2])}, {"x": np.array([0.02, -0.01, 0.1])}]
    runs = [
        (f"rmsprop({lr}, rho={rho}, eps={eps})", lr, rho, eps, grads_seq, run_updates(update, init, params, grads_seq)),
        (
            "rmsprop(0.1, rho=0.9, eps=0.1)",
            0.1,
            0.9,
            0.1,
            small,
            run_updates(
                unpack(rmsprop(0.1, rho=0.9, eps=0.1))[1],
                unpack(rmsprop(0.1, rho=0.9, eps=0.1))[0],
                {"x": jnp.zeros(3)},
                small,
            ),
        ),
    ]
    mistakes = {
        "reset": (
            "every step behaves like a first step: s is not carried from one call to the next. "
            "update must return the NEW state (holding the new s), not the state it was given",
            "每一步都表现得像第一步：s 没有从一次调用带到下一次。update 必须返回【新】状态（里面是新的 s），"
            "而不是传进来的旧状态",
        ),
        "old-s": (
            "your updates divide by the square root of the OLD s (before g**2 is mixed in): update s first, then use the new s",
            "你的增量除以的是【旧】s（混入 g**2 之前）的平方根：应先更新 s，再用新的 s",
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
    }
    for label, lr_, rho_, eps_, seq, got_seq in runs:
        if same_updates(got_seq, reference_updates(seq, lr_, rho_, eps_)):
            continue
        for mode, (en, zh) in mistakes.items():
            if same_updates(got_seq, reference_updates(seq, lr_, rho_, eps_, mode)):
                fail(f"{label}: {en}", f"{label}:{zh}")
        if seq is grads_seq:
            where = departure(update, init, params, grads_seq, lr_, rho_, eps_)
            if where is not None:
                fail(f"{label}: {where[0]}", f"{label}:{where[1]}")
        for t, (got, want) in enumerate(zip(got_seq, reference_updates(seq, lr_, rho_, eps_)), start=1):
            close(got, want, what=f"step {t} with {label}: updates", rtol=1e-4, atol=1e-6)


@check("defaults", depends=["matches-reference"])
def check_defaults(rmsprop):
    import inspect

    lr = 0.01
    init, update = unpack(rmsprop(lr))
    # tiny gradients make eps visible, changing ones make rho visible
    grads_seq = [
        {"x": np.array(g)} for g in ([1e-7, 0.5, -2.0, 3e-3], [3e-7, -0.1, -1.0, 1e-3], [-2e-7, 0.2, 4.0, -5e-3])
    ]
    got_seq = run_updates(update, init, {"x": jnp.zeros(4)}, grads_seq)
    want_seq = reference_updates(grads_seq, lr, 0.9, 1e-8)
    if not same_updates(got_seq, want_seq, rtol=2e-4, atol=1e-9):
        spec = {"rho": 0.9, "eps": 1e-8}
        try:
            sig = inspect.signature(rmsprop).parameters
            off = [
                f"{k}={sig[k].default!r}"
                for k in spec
                if k in sig and sig[k].default is not inspect.Parameter.empty and sig[k].default != spec[k]
            ]
        except (TypeError, ValueError):
            off = []
        seen_en = f" Your signature has {', '.join(off)}." if off else ""
        seen_zh = f"你的函数签名里写的是 {', '.join(off)}。" if off else ""
        for t, (got, want) in enumerate(zip(got_seq, want_seq), start=1):
            g_, w_ = np.asarray(got["x"], np.float64), want["x"]
            if not np.allclose(g_, w_, rtol=2e-4, atol=1e-9):

                def fmt(a):
                    return "[" + ", ".join(f"{x:.5g}" for x in a) + "]"

                fail(
                    f"rmsprop({lr}) with its default rho and eps: the update at step {t} is {fmt(g_)}, expected {fmt(w_)} "
                    f"(gradients {fmt(grads_seq[t - 1]['x'])}). The defaults must be rho=0.9, eps=1e-8 "
                    f"(PyTorch's RMSprop uses alpha=0.99, Keras eps=1e-7).{seen_en}",
                    f"使用默认 rho、eps 的 rmsprop({lr})：第 {t} 步的增量是 {fmt(g_)}，应为 {fmt(w_)}"
                    f"（梯度为 {fmt(grads_seq[t - 1]['x'])}）。默认值必须是 rho=0.9、eps=1e-8"
                    f"（PyTorch 的 RMSprop 用 alpha=0.99，Keras 用 eps=1e-7）。{seen_zh}",
                )


@check("pure", depends=["optimizer"])
def check_pure(rmsprop):
    opt = rmsprop(0.1)
    init, update = unpack(opt)
    params = {"w": jnp.ones((2, 3)), "b": jnp.zeros(3)}
    grads = {"w": jnp.full((2, 3), 0.5), "b": jnp.ones(3)}
    state = init(params)
    before_structure = jax.tree.structure(state)
    before = [
        (jax.tree_util.keystr(path), np.array(leaf, np.float64))
        for path, leaf in jax.tree_util.tree_flatten_with_path(state)[0]
    ]

    def show(a):
        return np.asarray(a, np.float64).round(4).tolist() if np.size(a) < 7 else f"{np.shape(a)}"

    update(grads, state, params)  # called directly, without jax.jit, as plain Python code would
    expect(
        jax.tree.structure(state) == before_structure,
        f"after update(grads, state), the state passed in has a different structure: "
        f"{jax.tree.structure(state)} instead of {before_structure}. update modified its input instead of returning a new state",
        f"调用 update(grads, state) 之后，传入的状态结构变了：{jax.tree.structure(state)}，原来是 {before_structure}。"
        "update 修改了它的输入，而不是返回一个新状态",
    )
    for (where, old), leaf in zip(before, jax.tree.leaves(state)):
        if isinstance(leaf, jax.Array) and leaf.is_deleted():
            continue  # donated to a jitted update: consumed, not modified
        expect(
            np.array_equal(np.asarray(leaf, np.float64), old),
            f"after update(grads, state), the state passed in has changed: state{where} was {show(old)}, now {show(leaf)}. "
            "update modified its input (e.g. state['s'] = ...) instead of returning a new state",
            f"调用 update(grads, state) 之后，传入的状态被改了：state{where} 原来是 {show(old)}，现在是 {show(leaf)}。"
            "update 修改了它的输入（例如 state['s'] = ...），而不是返回一个新状态",
        )


@check("trains", depends=["descends", "state-structure"], plots=True)
def check_trains(rmsprop):
    rng = np.random.default_rng(7)
    X = np.linspace(-3.0, 3.0, 512)[:, None]  # 512 points: 4000 steps last long enough to watch live
    Xj, Yj = jnp.asarray(X, jnp.float32), jnp.asarray(np.sin(X), jnp.float32)
    sizes = [1, 16, 16, 1]
    params = [
        {"w": jnp.asarray(rng.standard_normal((a, b)) / np.sqrt(a), jnp.float32), "b": jnp.zeros(b)}
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
    def fifty_steps(p, s):
        def body(carry, _):
            p, s = carry
            loss, grads = jax.value_and_grad(loss_fn)(p)
            updates, s = update(grads, s, p)
            return (jax.tree.map(lambda a, u: a + u, p, updates), s), loss

        (p, s), losses = lax.scan(body, (p, s), None, length=50)
        return p, s, losses

    state = init(params)
    steps = 4000  # long enough to watch the loss fall on the live chart, chunk by chunk
    losses = []
    while len(losses) < steps:
        params, state, chunk_losses = fifty_steps(params, state)
        for value in np.asarray(chunk_losses).tolist():
            metric("loss", len(losses), value)
            losses.append(value)
        if not all(math.isfinite(l) for l in losses[-50:]):
            break
    bad = [i for i, l in enumerate(losses) if not math.isfinite(l)]
    expect(
        not bad,
        f"the loss became NaN or inf during training (first at step {bad[0] if bad else 0})",
        f"训练过程中损失变成了 NaN 或 inf（第一次出现在第 {bad[0] if bad else 0} 步）",
    )
    final = float(np.median(losses[-100:]))
    expect(
        final < 0.05 * losses[0],
        f"after {steps} RMSProp steps (lr=0.003) the loss went from {losses[0]:.4g} to {final:.4g} "
        "(median of the last 100 steps); expected it to fall below 5% of the start",
        f"RMSProp(lr=0.003)训练 {steps} 步后损失从 {losses[0]:.4g} 变为 {final:.4g}（最后 100 步的中位数）；"
        "应降到初始值的 5% 以下",
    )
