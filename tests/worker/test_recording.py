"""Recorded learner calls (tutor/child/library/recording.py), in-process with real JAX: two
results are proved the same only when they are one computation on the same inputs, and the
numbers of a recording are those the calls compute when run as plain Python."""

from __future__ import annotations

import itertools

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from tutor.child.library.recording import Recording, traced_call

pytestmark = pytest.mark.slow  # JAX in-process


def step(x, lr=0.1):
    return x - lr * jnp.sqrt(x * x + 1.0)


def twice(fn):
    """fn called twice on the same input, as two named results."""
    return lambda x: {"first": fn(x), "again": fn(x)}


def test_the_same_calls_are_proved_the_same_and_nothing_is_compiled():
    compiled = []

    def count(event, duration, **kwargs):
        if event == "/jax/core/compile/backend_compile_duration":
            compiled.append(event)

    x = np.linspace(-1.0, 1.0, 7, dtype=np.float32)  # a shape no other test uses
    jax.monitoring.register_event_duration_secs_listener(count)
    try:
        recording = Recording(twice(lambda x: step(step(x))), x)
        assert recording.same(recording.outputs["first"], recording.outputs["again"])
        assert compiled == []
        recording.values()  # the canary: a compile is seen, so the listener counts compiles
        assert len(compiled) == 1
    finally:
        jax.monitoring.unregister_event_duration_listener(count)


def test_a_counter_in_a_closure_makes_the_calls_differ_and_values_are_what_python_computes():
    counter = itertools.count(1)

    def remembers(x):
        return step(x, lr=0.1 * next(counter))  # every call a new constant: a history

    x = np.array([0.5, 2.0], np.float32)
    recording = Recording(twice(remembers), x)
    assert not recording.same(recording.outputs["first"], recording.outputs["again"])
    values = recording.values()
    np.testing.assert_allclose(values["first"], step(x, 0.1), rtol=1e-6)
    np.testing.assert_allclose(values["again"], step(x, 0.2), rtol=1e-6)


def test_inputs_count_by_position_and_constants_by_value():
    x, y = np.ones(3, np.float32), np.ones(3, np.float32)
    by_position = Recording(lambda a, b: {"a": step(a), "b": step(b)}, x, y)
    assert not by_position.same(by_position.outputs["a"], by_position.outputs["b"])  # same numbers, other input
    made = [np.full(3, 2.0, np.float32), np.full(3, 2.0, np.float32), np.full(3, 3.0, np.float32)]
    consts = Recording(lambda a: [a * c for c in made], x)
    first, equal, other = consts.outputs
    assert consts.same(first, equal) and not consts.same(first, other)


def test_effects_and_python_callables_are_never_taken_as_proof():
    seen = []

    def prints(x):
        jax.debug.callback(lambda v: seen.append(float(v.sum())), x)
        return step(x)

    x = np.ones(2, np.float32)
    effects = Recording(twice(prints), x)
    assert not effects.same(effects.outputs["first"], effects.outputs["again"])
    effects.values()
    assert seen == [2.0, 2.0]  # the values come from running the recorded program, callbacks included
    callback = Recording(twice(lambda x: jax.pure_callback(np.sin, x, x)), x)  # Python computes it
    assert not callback.same(callback.outputs["first"], callback.outputs["again"])
    np.testing.assert_allclose(callback.values()["again"], np.sin(x))


def test_a_custom_derivative_is_judged_by_its_value_alone():
    relu = Recording(twice(jax.nn.relu), np.ones(2, np.float32))  # custom_jvp: its rule is a Python function
    assert relu.same(relu.outputs["first"], relu.outputs["again"])


def test_an_inner_jit_traced_twice_is_one_computation():
    inner = jax.jit(lambda x: step(x) * 2.0)
    recording = Recording(twice(inner), np.ones(4, np.float32))
    assert recording.same(recording.outputs["first"], recording.outputs["again"])


def test_traced_call_returns_any_output_with_abstract_leaves():
    out = traced_call(lambda x: (step(x), "a note", None), np.ones(3, np.float32))
    assert isinstance(out[0], jax.core.Tracer) and out[0].shape == (3,) and out[1:] == ("a note", None)
