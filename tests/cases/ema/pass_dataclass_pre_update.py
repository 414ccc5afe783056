import dataclasses

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class TrainState:
    step: jax.Array
    params: dict
    ema_params: dict


def _step(state, x, y, lr, decay):
    def loss(p):
        return jnp.mean(jnp.square(p["w"] * x + p["b"] - y))

    grads = jax.grad(loss)(state.params)
    # EMA of the params *before* this update: the other accepted convention.
    ema = {k: decay * state.ema_params[k] + (1.0 - decay) * state.params[k] for k in state.params}
    params = {k: state.params[k] - lr * grads[k] for k in state.params}
    return dataclasses.replace(state, step=state.step + 1, params=params, ema_params=ema)


ema_train_step = jax.jit(_step)
