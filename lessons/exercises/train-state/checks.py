"""The checks of `train-state`: Capstone: a TrainState, a donated jitted train_step, and a PRNG key."""

import math

import jax
import jax.numpy as jnp
import numpy as np

from tutor.child import witness
from tutor.child.library import (
    as_float32,
    aval_text,
    check,
    checker_sees_across_jit_calls,
    draws_not_from,
    expect,
    expect_counts_past_edges,
    expect_no_hidden_state,
    expect_traces,
    fail,
    fresh_key,
    global_changes,
    global_snapshot,
    is_defined,
    is_jitted,
    key_reuse_checker,
    lowered_donation_warnings,
    other_key,
    returns,
    run_training,
    traced,
    type_of,
)


def sine_data(n=128):
    """The exercise's data: x uniform in [-3, 3), y = sin(x), float32; seeded, so every check sees the same."""
    rng = np.random.default_rng(5)
    X = rng.uniform(-3, 3, (n, 1)).astype(np.float32)
    return X, np.sin(X).astype(np.float32)


def sine_batch(n=128):
    """sine_data as a batch (x, y) of new JAX arrays: a step that donates its batch deletes only these."""
    X, Y = sine_data(n)
    return as_float32(X), as_float32(Y)


def with_key(state, key):
    """state with key in place of state.key, whatever kind of PyTree the learner's TrainState is."""
    return with_leaf(state, state.key, key)


def with_leaf(state, old, new):
    """state with `new` in place of its leaf `old` (found by identity), whatever kind of PyTree the
    learner's TrainState is."""
    leaves, treedef = jax.tree.flatten(state)
    spot = [i for i, leaf in enumerate(leaves) if leaf is old][0]
    leaves[spot] = new
    return jax.tree.unflatten(treedef, leaves)


def key_bits(k):
    """A PRNG key's bits, typed (jax.random.key) or raw (PRNGKey), to compare keys by value."""
    if jnp.issubdtype(k.dtype, jax.dtypes.prng_key):
        k = jax.random.key_data(k)
    return np.asarray(k).tobytes()


@check("defines")
def check_defines(TrainState, create_train_state, train_step):
    is_defined(TrainState=TrainState, create_train_state=create_train_state, train_step=train_step)


@check("state-fields", depends=["defines"])
def check_state_fields(create_train_state, TrainState):
    state = create_train_state(jax.random.key(0))
    expect(
        isinstance(state, TrainState),
        f"create_train_state should return a TrainState, got {type(state).__name__}",
        f"create_train_state 应返回 TrainState，实际返回 {type(state).__name__}",
    )
    for name in ("step", "params", "opt_state", "key"):
        expect(
            hasattr(state, name),
            f"TrainState has no field `{name}`; it needs step, params, opt_state and key",
            f"TrainState 没有字段 `{name}`；它需要 step、params、opt_state 和 key 四个字段",
        )
    leaves = jax.tree.leaves(state)
    expect(
        not (len(leaves) == 1 and leaves[0] is state),
        "TrainState is not a PyTree: JAX sees it as one opaque leaf. Use a NamedTuple or a registered dataclass",
        "TrainState 不是 PyTree：JAX 把它当成一个不透明的叶子。请用 NamedTuple 或注册过的 dataclass",
    )
    expect(
        any(leaf is state.key for leaf in leaves),
        "state.key is not a leaf of the TrainState PyTree; it must be a JAX key array stored as a field",
        "state.key 不是 TrainState 这棵 PyTree 的叶子；它应当是作为字段存放的 JAX key 数组",
    )
    # An integer scalar of any width: create_train_state's jnp.array(0) is int64 under JAX_ENABLE_X64,
    # the learner's mode; no-retrace then asks that the width stays from one step to the next.
    step = state.step
    expect(
        np.shape(step) == () and jnp.issubdtype(jnp.result_type(step), jnp.integer),
        f"state.step should be an integer scalar, got {type_of(step)}",
        f"state.step 应为整数标量，实际是 {type_of(step)}",
    )
    expect(
        int(step) == 0,
        f"a fresh state should have step 0, got {int(step)}",
        f"新建的状态 step 应为 0，实际为 {int(step)}",
    )
    k = state.key
    is_typed = jnp.issubdtype(k.dtype, jax.dtypes.prng_key)
    expect(
        is_typed or (k.dtype == jnp.uint32 and k.shape[-1:] == (2,)),
        f"state.key should be a PRNG key (jax.random.key or PRNGKey), got {type_of(k)}",
        f"state.key 应为 PRNG key（jax.random.key 或 PRNGKey），实际是 {type_of(k)}",
    )
    expect(len(jax.tree.leaves(state.params)) > 0, "state.params is empty", "state.params 是空的")


@check("init-key", depends=["state-fields"])
def check_init_key(create_train_state):
    def snapshot(state):
        return [
            key_bits(l)
            if isinstance(l, jax.Array) and jnp.issubdtype(l.dtype, jax.dtypes.prng_key)
            else np.asarray(l).tobytes()
            for l in jax.tree.leaves(state)
        ]

    given = jax.random.key(0)
    a, b = create_train_state(given), create_train_state(jax.random.key(0))
    expect(
        snapshot(a) == snapshot(b),
        "create_train_state(jax.random.key(0)) called twice gave two different states: it depends on something "
        "other than its key (NumPy's or Python's random generator, time, a global counter)",
        "两次调用 create_train_state(jax.random.key(0)) 得到了不同的状态：它依赖了 key 以外的东西"
        "（NumPy 或 Python 的随机数生成器、时间、全局计数器）",
    )
    c = create_train_state(jax.random.key(1))
    expect(
        key_bits(a.key) != key_bits(c.key),
        "create_train_state(jax.random.key(0)) and create_train_state(jax.random.key(1)) hold the same state.key: "
        "the key is not derived from the argument (was a fixed key such as jax.random.key(42) made inside?)",
        "create_train_state(jax.random.key(0)) 与 create_train_state(jax.random.key(1)) 的 state.key 相同："
        "key 不是由参数派生的（是不是在函数里另外造了固定的 key，比如 jax.random.key(42)？）",
    )
    params_from_key = any(
        not np.array_equal(np.asarray(x), np.asarray(y))
        for x, y in zip(jax.tree.leaves(a.params), jax.tree.leaves(c.params))
    )
    expect(
        not (params_from_key and key_bits(a.key) == key_bits(given)),
        "state.key is the very key passed to create_train_state, and that key also initialized the params: "
        "the training randomness would repeat the numbers used for the initial weights",
        "state.key 正是传给 create_train_state 的那个 key，而它也被用来初始化了参数："
        "训练中的随机数会重复初始化权重时用过的那些数",
    )


@check("step-output", depends=["state-fields"])
def check_step_output(create_train_state, train_step, TrainState):
    state = create_train_state(jax.random.key(0))
    like = jax.tree.structure(state)
    new_state, loss = returns(train_step(state, sine_batch()), ("new_state", "loss"), "train_step")
    expect(
        isinstance(new_state, TrainState),
        f"the first value returned should be a TrainState, got {type(new_state).__name__}",
        f"返回的第一个值应为 TrainState，实际是 {type(new_state).__name__}",
    )
    expect(
        jax.tree.structure(new_state) == like,
        f"the new state has PyTree structure {jax.tree.structure(new_state)}, but the old one was {like}",
        f"新状态的 PyTree 结构是 {jax.tree.structure(new_state)}，而旧状态是 {like}",
    )
    expect(
        np.shape(loss) == () and math.isfinite(float(loss)),
        f"the loss should be a finite scalar, got {type_of(loss)} {np.asarray(loss) if np.size(loss) < 5 else ''}",
        f"损失应为有限的标量，实际是 {type_of(loss)} {np.asarray(loss) if np.size(loss) < 5 else ''}",
    )


@check("step-increments", depends=["step-output"])
def check_step_increments(create_train_state, train_step):
    state = create_train_state(jax.random.key(0))
    for i in range(1, 4):
        state, _ = train_step(state, sine_batch())
        got = int(state.step)
        expect(
            got == i,
            f"after {i} call(s) of train_step, state.step is {got}, expected {i}",
            f"调用 train_step {i} 次后 state.step 为 {got}，应为 {i}",
        )
    # A long run in three steps: the step starts where a narrow dtype wraps (uint8 at 256) or stops
    # counting (float16 at 2048, float32 at 2**24), in the dtype the learner's own state keeps it.
    step = create_train_state(jax.random.key(0)).step
    kept = str(step.dtype) if isinstance(step, jax.Array) else None

    def advance(start):
        state = create_train_state(jax.random.key(0))
        state = with_leaf(state, state.step, jnp.asarray(start, dtype=kept) if kept else start)
        seen = []
        for _ in range(3):
            state, _ = train_step(state, sine_batch())
            seen.append(int(state.step))
        return seen

    expect_counts_past_edges(advance, ("state.step", "state.step"), kept=kept)


@check("key-advances", depends=["step-output"])
def check_key_advances(create_train_state, train_step):
    state = create_train_state(jax.random.key(0))
    seen = [key_bits(state.key)]
    for i in range(1, 4):
        state, _ = train_step(state, sine_batch())
        now = key_bits(state.key)
        if now in seen:
            j = seen.index(now)
            fail(
                f"after step {i}, state.key is the same key the state held "
                + ("before this step" if j == i - 1 else f"after step {j}")
                + ": every step must split the key and carry a NEW key forward",
                f"第 {i} 步之后，state.key 与"
                + ("这一步之前" if j == i - 1 else f"第 {j} 步之后")
                + "状态里的 key 相同："
                "每一步都要拆分 key，并把新的 key 传下去",
            )
        seen.append(now)


def expect_draws_follow_key(learner, create_train_state, train_step) -> None:
    """Every draw follows state.key: a key made inside from a constant seed repeats at every step,
    and one seeded from a counter the module keeps (a global, a SimpleNamespace or class attribute)
    moves only while tracing. Such a counter is named: the step is traced afresh once, watched."""
    state = create_train_state(jax.random.key(0))
    unkeyed = draws_not_from(train_step, (state, sine_batch()), lambda leaves: [l is state.key for l in leaves])
    if not unkeyed:
        return
    before = global_snapshot(learner)
    again = traced(train_step, "train_step") if is_jitted(train_step) else train_step
    again(create_train_state(jax.random.key(0)), sine_batch())
    changed = global_changes(learner, before)
    expect(
        not changed,
        f"train_step draws random numbers ({', '.join(sorted(set(unkeyed)))}) with a key that does not come from "
        f"state.key, and while it was traced it {changed.en if changed else ''}: its randomness follows a counter "
        "kept outside JAX (a global, a types.SimpleNamespace or a class attribute that seeds its key). Under "
        "jax.jit that counter moves only while tracing, so the compiled step draws the same numbers at every "
        "step, and another key changes nothing. Keep no counter: draw with jax.random from a subkey of state.key "
        "(jax.random.fold_in(state.key, state.step) if you want the step in it)",
        f"train_step 用一个并非来自 state.key 的 key 抽取随机数（{'、'.join(sorted(set(unkeyed)))}），而且在追踪时"
        f"{changed.zh if changed else ''}：它的随机性跟随的是 JAX 之外保存的计数器（全局变量、types.SimpleNamespace "
        "或类属性，用来给 key 设种子）。在 jax.jit 下这个计数器只在追踪时变化，于是编译后的训练步每一步都抽到"
        "同样的数，换一个 key 也没有用。不要保存计数器：用 jax.random 从 state.key 拆出的子 key 抽样"
        "（想把步数放进去可以用 jax.random.fold_in(state.key, state.step)）",
    )
    expect(
        not unkeyed,
        f"train_step draws random numbers ({', '.join(sorted(set(unkeyed)))}) with a key that does not come "
        "from state.key: a key made inside the step from a constant seed (jax.random.key(0), "
        "jax.random.PRNGKey(42)) or kept in a global gives the same numbers at every step (the same dropout "
        "mask, the same noise). Derive every key from state.key: key, k_batch, k_drop = "
        "jax.random.split(state.key, 3)",
        f"train_step 用一个并非来自 state.key 的 key 抽取随机数（{'、'.join(sorted(set(unkeyed)))}）："
        "在训练步里用常数种子新造的 key（jax.random.key(0)、jax.random.PRNGKey(42)），或者存在全局变量里的 key，"
        "每一步都给出同样的数（同样的 dropout 掩码、同样的噪声）。每个 key 都要从 state.key 派生："
        "key, k_batch, k_drop = jax.random.split(state.key, 3)",
    )


@check("key-used", depends=["step-output"])
def check_key_used(learner, create_train_state, train_step):
    def run(swap_key):
        state = create_train_state(jax.random.key(0))
        if swap_key:
            state = with_key(state, other_key(state.key))
        new_state, loss = train_step(state, sine_batch())
        return [np.asarray(l) for l in jax.tree.leaves(new_state.params)], float(loss)

    a_params, a_loss = run(False)
    b_params, b_loss = run(False)
    same = all(np.array_equal(x, y) for x, y in zip(a_params, b_params)) and a_loss == b_loss
    expect(
        same,
        "two fresh states made by create_train_state(jax.random.key(0)) gave different results after one "
        "train_step: the step (or the initialization) depends on something other than its arguments",
        "用 create_train_state(jax.random.key(0)) 新建的两个相同状态，各走一步 train_step 后结果不同："
        "训练步（或初始化）依赖了参数以外的东西",
    )
    c_params, c_loss = run(True)
    differs = c_loss != a_loss or any(not np.array_equal(x, y) for x, y in zip(a_params, c_params))
    if not differs:
        expect_draws_follow_key(learner, create_train_state, train_step)  # a cause to name, if it is that
    expect(
        differs,
        "changing only state.key left the step's loss and new params exactly the same: "
        "train_step does not use its key for any randomness",
        "只改变 state.key，训练步的损失和新参数却完全不变：train_step 没有用 key 产生任何随机性",
    )
    # Hold the key, trace again: randomness drawn outside JAX while tracing (Python's `random`,
    # NumPy's) is frozen into one program, and another trace freezes other numbers. A generator
    # seeded inside the step freezes the same ones, so which generators ran is watched too (a
    # wrapper's Python runs on every call, traced or not).
    fresh, batch = create_train_state(jax.random.key(0)), sine_batch()  # before watching: NumPy makes the data
    if is_jitted(train_step):
        again = traced(train_step, "train_step")
        with witness.ran(eager=False) as ran:
            new_state, loss = again(fresh, batch)
        same_again = np.isclose(float(loss), a_loss, rtol=1e-5, atol=1e-7) and all(
            np.allclose(np.asarray(x), y, rtol=1e-5, atol=1e-7)
            for x, y in zip(jax.tree.leaves(new_state.params), a_params)
        )
        expect(
            same_again,
            f"the same state and key gave loss {a_loss:.6g}, then {float(loss):.6g} when train_step was traced "
            "again (a fresh jax.jit of your function): some of its randomness comes from outside JAX, such as "
            "Python's `random` or NumPy's generator, drawn while tracing. Under jit that draw runs once, so every "
            "step trains on the same rows. Draw with jax.random from a subkey of state.key",
            f"同样的状态和 key，损失先是 {a_loss:.6g}，重新追踪 train_step（对你的函数重新 jax.jit）后却是 "
            f"{float(loss):.6g}：它的一部分随机性来自 JAX 之外，比如 Python 的 `random` 或 NumPy 的生成器，"
            "在追踪时抽取。在 jit 下这次抽取只执行一次，于是每一步都用同样的几行训练。请用 jax.random 从 "
            "state.key 拆出的子 key 抽样",
        )
    else:
        with witness.ran(eager=False) as ran:
            train_step(fresh, batch)
    outside = witness.outside_jax(ran)
    expect(
        not outside,
        f"train_step called {', '.join(outside)} while it ran: that randomness does not follow state.key. "
        "Python's and NumPy's generators are not JAX's: under jit they run once, while tracing, and their "
        "numbers become constants of the compiled program; one seeded inside the step gives the same numbers "
        "every time, whatever the key. Every step then trains on the same rows (drops the same "
        "units), and another key does not change them. Draw with jax.random from a subkey of state.key",
        f"train_step 运行时调用了 {'、'.join(outside)}：这部分随机性不随 state.key 变化。Python 和 NumPy 的"
        "生成器不是 JAX 的：在 jit 下它们只在追踪时运行一次，抽出的数成了编译后程序里的常量；在训练步里重新"
        "设种子的生成器每次都给出同样的数，与 key 无关。于是每一步都用同样的几行训练（丢弃同样的单元），"
        "换一个 key 也不会改变。请用 jax.random 从 state.key 拆出的子 key 抽样",
    )
    expect_draws_follow_key(learner, create_train_state, train_step)


@check("uses-batch", depends=["step-output"])
def check_uses_batch(create_train_state, train_step):
    # Every argument the prompt names must matter: the same state, two different batches.
    X, _ = sine_data()
    results = []
    for y in (np.sin(X), np.cos(X) + 2.0):
        state = create_train_state(jax.random.key(0))
        new_state, loss = train_step(state, (as_float32(X), as_float32(y)))
        results.append((float(loss), [np.asarray(l) for l in jax.tree.leaves(new_state.params)]))
    (loss_a, params_a), (loss_b, params_b) = results
    expect(
        loss_a != loss_b or any(not np.array_equal(a, b) for a, b in zip(params_a, params_b)),
        "the same state given two different batches (targets sin(x), then cos(x) + 2) produced the same loss "
        f"({loss_a:.4g}) and the same new params: train_step ignores its `batch` argument (does it train on a "
        "dataset defined in the module?). Compute the loss on `x, y = batch`",
        "同一个状态分别配上两个不同的 batch（目标为 sin(x) 和 cos(x) + 2），得到的损失"
        f"（{loss_a:.4g}）和新参数却完全相同：train_step 忽略了参数 `batch`（是不是在用模块里定义的数据集训练？）。"
        "请在 `x, y = batch` 上计算损失",
    )


@check("key-once", depends=["key-advances"])
def check_key_once(train_step, create_train_state):
    # jax.debug_key_reuse sees a key consumed twice in one call, under jit too; a key consumed
    # in one call and again in the next it sees under jit on 0.12.0.1, but on 0.10.2 only when
    # both steps are in one trace, or run eagerly (verified on both). So: the learner's jitted
    # steps first; then, where this JAX needs it, two steps of the unwrapped function inside
    # one jit (fast), or, for a step that is not a jax.jit object, two eager steps (slow).
    batch = sine_batch()
    _, KeyReuseError = key_reuse_checker()

    def typed(key):
        return jnp.issubdtype(key.dtype, jax.dtypes.prng_key)

    import contextlib

    def run_inlined():
        """Two steps of the unwrapped function in one trace: (2, first line) if the key that step 1
        stores was consumed in step 1, else None."""
        inner = getattr(train_step, "__wrapped__", None) or train_step._fun

        @jax.jit
        def two_steps(state, batch):
            return inner(inner(state, batch)[0], batch)[0]

        checker, _ = key_reuse_checker()
        with checker:
            state = create_train_state(jax.random.key(0))
            if not typed(state.key):
                state = with_key(state, fresh_key(state.key))
            try:
                two_steps.trace(state, batch)  # JAX checks the jaxpr as it is traced: nothing to compile
            except KeyReuseError as exc:
                return 2, str(exc).splitlines()[0]
        return None

    def run(fresh_each_step, eager):
        """Steps under the checker: (step that raised, its first line) or None."""
        checker, _ = key_reuse_checker()
        with checker, jax.disable_jit() if eager else contextlib.nullcontext():
            try:
                state = create_train_state(jax.random.key(0))
            except KeyReuseError as exc:
                return 0, str(exc).splitlines()[0]
            for i in range(1, 3 if eager else 4):
                if fresh_each_step or not typed(state.key):  # raw uint32 keys are not tracked
                    state = with_key(state, fresh_key(state.key))
                try:
                    state, _ = train_step(state, batch)
                except KeyReuseError as exc:
                    return i, str(exc).splitlines()[0]
        return None

    eager = across_calls = False
    found = run(False, eager)
    if found is None and not checker_sees_across_jit_calls():
        if is_jitted(train_step):
            found = run_inlined()  # within one call it would have been found above: across calls
            across_calls = found is not None
        else:
            eager = True
            found = run(False, eager)
    if found is not None:
        step, said = found
        # the same steps, each starting from a never-used copy of state.key
        again = None if across_calls else run(True, eager)
        if step == 0:
            fail(
                f"create_train_state uses one key twice (JAX: {said}). Split it once and give each use "
                "its own key: k_init, k_train = jax.random.split(key)",
                f"create_train_state 把同一个 key 用了两次（JAX：{said}）。只拆分一次，每种用途各用一个 key："
                "k_init, k_train = jax.random.split(key)",
            )
        if again is None or again[0] > step:  # the key handed in had been consumed already
            if step == 1:
                fail(
                    "the key create_train_state stored as state.key was already used there (split or "
                    f"drawn from to make the initial weights), and train_step used it again (JAX: {said}). "
                    "Store a key that nothing has consumed: k_init, k_train = jax.random.split(key); "
                    "initialize from k_init only and keep k_train",
                    "create_train_state 存进 state.key 的 key 在那里已经用过（被拆分过，或用来生成初始权重），"
                    f"train_step 又用了它一次（JAX：{said}）。请保存一个从未被使用过的 key："
                    "k_init, k_train = jax.random.split(key)；只用 k_init 初始化，保留 k_train",
                )
            fail(
                f"step {step} received a key that step {step - 1} had already consumed (JAX: {said}): "
                "train_step stores the subkey it just used for this step's randomness. "
                "key, sub = jax.random.split(state.key): draw with sub, store key",
                f"第 {step} 步收到的 key 在第 {step - 1} 步已经被用过（JAX：{said}）：train_step 把刚用来"
                "产生随机数的子 key 存了下来。key，sub = jax.random.split(state.key)：用 sub 抽样，存 key",
            )
        fail(
            f"inside one train_step a key is consumed twice (JAX: {said}), e.g. one subkey feeds two random "
            "draws (the minibatch and the dropout mask): the two draws are then correlated. Split into one "
            "key per draw: key, k_batch, k_drop = jax.random.split(state.key, 3)",
            f"一次 train_step 内部同一个 key 被使用了两次（JAX：{said}），例如一个子 key 同时用于两次随机抽样"
            "（小批量和 dropout 掩码）：这两次抽样就相关了。每次抽样各拆一个 key："
            "key, k_batch, k_drop = jax.random.split(state.key, 3)",
        )


@check("opt-state", depends=["step-output"])
def check_opt_state(create_train_state, train_step):
    def opt_leaves(state):
        # numeric leaves: arrays, and Python numbers (a type problem that no-retrace reports)
        return [
            l
            for l in jax.tree.leaves(state.opt_state)
            if not (isinstance(l, jax.Array) and jnp.issubdtype(l.dtype, jax.dtypes.prng_key))
            and jnp.issubdtype(jnp.result_type(l), jnp.number)
        ]

    def nudged(l):
        delta = 0.1 if jnp.issubdtype(jnp.result_type(l), jnp.inexact) else 1
        if not isinstance(l, jax.Array):
            return l + delta
        # added in NumPy and put on the device: no XLA program per leaf shape
        return jax.device_put((np.asarray(l) + np.asarray(delta, l.dtype)).astype(l.dtype))

    state = create_train_state(jax.random.key(0))
    expect(
        len(opt_leaves(state)) > 0,
        "state.opt_state holds no arrays: keep the optimizer's state there "
        "(for SGD with momentum, one velocity array per parameter)",
        "state.opt_state 里没有任何数组：请把优化器的状态放在这里（对带动量的 SGD，就是每个参数一个速度数组）",
    )
    before = [np.array(l) for l in opt_leaves(state)]
    new_state, _ = train_step(state, sine_batch())
    after = [np.asarray(l) for l in opt_leaves(new_state)]
    expect(
        any(a.shape != b.shape or not np.array_equal(a, b) for a, b in zip(after, before)),
        "after one train_step, state.opt_state is exactly what it was: the step does not return the new optimizer state "
        "(is `opt_state=state.opt_state` passed on instead of the updated velocity?)",
        "执行一次 train_step 后，state.opt_state 与之前完全相同：训练步没有返回新的优化器状态"
        "（是不是把 `opt_state=state.opt_state` 原样传了下去，而不是更新后的速度？）",
    )

    def first_params(shift):
        state = create_train_state(jax.random.key(0))
        targets = {id(l) for l in opt_leaves(state)}
        leaves, treedef = jax.tree.flatten(state)
        leaves = [nudged(l) if shift and id(l) in targets else l for l in leaves]
        new_state, _ = train_step(jax.tree.unflatten(treedef, leaves), sine_batch())
        return [np.asarray(l) for l in jax.tree.leaves(new_state.params)]

    plain, shifted = first_params(False), first_params(True)
    expect(
        any(not np.array_equal(a, b) for a, b in zip(plain, shifted)),
        "changing only state.opt_state (+0.1 on every float leaf, +1 on every integer one) left the new params exactly the same: train_step does not "
        "read the optimizer state it is given (does the velocity restart from zeros at every step?)",
        "只改变 state.opt_state（每个浮点叶子加 0.1，每个整数叶子加 1），新参数却完全不变：train_step 没有读取传给它的优化器状态"
        "（速度是不是每一步都从零重新开始？）",
    )


@check("donates", depends=["step-output"])
def check_donates(create_train_state, train_step):
    # JAX warns about donation when it lowers a program: for 120 rows, a shape no other check
    # uses, so that it is lowered anew (and only lowered: nothing more to compile).
    # A state of its own: a train_step that is not a jit object is run, and donates it.
    x_new, y_new = sine_batch(120)
    unusable = lowered_donation_warnings(train_step, create_train_state(jax.random.key(0)), (x_new, y_new))
    state = create_train_state(jax.random.key(0))
    x_batch, y_batch = sine_batch()  # a batch the caller keeps using
    state, _ = train_step(state, (x_batch, y_batch))
    old = state
    new_state, _ = train_step(old, (x_batch, y_batch))
    batch_types = {aval_text(x_new), aval_text(y_new)}
    donated_batch = [t for t in unusable if t in batch_types] or [
        n for n, a in (("x", x_batch), ("y", y_batch)) if a.is_deleted()
    ]
    expect(
        not donated_batch,
        f"the batch is donated as well as the state (JAX could not reuse {', '.join(donated_batch)}): the caller "
        "still owns its data, and a donated batch may be deleted under it. Donate the state only: donate_argnums=0",
        f"除了状态，batch 也被捐赠了（JAX 无法复用 {', '.join(donated_batch)}）：数据仍归调用方所有，"
        "被捐赠的 batch 可能在调用方手里被删除。只捐赠状态：donate_argnums=0",
    )
    expect(
        not unusable,
        f"JAX could not reuse some donated state buffers ({', '.join(unusable)}): a leaf of the new state has "
        "another shape or dtype than the same leaf of the old one, so donation saves nothing for it",
        f"JAX 无法复用部分被捐赠的状态缓冲区（{', '.join(unusable)}）：新状态中某个叶子的形状或 dtype "
        "与旧状态中对应的叶子不同，对它来说捐赠毫无作用",
    )
    alive = [
        jax.tree_util.keystr(path)
        for path, leaf in jax.tree_util.tree_flatten_with_path(old.params)[0]
        if isinstance(leaf, jax.Array) and not leaf.is_deleted()
    ]
    expect(
        not alive,
        f"after new_state, loss = train_step(state, batch), the old state.params{alive[0] if alive else ''} is still "
        "alive: the state was not donated. Wrap train_step with jax.jit(..., donate_argnums=0)",
        f"执行 new_state，loss = train_step(state, batch) 之后，旧的 state.params{alive[0] if alive else ''} 仍然存在："
        "状态没有被捐赠。请用 jax.jit(..., donate_argnums=0) 包装 train_step",
    )


@check("no-retrace", depends=["step-output"])
def check_no_retrace(train_step, create_train_state):
    step = traced(train_step, "train_step")
    state = create_train_state(jax.random.key(0))
    for _i in range(5):
        state, loss = step(state, sine_batch())
    expect_traces(step, 1, calls=5)


@check("trains", depends=["step-increments", "key-advances"], plots=True)
def check_trains(create_train_state, train_step):
    state, losses = run_training(lambda s: train_step(s, sine_batch()), create_train_state(jax.random.key(0)), 200)
    start, end = float(np.mean(losses[:5])), float(np.mean(losses[-20:]))
    expect(
        end < 0.5 * start,
        f"mean loss of the first 5 steps {start:.4g}, of the last 20 steps {end:.4g}: expected it to fall by at least half",
        f"前 5 步的平均损失为 {start:.4g}，最后 20 步为 {end:.4g}：应至少降到一半",
    )
    expect(
        int(state.step) == 200,
        f"after 200 steps state.step is {int(state.step)}",
        f"训练 200 步后 state.step 为 {int(state.step)}",
    )


@check("no-hidden-state", depends=["step-output"])
def check_no_hidden_state(learner):
    state = learner.create_train_state(jax.random.key(0))
    expect_no_hidden_state(
        learner,
        learner.train_step,
        state,
        sine_batch(),
        label="train_step(state, batch)",
    )
