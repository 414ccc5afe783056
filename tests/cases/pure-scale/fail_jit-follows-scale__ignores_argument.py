import jax.numpy as jnp

config = {"scale": 2.0}


def scaled(x, scale):
    # Reads a module-level setting instead of the argument.
    return x * jnp.float32(config["scale"])
