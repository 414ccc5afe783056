"""An EMA of the parameters that starts as the parameters themselves: the train state holds one
array at two places, and donating it asks JAX to donate one buffer twice (JAX stops the call)."""

from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp


class TrainState(NamedTuple):
    step: jax.Array
    params: dict
    avg_params: dict


def loss_fn(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


@partial(jax.jit, donate_argnums=0)
def train_step(state, x, y):
    grads = jax.grad(loss_fn)(state.params, x, y)
    params = jax.tree.map(lambda p, g: p - 0.1 * g, state.params, grads)
    avg = jax.tree.map(lambda a, p: 0.99 * a + 0.01 * p, state.avg_params, params)
    return TrainState(state.step + 1, params, avg)


def main():
    params = {"w": jnp.zeros((3, 1)), "b": jnp.zeros(1)}
    state = TrainState(jnp.int32(0), params, params)
    x, y = jnp.ones((8, 3)), jnp.ones((8, 1))
    for _ in range(5):
        state = train_step(state, x, y)  # finding: donation
    print("loss", loss_fn(state.avg_params, x, y))


if __name__ == "__main__":
    main()
