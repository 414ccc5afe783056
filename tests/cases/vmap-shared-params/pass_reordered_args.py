import jax


def _one(x, w, b):
    return w * x + b


def batched_predict(params, xs):
    preds = jax.vmap(_one, in_axes=(0, None, None), out_axes=0)(xs, params["w"], params["b"])
    return preds, dict(params)
