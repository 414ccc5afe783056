import jax


def predict(params, x):
    return params["w"] * x + params["b"], params


def batched_predict(params, xs):
    preds, _ = jax.vmap(predict, in_axes=(None, 0), out_axes=(0, None))(params, xs)
    # Bug: the shared state is "refreshed" from the batch instead of handed back.
    return preds, {"w": params["w"], "b": preds.mean(axis=0)}
