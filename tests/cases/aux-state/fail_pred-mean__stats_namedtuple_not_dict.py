"""Statistics kept in a NamedTuple 'for attribute access': a fine PyTree, but not the dict with
keys 'pred_mean' and 'calls' the task asks for (stats['calls'] fails on it)."""
# says: a Stats of 2 values where a dict

from typing import NamedTuple

import jax
import jax.numpy as jnp


class Stats(NamedTuple):
    pred_mean: jax.Array
    calls: jax.Array


def loss_with_stats(params, x, y, stats):
    pred = params["w"] * x + params["b"]
    new = Stats(pred_mean=0.9 * stats["pred_mean"] + 0.1 * pred.mean(), calls=stats["calls"] + 1)
    return jnp.mean(jnp.square(pred - y)), new


def loss_stats_and_grads(params, x, y, stats):
    return jax.value_and_grad(loss_with_stats, has_aux=True)(params, x, y, stats)
