import jax
import jax.numpy as jnp


def loss_with_stats(params, x, y, stats):
    pred = params["w"] * x + params["b"]
    return jnp.mean((pred - y) ** 2), {"pred_mean": 0.9 * stats["pred_mean"] + 0.1 * pred.mean(),
                                       "calls": stats["calls"] + 1}


def loss_stats_and_grads(params, x, y, stats):
    def objective(p):
        loss, new_stats = loss_with_stats(p, x, y, stats)
        # Bug: the running statistic leaks into the differentiated value.
        return loss + new_stats["pred_mean"], (loss, new_stats)

    (_, aux), grads = jax.value_and_grad(objective, has_aux=True)(params)
    return aux, grads
