"""Caches the vmapped function by shape; the closure keeps the params of the first call."""
# says: earlier call

import jax

_BATCHED = {}


def batched_predict(params, xs):
    key = (xs.shape, tuple((k, jax.numpy.shape(v)) for k, v in sorted(params.items())))
    if key not in _BATCHED:
        _BATCHED[key] = jax.vmap(lambda x: params["w"] * x + params["b"])
    return _BATCHED[key](xs), params
