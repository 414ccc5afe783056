import jax.numpy as jnp


def welford_step(state, x):
    """One Welford update of state (n, mean, m2) by a value.

    Returns (new_state, running variance).
    """
    n, mean, m2 = state
    # TODO: update n, mean and m2 with x; return the new state, m2 / n.
    return (n, mean, m2), m2


def online_var(xs):
    """Mean, population variance and running variance of a 1-D array.

    All three in one scan.
    """
    # TODO: run welford_step over xs with lax.scan, starting from zeros.
    return jnp.mean(xs), jnp.zeros(()), jnp.zeros_like(xs)
