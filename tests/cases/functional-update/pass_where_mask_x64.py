import jax

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp  # noqa: E402


def update(state, index, value):
    buffer, writes = state["buffer"], state["writes"]
    n = buffer.shape[0]
    hit = jnp.arange(n) == jnp.mod(index, n)
    new_buffer = jnp.where(hit, jnp.asarray(value, buffer.dtype), buffer)
    return {"buffer": new_buffer, "writes": (writes + 1).astype(writes.dtype)}
