import functools

import jax
import jax.numpy as jnp
from jax import lax


def momentum_update(state, gradients, learning_rate, momentum=0.9):
    mul = lax.mul
    velocity = jax.tree.map(lambda v, g: jnp.add(mul(momentum * jnp.ones_like(v), v), learning_rate * g),
                            state.velocity, gradients)
    return state.__class__(params=jax.tree.map(jnp.subtract, state.params, velocity), velocity=velocity)


jitted_momentum_update = jax.jit(functools.partial(momentum_update))
