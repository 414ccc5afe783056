"""Counts calls in a class attribute of an imported class (string.Formatter)."""
# says: string.Formatter.loss_calls
import string

import jax
import jax.numpy as jnp


def loss_with_stats(params, x, y, stats):
    string.Formatter.loss_calls = getattr(string.Formatter, "loss_calls", 0) + 1
    pred = params["w"] * x + params["b"]
    new_stats = {"pred_mean": 0.9 * stats["pred_mean"] + 0.1 * jnp.mean(pred), "calls": stats["calls"] + 1}
    return jnp.mean((pred - y) ** 2), new_stats


def loss_stats_and_grads(params, x, y, stats):
    return jax.value_and_grad(loss_with_stats, has_aux=True)(params, x, y, stats)
