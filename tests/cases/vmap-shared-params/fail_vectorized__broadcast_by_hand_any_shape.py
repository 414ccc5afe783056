# says: the batching is written by hand
import jax.numpy as jnp


def batched_predict(params, xs):
    w, b = params["w"], params["b"]
    extra = max(jnp.ndim(w), jnp.ndim(b)) - (xs.ndim - 1)  # axes an example lacks against the params
    x = xs.reshape(xs.shape[:1] + (1,) * max(extra, 0) + xs.shape[1:])
    return w * x + b, params
