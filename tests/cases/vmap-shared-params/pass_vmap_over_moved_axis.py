"""Maps over axis 0 of xs by moving it to the end first and mapping axis -1 (in_axes=-1): the same
examples, the batch axis put back first with out_axes=0."""
import jax
import jax.numpy as jnp


def batched_predict(params, xs):
    moved = jnp.moveaxis(xs, 0, -1)
    preds = jax.vmap(lambda x: params["w"] * x + params["b"], in_axes=-1, out_axes=0)(moved)
    return preds, params
