"""One key drawn from on every step: the "noise" is the same every time."""
import jax
import jax.numpy as jnp

key = jax.random.PRNGKey(0)
w = jnp.zeros(3)
for step in range(4):
    noise = jax.random.normal(key, (3,))  # finding: key-reuse
    w = w + 0.1 * noise
print(w)
