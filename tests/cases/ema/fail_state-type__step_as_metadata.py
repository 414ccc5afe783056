import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class TrainState:
    step: int
    params: dict
    ema_params: dict


# step registered as metadata: it is not a leaf, it becomes part of the tree structure
jax.tree_util.register_dataclass(TrainState, data_fields=["params", "ema_params"], meta_fields=["step"])


@jax.jit
def ema_train_step(state, x, y, lr, decay):
    grads = jax.grad(lambda p: jnp.mean((p["w"] * x + p["b"] - y) ** 2))(state.params)
    params = jax.tree.map(lambda p, g: p - lr * g, state.params, grads)
    ema = jax.tree.map(lambda e, p: decay * e + (1 - decay) * p, state.ema_params, params)
    return TrainState(int(state.step) + 1, params, ema)
