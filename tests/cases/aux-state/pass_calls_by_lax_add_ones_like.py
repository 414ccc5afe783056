# calls advanced by lax.add with a one of its own dtype, the stats rebuilt by a comprehension.
import jax
import jax.numpy as jnp
from jax import lax


def loss_with_stats(params, x, y, stats):
    pred = params["w"] * x + params["b"]
    step = {"pred_mean": lambda v: 0.9 * v + 0.1 * pred.mean(), "calls": lambda c: lax.add(c, jnp.ones_like(c))}
    return ((pred - y) ** 2).mean(), {k: step[k](v) for k, v in stats.items()}


def loss_stats_and_grads(params, x, y, stats):
    return jax.value_and_grad(loss_with_stats, has_aux=True)(params, x, y, stats)
