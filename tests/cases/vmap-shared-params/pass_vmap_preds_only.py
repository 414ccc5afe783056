import jax


def batched_predict(params, xs):
    """Only the predictions depend on the example; the params are handed back as they are."""
    preds = jax.vmap(lambda x: params["w"] * x + params["b"])(xs)
    return preds, params
