"""A step made by a factory that closes over a list of main()'s and appends the loss to it
while traced: the list gets one tracer, once, not one loss per step."""

import jax
import jax.numpy as jnp


def make_step(x, y, history):
    @jax.jit
    def step(w):
        loss, grad = jax.value_and_grad(lambda w: jnp.mean((w * x - y) ** 2))(w)
        history.append(loss)  # finding: side-effect
        return w - 0.1 * grad

    return step


def main():
    x = jnp.linspace(-1.0, 1.0, 32)
    history = []
    step = make_step(x, 2.0 * x, history)
    w = jnp.zeros(())
    for _ in range(30):
        w = step(w)
    print(f"w {float(w):.3f}, {len(history)} losses kept")


main()
