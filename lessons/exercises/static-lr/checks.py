"""The checks of `static-lr`: Momentum SGD that never recompiles for a new learning rate."""

import collections

import jax
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
    structure,
    traced,
)

# The state the checks pass in: a NamedTuple with the fields the prompt names.
MomentumState = collections.namedtuple("MomentumState", ["params", "velocity"])

# Three plain steps from (P0, V0), each with its own gradient, learning rate and momentum.
P0, V0 = np.array([1.0, -2.0, 0.5]), np.array([0.2, 0.0, -0.1])
PLAN = [
    (np.array([0.5, 1.0, -1.0]), 0.1, 0.9),
    (np.array([-0.3, 0.4, 2.0]), 0.05, 0.5),
    (np.array([1.5, -0.5, 0.25]), 0.2, 0.8),
    # a large gradient after small ones: the velocity reaches tens, where a clipped one shows
    (np.array([80.0, -120.0, 3.0]), 0.5, 0.95),
]


def planned_steps(momentum_update):
    """Run PLAN from (P0, V0), state carried: (k, g, lr, mu, new state) for each step."""
    state = MomentumState(params=as_float32(P0), velocity=as_float32(V0))
    for k, (g, lr, mu) in enumerate(PLAN, start=1):
        state = momentum_update(state, as_float32(g), lr, mu)
        yield k, g, lr, mu, state


def fmt(a):
    return "[" + ", ".join(f"{x:.6g}" for x in np.ravel(a)) + "]"


@check("defines")
def check_defines(momentum_update, jitted_momentum_update):
    is_defined(momentum_update=momentum_update, jitted_momentum_update=jitted_momentum_update)


@check("returns-state", depends=["defines"])
def check_returns_state(momentum_update):
    p0, v0 = as_float32(P0), as_float32(V0)
    state = MomentumState(params=p0, velocity=v0)
    out = momentum_update(state, as_float32(PLAN[0][0]), 0.1, 0.9)
    got = type(out).__name__
    expect(
        not isinstance(out, dict),
        "momentum_update returned a dict; return a state of the same kind as the input, e.g. `state._replace(params=..., velocity=...)`",
        "momentum_update 返回了字典；应返回与输入同类的状态，例如 `state._replace(params=..., velocity=...)`",
    )
    expect(
        hasattr(out, "params") and hasattr(out, "velocity"),
        f"momentum_update returned a {got} without the fields `params` and `velocity`; return the new state (a NamedTuple like the input)",
        f"momentum_update 返回的 {got} 没有 `params` 和 `velocity` 字段；应返回新的状态（与输入相同的 NamedTuple）",
    )
    expect(
        len(jax.tree.leaves(out)) == 2,
        f"the returned {got} should be a PyTree holding exactly the params and the velocity (2 arrays here), "
        f"but JAX sees {len(jax.tree.leaves(out))} leaves in it; use a NamedTuple",
        f"返回的 {got} 应是只装有 params 和 velocity 的 PyTree（此处共 2 个数组），"
        f"但 JAX 在其中看到 {len(jax.tree.leaves(out))} 个叶子；请使用 NamedTuple",
    )
    structure(out.params, p0, what=("new state.params", "新状态的 params"))
    structure(out.velocity, v0, what=("new state.velocity", "新状态的 velocity"))
    expect(
        np.shape(out.params) == (3,) and np.shape(out.velocity) == (3,),
        f"new params / velocity have shapes {np.shape(out.params)} / {np.shape(out.velocity)}, expected (3,) / (3,)",
        f"新的 params / velocity 形状为 {np.shape(out.params)} / {np.shape(out.velocity)}，应为 (3,) / (3,)",
    )
    close(
        state.params,
        P0,
        what=(
            "the input state.params after the call (must stay unchanged)",
            "调用之后传入的 state.params（应保持不变）",
        ),
    )
    close(
        state.velocity,
        V0,
        what=(
            "the input state.velocity after the call (must stay unchanged)",
            "调用之后传入的 state.velocity（应保持不变）",
        ),
    )


@check("velocity", depends=["returns-state"])
def check_velocity(momentum_update):
    p, v = P0, V0
    for k, g, lr, mu, state in planned_steps(momentum_update):
        got = np.asarray(state.velocity, np.float64)
        want = mu * v + lr * g

        def same(ref):
            return got.shape == ref.shape and np.allclose(got, ref, rtol=1e-5, atol=1e-6)

        if got.shape == want.shape and not same(want):
            if same(v):
                fail(
                    f"step {k}: the velocity did not change (still {fmt(v)}); the new state must carry the new velocity",
                    f"第 {k} 步：速度没有变化（仍为 {fmt(v)}）；新状态必须带上新的速度",
                )
            if same(mu * v + g):
                fail(
                    f"step {k}: velocity {fmt(got)} is momentum * v + g (the PyTorch/Optax form); this exercise uses the "
                    "Sutskever form, where the learning rate goes into the velocity: momentum * v + learning_rate * g",
                    f"第 {k} 步：速度 {fmt(got)} 等于 momentum * v + g（PyTorch/Optax 写法）；本练习用 Sutskever 写法，"
                    "学习率要乘进速度里：momentum * v + learning_rate * g",
                )
            if same(mu * v - lr * g):
                fail(
                    f"step {k}: velocity {fmt(got)} is momentum * v - learning_rate * g, the opposite sign convention "
                    "(the velocity holds the step itself and the params add it). This exercise stores "
                    "v_new = momentum * v + learning_rate * g and subtracts it: p_new = p - v_new",
                    f"第 {k} 步：速度 {fmt(got)} 等于 momentum * v - learning_rate * g，是相反的符号约定"
                    "（速度就是这一步的位移，参数加上它）。本练习保存的是 v_new = momentum * v + learning_rate * g，"
                    "再把它减掉：p_new = p - v_new",
                )
            if same(p - want):
                fail(
                    f"step {k}: the returned velocity {fmt(got)} is p - v_new, the new params: the two fields are swapped. "
                    "A NamedTuple built positionally takes (params, velocity) in that order; build it with keywords, "
                    "e.g. `state._replace(params=new_params, velocity=new_velocity)`",
                    f"第 {k} 步：返回的速度 {fmt(got)} 等于 p - v_new，也就是新参数：两个字段放反了。"
                    "按位置构造 NamedTuple 时顺序是 (params, velocity)；请用关键字构造，"
                    "例如 `state._replace(params=new_params, velocity=new_velocity)`",
                )
        clipped = got.shape == want.shape and np.all(np.abs(got) <= np.abs(want) * 1.0001 + 1e-6)
        expect(
            not (
                clipped and np.max(np.abs(got)) < 0.99 * np.max(np.abs(want)) and np.all(np.sign(got) == np.sign(want))
            ),
            f"step {k} (a large gradient, {fmt(g)}, after small ones): velocity {fmt(got)}, expected {fmt(want)}: "
            f"its large entries stop at about {np.max(np.abs(got)):.3g}, as if the velocity (or the step) were clipped there. "
            "The Sutskever form has no clip: v_new = momentum * v + learning_rate * g "
            "at any size",
            f"第 {k} 步（一串小梯度之后来了一个大梯度 {fmt(g)}）：速度为 {fmt(got)}，应为 {fmt(want)}："
            f"大的分量停在约 {np.max(np.abs(got)):.3g}，像是速度（或步长）在那里被截断了。"
            "Sutskever 写法里没有截断：v_new = momentum * v + learning_rate * g，不管多大",
        )
        close(
            state.velocity,
            want,
            what=(
                f"velocity after step {k} (learning_rate={lr}, momentum={mu})",
                f"第 {k} 步后的速度（learning_rate={lr},momentum={mu}）",
            ),
        )
        p, v = np.asarray(state.params, np.float64), want


@check("params", depends=["velocity"])
def check_params(momentum_update):
    p, v = P0, V0
    for k, g, lr, mu, state in planned_steps(momentum_update):
        v_new = mu * v + lr * g
        want = p - v_new
        got = np.asarray(state.params, np.float64)
        if got.shape == want.shape and not np.allclose(got, want, rtol=1e-5, atol=1e-6):
            if np.allclose(got, p - v, rtol=1e-5, atol=1e-6):
                fail(
                    f"step {k}: params {fmt(got)} equal p - v_old: they moved by the OLD velocity. "
                    "Compute the new velocity first, then subtract the new one",
                    f"第 {k} 步：参数 {fmt(got)} 等于 p - v_old，用的是**旧**速度。应先算出新速度，再减去新速度",
                )
            if np.allclose(got, p + v_new, rtol=1e-5, atol=1e-6):
                fail(
                    f"step {k}: params {fmt(got)} equal p + v_new: the sign is flipped, so they climb the gradient. "
                    "Subtract the velocity",
                    f"第 {k} 步：参数 {fmt(got)} 等于 p + v_new：符号反了，参数沿梯度上升。应减去速度",
                )
        close(
            state.params,
            want,
            what=(
                f"params after step {k} (learning_rate={lr}, momentum={mu})",
                f"第 {k} 步后的参数（learning_rate={lr},momentum={mu}）",
            ),
        )
        p, v = want, v_new


@check("pytree-params", depends=["params"])
def check_pytree_params(momentum_update):
    rng = np.random.default_rng(6)

    def tree(scale=1.0):
        """A nested tree (a layer inside the params, as in any real model), not one flat dict."""
        return {
            "dense": {"w": scale * rng.standard_normal((2, 3)), "b": scale * rng.standard_normal(3)},
            "scale": scale * rng.standard_normal(1),
        }

    p, v = tree(), tree(0.1)
    state = MomentumState(params=as_float32(p), velocity=as_float32(v))

    def other_order(t, outer=False):
        """The same tree with the layer's keys listed the other way round (`b` before `w`), and with
        `outer` the top level's too (`scale` before `dense`): then neither params' order nor sorted
        order (which a dict's flattening uses), so leaves paired by position in either come out wrong."""
        inner = {k: t["dense"][k] for k in reversed(list(t["dense"]))}
        return {k: (inner if k == "dense" else t[k]) for k in (reversed(list(t)) if outer else t)}

    # Step 2 has gradients that are exactly 0 (the velocity still decays there: no lazy update);
    # from step 2 on the gradients list their keys in another order than params (leaves pair by key),
    # at step 3 at both levels.
    edges = {
        1: ("", ""),
        2: (
            "; gradients with exact zeros and their keys in another order than params",
            "；梯度中有恰好为 0 的元素，且键的顺序与 params 不同",
        ),
        3: (
            "; gradients with their keys in another order than params, and than sorted, at both levels",
            "；梯度在两层上的键的顺序都既不同于 params，也不同于排序后的顺序",
        ),
    }
    for k, (lr, mu) in enumerate([(0.1, 0.9), (0.05, 0.9), (0.02, 0.5)], start=1):
        g = tree()
        if k == 2:
            g = jax.tree.map(lambda a: np.where(np.arange(a.size).reshape(a.shape) == 0, 0.0, a), g)
        given = as_float32(g) if k == 1 else other_order(as_float32(g), outer=k == 3)
        before = state
        kept = [jax.tree.leaves(before.params), jax.tree.leaves(before.velocity)]
        try:
            state = momentum_update(state, given, lr, mu)
        except ValueError as exc:
            # Step 1 lists the keys as params does; from step 2 on only the order differs, so a tree
            # that no longer matches was built by pairing dict entries by position, not by key.
            if k == 1 or "structure" not in str(exc):
                raise
            fail(
                f"step {k}: momentum_update raised ValueError (a pytree structure error) on {edges[k][0][2:]}: "
                "your code pairs dict entries by position (e.g. zipping "
                "`.values()` with another dict's keys), so a subtree met the wrong one. A dict may list its keys "
                "in any order: pair leaves by key, as `jax.tree.map(f, state.velocity, gradients)` does on the "
                "dicts as given",
                f"第 {k} 步：{edges[k][1][1:]}，此时 momentum_update 抛出了 ValueError（pytree 结构错误）："
                "你的代码按位置配对字典的条目（例如把 `.values()` 与另一个字典的键 zip 在一起），于是一个子树配上了错误的子树。"
                "字典的键可以按任意顺序排列：请按键配对叶子，就像直接对原样的字典调用 "
                "`jax.tree.map(f, state.velocity, gradients)` 那样",
            )
        except TypeError as exc:
            if "dict" not in str(exc):
                raise
            fail(
                f"momentum_update raised TypeError on params that are a nested dict ({exc}): arithmetic does not "
                "apply to a dict as a whole; apply the formula to each leaf, at any depth, with `jax.tree.map`",
                f"参数是嵌套字典时 momentum_update 抛出了 TypeError（{exc}）：算术运算不能直接作用于整个字典；"
                "请用 `jax.tree.map` 对每一层的每个叶子应用公式",
            )
        for name, old, leaves_now in (
            ("params", kept[0], jax.tree.leaves(before.params)),
            ("velocity", kept[1], jax.tree.leaves(before.velocity)),
        ):
            expect(
                len(old) == len(leaves_now) and all(a is b for a, b in zip(old, leaves_now)),
                f"step {k}: momentum_update changed the input state's {name} in place; build new dicts instead",
                f"第 {k} 步：momentum_update 原地修改了输入状态中的 {name}；应当构造新的字典",
            )
        v = jax.tree.map(lambda v_, g_: mu * v_ + lr * g_, v, g)
        p = jax.tree.map(lambda p_, v_: p_ - v_, p, v)
        edge_en, edge_zh = edges[k]
        close(
            state.velocity,
            v,
            what=(f"velocity after step {k} (nested params{edge_en})", f"第 {k} 步后的速度（嵌套参数{edge_zh}）"),
        )
        close(
            state.params,
            p,
            what=(f"params after step {k} (nested params{edge_en})", f"第 {k} 步后的参数（嵌套参数{edge_zh}）"),
        )


@check("jitted", depends=["pytree-params"])
def check_jitted(jitted_momentum_update):
    fn = jitted_momentum_update
    p = {"w": np.array([[1.0, -1.0], [0.5, 2.0]]), "b": np.array([0.3, -0.2])}
    v = {"w": np.zeros((2, 2)), "b": np.array([0.1, 0.1])}
    g = {"w": np.array([[0.2, 0.4], [-0.6, 1.0]]), "b": np.array([1.0, -2.0])}
    state = MomentumState(params=as_float32(p), velocity=as_float32(v))
    # A thin wrapper around a jitted call is fine: every output must come out of a compiled program.
    expect_compiled(fn, "jitted_momentum_update", lambda s, gr: fn(s, gr, 0.1, 0.9), state, as_float32(g))
    for k in range(1, 3):
        given = state
        state = call(
            fn, state, as_float32(g), 0.1, 0.9, label=f"jitted_momentum_update(state, grads, 0.1, 0.9), step {k}"
        )
        expect_not_donated(given, k)
        v = {n: 0.9 * v[n] + 0.1 * g[n] for n in v}
        p = {n: p[n] - v[n] for n in p}
        close(state.params, p, what=(f"params after jitted step {k}", f"jit 版本第 {k} 步后的参数"))
        close(state.velocity, v, what=(f"velocity after jitted step {k}", f"jit 版本第 {k} 步后的速度"))


def expect_not_donated(given, k):
    """The state a call was given is still there after it: a jit that donates it (donate_argnums)
    deletes the caller's arrays, and the task says never to modify the input."""
    gone = [
        jax.tree_util.keystr(path)
        for path, leaf in jax.tree_util.tree_flatten_with_path(given)[0]
        if isinstance(leaf, jax.Array) and leaf.is_deleted()
    ]
    expect(
        not gone,
        f"after step {k}, the state given to jitted_momentum_update is deleted ({', '.join(gone)}): the jit donates "
        "it (donate_argnums), so the caller can no longer read its own params and velocity. The task says never to "
        "modify the input: compile with a plain jax.jit(momentum_update), without donation",
        f"第 {k} 步之后，传给 jitted_momentum_update 的状态已被删除（{'、'.join(gone)}）：jit 捐赠了它"
        "（donate_argnums），调用方再也读不到自己的 params 和 velocity。题目要求永远不要修改输入："
        "请用普通的 jax.jit(momentum_update) 编译，不要捐赠",
    )


@check("lr-dynamic", depends=["jitted"])
def check_lr_dynamic(jitted_momentum_update, momentum_update):
    p = {"w": np.array([0.0, 1.0, -1.0]), "b": np.array(0.5)}
    v = {"w": np.zeros(3), "b": np.array(0.0)}
    g = {"w": np.array([1.0, -0.5, 0.25]), "b": np.array(2.0)}
    # One plain call first, so the counted loop starts from the learner's own state type.
    state = momentum_update(MomentumState(params=as_float32(p), velocity=as_float32(v)), as_float32(g), 0.1, 0.5)
    v = {n: 0.5 * v[n] + 0.1 * g[n] for n in v}
    p = {n: p[n] - v[n] for n in p}
    schedule = [0.1, 0.09, 0.08, 0.07, 0.06]
    grads = [as_float32(g) for _ in schedule]
    fn = jitted_momentum_update
    if is_jitted(fn):
        step = traced(fn, "jitted_momentum_update")
        for lr, gr in zip(schedule, grads):
            state = step(state, gr, lr, 0.5)
        expect_traces(step, 1, calls=len(schedule))
    else:
        box = [state]  # a wrapper: the first learning rate may compile, the others must not

        def one(lr):
            box[0] = call(fn, box[0], grads[0], lr, 0.5, label=f"jitted_momentum_update(state, grads, {lr}, 0.5)")

        expect_one_program(
            one,
            schedule,
            "jitted_momentum_update",
            ("learning rates", "学习率"),
            "`jax.jit(momentum_update, static_argnums=2)`",
        )
        state = box[0]
    for lr in schedule:
        v = {n: 0.5 * v[n] + lr * g[n] for n in v}
        p = {n: p[n] - v[n] for n in p}
    close(state.params, p, what=("params after the 5-step schedule", "5 步调度之后的参数"))


@check("no-hidden-state", depends=["returns-state"])
def check_no_hidden_state(learner):
    state = MomentumState(params=as_float32(P0), velocity=as_float32(V0))
    expect_no_hidden_state(
        learner,
        learner.momentum_update,
        state,
        as_float32(PLAN[0][0]),
        0.1,
        0.9,
        label="momentum_update(state, gradients, 0.1, 0.9)",
    )
