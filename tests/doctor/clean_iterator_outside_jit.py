"""The clean copy of side_effect_iterator_in_jit.py: each batch is taken outside the step and
passed in."""

import jax
import jax.numpy as jnp


def batches(key, n):
    while True:
        key, sub = jax.random.split(key)
        x = jax.random.normal(sub, (n,))
        yield x, 2.0 * x


def main():
    data = batches(jax.random.key(0), 16)

    @jax.jit
    def step(w, x, y):
        grad = jax.grad(lambda w: jnp.mean((w * x - y) ** 2))(w)
        return w - 0.1 * grad

    w = jnp.zeros(())
    for _ in range(30):
        x, y = next(data)
        w = step(w, x, y)
    print(f"w {float(w):.3f}")


main()
