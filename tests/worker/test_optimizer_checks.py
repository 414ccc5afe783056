"""The optimizer helpers adam's and rmsprop's checks share (tutor/child/optimizers.py), called
in-process with real JAX on small hand-written optimizers: a right one passes, each typical
mistake fails with the message the exercises rely on."""

from __future__ import annotations

import inspect

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from tutor.child import library as L
from tutor.child import optimizers as O

pytestmark = pytest.mark.slow  # JAX in-process


def sgd(lr=0.1, momentum=0.5):
    """A right optimizer with state: SGD with momentum, velocity shaped and typed like params."""

    def init(params):
        return {"v": jax.tree.map(jnp.zeros_like, params)}

    def update(grads, state, params=None):
        v = jax.tree.map(lambda v, g: momentum * v + g, state["v"], grads)
        return jax.tree.map(lambda v: -lr * v, v), {"v": v}

    return init, update


def sgd_reference(grads_seq, lr=0.1, momentum=0.5):
    v = jax.tree.map(np.zeros_like, grads_seq[0])
    for g in grads_seq:
        v = jax.tree.map(lambda v_, g_: momentum * v_ + g_, v, g)
        yield [("the velocity v", "速度 v ", v)], jax.tree.map(lambda v_: -lr * v_, v)


class Optimizer:
    def __init__(self, init, update):
        self.init, self.update = init, update


def test_unpack_takes_an_optimizer_or_a_pair_and_names_anything_else():
    init, update = sgd()
    assert O.unpack(Optimizer(init, update)) == (init, update) == O.unpack((init, update))
    with pytest.raises(L.CheckFailed) as err:
        O.unpack({"init": init}, "adam(0.1)")
    assert "adam(0.1) returned dict; expected an Optimizer with fields init and update" in err.value.en
    with pytest.raises(L.CheckFailed, match="must both be functions"):
        O.unpack((init, 3))


def test_jitted_update_wants_params_optional_a_pair_and_updates_like_params():
    init, update = sgd()
    params, grads = O.small_problem()
    updates, state = O.jitted_update(update, grads, init(params), params)
    L.structure(updates, params)

    def needs_params(grads, state, params):
        return update(grads, state, params)

    with pytest.raises(L.CheckFailed, match=r"signature update\(grads, state, params=None\)"):
        O.jitted_update(needs_params, grads, init(params), params)
    with pytest.raises(L.CheckFailed) as err:
        O.jitted_update(lambda g, s, p=None: update(g, s, p)[0], grads, init(params), params)
    assert err.value.en.startswith("jax.jit(update)(grads, state, params) should return a pair (updates, new_state)")
    with pytest.raises(L.CheckFailed, match="updates from jax.jit"):
        O.jitted_update(lambda g, s, p=None: ([g["w"]], s), grads, init(params), params)


def test_update_without_params_gives_updates_shaped_like_params():
    init, update = sgd()
    params, grads = O.small_problem()
    O.update_without_params(update, init, params, grads)
    with pytest.raises(L.CheckFailed, match="without params should return a pair"):
        O.update_without_params(lambda g, s, p=None: None, init, params, grads)


def test_state_untouched_tells_a_returned_state_from_one_written_in_place():
    init, update = sgd()
    O.expect_state_untouched(init, update, example="state['v'] = ...")

    def writes_in_place(grads, state, params=None):
        updates, new = update(grads, state, params)
        state["v"] = new["v"]
        return updates, state

    with pytest.raises(L.CheckFailed) as err:
        O.expect_state_untouched(init, writes_in_place, example="state['v'] = ...")
    assert "state['v']['b'] was [0.0, 0.0, 0.0], now [1.0, 1.0, 1.0]" in err.value.en
    assert "(e.g. state['v'] = ...)" in err.value.en and "state['v'] = ..." in err.value.zh

    def adds_a_key(grads, state, params=None):
        state["count"] = 1
        return update(grads, state, params)

    with pytest.raises(L.CheckFailed, match="has a different structure"):
        O.expect_state_untouched(init, adds_a_key, example="state['v'] = ...")


def test_state_untouched_runs_update_for_real_when_a_numpy_leaf_could_change_in_place():
    def numpy_init(params):
        return {"v": jax.tree.map(lambda p: np.zeros(p.shape, np.float32), params)}

    def scales_in_place(grads, state, params=None):
        for v, g in zip(state["v"].values(), grads.values()):
            v *= 0.5  # NumPy, in place: the caller's state changes
            v += np.asarray(g)
        return {k: -0.1 * jnp.asarray(v) for k, v in state["v"].items()}, state

    with pytest.raises(L.CheckFailed) as err:
        O.expect_state_untouched(numpy_init, scales_in_place, example="state['v'] = ...")
    assert "state['v']['b'] was [0.0, 0.0, 0.0], now [1.0, 1.0, 1.0]" in err.value.en


def test_history_checks_trace_update_and_pass_a_right_optimizer():
    init, update = sgd()
    given = []

    def watched(grads, state, params=None):
        given.extend(jax.tree.leaves((grads, state)))
        return update(grads, state, params)

    module = type(inspect)("learner")
    O.expect_keeps_no_history(module, (init, watched), init, watched, "sgd(0.1)")
    assert given and all(isinstance(leaf, jax.core.Tracer) for leaf in given)  # traced, never run


def test_history_checks_name_what_a_step_remembers():
    init, update = sgd()
    module = type(inspect)("learner")
    calls = []

    def counts_calls(grads, state, params=None):
        calls.append(1)  # a history that changes the numbers: a step size shrinking with every call
        updates, new = update(grads, state, params)
        return jax.tree.map(lambda u: u / len(calls), updates), new

    with pytest.raises(L.CheckFailed) as err:
        O.expect_keeps_no_history(module, (init, counts_calls), init, counts_calls, "sgd(0.1)")
    assert err.value.en.startswith("update(grads, init(params)) gave other updates after 5 earlier calls")
    g = np.asarray(O._history(11, 4)[1][0]["b"], np.float64)  # the first gradient of the calls, leaf 'b'
    first, sixth = (-0.1 * g).round(4).tolist(), (-0.1 * g / 6).round(4).tolist()  # 1 and 1/6 of a step
    assert f"first {first}, now {sixth}" in err.value.en

    shared = {"v": None}

    def shares_velocity(grads, state, params=None):
        v = state["v"] if shared["v"] is None else shared["v"]  # one velocity for every state
        v = jax.tree.map(lambda v, g: 0.5 * v + g, v, grads)
        shared["v"] = v
        return jax.tree.map(lambda v: -0.1 * v, v), {"v": v}

    with pytest.raises(L.CheckFailed) as err:
        O.expect_keeps_no_history(module, (init, shares_velocity), init, shares_velocity, "sgd(0.1)")
    assert "gave other updates" in err.value.en or "stepped in turn" in err.value.en

    learner = type(inspect)("learner")  # a learner's module whose global list logs every step
    exec(
        "import jax\nLOG = []\n"
        "def make(update):\n"
        "    def logs_steps(grads, state, params=None):\n"
        "        LOG.append(state)  # remembers, but the numbers stay right\n"
        "        return update(grads, state, params)\n"
        "    return logs_steps\n",
        vars(learner),
    )
    logs_steps = learner.make(update)
    with pytest.raises(L.CheckFailed) as err:
        O.expect_keeps_no_history(learner, (init, logs_steps), init, logs_steps, "sgd(0.1)")
    assert err.value.en.startswith("update keeps a history outside its state: Between calls it changed")
    assert "LOG" in err.value.en and "tracers" not in err.value.en.split("Its results")[0]


def test_state_follows_each_parameter_dtype_before_and_after_a_step():
    init, update = sgd()
    O.expect_state_follows_param_dtypes(init, update)

    def float32_init(params):
        return {"v": jax.tree.map(lambda p: jnp.zeros(p.shape), params)}

    with pytest.raises(L.CheckFailed) as err:
        O.expect_state_follows_param_dtypes(float32_init, update)
    assert "state['v']['b'] is float32[3], but the parameter it mirrors, params['b'], is bfloat16" in err.value.en


def test_against_gradient_names_the_entry_and_says_why_a_zero_step_is_wrong():
    grads = {"w": jnp.array([0.5, -3.0]), "b": jnp.array(-1.0)}
    O.expect_against_gradient({"w": jnp.array([-0.1, 0.1]), "b": jnp.array(0.2)}, grads)
    with pytest.raises(L.CheckFailed) as err:
        O.expect_against_gradient({"w": jnp.array([-0.1, -0.1]), "b": jnp.array(0.2)}, grads)
    assert err.value.en.startswith("updates['w'] entry 1 is -0.1 for a gradient of -3")
    zero = {"w": jnp.array([-0.1, 0.0]), "b": jnp.array(0.2)}
    with pytest.raises(L.CheckFailed, match="must move against the gradient"):
        O.expect_against_gradient(zero, grads)  # without advice a zero is just the wrong direction
    with pytest.raises(L.CheckFailed) as err:
        O.expect_against_gradient(zero, grads, still=("Use the new m.", "用新的 m。"))
    assert "does not move at all. Use the new m." in err.value.en and err.value.zh.endswith("用新的 m。")


def test_defaults_name_the_first_wrong_step_the_defaults_and_the_signature():
    def make(lr, momentum=0.9):
        return sgd(lr, momentum)

    grads_seq = [{"x": np.array([1.0, -2.0])}, {"x": np.array([0.5, 0.5])}]
    init, update = make(0.1)
    got = O.run_updates(update, init, {"x": jnp.zeros(2)}, grads_seq)
    right = [u for _, u in sgd_reference(grads_seq, 0.1, 0.9)]
    O.expect_defaults(make, "sgd(0.1)", {"momentum": 0.9}, got, right, grads_seq, note="as Optax")
    wrong = [u for _, u in sgd_reference(grads_seq, 0.1, 0.5)]
    with pytest.raises(L.CheckFailed) as err:
        O.expect_defaults(
            make, "sgd(0.1)", {"momentum": 0.5}, got, wrong, grads_seq, note=("as Optax", "与 Optax 相同")
        )
    en, zh = err.value.en, err.value.zh
    assert en.startswith("sgd(0.1) with its default momentum: the update at step 2 is")  # step 1 agrees
    assert "The defaults must be momentum=0.5 (as Optax). Your signature has momentum=0.9." in en
    assert zh.startswith("使用默认 momentum 的 sgd(0.1)：第 2 步") and "（与 Optax 相同）" in zh
    assert inspect.signature(make).parameters["momentum"].default == 0.9


def test_departure_names_the_moment_first_then_the_update_formula():
    init, update = sgd()
    params = {"x": jnp.zeros(3)}
    grads_seq = [{"x": np.array([1.0, -2.0, 0.5])}, {"x": np.array([0.3, 0.3, -1.0])}]

    def departure(update):
        return O.departure(
            update,
            init,
            params,
            grads_seq,
            sgd_reference(grads_seq),
            "SGD",
            right=("your v is right", "你的 v 正确"),
            look=("look at -lr * v", "请检查 -lr * v"),
        )

    assert departure(update) is None

    def forgets(grads, state, params=None):
        return update(grads, init(grads), params)  # the velocity restarts at every step

    en, zh = departure(forgets)
    assert en.startswith("at step 2 your state first departs from SGD in the velocity v of params['x']: expected [")
    assert "在第 2 步，你的状态首先在 params['x'] 的速度 v 上偏离了 SGD" in zh

    def wrong_sign(grads, state, params=None):
        updates, state = update(grads, state, params)
        return jax.tree.map(lambda u: -u, updates), state

    en, _ = departure(wrong_sign)
    assert en.startswith("at step 1 your v is right, but updates['x'] is [") and en.endswith("look at -lr * v")


def test_nested_problem_is_seeded_and_spread_over_decades():
    p0, grads_seq, params = O.nested_problem(seed=6, steps=4, decades=1.5)
    again = O.nested_problem(seed=6, steps=4, decades=1.5)
    assert len(grads_seq) == 4 and L.type_of(params["layers"][0]["w"]) == "float32[2,3]"
    assert all(np.array_equal(a, b) for a, b in zip(jax.tree.leaves(grads_seq), jax.tree.leaves(again[1])))
    sizes = np.abs(np.concatenate([np.ravel(g) for g in jax.tree.leaves(grads_seq)]))
    assert sizes.max() / sizes.min() > 100  # bias correction and eps show on both ends


def test_run_updates_carries_the_state_and_same_updates_compares_sequences():
    """A tiny SGD-with-a-step-count optimizer: the step number changes each update."""

    def init(params):
        return {"count": jnp.int32(0)}

    def update(grads, state, params):
        scale = 1.0 + state["count"].astype(jnp.float32)
        return jax.tree.map(lambda g: -0.1 * scale * g, grads), {"count": state["count"] + 1}

    params = {"w": jnp.zeros(2, jnp.float32)}
    grads = [{"w": np.array([1.0, -2.0])}] * 3
    got = O.run_updates(update, init, params, grads)
    want = [{"w": -0.1 * k * np.array([1.0, -2.0])} for k in (1, 2, 3)]
    assert O.same_updates(got, want)
    assert not O.same_updates(got, want[:1] * 3)  # a state that never advanced is told apart
