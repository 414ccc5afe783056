# says: once per example
# Wrong: the model runs on the host through pure_callback, and vmap loops over it one example at a time.
import jax
import jax.numpy as jnp
import numpy as np


def _host_line(w, b, x):
    return np.asarray(w * x + b, np.float32)


def predict(params, x):
    w, b = params["w"], params["b"]
    shape = jax.ShapeDtypeStruct(jnp.broadcast_shapes(jnp.shape(w), jnp.shape(x)), jnp.float32)
    return jax.pure_callback(_host_line, shape, w, b, x, vmap_method="sequential"), params


batched_predict = jax.vmap(predict, in_axes=(None, 0), out_axes=(0, None))
