"""Differentiates the loss alone and gets the pred mean by linearity, w * mean(x) + b: a second,
cheaper forward computation instead of the stats of the one pass."""
# says: second forward pass
import jax
import jax.numpy as jnp


def loss_with_stats(params, x, y, stats):
    pred = params["w"] * x + params["b"]
    loss = jnp.mean((pred - y) ** 2)
    return loss, {"pred_mean": 0.9 * stats["pred_mean"] + 0.1 * jnp.mean(pred), "calls": stats["calls"] + 1}


def loss_stats_and_grads(params, x, y, stats):
    loss, grads = jax.value_and_grad(lambda p: loss_with_stats(p, x, y, stats)[0])(params)
    mean_pred = params["w"] * x.mean() + params["b"]
    return (loss, {"pred_mean": 0.9 * stats["pred_mean"] + 0.1 * mean_pred, "calls": stats["calls"] + 1}), grads
