import numpy as np

# A float32 count works too, as long as the dtypes never change.
initial_state = (np.float32(0.0), np.float32(0.0))


def update_moving_average(state, new_value):
    s, n = state
    s = s + new_value
    n = n + np.float32(1.0)
    return (s, n), s / n
