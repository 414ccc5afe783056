"""The stats from a second call of loss_with_stats after the gradient: the same numbers as has_aux,
but two forward passes (issue 39: the task names the mechanism, has_aux=True)."""
# says: second forward pass

import jax
import jax.numpy as jnp


def loss_with_stats(params, x, y, stats):
    """(loss, new_stats); stats is read, never written."""
    residual = params["w"] * x + params["b"] - y
    pred_mean = jnp.mean(residual + y)
    return (residual ** 2).mean(), {"calls": stats["calls"] + 1,
                                    "pred_mean": stats["pred_mean"] * 0.9 + pred_mean * 0.1}


def loss_stats_and_grads(params, x, y, stats):
    # the gradient of the loss alone, and the aux from a plain call: same numbers as has_aux
    grads = jax.grad(lambda p: loss_with_stats(p, x, y, stats)[0])(params)
    loss, new_stats = loss_with_stats(params, x, y, stats)
    return (loss, new_stats), grads
