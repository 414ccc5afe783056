"""Caches the vmapped closure by id(params): a new dict built where an old one was freed can get the
same id, and then the old params' closure answers."""
import jax

_BY_ID = {}


def batched_predict(params, xs):
    key = id(params)
    if key not in _BY_ID:
        w, b = params["w"], params["b"]
        _BY_ID[key] = jax.vmap(lambda x: w * x + b)
    return _BY_ID[key](xs), params
