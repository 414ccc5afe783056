"""The checks of `adam`: Adam with its state as a PyTree."""

import math

import jax
import jax.numpy as jnp
import numpy as np

from tutor.child.library import (
    check,
    close,
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


def reference_updates(grads_seq, lr, b1, b2, eps, mode="adam"):
    """Float64 NumPy Adam updates for a list of gradient trees. The other modes are typical
    mistakes, used only to name what went wrong: "frozen" keeps t = 1 (the count never
    advances), "reset" carries nothing from one call to the next, "swapped" mixes up b1 and b2."""
    if mode == "swapped":
        b1, b2 = b2, b1
    m = jax.tree.map(np.zeros_like, grads_seq[0])
    v = jax.tree.map(np.zeros_like, grads_seq[0])
    out = []
    for t, g in enumerate(grads_seq, start=1):
        if mode == "reset":
            m, v = jax.tree.map(np.zeros_like, m), jax.tree.map(np.zeros_like, v)
        if mode in ("frozen", "reset"):
            t = 1
        m = jax.tree.map(lambda m_, g_: b1 * m_ + (1 - b1) * g_, m, g)
        v = jax.tree.map(lambda v_, g_: b2 * v_ + (1 - b2) * g_**2, v, g)
        out.append(jax.tree.map(lambda m_, v_: -lr * (m_ / (1 - b1**t)) / (np.sqrt(v_ / (1 - b2**t)) + eps), m, v))
    return out


def departure(update, init, params, grads_seq, lr, b1, b2, eps):
    """Where the learner's Adam first leaves a float64 reference, as (en, zh), or None: the
    first step at which no state leaf holds the reference m (or v) of some parameter, or, with
    both moments right, the first update that differs (bias correction or the update formula)."""
    state, step = init(params), jax.jit(update)
    m = jax.tree.map(np.zeros_like, grads_seq[0])
    v = jax.tree.map(np.zeros_like, grads_seq[0])

    def fmt(a):
        return np.array2string(np.asarray(a, np.float64).reshape(-1)[:4], precision=5, separator=", ")

    for t, g in enumerate(grads_seq, start=1):
        updates, state = step(jax.tree.map(lambda a: jnp.asarray(a, jnp.float32), g), state, params)
        m = jax.tree.map(lambda m_, g_: b1 * m_ + (1 - b1) * g_, m, g)
        v = jax.tree.map(lambda v_, g_: b2 * v_ + (1 - b2) * g_**2, v, g)
        held = [
            np.asarray(l, np.float64)
            for l in jax.tree.leaves(state)
            if hasattr(l, "dtype") and jnp.issubdtype(l.dtype, jnp.inexact)
        ]
        for en, zh, ref in (("first moment m", "一阶矩 m", m), ("second moment v", "二阶矩 v", v)):
            for path, r in jax.tree_util.tree_flatten_with_path(ref)[0]:
                same_shape = [l for l in held if l.shape == r.shape]
                if not any(np.allclose(l, r, rtol=1e-4, atol=1e-7) for l in same_shape):
                    near = min(same_shape, key=lambda l: float(np.max(np.abs(l - r))), default=None)
                    yours = fmt(near) if near is not None else "nothing of that shape"
                    where = jax.tree_util.keystr(path)
                    return (
                        f"at step {t} your state first departs from Adam in the {en} of params{where}: "
                        f"expected {fmt(r)}, the nearest your state holds is {yours}",
                        f"在第 {t} 步，你的状态首先在 params{where} 的{zh}上偏离了 Adam："
                        f"应为 {fmt(r)}，你的状态里最接近的是 {yours}",
                    )
        want = jax.tree.map(lambda m_, v_: -lr * (m_ / (1 - b1**t)) / (np.sqrt(v_ / (1 - b2**t)) + eps), m, v)
        for (path, w), u in zip(jax.tree_util.tree_flatten_with_path(want)[0], jax.tree.leaves(updates)):
            if not np.allclose(np.asarray(u, np.float64), w, rtol=1e-4, atol=1e-6):
                where = jax.tree_util.keystr(path)
                return (
                    f"at step {t} your m and v are right, but updates{where} is {fmt(u)}, expected {fmt(w)}: "
                    "look at the bias correction (1 - b1**t, 1 - b2**t with t = count + 1) and the update formula",
                    f"在第 {t} 步，你的 m 和 v 都正确，但 updates{where} 是 {fmt(u)}，应为 {fmt(w)}："
                    "请检查偏差修正（1 - b1**t、1 - b2**t，其中 t = count + 1）和更新公式",
                )
    return None


@check("defines")
def check_defines(adam, apply_updates):
    is_defined(adam=adam, apply_updates=apply_updates)


@check("optimizer", depends=["defines"])
def check_optimizer(adam, apply_updates):
    opt = adam(0.1)
    if hasattr(opt, "init") and hasattr(opt, "update"):
        init, update = opt.init, opt.update
    elif isinstance(opt, (tuple, list)) and len(opt) == 2:
        init, update = opt
    else:
        fail(
            f"adam(0.1) returned {type(opt).__name__}; expected an Optimizer with fields init and update (or a pair)",
            f"adam(0.1) 返回了 {type(opt).__name__}；应返回带 init、update 字段的 Optimizer（或二元组）",
        )
    expect(callable(init) and callable(update), "init and update must both be functions", "init 和 update 都必须是函数")
    params = {"w": jnp.ones((2, 3)), "b": jnp.zeros(3)}
    grads = {"w": jnp.full((2, 3), 0.5), "b": jnp.ones(3)}
    state = init(params)
    expect(
        state is not None and len(jax.tree.leaves(state)) > 0,
        "init(params) returned an empty state; it should hold the step count, m and v",
        "init(params) 返回了空状态；状态里应有步数、m 和 v",
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
    updates, new_state = out
    structure(updates, params, what=f"updates from {label}")
    structure(new_state, state, what=f"new_state from {label} (it must match init's state)")
    new_params = apply_updates(params, updates)
    structure(new_params, params, what="apply_updates(params, updates)")
    # Optax callers often leave params out: Adam does not need them.
    out = update(grads, init(params))
    expect(
        isinstance(out, (tuple, list)) and len(out) == 2,
        f"update(grads, state) without params should return (updates, new_state), got {type(out).__name__}",
        f"不传 params 调用 update(grads, state) 时应返回 (updates, new_state)，实际返回 {type(out).__name__}",
    )
    structure(out[0], params, what="updates from update(grads, state) without params")


@check("state-types", depends=["optimizer"])
def check_state_types(adam):
    opt = adam(0.1)
    init, update = unpack(opt)
    params = {"dense": [{"w": jnp.ones((2, 3)), "b": jnp.zeros(3)}], "scale": jnp.ones(())}
    state = init(params)
    grads = jax.tree.map(lambda p: jnp.full(p.shape, 0.5, p.dtype), params)
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
            fail(
                f"state{where} is {was} in init(params) but {now} in the state that update returns{note_en}: "
                "the state must keep its types from one step to the next",
                f"state{where} 在 init(params) 中是 {was}，在 update 返回的状态中却是 {now}{note_zh}："
                "状态的类型在每一步之间都必须保持不变",
            )
    # Mixed precision: the state must follow each parameter's dtype, before and after a step.
    mixed = {"w": jnp.ones((2, 3), jnp.float32), "b": jnp.ones((3,), jnp.bfloat16), "s": jnp.ones((4,), jnp.float16)}
    mixed_state = init(mixed)
    state_follows_params(mixed_state, mixed, what="init(params) with float32, bfloat16 and float16 params: state")
    mixed_grads = jax.tree.map(lambda p: jnp.full(p.shape, 0.5, p.dtype), mixed)
    _, mixed_new = jax.jit(update)(mixed_grads, mixed_state, mixed)
    state_follows_params(mixed_new, mixed, what="the state update returns for mixed-dtype params: state")


@check("pure", depends=["optimizer"])
def check_pure(adam):
    opt = adam(0.1)
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
            "update modified its input (e.g. state['m'] = ...) instead of returning a new state",
            f"调用 update(grads, state) 之后，传入的状态被改了：state{where} 原来是 {show(old)}，现在是 {show(leaf)}。"
            "update 修改了它的输入（例如 state['m'] = ...），而不是返回一个新状态",
        )


@check("descends", depends=["optimizer"])
def check_descends(adam, apply_updates):
    opt = adam(0.05)
    init, update = unpack(opt)
    params = {"w": jnp.array([1.0, -2.0, 0.5]), "b": jnp.array(0.3)}
    grads = {"w": jnp.array([0.5, -3.0, 2.0]), "b": jnp.array(-1.0)}
    updates, _ = jax.jit(update)(grads, init(params), params)
    with on_failure(
        "Is t 0 at the first step? 1 - b1**0 = 0 divides by zero: use t = count + 1",
        "第一步时 t 是不是 0？1 - b1**0 = 0 会导致除以零：请用 t = count + 1",
    ):
        finite(updates, what="the first update: updates")  # NaN first: before direction and values
    for name in ("w", "b"):
        u = np.asarray(updates[name], np.float64).reshape(-1)
        g = np.asarray(grads[name], np.float64).reshape(-1)
        for i in range(g.size):
            expect(
                u[i] != 0,
                f"updates['{name}'] entry {i} is 0 for a gradient of {g[i]:+.4g}: the first update does not move at all. "
                "Compute the step from the NEW m and v (after mixing in g), not from the zeros in the old state",
                f"updates['{name}'] 第 {i} 个元素为 0，而梯度是 {g[i]:+.4g}：第一步完全没有移动。"
                "步长要用【新】的 m 和 v（已经混入 g 之后）来算，而不是旧状态里的零",
            )
            expect(
                np.sign(u[i]) == -np.sign(g[i]),
                f"updates['{name}'] entry {i} is {u[i]:+.4g} for a gradient of {g[i]:+.4g}: "
                "an update must move against the gradient",
                f"updates['{name}'] 第 {i} 个元素为 {u[i]:+.4g}，而梯度是 {g[i]:+.4g}：增量必须与梯度方向相反",
            )
    moved = apply_updates(params, updates)
    want = {k: np.asarray(params[k], np.float64) + np.asarray(updates[k], np.float64) for k in params}
    close(moved, want, what="apply_updates(params, updates)", rtol=1e-6, atol=1e-7)


@check("bias-correction", depends=["descends"])
def check_bias_correction(adam):
    lr = 0.01
    opt = adam(lr)
    init, update = unpack(opt)
    g = np.array([0.02, 1.0, 150.0, -5.0, -0.03])
    params = {"x": jnp.zeros(5)}
    updates, _ = jax.jit(update)({"x": jnp.asarray(g, jnp.float32)}, init(params), params)
    got = np.asarray(updates["x"], np.float64)
    ratio = np.abs(got) / lr
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


@check("eps-placement", depends=["descends"])
def check_eps_placement(adam):
    lr, eps = 0.1, 0.1
    opt = adam(lr, eps=eps)
    init, update = unpack(opt)
    g = np.array([0.01, 0.1, -1.0, 0.05, -0.02])
    params = {"x": jnp.zeros(5)}
    updates, _ = jax.jit(update)({"x": jnp.asarray(g, jnp.float32)}, init(params), params)
    want = -lr * g / (np.abs(g) + eps)
    close(updates["x"], want, what="first update with adam(0.1, eps=0.1)", rtol=1e-4, atol=1e-7)


@check("matches-reference", depends=["descends"])
def check_matches_reference(adam, apply_updates):
    lr, b1, b2, eps = 0.05, 0.8, 0.95, 1e-8
    opt = adam(lr, b1=b1, b2=b2, eps=eps)
    init, update = unpack(opt)
    rng = np.random.default_rng(6)
    shapes = {"layers": [{"w": (2, 3), "b": (3,)}, ({"w": (3,)}, ())]}

    def is_shape(s):
        return isinstance(s, tuple) and all(isinstance(n, int) for n in s)

    p0 = jax.tree.map(lambda s: rng.standard_normal(s), shapes, is_leaf=is_shape)
    grads_seq = [
        jax.tree.map(lambda s: rng.standard_normal(s) * 10.0 ** rng.uniform(-1.5, 1.5, s), shapes, is_leaf=is_shape)
        for _ in range(4)
    ]
    params = jax.tree.map(lambda a: jnp.asarray(a, jnp.float32), p0)
    got_seq = run_updates(update, init, params, grads_seq)
    label = f"adam({lr}, b1={b1}, b2={b2}, eps={eps})"
    if not same_updates(got_seq, reference_updates(grads_seq, lr, b1, b2, eps)):
        if same_updates(got_seq, reference_updates(grads_seq, lr, b1, b2, eps, "frozen")):
            fail(
                f"{label}: step 1 is right, but from step 2 on your updates match an Adam whose step count stays at 1. "
                "The bias correction must use t = count + 1 with the count taken from the state, and the new state must "
                "hold the new count. (A Python counter, e.g. a closure variable, only runs while jax.jit traces: it is frozen afterwards)",
                f"{label}：第 1 步正确，但从第 2 步起，你的增量与一个步数始终停在 1 的 Adam 一致。偏差修正必须使用 t = count + 1,"
                "其中 count 来自状态，并且新状态里要存入新的步数。（Python 计数器，比如闭包变量，只在 jax.jit 追踪时运行一次，之后就固定不变了）",
            )
        if same_updates(got_seq, reference_updates(grads_seq, lr, b1, b2, eps, "reset")):
            fail(
                f"{label}: every step behaves like a first step: nothing is carried from one call to the next. "
                "update must return the NEW state (new count, m and v), not the state it was given",
                f"{label}：每一步都表现得像第一步，调用之间什么也没有传递下去。update 必须返回【新】状态"
                "（新的步数、m 和 v），而不是传进来的旧状态",
            )
        if same_updates(got_seq, reference_updates(grads_seq, lr, b1, b2, eps, "swapped")):
            fail(
                f"{label}: your updates match an Adam with b1 and b2 swapped. b1 goes with m (from g), b2 with v (from g**2), "
                "in the moving averages and in the bias corrections",
                f"{label}：你的增量与 b1、b2 对调后的 Adam 一致。b1 属于 m（由 g 累积），b2 属于 v（由 g**2 累积），"
                "滑动平均和偏差修正里都是如此",
            )
        where = departure(update, init, params, grads_seq, lr, b1, b2, eps)
        if where is not None:
            fail(f"{label}: {where[0]}", f"{label}:{where[1]}")
    for t, (got, want) in enumerate(zip(got_seq, reference_updates(grads_seq, lr, b1, b2, eps)), start=1):
        close(got, want, what=f"step {t} with {label}: updates", rtol=1e-4, atol=1e-6)
    for updates in got_seq:
        params = apply_updates(params, updates)
    ref = jax.tree.map(lambda p_, *us: p_ + sum(us), p0, *reference_updates(grads_seq, lr, b1, b2, eps))
    close(params, ref, what="params after 4 steps", rtol=1e-4, atol=1e-5)


@check("defaults", depends=["matches-reference", "bias-correction", "eps-placement"])
def check_defaults(adam):
    import inspect

    lr = 0.01
    init, update = unpack(adam(lr))
    # tiny gradients make eps visible, changing ones make b1 and b2 visible
    grads_seq = [
        {"x": np.array(g)}
        for g in ([1e-7, 0.5, -2.0, 3e-3], [3e-7, -0.1, -1.0, 1e-3], [-2e-7, 0.2, 4.0, -5e-3], [1e-7, 0.3, 0.5, 2e-3])
    ]
    got_seq = run_updates(update, init, {"x": jnp.zeros(4)}, grads_seq)
    want_seq = reference_updates(grads_seq, lr, 0.9, 0.999, 1e-8)
    if not same_updates(got_seq, want_seq, rtol=2e-4, atol=1e-9):
        spec = {"b1": 0.9, "b2": 0.999, "eps": 1e-8}
        try:
            sig = inspect.signature(adam).parameters
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
                    f"adam({lr}) with its default b1, b2 and eps: the update at step {t} is {fmt(g_)}, expected {fmt(w_)} "
                    f"(gradients {fmt(grads_seq[t - 1]['x'])}). The defaults must be b1=0.9, b2=0.999, eps=1e-8 "
                    f"(Optax's; Keras uses eps=1e-7).{seen_en}",
                    f"使用默认 b1、b2、eps 的 adam({lr})：第 {t} 步的增量是 {fmt(g_)}，应为 {fmt(w_)}"
                    f"（梯度为 {fmt(grads_seq[t - 1]['x'])}）。默认值必须是 b1=0.9、b2=0.999、eps=1e-8"
                    f"（与 Optax 相同；Keras 的 eps 是 1e-7）。{seen_zh}",
                )


@check("independent-buffers", depends=["matches-reference", "defaults"])
def check_independent_buffers(adam, apply_updates):
    lr = 0.1
    opt = adam(lr)
    init, update = unpack(opt)
    a = np.array([1.0, 4.0, 0.25])
    c = np.array([3.0, -1.0, 2.0])
    params = {"x": jnp.zeros(3), "b": jnp.full((2,), 0.5)}
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

    def loss(p):
        return 0.5 * jnp.sum(jnp.asarray(a, jnp.float32) * (p["x"] - jnp.asarray(c, jnp.float32)) ** 2) + 0.5 * jnp.sum(
            p["b"] ** 2
        )

    def step(params, state):
        updates, state = update(jax.grad(loss)(params), state, params)
        return apply_updates(params, updates), state

    donated = jax.jit(step, donate_argnums=(0, 1))
    for i in range(3):
        try:
            params, state = donated(params, state)
        except Exception as exc:  # noqa: BLE001 - whatever the donated step raises is the learner's to see
            text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            fail(
                f"the jitted step with donate_argnums=(0, 1) failed at call {i + 1}: {type(exc).__name__}: {text}",
                f"带 donate_argnums=(0, 1) 的 jit 训练步在第 {i + 1} 次调用时失败：{type(exc).__name__}：{text}",
            )
    x, b = np.zeros(3), np.full(2, 0.5)
    mx, vx, mb, vb = np.zeros(3), np.zeros(3), np.zeros(2), np.zeros(2)
    for t in range(1, 4):
        gx, gb = a * (x - c), b
        mx, vx = 0.9 * mx + 0.1 * gx, 0.999 * vx + 0.001 * gx**2
        mb, vb = 0.9 * mb + 0.1 * gb, 0.999 * vb + 0.001 * gb**2
        x = x - lr * (mx / (1 - 0.9**t)) / (np.sqrt(vx / (1 - 0.999**t)) + 1e-8)
        b = b - lr * (mb / (1 - 0.9**t)) / (np.sqrt(vb / (1 - 0.999**t)) + 1e-8)
    close(params, {"x": x, "b": b}, what="params after 3 donated steps", rtol=1e-4, atol=1e-5)


@check("trains", depends=["descends"], plots=True)
def check_trains(adam, apply_updates):
    rng = np.random.default_rng(66)
    X = rng.standard_normal((64, 4))
    w_true = np.array([1.5, -2.0, 0.5, 3.0])
    Y = X @ w_true + 0.7 + 0.05 * rng.standard_normal(64)
    Xj, Yj = jnp.asarray(X, jnp.float32), jnp.asarray(Y, jnp.float32)
    opt = adam(0.05)
    init, update = unpack(opt)

    def loss_fn(p):
        return jnp.mean((Xj @ p["w"] + p["b"] - Yj) ** 2)

    @jax.jit
    def step(p, s):
        loss, grads = jax.value_and_grad(loss_fn)(p)
        updates, s = update(grads, s, p)
        return apply_updates(p, updates), s, loss

    params = {"w": jnp.zeros(4), "b": jnp.zeros(())}
    state = init(params)
    losses = []
    for i in range(200):
        params, state, loss = step(params, state)
        losses.append(float(loss))
        metric("loss", i, losses[-1])
    expect(
        all(math.isfinite(l) for l in losses),
        "the loss became NaN or inf during training",
        "训练过程中损失变成了 NaN 或 inf",
    )
    final = float(np.mean(losses[-10:]))
    expect(
        final < 0.05 * losses[0],
        f"after 200 Adam steps (lr=0.05) the loss went from {losses[0]:.4g} to {final:.4g}; "
        "expected it to fall below 5% of the start",
        f"Adam(lr=0.05)训练 200 步后损失从 {losses[0]:.4g} 变为 {final:.4g}；应降到初始值的 5% 以下",
    )
