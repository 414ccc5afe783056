# says: changes JAX's configuration (jax_debug_nans=True)
import jax

jax.config.update("jax_debug_nans", True)


def update_counter(count, increment):
    return count + increment, increment
