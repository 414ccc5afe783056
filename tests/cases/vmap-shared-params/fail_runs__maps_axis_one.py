# says: batched_predict(
import jax


def batched_predict(params, xs):
    f = jax.vmap(lambda p, x: (p["w"] * x + p["b"], p), in_axes=(None, 1), out_axes=(0, None))
    return f(params, xs)
