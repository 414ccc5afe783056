"""The value comes back as float64 (x64 on, "more precision"): every number is right, but the
state's dtype changes after the first step, so jit traces the step again."""
# says: traced 2 times

import jax

jax.config.update("jax_enable_x64", True)

from typing import NamedTuple  # noqa: E402

import jax.numpy as jnp  # noqa: E402


class StateHolder(NamedTuple):
    value: jax.Array


def update_state(state, increment):
    return StateHolder(jnp.asarray(state.value + increment, jnp.float64))
