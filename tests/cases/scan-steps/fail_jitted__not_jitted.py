from jax import lax


def run_scan_jitted(init_state, steps):
    final, _ = lax.scan(lambda c, _: (c + 1, None), init_state, xs=None, length=steps)
    return final
