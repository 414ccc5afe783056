# The count is kept as int8: right for 127 updates, then it wraps to -128 and the bias correction
# 1 - b**t goes wild.
# says: int8
# never-says: bfloat16

from collections.abc import Callable
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Optimizer(NamedTuple):
    init: Callable  # params -> state
    update: Callable  # (grads, state, params=None) -> (updates, new_state)


class AdamState(NamedTuple):
    count: jax.Array  # updates made so far (int32 scalar)
    m: object  # first moment: moving average of the gradients, shaped like params
    v: object  # second moment: moving average of the squared gradients


def _blend(average, value, keep):
    """Moving average: `keep` of the old average, the rest from the new value."""
    return keep * average + (1 - keep) * value


def adam(lr, b1=0.9, b2=0.999, eps=1e-8):
    """Adam with bias correction, as two pure functions over any PyTree of parameters."""

    def init(params):
        # A separate tree.map per moment: m and v must be distinct buffers, or a jitted
        # step that donates the state would donate one buffer twice.
        m = jax.tree.map(jnp.zeros_like, params)
        v = jax.tree.map(jnp.zeros_like, params)
        return AdamState(count=jnp.zeros((), jnp.int8), m=m, v=v)

    def update(grads, state, params=None):
        del params  # Adam never looks at the parameters themselves
        t = state.count + jnp.int8(1)  # the number of this update: corrections start at step 1
        m = jax.tree.map(lambda m_, g: _blend(m_, g, b1), state.m, grads)
        v = jax.tree.map(lambda v_, g: _blend(v_, jnp.square(g), b2), state.v, grads)

        def step(m_, v_):
            # Both moments start at zero and lean towards it early on; 1 - b**t undoes that.
            m_hat = m_ / (1 - b1**t)
            v_hat = v_ / (1 - b2**t)
            return -lr * m_hat / (jnp.sqrt(v_hat) + eps)

        return jax.tree.map(step, m, v), AdamState(count=t, m=m, v=v)

    return Optimizer(init, update)


def apply_updates(params, updates):
    """params + updates, leaf by leaf."""
    return jax.tree.map(jnp.add, params, updates)
