"""A learning rate decayed on a config local to main(), inside the jitted step: the decay runs
once, at trace time, and the compiled step keeps the first rate forever."""

import jax
import jax.numpy as jnp


class Config:
    def __init__(self):
        self.learning_rate = 0.1


def main():
    config = Config()
    x = jnp.linspace(-1.0, 1.0, 32)
    y = 3.0 * x

    @jax.jit
    def step(w):
        config.learning_rate *= 0.999  # finding: side-effect
        grad = jax.grad(lambda w: jnp.mean((w * x - y) ** 2))(w)
        return w - config.learning_rate * grad

    w = jnp.zeros(())
    for _ in range(40):
        w = step(w)
    print(f"w {float(w):.3f}, rate {config.learning_rate:.4f}")


main()
