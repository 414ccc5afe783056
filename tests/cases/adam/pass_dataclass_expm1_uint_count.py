"""Adam written with a frozen registered dataclass, explicit float32 maths and hyper-params in the state."""
import dataclasses
import math
from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp


class Optimizer(NamedTuple):
    init: Callable
    update: Callable


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class AdamState:
    step: jax.Array
    moments: tuple   # (m, v)


def adam(lr, b1=0.9, b2=0.999, eps=1e-8):
    log_b1, log_b2 = math.log(b1), math.log(b2)

    def init(params):
        return AdamState(step=jnp.zeros((), jnp.uint32),
                         moments=(jax.tree.map(jnp.zeros_like, params), jax.tree.map(jnp.zeros_like, params)))

    def update(grads, state, params=None):
        step = state.step + jnp.uint32(1)
        t = step.astype(jnp.float32)
        m, v = state.moments
        m = jax.tree.map(lambda a, g: a + (1 - b1) * (g - a), m, grads)
        v = jax.tree.map(lambda a, g: a + (1 - b2) * (g * g - a), v, grads)
        # 1 - b**t computed as -expm1(t log b): accurate for b close to 1
        c1 = -jnp.expm1(t * log_b1)
        c2 = -jnp.expm1(t * log_b2)
        updates = jax.tree.map(lambda a, b: -lr * (a / c1) * jax.lax.reciprocal(jnp.sqrt(b / c2) + eps), m, v)
        return updates, dataclasses.replace(state, step=step, moments=(m, v))

    return Optimizer(init=init, update=update)


def apply_updates(params, updates):
    return jax.tree.map(jnp.add, params, updates)
