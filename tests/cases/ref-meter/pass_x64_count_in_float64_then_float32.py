# With x64 on, the new count is worked out in float64 and stored back into the float32 meter.
import jax

jax.config.update("jax_enable_x64", True)  # as JAX_ENABLE_X64=1 in the shell: the checks keep it
import jax.numpy as jnp  # noqa: E402


def new_meter():
    return jax.new_ref(jnp.zeros(2, jnp.float32))


def record(meter, batch):
    old = meter[...].astype(jnp.float64)
    new = old + jnp.array([batch.size, jnp.sum(batch.astype(jnp.float64))])
    meter[...] = new.astype(jnp.float32)
    return meter[1] / meter[0]
