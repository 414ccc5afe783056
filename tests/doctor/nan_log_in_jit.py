# doctor: --nans
"""A log of a value that becomes negative: NaN from here on."""
import jax
import jax.numpy as jnp


@jax.jit
def objective(w):
    return jnp.log(w - 1.0)  # finding: nan


print(objective(jnp.float32(2.0)))
print(objective(jnp.float32(0.5)))
