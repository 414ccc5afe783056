"""The gradient with has_aux discarded, then the stats recomputed by hand: a second forward pass."""
# says: second forward pass

import jax
import jax.numpy as jnp


def loss_with_stats(params, x, y, stats):
    pred = params["w"] * x + params["b"]
    new_stats = {"pred_mean": 0.9 * stats["pred_mean"] + 0.1 * jnp.mean(pred), "calls": stats["calls"] + 1}
    return jnp.mean((pred - y) ** 2), new_stats


def loss_stats_and_grads(params, x, y, stats):
    loss, grads = jax.value_and_grad(lambda p: loss_with_stats(p, x, y, stats)[0])(params)
    pred = params["w"] * x + params["b"]
    new_stats = {"pred_mean": 0.9 * stats["pred_mean"] + 0.1 * pred.mean(), "calls": stats["calls"] + 1}
    return (loss, new_stats), grads
