"""Unpacks stats by position: right while the keys come as pred_mean, calls; wrong in another order."""
# says: another order

import jax
import jax.numpy as jnp


def loss_with_stats(params, x, y, stats):
    pred = params["w"] * x + params["b"]
    pred_mean, calls = stats.values()
    return jnp.mean((pred - y) ** 2), {"pred_mean": 0.9 * pred_mean + 0.1 * jnp.mean(pred), "calls": calls + 1}


def loss_stats_and_grads(params, x, y, stats):
    return jax.value_and_grad(loss_with_stats, has_aux=True)(params, x, y, stats)
