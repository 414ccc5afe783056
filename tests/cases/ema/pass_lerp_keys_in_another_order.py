"""The EMA as a lerp toward the params, e + (1 - decay) * (p - e), built by key over ema's own key
order, and the step advanced with a one of the step's own dtype (no float on the way)."""

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp


class TrainState(NamedTuple):
    step: Any
    params: Any
    ema_params: Any


@jax.jit
def ema_train_step(state, x, y, lr, decay):
    def loss(p):
        r = p["w"] * x + p["b"] - y
        return jnp.vdot(r, r) / r.size

    grads = jax.grad(loss)(state.params)
    params = {k: state.params[k] - lr * grads[k] for k in sorted(state.params, reverse=True)}
    ema = {k: e + (1 - decay) * (params[k] - e) for k, e in state.ema_params.items()}
    one = jnp.ones((), dtype=jnp.asarray(state.step).dtype)
    return TrainState(jax.lax.add(state.step, one), params, ema)
