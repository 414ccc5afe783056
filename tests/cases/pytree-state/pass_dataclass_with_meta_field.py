import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.tree_util.register_dataclass, data_fields=["value"], meta_fields=["name"])
@dataclasses.dataclass(frozen=True)
class StateHolder:
    value: jax.Array
    name: str = "counter"   # static metadata, not a leaf


def update_state(state, increment):
    return dataclasses.replace(state, value=state.value + jnp.asarray(increment, state.value.dtype))
