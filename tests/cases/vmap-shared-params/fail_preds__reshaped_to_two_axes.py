"""Reshapes the predictions to (N, -1) 'to make them 2-D': an example that is a scalar gets an
extra axis (N, 1) instead of (N,)."""
import jax


def predict(params, x):
    return params["w"] * x + params["b"], params


def batched_predict(params, xs):
    preds, same = jax.vmap(predict, in_axes=(None, 0), out_axes=(0, None))(params, xs)
    return preds.reshape(xs.shape[0], -1), same
