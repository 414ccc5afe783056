import functools

import jax
import jax.numpy as jnp


def f(x: jax.Array) -> jax.Array:
    """f(x) = x squared."""
    return jnp.square(x)


@functools.partial(jax.jit, donate_argnums=0)
def gradient_descent_step(params: jax.Array, learning_rate: float = 0.1) -> jax.Array:
    return params - learning_rate * jax.grad(f)(params)


if __name__ == "__main__":
    p = jnp.float32(5.0)
    for _ in range(5):
        p = gradient_descent_step(p, 0.1)
        print(p)
