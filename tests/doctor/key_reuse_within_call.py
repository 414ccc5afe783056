"""Two draws from one key inside one function: the weights and the bias share randomness."""
import jax


def init(key, n):
    w = jax.random.normal(key, (n, n))
    b = jax.random.normal(key, (n,))  # finding: key-reuse
    return w, b


w, b = jax.jit(init, static_argnums=1)(jax.random.key(0), 3)
print(w.shape, b.shape)
