# says: io_callback inside a loop
# Wrong: each example is sent to the host with io_callback; vmap runs it one example at a time.
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback


def _line(w, b, x):
    return (np.asarray(w) * np.asarray(x) + np.asarray(b)).astype(np.float32)


def predict(params, x):
    w, b = params["w"], params["b"]
    out = jax.ShapeDtypeStruct(jnp.broadcast_shapes(w.shape, jnp.shape(x)), jnp.float32)
    return io_callback(_line, out, w, b, x), params


def batched_predict(params, xs):
    return jax.vmap(predict, in_axes=(None, 0), out_axes=(0, None))(params, xs)
