"""A step counter of main()'s, counted with `nonlocal` inside the jitted step: it counts the
one trace, not the steps."""

import jax
import jax.numpy as jnp


def main():
    steps_taken = 0

    @jax.jit
    def step(w):
        nonlocal steps_taken
        steps_taken += 1  # finding: side-effect
        return w * 0.9

    w = jnp.ones(3)
    for _ in range(20):
        w = step(w)
    print(f"{steps_taken} steps counted")


main()
