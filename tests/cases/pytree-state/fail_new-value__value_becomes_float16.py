from typing import NamedTuple
import jax
import jax.numpy as jnp


class StateHolder(NamedTuple):
    value: jax.Array


def update_state(state, increment):
    return StateHolder((state.value + increment).astype(jnp.float16))
