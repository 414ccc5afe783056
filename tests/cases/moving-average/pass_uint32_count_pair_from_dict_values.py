"""A count in uint32 and the sum in float32, the pair built from a dict's values in key order."""
import jax.numpy as jnp

initial_state = (jnp.float32(0.0), jnp.uint32(0))


def update_moving_average(state, new_value):
    parts = {"sum": state[0] + new_value, "count": state[1] + jnp.uint32(1)}
    new_state = tuple(parts.values())
    return new_state, parts["sum"] / parts["count"].astype(jnp.float32)
