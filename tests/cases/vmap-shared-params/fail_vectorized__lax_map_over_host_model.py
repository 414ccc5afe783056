# says: pure_callback inside a loop
# Wrong: a vmap runs (on the params' broadcast), but the predictions come from lax.map over a host function.
import jax
import jax.numpy as jnp
import numpy as np


def _host_predict(w, b, x):
    return np.asarray(w * x + b, np.float32)


def predict(params, x):
    w, b = params["w"], params["b"]
    spec = jax.ShapeDtypeStruct(jnp.broadcast_shapes(jnp.shape(w), jnp.shape(x)), jnp.float32)
    return jax.pure_callback(_host_predict, spec, w, b, x)


def batched_predict(params, xs):
    shared = jax.vmap(lambda p, _: p, in_axes=(None, 0), out_axes=None)(params, xs[:1])
    preds = jax.lax.map(lambda x: predict(shared, x), xs)
    return preds, shared
