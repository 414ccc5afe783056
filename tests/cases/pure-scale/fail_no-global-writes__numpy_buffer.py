import numpy as np

_buf = np.zeros(1)


def scaled(x, scale):
    _buf[0] = scale  # writes into a module-level array
    return x * scale
