import jax


def predict(params, x):
    pred = params["w"] * x + params["b"]
    return pred, {"w": params["w"], "b": params["b"] + 0.0 * pred}   # the "shared" output now depends on x


def batched_predict(params, xs):
    return jax.vmap(predict, in_axes=(None, 0), out_axes=(0, None))(params, xs)
