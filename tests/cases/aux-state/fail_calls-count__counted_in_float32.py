# The count is taken through float32 and cast back to int32: right for small counts, but float32
# holds every integer only up to 2**24, where calls stops increasing.
# says: float32
import jax
import jax.numpy as jnp


def loss_with_stats(params, x, y, stats):
    pred = params["w"] * x + params["b"]
    calls = (stats["calls"].astype(jnp.float32) + 1.0).astype(jnp.int32)
    return jnp.mean((pred - y) ** 2), {"pred_mean": 0.9 * stats["pred_mean"] + 0.1 * pred.mean(), "calls": calls}


def loss_stats_and_grads(params, x, y, stats):
    return jax.value_and_grad(loss_with_stats, has_aux=True)(params, x, y, stats)
