# With x64 on, calls is stepped by an int64 one: an int64 count, which holds any count a run reaches.
import jax

jax.config.update("jax_enable_x64", True)  # as JAX_ENABLE_X64=1 in the shell: the checks keep it
import jax.numpy as jnp  # noqa: E402


def loss_with_stats(params, x, y, stats):
    pred = params["w"] * x + params["b"]
    new_stats = {"pred_mean": 0.9 * stats["pred_mean"] + 0.1 * jnp.mean(pred), "calls": stats["calls"] + jnp.int64(1)}
    return jnp.mean(jnp.square(pred - y)), new_stats


def loss_stats_and_grads(params, x, y, stats):
    return jax.value_and_grad(loss_with_stats, has_aux=True)(params, x, y, stats)
