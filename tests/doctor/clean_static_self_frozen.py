"""The clean copy of side_effect_stale_static_self.py: the static `self` is read-only (its
rate never changes), and the decayed rate is an array argument."""

from functools import partial

import jax
import jax.numpy as jnp


class Trainer:
    def __init__(self, loss_scale):
        self.loss_scale = loss_scale

    @partial(jax.jit, static_argnums=0)
    def step(self, w, x, y, lr):
        grad = jax.grad(lambda w: self.loss_scale * jnp.mean((w * x - y) ** 2))(w)
        return w - lr * grad


def main():
    trainer = Trainer(1.0)
    x = jnp.linspace(-1.0, 1.0, 32)
    w, lr = jnp.zeros(()), jnp.float32(0.1)
    for _ in range(30):
        w = trainer.step(w, x, 2.0 * x, lr)
        lr = lr * 0.95
    print(f"w {float(w):.3f}")


main()
