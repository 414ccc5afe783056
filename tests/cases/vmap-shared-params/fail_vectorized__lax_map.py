# says: loops over the examples with a scan
import jax


def batched_predict(params, xs):
    preds = jax.lax.map(lambda x: params["w"] * x + params["b"], xs)   # a sequential loop
    return preds, params
