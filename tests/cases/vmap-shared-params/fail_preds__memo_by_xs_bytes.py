"""Memoizes the predictions by the bytes of xs (a batch seen before is answered from the memo),
forgetting that params may have changed since."""
import jax
import numpy as np

_MEMO = {}


def batched_predict(params, xs):
    key = (np.asarray(xs).tobytes(), np.shape(xs))
    if key not in _MEMO:
        _MEMO[key] = jax.vmap(lambda p, x: p["w"] * x + p["b"], in_axes=(None, 0))(params, xs)
    return _MEMO[key], params
