from typing import Any, NamedTuple

import jax
import jax.numpy as jnp


class TrainState(NamedTuple):
    step: Any
    params: Any
    ema_params: Any


def _step(state, x, y, lr, decay):
    grads = jax.grad(lambda p: jnp.mean(jnp.square(p["w"] * x + p["b"] - y)))(state.params)
    pairs = jax.tree.map(lambda p, g, e: (p - lr * g, decay * e + (1 - decay) * (p - lr * g)),
                         state.params, grads, state.ema_params)
    params = {k: v[0] for k, v in pairs.items()}
    ema = {k: v[1] for k, v in pairs.items()}
    return TrainState(state.step + 1, params, ema)


_compiled = jax.jit(_step)


def ema_train_step(state, x, y, lr, decay):
    """Entry point: the compiled step, built once at import."""
    return _compiled(state, x, y, lr, decay)
