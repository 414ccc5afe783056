import jax


def predict(params, x):
    """One example: (prediction, params unchanged)."""
    return params["w"] * x + params["b"], params


def batched_predict(params, xs):
    """Every example of xs at once; params are shared."""
    # TODO: the params come back stacked N times. Which out_axes fix it?
    return jax.vmap(predict, in_axes=(None, 0))(params, xs)
