import jax
import jax.numpy as jnp


def predict(params, x):
    return jnp.multiply(params["w"], x) + params["b"], params


# in_axes / out_axes written as PyTrees matching the arguments and outputs.
batched_predict = jax.jit(jax.vmap(predict,
                                   in_axes=({"w": None, "b": None}, 0),
                                   out_axes=(0, {"w": None, "b": None})))
