# drill: 7 traced-loop-length
import jax
from jax import lax


@jax.jit
def run_scan_jitted(init_state, steps):
    step = lambda c, _: (c + 1, None)  # noqa: E731
    final, _ = lax.scan(step, init_state, xs=None, length=steps)
    return final
