"""The per-example model, turned into the batched one by a decorator."""
import functools

import jax


@functools.partial(jax.vmap, in_axes=[None, 0], out_axes=[0, None])
def batched_predict(params: dict, x: jax.Array) -> tuple:
    pred = params["w"] * x + params["b"]
    return pred, params


if __name__ == "__main__":
    import jax.numpy as jnp
    print(batched_predict({"w": jnp.float32(2.0), "b": jnp.float32(1.0)}, jnp.arange(3.0)))
