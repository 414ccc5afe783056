import jax.numpy as jnp


def welford_step(state, x):
    n, mean, m2 = state
    n = n + 1
    delta = x - mean
    mean = mean + delta / n
    m2 = m2 + delta * (x - mean)
    return (n, mean, m2), m2 / n


def online_var(xs):
    z = jnp.zeros((), xs.dtype)
    state, trace = (z, z, z), []
    for x in xs:  # unrolled while tracing
        state, var = welford_step(state, x)
        trace.append(var)
    n, mean, m2 = state
    return mean, m2 / n, jnp.stack(trace)
