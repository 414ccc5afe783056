# says: the meter after jitted call
import jax
import jax.numpy as jnp

count = 0     # the global-counter trap: plain Python, runs only while tracing


def new_meter():
    return jax.new_ref(jnp.zeros(2, jnp.float32))


def record(meter, batch):
    global count
    count += batch.size
    meter[0] = jnp.float32(count)
    meter[1] += jnp.sum(batch)
    return meter[1] / meter[0]
