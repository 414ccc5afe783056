import jax


def batched_predict(params, xs):
    preds = jax.vmap(lambda x: params["w"] * x + params["b"])(xs)
    return preds, params
