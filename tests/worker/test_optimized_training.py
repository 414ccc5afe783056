"""A long training loop compiled fully optimized (tutor.child.library.training.optimized), as
judging workers compile everything else at -O0: the same numbers as the jit function it stands
for, and that function itself wherever it cannot stand in."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from tutor.child.library.training import optimized

pytestmark = pytest.mark.slow  # JAX in-process


@jax.jit
def ten_steps(carry):
    def body(w, _):
        loss = jnp.sum((w - 3.0) ** 2)
        return w - 0.1 * 2 * (w - 3.0), loss

    return jax.lax.scan(body, carry, None, length=10)


def test_the_optimized_loop_gives_the_numbers_of_the_jit_function():
    w = jnp.zeros(4, jnp.float32)
    fast = optimized(ten_steps, w)
    assert fast is not ten_steps
    got, want = fast(w), ten_steps(w)
    np.testing.assert_allclose(np.asarray(got[1]), np.asarray(want[1]), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(got[0]), np.asarray(want[0]), rtol=1e-6)


def test_a_carry_of_other_types_later_runs_the_jit_function():
    fast = optimized(ten_steps, jnp.zeros(4, jnp.float32))
    w, _ = fast(jnp.zeros(5, jnp.float32))  # another shape: the compiled loop cannot take it
    assert w.shape == (5,)


def test_what_is_not_a_jit_function_is_used_as_it_is():
    def plain(carry):
        return carry + 1, carry

    assert optimized(plain, jnp.zeros(3)) is plain
