# drill: 5 vmap-loops-examples
import jax.numpy as jnp


def batched_predict(params, xs):
    preds = jnp.stack([params["w"] * x + params["b"] for x in xs])
    return preds, params
