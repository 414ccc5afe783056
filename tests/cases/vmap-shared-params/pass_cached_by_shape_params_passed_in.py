"""Caches the vmapped function by shape too, but the params go in as an argument: nothing is frozen."""

import jax

_BATCHED = {}


def _predict(params, x):
    return params["w"] * x + params["b"], params


def batched_predict(params, xs):
    key = (xs.ndim, xs.shape)
    if key not in _BATCHED:
        _BATCHED[key] = jax.vmap(_predict, in_axes=(None, 0), out_axes=(0, None))
    return _BATCHED[key](params, xs)
