# says: _history()
# Wrong: an lru_cache'd function of no arguments hands back one list, and every call logs into it.
from functools import lru_cache

import jax
import jax.numpy as jnp


@lru_cache(maxsize=None)
def _history():
    return []


def loss_with_stats(params, x, y, stats):
    pred = params["w"] * x + params["b"]
    _history().append("loss")
    new_stats = {"pred_mean": 0.9 * stats["pred_mean"] + 0.1 * pred.mean(), "calls": stats["calls"] + 1}
    return jnp.mean(jnp.square(pred - y)), new_stats


def loss_stats_and_grads(params, x, y, stats):
    return jax.value_and_grad(loss_with_stats, has_aux=True)(params, x, y, stats)
