import copy

import jax
import jax.numpy as jnp
from jax import lax


def loss_with_stats(params, x, y, stats):
    pred = lax.add(lax.mul(params["w"], x), jnp.broadcast_to(params["b"], x.shape))
    new_stats = copy.copy(stats)
    new_stats.update(pred_mean=0.9 * stats["pred_mean"] + 0.1 * pred.mean(), calls=stats["calls"] + 1)
    return jnp.mean((pred - y) * (pred - y)), new_stats


loss_stats_and_grads = jax.value_and_grad(loss_with_stats, has_aux=True)
