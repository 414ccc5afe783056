"""A sampler keeps its key on itself and draws from it every step without splitting: every step
gets the same noise. The key should be split where it is drawn from."""
import jax
import jax.numpy as jnp


class Noise:
    def __init__(self, seed):
        self.key = jax.random.PRNGKey(seed)

    def sample(self, shape):
        return jax.random.normal(self.key, shape)  # finding: key-reuse


noise = Noise(0)
w = jnp.zeros(3)
for i in range(10):
    w = w + 0.01 * noise.sample((3,))
print(float(w.sum()))
