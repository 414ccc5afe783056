import jax
from jax import lax


class ScanRunner:
    """Keeps one compiled loop per number of steps."""

    def __init__(self):
        self._compiled = {}

    def _build(self, steps):
        def run(state):
            final, _ = lax.scan(lambda c, _: (c + 1, None), state, None, length=steps)
            return final
        return jax.jit(run)

    def __call__(self, init_state, steps):
        if steps not in self._compiled:
            self._compiled[steps] = self._build(steps)
        return self._compiled[steps](init_state)


run_scan_jitted = ScanRunner()
