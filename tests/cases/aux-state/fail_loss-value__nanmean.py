"""Nanmean for the loss and the pred mean (a NaN target is skipped)."""
# says: NaN target
import jax
import jax.numpy as jnp


def loss_with_stats(params, x, y, stats):
    pred = params["w"] * x + params["b"]
    new_stats = {"pred_mean": 0.9 * stats["pred_mean"] + 0.1 * jnp.nanmean(pred), "calls": stats["calls"] + 1}
    return jnp.nanmean((pred - y) ** 2), new_stats


def loss_stats_and_grads(params, x, y, stats):
    return jax.value_and_grad(loss_with_stats, has_aux=True)(params, x, y, stats)
