import jax.numpy as jnp


class Scaler:
    """A stateless callable."""

    def __call__(self, x, scale):
        return jnp.asarray(x) * scale


scaled = Scaler()

if __name__ == "__main__":
    print(scaled(jnp.arange(3.0), 2.0))
