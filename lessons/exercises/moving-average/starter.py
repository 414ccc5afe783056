# TODO: the starting (sum, count). Think about the dtypes: what type
# does the state have after one step with a float32 value?
initial_state = (0.0, 0)


def update_moving_average(state, new_value):
    """Return ((new_sum, new_count), average) after adding new_value."""
    current_sum, count = state
    # TODO: add the value, count it; return the new state and the average.
    return (current_sum, count), current_sum
