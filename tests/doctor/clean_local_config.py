"""The clean copy of side_effect_local_config.py: the rate is decayed outside the step and
passed in as an argument, so every call uses the current one."""

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
    def step(w, lr):
        grad = jax.grad(lambda w: jnp.mean((w * x - y) ** 2))(w)
        return w - lr * grad

    w = jnp.zeros(())
    lr = jnp.float32(config.learning_rate)
    for _ in range(40):
        lr = lr * 0.999
        w = step(w, lr)
    config.learning_rate = float(lr)
    print(f"w {float(w):.3f}, rate {config.learning_rate:.4f}")


main()
