import jax.numpy as jnp

initial_state = (jnp.zeros([], dtype=float), jnp.zeros([], dtype=int))


def update_moving_average(state, new_value):
    total, count = state
    total += new_value
    count += 1
    average = total / count
    return (total, count), average
