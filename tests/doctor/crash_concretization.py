"""A batch count computed from a traced value, then used as a Python int under jit."""
import jax
import jax.numpy as jnp


@jax.jit
def mean_of_positive(xs):
    n = int(xs.shape[0] // 2)  # a number from shapes is concrete: fine
    steps = int(jnp.sum(xs > 0))  # finding: crash
    return jnp.sum(xs[:n]) / steps


print(mean_of_positive(jnp.arange(12.0)))
