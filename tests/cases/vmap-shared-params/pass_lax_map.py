import jax


def batched_predict(params, xs):
    # lax.map applies the model to each example in turn (a scan); params are closed over
    preds = jax.lax.map(lambda x: params["w"] * x + params["b"], xs)
    return preds, params
