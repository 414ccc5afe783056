import collections
import copy

import jax
import jax.numpy as jnp

StateHolder = collections.namedtuple("StateHolder", ["value"])


@jax.jit
def update_state(state, increment):
    return state._replace(value=jnp.add(state.value, increment))
