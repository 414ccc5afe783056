# drill: 13 has-aux-pair
import jax
import jax.numpy as jnp


def loss_with_stats(params, x, y, stats):
    pred = params["w"] * x + params["b"]
    pred_mean = 0.9 * stats["pred_mean"] + 0.1 * pred.mean()
    new_stats = {"pred_mean": pred_mean, "calls": stats["calls"] + 1}
    return jnp.mean((pred - y) ** 2), new_stats


def loss_stats_and_grads(params, x, y, stats):
    return jax.value_and_grad(loss_with_stats)(params, x, y, stats)
