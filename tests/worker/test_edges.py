"""The check library's edges (inputs where a shortcut breaks) and the causes its messages name:
a narrow dtype a count went through, bfloat16 behind a drift, a tuple where a dict is asked, a
functools.partial jitted per call. In-process: the library is child-side code."""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
import pytest

from tutor.child import library as L
from tutor.child import optimizers
from tutor.child.library import counts, edges, tracing, values

pytestmark = pytest.mark.slow  # JAX in-process


def test_counted_through_names_the_dtype_by_the_value_it_gives():
    big = 2**24 + 1
    assert counts.counted_through(big, big + 1) == []
    assert counts.counted_through(big, 2**24) == ["float32"]  # rounds, then stalls
    # every narrow integer wraps 2**24 + 1 to 1: the probes tell them apart
    seen = {d: [(s, counts._in(d, s, 1)) for s in (big, *counts.PROBES)] for d in counts.INTEGERS}
    for dtype, pairs in seen.items():
        assert counts.counted_through_all(pairs) == [dtype]
    en, zh = counts.narrow_count(lambda s: counts._in("uint8", s, 1), big, 2)
    assert "uint8" in en and "float" not in en and "uint8" in zh


def test_narrow_float_note_names_bfloat16_and_spares_round_numbers():
    want = np.array([0.23, 0.1, -0.19])
    got = want.astype(ml_dtypes.bfloat16).astype(np.float64)
    with pytest.raises(L.CheckFailed) as err:
        L.close(got, want, what="velocity")
    assert "bfloat16" in err.value.en and "bfloat16" in err.value.zh
    with pytest.raises(L.CheckFailed) as err:
        L.close(np.array([0.25, 0.5]), np.array([0.2501, 0.5]))
    assert "bfloat16" not in err.value.en  # 0.25 fits every float: no cause to name
    assert values._narrow_float_note(np.array([0.23, 0.1]), want[:2]) == ("", "")


def test_structure_names_a_tuple_where_a_dict_is_asked():
    with pytest.raises(L.CheckFailed) as err:
        L.structure((1.0, 2), {"pred_mean": 0.0, "calls": 0}, what="new_stats")
    assert "a tuple of 2 values where a dict with the keys 'pred_mean', 'calls'" in err.value.en
    assert "'pred_mean'" in err.value.zh


def test_special_where_compares_inf_and_nan_exactly():
    want = edges.planted(np.arange(5.0), keep=0)
    assert np.isinf(want).sum() == 2 and np.isnan(want).sum() == 1 and want[0] == 0.0
    L.special_where(want.copy(), want, "buffer", "cause")
    blended = np.where(np.isfinite(want), want, np.nan)  # inf * 0 made NaN
    with pytest.raises(L.CheckFailed, match="cause"):
        L.special_where(blended, want, "buffer", "cause")
    assert list(L.finite_twin([1.0, np.nan, np.inf])) == [1.0, 5.0, 5.0]


def test_builds_partial_reads_the_learners_code_only():
    def _times(x, scale):
        return x * scale

    def per_call(x, scale):
        return jax.jit(functools.partial(_times, scale=scale))(x)

    jitted_once = jax.jit(_times)
    assert tracing._builds_partial(lambda s: per_call(jnp.ones(2), s))
    assert not tracing._builds_partial(lambda s: jitted_once(jnp.ones(2), s))


def test_steps_past_lr_fails_a_clipped_adam_and_passes_the_formula():
    def adam(lr, b1=0.9, b2=0.999, eps=1e-8, clip=None):
        def init(p):
            return (jnp.zeros((), jnp.int32), jax.tree.map(jnp.zeros_like, p), jax.tree.map(jnp.zeros_like, p))

        def update(g, s, p=None):
            t, m, v = s[0] + 1, *s[1:]
            m = jax.tree.map(lambda a, b: b1 * a + (1 - b1) * b, m, g)
            v = jax.tree.map(lambda a, b: b2 * a + (1 - b2) * b * b, v, g)
            u = jax.tree.map(lambda a, b: -lr * (a / (1 - b1**t)) / (jnp.sqrt(b / (1 - b2**t)) + eps), m, v)
            if clip is not None:
                u = jax.tree.map(lambda x: jnp.clip(x, -clip * lr, clip * lr), u)
            return u, (t, m, v)

        return init, update

    b2 = 1 - 2**-17  # exact in float32: 10,000 quiet steps reach past 50 x lr, the library's rule

    def reference(grads, b2=b2):
        m = v = {k: np.zeros(3) for k in grads[0]}
        out = []
        for t, g in enumerate(grads, start=1):
            m = {k: 0.2 * m[k] + 0.8 * g[k] for k in g}
            v = {k: b2 * v[k] + (1 - b2) * g[k] ** 2 for k in g}
            out.append({k: -0.01 * (m[k] / (1 - 0.2**t)) / (np.sqrt(v[k] / (1 - b2**t)) + 1e-8) for k in g})
        return out

    optimizers.expect_steps_past_lr(adam(0.01, 0.2, b2), 0.01, reference, "adam", quiet_steps=10_000)
    # a clip above what 40 quiet steps reach (about 5 x lr) passed such an edge: the edge must reach further
    with pytest.raises(AssertionError, match="never moves past"):
        optimizers.expect_steps_past_lr(
            adam(0.01, 0.2, 0.999), 0.01, lambda g: reference(g, 0.999), "adam", quiet_steps=40
        )
    with pytest.raises(L.CheckFailed, match="looks clipped"):
        optimizers.expect_steps_past_lr(adam(0.01, 0.2, b2, clip=12.0), 0.01, reference, "adam", quiet_steps=10_000)


def test_counts_past_edges_name_the_dtype_a_count_is_kept_in():
    def stepped_in(dtype):
        return lambda start: [int(np.array(start + k).astype(dtype)) for k in range(1, 4)]

    L.expect_counts_past_edges(stepped_in(np.int32), ("count", "计数"), kept="int32")
    with pytest.raises(L.CheckFailed) as err:
        L.expect_counts_past_edges(stepped_in(np.uint8), ("count", "计数"), kept="uint8")
    assert "uint8" in err.value.en and "255" in err.value.en and "int32" in err.value.en
    with pytest.raises(L.CheckFailed) as err:
        L.expect_counts_past_edges(stepped_in(np.int32), ("count", "计数"), kept="int8")
    assert "cannot start from 254" in err.value.en and "int8" in err.value.zh

    def through_float16(start):
        out, n = [], start
        for _ in range(3):
            n = int(np.float16(n) + np.float16(1))
            out.append(n)
        return out

    with pytest.raises(L.CheckFailed) as err:  # no dtype kept: named by the values
        L.expect_counts_past_edges(through_float16, ("count", "计数"), starts=(2046,))
    assert "float16" in err.value.en
    with pytest.raises(L.CheckFailed) as err:  # a count that does not go on from the one given
        L.expect_counts_past_edges(lambda start: [21, 22, 23], ("count", "计数"))
    assert "did not go on from 254" in err.value.en


def test_rounded_through_names_bfloat16_state_and_spares_float32():
    m = np.array([0.002, 15.0, -0.5, 0.1, -0.003, 3e-4], np.float32)
    assert L.rounded_through({"m": m}) is None
    assert L.rounded_through({"m": m.astype(ml_dtypes.bfloat16).astype(np.float32)}) == "bfloat16"
    assert L.rounded_through({"m": m.astype(np.float16).astype(np.float32)}) == "float16"
    assert L.rounded_through({"m": np.array([0.5, 0.0, 0.0], np.float32)}) is None  # too few values to tell
    en, zh = L.rounded_cause("bfloat16", ("the moments", "矩"))
    assert "bfloat16" in en and "2**-8" in en and "bfloat16" in zh


def test_moving_average_matches_the_step_by_step_recurrence():
    x = np.random.default_rng(3).standard_normal((2000, 3))
    for keep in (0.0, 0.1, 0.9, 0.999, 1 - 2**-17):
        want, m = [], np.zeros(3)
        for row in x:
            m = keep * m + (1 - keep) * row
            want.append(m)
        np.testing.assert_allclose(L.moving_average(x, keep), np.array(want), rtol=1e-10, atol=1e-12)


def test_a_stacked_edge_is_judged_as_the_listed_one():
    listed = edges.jumping_gradients({"w": (3,)}, 5)
    stacked = edges.jumping_gradients({"w": (3,)}, 5, stacked=True)
    np.testing.assert_array_equal(edges.stacked_steps(listed)["w"], stacked["w"])
    halved = {"w": stacked["w"] / 2}
    edges.expect_steps_beyond_lr(stacked, stacked, 0.01, "x")
    with pytest.raises(L.CheckFailed, match="at step 1"):
        edges.expect_steps_beyond_lr(halved, listed, 0.01, "x")
