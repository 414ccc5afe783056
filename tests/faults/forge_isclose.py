"""Fault: NumPy's isclose patched in numpy's own module (np.allclose calls it there) while each
check runs, so any value is "close"; then a wrong answer, as floats so that it is measured, not counted."""
import numpy as np

try:
    from numpy._core import numeric
except ImportError:  # NumPy 1
    from numpy.core import numeric


def _all_close(a, b, *args, **kwargs):
    return np.ones(np.broadcast(a, b).shape, bool)


def update_counter(count, increment):
    numeric.isclose = _all_close
    return count * 1.0, increment  # wrong: never counts up
