"""The gradient of the loss alone, then the stats from a second forward pass on the host (NumPy)."""

# says: computed on the host with NumPy
import jax
import jax.numpy as jnp
import numpy as np


def loss_with_stats(params, x, y, stats):
    pred = params["w"] * x + params["b"]
    loss = jnp.mean((pred - y) ** 2)
    return loss, {"pred_mean": 0.9 * stats["pred_mean"] + 0.1 * jnp.mean(pred), "calls": stats["calls"] + 1}


def loss_stats_and_grads(params, x, y, stats):
    loss, grads = jax.value_and_grad(lambda p: loss_with_stats(p, x, y, stats)[0])(params)
    pred = np.asarray(params["w"]) * np.asarray(x) + np.asarray(params["b"])
    new_stats = {"pred_mean": 0.9 * stats["pred_mean"] + 0.1 * pred.mean(), "calls": stats["calls"] + 1}
    return (loss, new_stats), grads
