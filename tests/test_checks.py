"""The check library judges meaning: trace counts with reasons, nested primitives, values,
gradients, exceptions. These run in-process (the library is child-side code)."""

from __future__ import annotations

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

from tutor.checks import library as L


def test_close_names_leaf_and_index():
    got = {"w": jnp.array([1.0, 2.0, 3.5]), "b": jnp.float32(0.0)}
    want = {"w": np.array([1.0, 2.0, 3.0]), "b": np.float64(0.0)}
    with pytest.raises(L.CheckFailed) as err:
        L.close(got, want, what="params")
    assert "params['w']" in err.value.en and "index (2,)" in err.value.en and "3.5" in err.value.en
    assert "params['w']" in err.value.zh
    L.close(got, {"w": np.array([1.0, 2.0, 3.5]), "b": 0.0}, what="params")


def test_close_reports_structure_and_shape():
    with pytest.raises(L.CheckFailed, match="structure"):
        L.close((1.0, 2.0), [1.0, 2.0])
    with pytest.raises(L.CheckFailed, match="shape"):
        L.close(jnp.ones(3), np.ones(2))


def test_trace_counter_explains_weak_type_retrace():
    def update(state, x):
        total, n = state
        return (total + x, n + 1), total / jnp.maximum(n, 1)

    counter = L.traced(update)
    state = (0.0, 0)
    for x in jnp.arange(3.0):
        state, _ = counter(state, x)
    assert counter.count == 2
    with pytest.raises(L.CheckFailed) as err:
        L.expect_traces(counter, 1, calls=3)
    assert "state[0] was ~float32[] (weak), now float32[]" in err.value.en
    assert "弱类型" in err.value.zh

    typed = L.traced(update)
    state = (jnp.float32(0.0), jnp.int32(0))
    for x in jnp.arange(3.0):
        state, _ = typed(state, x)
    L.expect_traces(typed, 1)


def test_trace_counter_keeps_learner_static_choice():
    @partial(jax.jit, static_argnames="lr")
    def step(p, lr):
        return p - lr * p

    counter = L.traced(step)
    for lr in (0.1, 0.2, 0.3):
        counter(jnp.float32(1.0), lr=lr)
    assert counter.count == 3
    with pytest.raises(L.CheckFailed) as err:
        L.expect_traces(counter, 1)
    assert "lr was 0.1 (static), now 0.2 (static)" in err.value.en


def test_trace_counter_is_fresh_each_time():
    def f(x):
        return x + 1

    jf = jax.jit(f)
    jf(1.0)
    counter = L.traced(jf)
    counter(1.0)
    assert counter.count == 1  # the learner's own cache does not hide the trace


def test_primitive_search_goes_into_nested_jaxprs():
    @jax.jit
    def inner(xs):
        return lax.scan(lambda c, x: (c + x, c), 0.0, xs)[0]

    def outer(xs, flag):
        return lax.cond(flag, inner, lambda xs: jnp.sum(xs), xs)

    found = L.primitives(outer, jnp.arange(3.0), True)
    assert "scan" in found and "cond" in found
    L.expect_primitive(outer, (jnp.arange(3.0), True), "scan")

    def python_loop(xs):
        total = 0.0
        for x in xs:
            total = total + x
        return total

    with pytest.raises(L.CheckFailed, match="no `scan` primitive"):
        L.expect_primitive(python_loop, (jnp.arange(3.0),), "scan")


def test_raises_matches_by_class_family():
    def bad(steps):
        return lax.scan(lambda c, _: (c + 1, None), 0, None, length=steps)[0]

    exc = L.raises(jax.jit(bad), 3, types=("ConcretizationTypeError", "TypeError"))
    assert exc is not None
    assert L.raises(lambda: 1) is None
    with pytest.raises(ZeroDivisionError):
        L.raises(lambda: 1 / 0, types=("KeyError",))


def test_grad_check_accepts_right_and_rejects_wrong_gradients():
    def loss(p):
        return jnp.sum(jnp.tanh(p["w"]) ** 2) + p["b"] ** 2

    params = {"w": jnp.array([0.3, -0.7, 1.1]), "b": jnp.float32(0.5)}
    L.grad_check(loss, params, jax.grad(loss)(params))
    wrong = jax.tree.map(lambda g: 0.5 * g, jax.grad(loss)(params))
    with pytest.raises(L.CheckFailed, match="finite differences"):
        L.grad_check(loss, params, wrong)


def test_dtypes_notes_weak_types():
    with pytest.raises(L.CheckFailed) as err:
        L.dtypes((0.0,), (jnp.float32(0.0),), what="state")
    assert "~float32[]" in err.value.en and "weak" in err.value.en


def test_learner_attr_and_is_jitted():
    import types

    mod = types.SimpleNamespace(f=jax.jit(lambda x: x))
    assert L.is_jitted(L.learner_attr(mod, "f"))
    with pytest.raises(L.CheckFailed, match="does not define `g`"):
        L.learner_attr(mod, "g")
