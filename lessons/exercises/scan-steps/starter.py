import jax
from jax import lax


def add_one(carry, _):
    """Scan body: one step of the counter, no per-step output."""
    return carry + 1, None


@jax.jit
def run_scan_jitted(init_state, steps):
    """Add 1 to init_state, `steps` times."""
    # TODO: under jax.jit, `steps` is a tracer here, and scan's `length`
    # needs a concrete Python int. Make this work for any steps value.
    final, _ = lax.scan(add_one, init_state, xs=None, length=steps)
    return final
