import numpy as np


def scaled(x, scale):
    return np.asarray(x) * scale  # NumPy cannot take a tracer
