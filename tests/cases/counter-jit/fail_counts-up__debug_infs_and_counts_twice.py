# says: changes JAX's configuration (jax_debug_infs=True)
import jax

jax.config.update("jax_debug_infs", True)


def update_counter(count, increment):
    return count + 2, increment
