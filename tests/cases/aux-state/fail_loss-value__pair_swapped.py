import jax
import jax.numpy as jnp


def loss_with_stats(params, x, y, stats):
    pred = params["w"] * x + params["b"]
    new_stats = {"pred_mean": 0.9 * stats["pred_mean"] + 0.1 * pred.mean(), "calls": stats["calls"] + 1}
    return new_stats, jnp.mean((pred - y) ** 2)


def loss_stats_and_grads(params, x, y, stats):
    return jax.value_and_grad(lambda p: loss_with_stats(p, x, y, stats)[::-1], has_aux=True)(params)
