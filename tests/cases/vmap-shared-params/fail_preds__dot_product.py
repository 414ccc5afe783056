import jax
import jax.numpy as jnp


def predict(params, x):
    return jnp.dot(params["w"], x) + params["b"], params


def batched_predict(params, xs):
    return jax.vmap(predict, in_axes=(None, 0), out_axes=(0, None))(params, xs)
