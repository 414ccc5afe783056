"""The loss computed in float32 whatever the params' dtype (a cast on the way in), through
value_and_grad(has_aux=True) of a small wrapper; the stats are a new dict."""
import jax
import jax.numpy as jnp


def loss_with_stats(params, x, y, stats):
    p = jax.tree.map(lambda a: jnp.asarray(a, jnp.float32), params)
    pred = p["w"] * x + p["b"]
    new = {"pred_mean": 0.9 * stats["pred_mean"] + 0.1 * jnp.mean(pred), "calls": stats["calls"] + 1}
    return jnp.mean((pred - y) ** 2), new


def loss_stats_and_grads(params, x, y, stats):
    def objective(p):
        return loss_with_stats(p, x, y, stats)

    return jax.value_and_grad(objective, has_aux=True)(params)
